import { DeleteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "@atende/shared/table/table-definition";
import { SESSION_HOST_REGISTRY_PK, SESSION_HOST_REGISTRY_TTL_SECONDS, sessionHostSchema, type SessionHostResponse } from "@atende/shared/contracts/http/session-hosts";
import type { Db } from "../platform/db";

export type RegistryItem = SessionHostResponse;

/**
 * The session hosts' registry (docs/adr/0070): one item per live host in the platform partition
 * `SESSIONHOST#REGISTRY` (sort key = hostId), rewritten on every registry heartbeat, with a TTL so a host that
 * vanished leaves nothing behind for long. Other hosts read it to know who is alive, how loaded each is, and
 * whose connections to take when a host's heartbeat goes stale. `GET /api/session-hosts` answers it.
 */
export const createHostRegistry = (db: Db) => ({
  async put(item: RegistryItem): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { pk: SESSION_HOST_REGISTRY_PK, sk: item.hostId, ...item, [TTL_ATTRIBUTE]: Math.floor(item.lastHeartbeatAt / 1000) + SESSION_HOST_REGISTRY_TTL_SECONDS },
      }),
    );
  },
  async list(): Promise<RegistryItem[]> {
    const out: RegistryItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.doc.send(
        new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": SESSION_HOST_REGISTRY_PK }, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      for (const raw of page.Items ?? []) {
        const parsed = sessionHostSchema.safeParse(raw);
        if (parsed.success) out.push(parsed.data);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return out;
  },
  async remove(hostId: string): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: { pk: SESSION_HOST_REGISTRY_PK, sk: hostId } }));
  },
});
export type HostRegistry = ReturnType<typeof createHostRegistry>;
