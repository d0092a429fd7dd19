import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { AgentStatus } from "@atende/shared/domain/service-levels/distribution";
import type { PauseReason } from "@atende/shared/contracts/http/service-levels";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { queryPrefix } from "../../platform/db/query-prefix";
import { transact, TxConditionFailed, type TxItem } from "../../platform/db/transact";

/**
 * One item per attendant (docs/adr/0032): their status and their slot counter. Status and counter live together
 * so that an automatic assignment's conditional write checks both at once (online, and under capacity).
 */
export type AgentRecord = {
  companyId: number;
  userId: number;
  status: AgentStatus;
  pauseReasonId: number | null;
  since: string | null;
  /** own capacity (null: the company's default) */
  capacity: number | null;
  /** open tickets owned (moved in the tickets' own transactions; reconciled when the attendant comes online) */
  open: number;
  /** bumped by every counter move: a reconciliation only writes if no move happened since it counted */
  seq: number;
  lastAssignedAt: string | null;
  /**
   * Set when the system took the attendant offline because their last socket went away (docs/adr/0044): the status
   * (and pause reason) to give back when a socket of theirs connects again soon. Any other change clears it.
   */
  resumeStatus: AgentStatus | null;
  resumePauseReasonId: number | null;
};
/** A status write by the system: only if the item still holds `expect`; `resume` remembers what to give back. */
export type StatusWriteOptions = {
  expect?: { status: AgentStatus; pauseReasonId: number | null; resumeStatus?: AgentStatus | null };
  resume?: { status: AgentStatus; pauseReasonId: number | null };
};

const agentKey = (companyId: number, userId: number) => ({ pk: companyPk(companyId), sk: `AGENT#${pad(userId)}` });
const historyPk = (companyId: number, userId: number) => `${companyPk(companyId)}#AGH#${userId}`;
const reasonKey = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `PAUSE#${pad(id)}` });

const toAgent = (companyId: number, userId: number, i: Record<string, unknown> | undefined): AgentRecord => ({
  companyId,
  userId,
  status: (i?.status as AgentStatus) ?? "offline",
  pauseReasonId: (i?.pauseReasonId as number | null) ?? null,
  since: (i?.since as string | null) ?? null,
  capacity: (i?.capacity as number | null) ?? null,
  open: Number(i?.open ?? 0),
  seq: Number(i?.seq ?? 0),
  lastAssignedAt: (i?.lastAssignedAt as string | null) ?? null,
  resumeStatus: (i?.resumeStatus as AgentStatus | null) ?? null,
  resumePauseReasonId: (i?.resumePauseReasonId as number | null) ?? null,
});

export const createAgentsRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async get(companyId: number, userId: number): Promise<AgentRecord> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: agentKey(companyId, userId), ConsistentRead: true }));
      return toAgent(companyId, userId, out.Item);
    },
    async list(companyId: number): Promise<AgentRecord[]> {
      return (await queryPrefix(db, companyPk(companyId), "AGENT#")).map((i) => toAgent(companyId, Number(i.userId), i));
    },
    /**
     * The status and one history row, in one transaction. With `opts.expect` (a change by the system) the write
     * happens only while the item still holds that status: false when it did not (someone changed it meanwhile).
     */
    async setStatus(companyId: number, userId: number, status: AgentStatus, pauseReasonId: number | null, by: number | null, now: Date, opts: StatusWriteOptions = {}): Promise<boolean> {
      const at = now.toISOString();
      const names: Record<string, string> = { "#st": "status", "#pr": "pauseReasonId", "#since": "since", "#uid": "userId", "#rs": "resumeStatus", "#rp": "resumePauseReasonId" };
      const values: Record<string, unknown> = { ":st": status, ":pr": pauseReasonId, ":at": at, ":uid": userId, ":e": "agent" };
      let update = "SET #st = :st, #pr = :pr, #since = :at, #uid = :uid, entity = :e";
      if (opts.resume) {
        update += ", #rs = :rs, #rp = :rp";
        Object.assign(values, { ":rs": opts.resume.status, ":rp": opts.resume.pauseReasonId });
      } else update += " REMOVE #rs, #rp";
      let condition: string | undefined;
      if (opts.expect) {
        // an item that was never written reads as offline without a reason
        const conds = [opts.expect.status === "offline" ? "(attribute_not_exists(#st) OR #st = :xst)" : "#st = :xst"];
        values[":xst"] = opts.expect.status;
        if (opts.expect.pauseReasonId === null) conds.push("(attribute_not_exists(#pr) OR #pr = :null)");
        else {
          conds.push("#pr = :xpr");
          values[":xpr"] = opts.expect.pauseReasonId;
        }
        if (opts.expect.resumeStatus !== undefined) {
          if (opts.expect.resumeStatus === null) conds.push("(attribute_not_exists(#rs) OR #rs = :null)");
          else {
            conds.push("#rs = :xrs");
            values[":xrs"] = opts.expect.resumeStatus;
          }
        }
        if (conds.some((c) => c.includes(":null"))) values[":null"] = null;
        condition = conds.join(" AND ");
      }
      try {
        await transact(db, [
          {
            Update: {
              TableName: T,
              Key: agentKey(companyId, userId),
              UpdateExpression: update,
              ...(condition ? { ConditionExpression: condition } : {}),
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          { Put: { TableName: T, Item: { pk: historyPk(companyId, userId), sk: `${at}#${Math.random().toString(36).slice(2, 8)}`, entity: "agentStatus", userId, status, pauseReasonId, at, by } } },
        ]);
        return true;
      } catch (e) {
        if (e instanceof TxConditionFailed) return false;
        throw e;
      }
    },
    /** Forgets what the system would give back (the attendant chose offline themself, or signed out). */
    async clearResume(companyId: number, userId: number): Promise<void> {
      await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: agentKey(companyId, userId),
          UpdateExpression: "REMOVE #rs, #rp",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#rs": "resumeStatus", "#rp": "resumePauseReasonId" },
        }),
      ).catch((e: Error) => {
        if (e.name !== "ConditionalCheckFailedException") throw e;
      });
    },
    async setCapacity(companyId: number, userId: number, capacity: number | null): Promise<void> {
      await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: agentKey(companyId, userId),
          UpdateExpression: "SET #cap = :cap, #uid = :uid, entity = :e",
          ExpressionAttributeNames: { "#cap": "capacity", "#uid": "userId" },
          ExpressionAttributeValues: { ":cap": capacity, ":uid": userId, ":e": "agent" },
        }),
      );
    },
    /** Newest first. */
    async history(companyId: number, userId: number, limit: number) {
      const out = await db.doc.send(
        new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": historyPk(companyId, userId) }, ScanIndexForward: false, Limit: limit }),
      );
      return (out.Items ?? []).map((i) => ({ userId, status: i.status as AgentStatus, pauseReasonId: (i.pauseReasonId as number | null) ?? null, at: String(i.at), by: (i.by as number | null) ?? null }));
    },
    async removeAgent(companyId: number, userId: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: agentKey(companyId, userId) }));
    },

    // ---- the slot counter ----
    /** An owned open ticket came or went (the tickets' own transaction carries it). Creates the item if missing. */
    deltaItem(companyId: number, userId: number, delta: 1 | -1): TxItem {
      return {
        Update: {
          TableName: T,
          Key: agentKey(companyId, userId),
          UpdateExpression: "SET #uid = :uid, entity = :e ADD #open :d, #seq :one",
          ExpressionAttributeNames: { "#open": "open", "#seq": "seq", "#uid": "userId" },
          ExpressionAttributeValues: { ":d": delta, ":one": 1, ":uid": userId, ":e": "agent" },
        },
      };
    },
    /**
     * An automatic assignment's slot: taken only while the attendant is online (not paused, not offline) and under
     * `capacity` open tickets. Lost condition = the transaction (ticket included) does not happen.
     */
    takeSlotItem(companyId: number, userId: number, capacity: number, now: Date, ticketId: number): TxItem {
      return {
        Update: {
          TableName: T,
          Key: agentKey(companyId, userId),
          UpdateExpression: "SET #last = :now ADD #open :one, #seq :one",
          ConditionExpression: "#st = :online AND (attribute_not_exists(#open) OR #open < :cap)",
          ExpressionAttributeNames: { "#open": "open", "#seq": "seq", "#st": "status", "#last": "lastAssignedAt" },
          // the ticket id after the time orders assignments made within one millisecond (round robin's turns)
          ExpressionAttributeValues: { ":one": 1, ":online": "online", ":cap": capacity, ":now": `${now.toISOString()}#${pad(ticketId)}` },
        },
      };
    },
    /** Sets the counter to a counted value, only if no move happened since `seq` was read. */
    async reconcile(companyId: number, userId: number, open: number, seq: number): Promise<boolean> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: agentKey(companyId, userId),
            UpdateExpression: "SET #open = :n, #uid = :uid, entity = :e ADD #seq :one",
            ConditionExpression: seq === 0 ? "attribute_not_exists(#seq) OR #seq = :s" : "#seq = :s",
            ExpressionAttributeNames: { "#open": "open", "#seq": "seq", "#uid": "userId" },
            ExpressionAttributeValues: { ":n": open, ":s": seq, ":one": 1, ":uid": userId, ":e": "agent" },
          }),
        );
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },

    // ---- pause reasons ----
    async listReasons(companyId: number): Promise<PauseReason[]> {
      return (await queryPrefix(db, companyPk(companyId), "PAUSE#")).map((i) => ({ id: Number(i.id), name: String(i.name), createdAt: String(i.createdAt) }));
    },
    async findReason(companyId: number, id: number): Promise<PauseReason | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: reasonKey(companyId, id) }));
      return out.Item ? { id: Number(out.Item.id), name: String(out.Item.name), createdAt: String(out.Item.createdAt) } : null;
    },
    async createReason(companyId: number, name: string, now: Date): Promise<PauseReason> {
      const id = await nextId(db, companyId, "pauseReason");
      const r: PauseReason = { id, name, createdAt: now.toISOString() };
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...reasonKey(companyId, id), entity: "pauseReason", companyId, ...r } }));
      return r;
    },
    async renameReason(companyId: number, id: number, name: string): Promise<boolean> {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: T,
            Key: reasonKey(companyId, id),
            UpdateExpression: "SET #n = :n",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeNames: { "#n": "name" },
            ExpressionAttributeValues: { ":n": name },
          }),
        );
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
    async removeReason(companyId: number, id: number): Promise<boolean> {
      const out = await db.doc.send(new DeleteCommand({ TableName: T, Key: reasonKey(companyId, id), ReturnValues: "ALL_OLD" }));
      return !!out.Attributes;
    },
  };
};
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
