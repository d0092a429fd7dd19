import { DeleteCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import type { TxItem } from "../../../platform/db/transact";

/** sla: a cycle's SLA clock turns amber or falls due (features/sla) */
export type TimerKind = "expire" | "transfer" | "sla";
export type TicketTimer = { companyId: number; ticketId: number; kind: TimerKind; dueAt: string };

/**
 * Due-time index for the minute tick (docs/adr/0005-ticket-keys.md): a few platform partitions sorted by due time,
 * so the tick reads only what is due, never the tickets. Timers are hints: the job re-checks the ticket and
 * drops a timer that no longer applies (a later message, a status change).
 */
const SHARDS = 4;
const shardPk = (shard: number) => `TIMERS#${shard}`;
const sk = (t: TicketTimer) => `${t.dueAt}#${t.companyId}#${t.ticketId}#${t.kind}`;

export const createTicketTimersRepository = (db: Db) => ({
  /** The timer as an item of a ticket's own transaction (SLA wake-ups stored with the change that set them). */
  item(timer: TicketTimer): TxItem {
    return { Put: { TableName: db.tableName, Item: { pk: shardPk(timer.ticketId % SHARDS), sk: sk(timer), entity: "ticketTimer", ...timer } } };
  },
  async schedule(timer: TicketTimer): Promise<void> {
    await db.doc.send(
      new PutCommand({ TableName: db.tableName, Item: { pk: shardPk(timer.ticketId % SHARDS), sk: sk(timer), entity: "ticketTimer", ...timer } }),
    );
  },
  async listDue(now: Date, limit = 200): Promise<TicketTimer[]> {
    const all = await Promise.all(
      Array.from({ length: SHARDS }, (_, shard) =>
        db.doc.send(
          new QueryCommand({
            TableName: db.tableName,
            KeyConditionExpression: "pk = :pk AND sk <= :now",
            ExpressionAttributeValues: { ":pk": shardPk(shard), ":now": `${now.toISOString()}#~` },
            Limit: limit,
          }),
        ),
      ),
    );
    return all.flatMap((out) => (out.Items ?? []).map((i) => ({ companyId: Number(i.companyId), ticketId: Number(i.ticketId), kind: i.kind as TimerKind, dueAt: String(i.dueAt) })));
  },
  async remove(timer: TicketTimer): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: { pk: shardPk(timer.ticketId % SHARDS), sk: sk(timer) } }));
  },
});
export type TicketTimersRepository = ReturnType<typeof createTicketTimersRepository>;
