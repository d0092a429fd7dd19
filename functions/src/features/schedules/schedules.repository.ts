import { randomBytes } from "node:crypto";
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Schedule, ScheduleStatus } from "@atende/shared/domain/schedules/schedule";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { AppError } from "../../platform/errors";

export type NewSchedule = Omit<Schedule, "id" | "createdAt" | "updatedAt" | "status" | "sentAt" | "errorMessage" | "ticketId">;

/** Admins list the whole company's schedules; everyone else only their own. */
export type ScheduleScope = { all: true } | { all: false; userId: number };
export type ScheduleFilter = { term: string; from?: string; to?: string };
/** A due schedule as the due index holds it (the whole item: the index projects every attribute). */
export type DueSchedule = Schedule & { version: number };

/**
 * Keys (docs/adr/0002-single-table.md):
 * - item: `CO#<companyId>` / `SCH#<id>`
 * - gsi1: the company's schedules by send time (admins' list and calendar)
 * - gsi2: one author's schedules by send time (attendants' list and calendar)
 * - gsi3: due index, only while PENDENTE: a few platform partitions sorted by send time, so the minute tick reads
 *   only what is due (like the ticket timers); the item leaves the index when it is sent or fails.
 */
const DUE_SHARDS = 4;
const key = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `SCH#${pad(id)}` });
const companyListPk = (companyId: number) => `${companyPk(companyId)}#SCH`;
const userListPk = (companyId: number, userId: number) => `${companyPk(companyId)}#SCH#U#${userId}`;
const dueShardPk = (shard: number) => `SCHEDULES_DUE#${shard}`;
const orderSk = (s: Pick<Schedule, "sendAt" | "id">) => `${s.sendAt}#${pad(s.id)}`;

const indexFields = (s: Schedule) => ({
  gsi1pk: companyListPk(s.companyId),
  gsi1sk: orderSk(s),
  gsi2pk: userListPk(s.companyId, s.userId),
  gsi2sk: orderSk(s),
  ...(s.status === "PENDENTE" ? { gsi3pk: dueShardPk(s.id % DUE_SHARDS), gsi3sk: `${s.sendAt}#${s.companyId}#${pad(s.id)}` } : {}),
  searchLc: `${s.contactName} ${s.contactNumber} ${s.body}`.toLowerCase(),
});

/** Stored beside the record and never part of it: keys, the search text, the version counter and the claim. */
const toSchedule = mapItem<Schedule>({
  id: true,
  companyId: true,
  userId: true,
  userName: true,
  contactId: true,
  contactName: true,
  contactNumber: true,
  whatsappId: true,
  body: true,
  sendAt: true,
  status: true,
  sentAt: true,
  errorMessage: true,
  ticketId: true,
  mediaPath: true,
  mediaName: true,
  template: true,
  createdAt: true,
  updatedAt: true,
});

/** Items read per page at most when a search filter drops items (keeps every page one bounded read). */
const READ_BUDGET = 400;

const isConditionFailed = (e: unknown) => (e as { name?: string }).name === "ConditionalCheckFailedException";

export const createSchedulesRepository = (db: Db) => {
  const T = db.tableName;
  const put = (s: Schedule, version: number, condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> }) =>
    new PutCommand({
      TableName: T,
      Item: { ...key(s.companyId, s.id), ...indexFields(s), entity: "schedule", ...s, version },
      ...(condition
        ? { ConditionExpression: condition.expression, ExpressionAttributeNames: condition.names, ExpressionAttributeValues: condition.values }
        : {}),
    });

  return {
    async create(input: NewSchedule, now: Date): Promise<Schedule> {
      const id = await nextId(db, input.companyId, "schedule");
      const at = now.toISOString();
      const s: Schedule = { ...input, id, status: "PENDENTE", sentAt: null, errorMessage: null, ticketId: null, createdAt: at, updatedAt: at };
      await db.doc.send(put(s, 1));
      return s;
    },

    async findById(companyId: number, id: number): Promise<(Schedule & { version: number; claimUntil: string | null }) | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: key(companyId, id), ConsistentRead: true }));
      if (!out.Item) return null;
      return { ...toSchedule(out.Item), version: Number(out.Item.version ?? 0), claimUntil: typeof out.Item.claimUntil === "string" ? out.Item.claimUntil : null };
    },

    /**
     * Replaces a schedule the caller read at `version` (a user's edit). ERR_NO_PERMISSION when the tick claimed it or
     * it changed meanwhile (it is being sent), ERR_NOT_FOUND when it is gone.
     */
    async replace(next: Schedule, version: number): Promise<void> {
      try {
        await db.doc.send(put(next, version + 1, { expression: "#v = :v AND attribute_not_exists(#claim)", names: { "#v": "version", "#claim": "claimToken" }, values: { ":v": version } }));
      } catch (e) {
        if (isConditionFailed(e)) throw new AppError("ERR_NO_PERMISSION", { reason: "SCHEDULE_BEING_SENT" });
        throw e;
      }
    },

    async remove(s: Pick<Schedule, "companyId" | "id">): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: key(s.companyId, s.id) }));
    },

    /** One page in send-time order (ascending), optionally within [from, to] and filtered by a lower-case term. */
    async page(companyId: number, scope: ScheduleScope, filter: ScheduleFilter, limit: number, cursor?: string): Promise<{ items: Schedule[]; next?: string }> {
      const index = scope.all ? "gsi1" : "gsi2";
      const pkValue = scope.all ? companyListPk(companyId) : userListPk(companyId, scope.userId);
      // sort keys are `<sendAt>#<id>`: `from` as is sorts before every key of that instant, `to#~` after
      const lower = cursor ?? filter.from;
      const upper = filter.to ? `${filter.to}#~` : undefined;
      const conditions = ["#pk = :pk"];
      const values: Record<string, unknown> = { ":pk": pkValue };
      if (lower !== undefined && upper !== undefined) {
        conditions.push("#sk BETWEEN :lo AND :hi");
        Object.assign(values, { ":lo": lower, ":hi": upper });
      } else if (lower !== undefined) {
        conditions.push("#sk > :lo");
        values[":lo"] = lower;
      } else if (upper !== undefined) {
        conditions.push("#sk <= :hi");
        values[":hi"] = upper;
      }
      const names: Record<string, string> = { "#pk": `${index}pk`, ...(conditions.length > 1 ? { "#sk": `${index}sk` } : {}) };
      if (filter.term) {
        names["#search"] = "searchLc";
        values[":term"] = filter.term;
      }
      const found: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      let read = 0;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            IndexName: index,
            KeyConditionExpression: conditions.join(" AND "),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ...(filter.term ? { FilterExpression: "contains(#search, :term)" } : {}),
            Limit: filter.term ? 100 : limit + 1,
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(out.Items ?? []));
        read += out.ScannedCount ?? 0;
        start = out.LastEvaluatedKey;
        if (start && found.length <= limit && read >= READ_BUDGET) {
          // the budget ran out before a full page: serve what matched, resume after the last item read
          return { items: found.map(toSchedule), next: `${String(start[`${index}sk`])}#` };
        }
      } while (start && found.length <= limit);
      // cursors end in `#`: the next page starts just after the last item served (BETWEEN is inclusive)
      const page = found.slice(0, limit);
      if (found.length > limit) {
        const last = page[page.length - 1]!;
        return { items: page.map(toSchedule), next: `${String(last[`${index}sk`])}#` };
      }
      return { items: page.map(toSchedule) };
    },

    /** Pending schedules whose time has come, oldest first, from every due shard. */
    async listDue(now: Date, limit = 100): Promise<DueSchedule[]> {
      const shards = await Promise.all(
        Array.from({ length: DUE_SHARDS }, (_, shard) =>
          db.doc.send(
            new QueryCommand({
              TableName: T,
              IndexName: "gsi3",
              KeyConditionExpression: "gsi3pk = :pk AND gsi3sk <= :now",
              ExpressionAttributeValues: { ":pk": dueShardPk(shard), ":now": `${now.toISOString()}#~` },
              Limit: limit,
            }),
          ),
        ),
      );
      return shards
        .flatMap((out) => out.Items ?? [])
        .map((item) => ({ ...toSchedule(item), version: Number(item.version ?? 0) }))
        .sort((a, b) => (a.sendAt < b.sendAt ? -1 : a.sendAt > b.sendAt ? 1 : 0));
    },

    /**
     * Takes a due schedule for sending: succeeds for one caller only (two overlapping ticks), and only if it is still
     * pending, due and unchanged since it was read. A claim left by a crashed tick expires after `leaseMs`.
     * Returns the claim token, or null when someone else has it or it no longer applies.
     */
    async claim(s: DueSchedule, now: Date, leaseMs: number): Promise<string | null> {
      const token = randomBytes(8).toString("hex");
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(s.companyId, s.id),
            UpdateExpression: "SET #claim = :token, #until = :until",
            ConditionExpression: "#st = :pending AND #v = :v AND #sendAt <= :now AND (attribute_not_exists(#claim) OR #until < :now)",
            ExpressionAttributeNames: { "#claim": "claimToken", "#until": "claimUntil", "#st": "status", "#v": "version", "#sendAt": "sendAt" },
            ExpressionAttributeValues: {
              ":token": token,
              ":until": new Date(now.getTime() + leaseMs).toISOString(),
              ":pending": "PENDENTE",
              ":v": s.version,
              ":now": now.toISOString(),
            },
          }),
        );
        return token;
      } catch (e) {
        if (isConditionFailed(e)) return null;
        throw e;
      }
    },

    /** Records the outcome of a claimed send and takes the schedule out of the due index. Null if the claim was lost. */
    async finish(
      s: DueSchedule,
      token: string,
      outcome: { status: Exclude<ScheduleStatus, "PENDENTE">; sentAt: string | null; errorMessage: string | null; ticketId: number | null },
      now: Date,
    ): Promise<Schedule | null> {
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: key(s.companyId, s.id),
            UpdateExpression: "SET #st = :st, #sentAt = :sentAt, #err = :err, #ticket = :ticket, #u = :u ADD #v :one REMOVE #claim, #until, gsi3pk, gsi3sk",
            ConditionExpression: "#claim = :token",
            ExpressionAttributeNames: {
              "#st": "status",
              "#sentAt": "sentAt",
              "#err": "errorMessage",
              "#ticket": "ticketId",
              "#u": "updatedAt",
              "#v": "version",
              "#claim": "claimToken",
              "#until": "claimUntil",
            },
            ExpressionAttributeValues: {
              ":st": outcome.status,
              ":sentAt": outcome.sentAt,
              ":err": outcome.errorMessage,
              ":ticket": outcome.ticketId,
              ":u": now.toISOString(),
              ":one": 1,
              ":token": token,
            },
            ReturnValues: "ALL_NEW",
          }),
        );
        return out.Attributes ? toSchedule(out.Attributes) : null;
      } catch (e) {
        if (isConditionFailed(e)) return null;
        throw e;
      }
    },
  };
};
export type SchedulesRepository = ReturnType<typeof createSchedulesRepository>;
