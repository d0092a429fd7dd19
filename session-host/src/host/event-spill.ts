import { BatchWriteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Db } from "../platform/db";
import type { SessionIdentity } from "../providers/provider.port";

export type SpilledEvent = { sk: string; event: InboundEvent; chatJid?: string };

const pkOf = (id: SessionIdentity) => `CO#${id.companyId}#WASPILL#${id.whatsappId}`;
/** kept a month at most: long enough for any outage, never forever */
const TTL_SECONDS = 30 * 86_400;
let seq = 0;

/**
 * Events WhatsApp already considers delivered (Baileys acknowledged them) that could not reach inbound.fifo:
 * the queue failed, or this host lost the connection's lease. They wait in the table, in order (sort key: time
 * and a per-process sequence), until a holder of the connection replays them. Not lease-conditional on
 * purpose: a host that just lost the lease must still be able to leave what it received for the new holder.
 */
export const createEventSpill = (db: Db, identity: SessionIdentity) => ({
  async put(event: InboundEvent, chatJid?: string) {
    const sk = `${String(Date.now()).padStart(15, "0")}#${String(++seq % 1e9).padStart(9, "0")}`;
    await db.doc.send(
      new PutCommand({ TableName: db.tableName, Item: { pk: pkOf(identity), sk, e: JSON.stringify(event), c: chatJid, ttl: Math.floor(Date.now() / 1000) + TTL_SECONDS } }),
    );
  },
  /** the oldest spilled events first */
  async oldest(limit = 25): Promise<SpilledEvent[]> {
    const out = await db.doc.send(
      new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pkOf(identity) }, Limit: limit, ConsistentRead: true }),
    );
    return (out.Items ?? []).map((i) => ({ sk: i.sk as string, event: JSON.parse(i.e as string) as InboundEvent, chatJid: (i.c as string | undefined) ?? undefined }));
  },
  async remove(sks: string[]) {
    for (let i = 0; i < sks.length; i += 25) {
      let items: Record<string, unknown>[] | undefined = sks.slice(i, i + 25).map((sk) => ({ DeleteRequest: { Key: { pk: pkOf(identity), sk } } }));
      for (let attempt = 0; items?.length && attempt < 5; attempt++) {
        const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: items as never } }));
        items = out.UnprocessedItems?.[db.tableName] as Record<string, unknown>[] | undefined;
      }
    }
  },
});
export type EventSpill = ReturnType<typeof createEventSpill>;
