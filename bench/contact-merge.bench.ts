import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Message } from "@atende/shared/domain/messages/message";
import { createMessagesRepository } from "@atende/functions/features/inbox/messages/messages.repository";
import { createTenant } from "@atende/functions/testing/factories";
import type { TestApp } from "@atende/functions/testing/test-app";
import { startPlatform } from "../infra/local/src/platform";

/**
 * A contact merge (issue 34 point 6, docs/adr/0103): a contact with BENCH_MERGE_MESSAGES messages (default 5,000) on
 * one ticket, merged into another contact through POST /api/contacts/{id}/merge on the local platform (DynamoDB
 * Local). Figures: the dry run's and the merge's wall time, and what is left under the merged contact afterwards
 * (its conversation partition, its ticket pointers, its contact item: all must be 0) against what the kept contact
 * holds. The messages are written as the inbox writes them (its own item builder), in 25-item batches.
 */
const MESSAGES = Number(process.env.BENCH_MERGE_MESSAGES ?? 5_000);

export default async function contactMergeBench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "error", tick: false, env: { BCRYPT_ROUNDS: "4" } });
  try {
    const { db } = platform.container;
    const clock = { now: new Date(), advance() {}, set() {} };
    const call = async (method: string, path: string, opts: { body?: unknown; token?: string } = {}) => {
      const res = await fetch(`${platform.url}/api${path}`, {
        method,
        headers: { "content-type": "application/json", ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
    };
    const tenant = await createTenant({ container: platform.container, clock, call } as unknown as TestApp);
    const token = tenant.adminToken;
    const cid = tenant.company.id;
    const made = async (name: string, number: string) => {
      const res = await call("POST", "/contacts", { token, body: { name, number } });
      if (res.status !== 200) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
      return Number(res.body.id);
    };
    const fromId = await made("Marta Antiga", "5511988889999");
    const intoId = await made("Marta Nova", "5511977779999");
    const opened = await call("POST", "/tickets", { token, body: { contactId: fromId, status: "open" } });
    if (opened.status >= 300) throw new Error(`ticket: ${opened.status} ${JSON.stringify(opened.body)}`);
    const ticketId = Number(opened.body.id);

    const messagesRepo = createMessagesRepository(db);
    const t0 = Date.now() - MESSAGES * 1000;
    const items = Array.from({ length: MESSAGES }, (_, k) => {
      const m: Message = {
        id: `MB${k}`,
        companyId: cid,
        ticketId,
        contactId: fromId,
        body: `Mensagem ${k}`,
        fromMe: k % 2 === 1,
        mediaType: "chat",
        mediaUrl: null,
        mediaKey: null,
        mediaMimetype: null,
        mediaName: null,
        quotedMsgId: null,
        isDeleted: false,
        isEdited: false,
        isForwarded: false,
        ack: 3,
        error: null,
        reactions: [],
        participant: null,
        queueId: null,
        userId: null,
        createdAt: new Date(t0 + k * 1000).toISOString(),
        updatedAt: new Date(t0 + k * 1000).toISOString(),
      } as Message;
      return (messagesRepo.createItem(m) as { Put: { Item: Record<string, unknown> } }).Put.Item;
    });
    for (let i = 0; i < items.length; i += 100) {
      await Promise.all(
        [0, 25, 50, 75].map(async (o) => {
          let pending = items.slice(i + o, i + o + 25).map((Item) => ({ PutRequest: { Item } }));
          while (pending.length) {
            const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
            pending = (out.UnprocessedItems?.[db.tableName] ?? []) as typeof pending;
          }
        }),
      );
    }
    const count = async (pk: string, index?: "gsi2") => {
      let total = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({ TableName: db.tableName, ...(index ? { IndexName: index } : {}), KeyConditionExpression: `${index ? "gsi2pk" : "pk"} = :pk`, ExpressionAttributeValues: { ":pk": pk }, Select: "COUNT", ExclusiveStartKey: start }),
        );
        total += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
      return total;
    };
    const underFrom = async () => ({
      messages: await count(`CO#${cid}#CMSG#${fromId}`, "gsi2"),
      ticketPointers: await count(`CO#${cid}#CT#${fromId}`),
      contact: (await call("GET", `/contacts/${fromId}`, { token })).status === 200 ? 1 : 0,
    });
    const before = await underFrom();

    let started = performance.now();
    const dry = await call("POST", `/contacts/${fromId}/merge`, { token, body: { intoId, dryRun: true } });
    const dryRunMs = Math.round(performance.now() - started);
    started = performance.now();
    const merged = await call("POST", `/contacts/${fromId}/merge`, { token, body: { intoId } });
    const mergeMs = Math.round(performance.now() - started);
    if (merged.status !== 200) throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
    const after = await underFrom();
    const keptMessages = await count(`CO#${cid}#CMSG#${intoId}`, "gsi2");
    const leftBehind = after.messages + after.ticketPointers + after.contact;
    if (leftBehind !== 0 || keptMessages < MESSAGES) throw new Error(`left behind: ${JSON.stringify({ after, keptMessages })}`);
    return {
      messages: MESSAGES,
      dryRunMs,
      mergeMs,
      messagesPerSecond: Math.round((MESSAGES / mergeMs) * 1000),
      counts: merged.body.counts,
      dryRunCounts: (dry.body as { counts?: unknown }).counts,
      underMergedBefore: before,
      underMergedAfter: after,
      keptContactMessages: keptMessages,
      leftBehind,
      note: "DynamoDB Local on this machine; one UpdateItem per message, 16 in flight (contact-merge.repository.ts)",
    };
  } finally {
    await platform.stop();
  }
}
