import { gunzipSync, gzipSync } from "node:zlib";
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { foldText } from "@atende/shared/domain/bots/handover-keywords";
import type { Flow, FlowTrigger } from "@atende/shared/domain/flows/flow";
import type { FlowVersionSummary } from "@atende/shared/contracts/http/flows";
import type { Db } from "../../platform/db/client";
import { nextId } from "../../platform/db/counters";
import { companyPk, pad } from "../../platform/db/keys";
import { AppError } from "../../platform/errors";
import type { FlowCounter } from "./flow-engine";

/**
 * Flows in the single table (ADR 0083):
 * - the draft: company partition, `FLOW#<id>`; its graph gzipped (500 nodes of 4 KiB text would pass DynamoDB's
 *   400 KB item limit as JSON; gzipped it stays far below, and a graph still too large is refused);
 * - each published version: company partition, `FLOWVER#<id>#<version>`, written once (attribute_not_exists), never
 *   changed — a conversation keeps the version it started on;
 * - the company's keyword triggers: company partition, `FLOWTRIGGERS`, one map (one read per new conversation);
 * - the counters: their own partition per flow (a busy flow never heats the company's), one item per version, one
 *   ADD per turn for every node the turn touched.
 */
export type FlowGraph = Pick<Flow, "nodes" | "edges">;
export type StoredFlow = Omit<Flow, "nodes" | "edges"> &
  FlowGraph & {
    id: number;
    companyId: number;
    publishedVersion: number | null;
    versions: FlowVersionSummary[];
    archivedAt: string | null;
    createdAt: string;
    updatedAt: string;
  };
export type StoredFlowVersion = Flow & { flowId: number; companyId: number; version: number; publishedAt: string; publishedBy: number | null };

const MAX_FLOWS = 500;
/** gzipped graph bytes; the rest of the item is small */
export const MAX_GRAPH_BYTES = 300_000;
/** the draft keeps the newest summaries only (the versions themselves all stay) */
const MAX_VERSION_SUMMARIES = 50;

const draftKey = (companyId: number, id: number) => ({ pk: companyPk(companyId), sk: `FLOW#${pad(id)}` });
const versionKey = (companyId: number, id: number, v: number) => ({ pk: companyPk(companyId), sk: `FLOWVER#${pad(id)}#${pad(v, 6)}` });
const triggersKey = (companyId: number) => ({ pk: companyPk(companyId), sk: "FLOWTRIGGERS" });
const statsPk = (companyId: number, id: number) => `${companyPk(companyId)}#FLOWSTATS#${pad(id)}`;
const COUNTER_PREFIX = { entered: "e#", exited: "x#", dropped: "d#" } as const;

const packGraph = (g: FlowGraph) => {
  const buf = gzipSync(Buffer.from(JSON.stringify({ nodes: g.nodes, edges: g.edges })));
  if (buf.length > MAX_GRAPH_BYTES) throw new AppError("ERR_FLOW_INVALID", { errors: [{ code: "TOO_LARGE" }], warnings: [] });
  return buf;
};
const unpackGraph = (raw: unknown): FlowGraph => {
  const bytes = raw instanceof Uint8Array ? raw : new Uint8Array();
  return JSON.parse(gunzipSync(bytes).toString("utf8")) as FlowGraph;
};

const toFlow = (item: Record<string, unknown>): StoredFlow => ({
  id: Number(item.id),
  companyId: Number(item.companyId),
  name: String(item.name),
  description: String(item.description ?? ""),
  triggers: (item.triggers as FlowTrigger[] | undefined) ?? [],
  exitWords: (item.exitWords as string[] | undefined) ?? [],
  ...unpackGraph(item.graph),
  publishedVersion: item.publishedVersion == null ? null : Number(item.publishedVersion),
  versions: (item.versions as FlowVersionSummary[] | undefined) ?? [],
  archivedAt: (item.archivedAt as string | undefined) ?? null,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});
const toItem = (f: StoredFlow) => {
  const { nodes, edges, ...rest } = f;
  return { ...draftKey(f.companyId, f.id), entity: "flow", ...rest, nodeCount: nodes.length, graph: packGraph({ nodes, edges }) };
};
const toVersion = (item: Record<string, unknown>): StoredFlowVersion => ({
  flowId: Number(item.flowId),
  companyId: Number(item.companyId),
  version: Number(item.version),
  publishedAt: String(item.publishedAt),
  publishedBy: item.publishedBy == null ? null : Number(item.publishedBy),
  name: String(item.name),
  description: String(item.description ?? ""),
  triggers: (item.triggers as FlowTrigger[] | undefined) ?? [],
  exitWords: (item.exitWords as string[] | undefined) ?? [],
  ...unpackGraph(item.graph),
});

export type FlowNodeCounts = Record<string, { entered: number; exited: number; dropped: number }>;

export const createFlowsRepository = (db: Db) => {
  const T = db.tableName;
  const isCondition = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";
  return {
    async create(input: Omit<StoredFlow, "id" | "createdAt" | "updatedAt" | "publishedVersion" | "versions" | "archivedAt">, now: Date): Promise<StoredFlow> {
      const id = await nextId(db, input.companyId, "flow");
      const f: StoredFlow = { ...input, id, publishedVersion: null, versions: [], archivedAt: null, createdAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.doc.send(new PutCommand({ TableName: T, Item: toItem(f), ConditionExpression: "attribute_not_exists(pk)" }));
      return f;
    },
    async findById(companyId: number, id: number): Promise<StoredFlow | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: draftKey(companyId, id) }));
      return out.Item ? toFlow(out.Item) : null;
    },
    /** Replaces the draft if nobody changed it since `updatedAt` was read (ERR_NO_FLOW_FOUND when it is gone). */
    async replace(f: StoredFlow, expectedUpdatedAt: string): Promise<void> {
      try {
        await db.doc.send(
          new PutCommand({ TableName: T, Item: toItem(f), ConditionExpression: "attribute_exists(pk) AND updatedAt = :u", ExpressionAttributeValues: { ":u": expectedUpdatedAt } }),
        );
      } catch (e) {
        if (isCondition(e)) throw new AppError("ERR_NO_FLOW_FOUND");
        throw e;
      }
    },
    async remove(companyId: number, id: number): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: T, Key: draftKey(companyId, id) }));
    },
    /** The company's drafts (without their graphs' nodes: the list shows the count). */
    async listByCompany(companyId: number): Promise<(Omit<StoredFlow, "nodes" | "edges"> & { nodeCount: number })[]> {
      const found: (Omit<StoredFlow, "nodes" | "edges"> & { nodeCount: number })[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
            ProjectionExpression: "id, companyId, #n, description, triggers, exitWords, publishedVersion, versions, archivedAt, createdAt, updatedAt, nodeCount",
            ExpressionAttributeNames: { "#n": "name" },
            ExpressionAttributeValues: { ":pk": companyPk(companyId), ":p": "FLOW#" },
            ExclusiveStartKey: start,
          }),
        );
        for (const i of out.Items ?? [])
          found.push({
            ...toFlow({ ...i, graph: gzipSync(Buffer.from('{"nodes":[],"edges":[]}')) }),
            nodeCount: Number(i.nodeCount ?? 0),
          });
        start = out.LastEvaluatedKey;
      } while (start && found.length < MAX_FLOWS);
      return found.slice(0, MAX_FLOWS);
    },
    /** Writes an immutable version (fails if that number exists: two publishes at once, one wins). */
    async putVersion(v: StoredFlowVersion): Promise<void> {
      const { nodes, edges, ...rest } = v;
      try {
        await db.doc.send(
          new PutCommand({
            TableName: T,
            Item: { ...versionKey(v.companyId, v.flowId, v.version), entity: "flowVersion", ...rest, graph: packGraph({ nodes, edges }) },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        );
      } catch (e) {
        if (isCondition(e)) throw new AppError("ERR_FLOW_INVALID", { errors: [{ code: "VERSION_CONFLICT" }], warnings: [] });
        throw e;
      }
    },
    async findVersion(companyId: number, id: number, version: number): Promise<StoredFlowVersion | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: versionKey(companyId, id, version) }));
      return out.Item ? toVersion(out.Item) : null;
    },
    /** keyword (folded) -> flow id, for the company's published flows */
    async triggers(companyId: number): Promise<Record<string, number>> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: triggersKey(companyId), ProjectionExpression: "words" }));
      return (out.Item?.words as Record<string, number> | undefined) ?? {};
    },
    /** Sets this flow's keywords (others' stay); `[]` removes them. */
    async setTriggers(companyId: number, flowId: number, triggers: FlowTrigger[]): Promise<void> {
      const current = await this.triggers(companyId);
      const words: Record<string, number> = {};
      for (const [w, id] of Object.entries(current)) if (id !== flowId) words[w] = id;
      for (const t of triggers) {
        const w = foldText(t.value);
        if (w && words[w] === undefined) words[w] = flowId;
      }
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...triggersKey(companyId), entity: "flowTriggers", words } }));
    },
    /** One write per turn: every counter the turn touched, plus started/finished/dropped/running. */
    async count(companyId: number, flowId: number, version: number, counters: readonly FlowCounter[], totals: { started?: number; finished?: number; dropped?: number } = {}): Promise<void> {
      const sums = new Map<string, number>();
      for (const c of counters) sums.set(`${COUNTER_PREFIX[c.kind]}${c.nodeId}`, (sums.get(`${COUNTER_PREFIX[c.kind]}${c.nodeId}`) ?? 0) + 1);
      for (const [k, v] of Object.entries(totals)) if (v) sums.set(`t#${k}`, v);
      if (sums.size === 0) return;
      const names: Record<string, string> = {};
      const values: Record<string, number> = {};
      const parts: string[] = [];
      [...sums.entries()].forEach(([name, v], i) => {
        names[`#a${i}`] = name;
        values[`:v${i}`] = v;
        parts.push(`#a${i} :v${i}`);
      });
      await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: { pk: statsPk(companyId, flowId), sk: `V#${pad(version, 6)}` },
          UpdateExpression: `ADD ${parts.join(", ")}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    },
    /** The counters of every version (one query of the flow's own partition). */
    async stats(companyId: number, flowId: number): Promise<{ version: number; nodes: FlowNodeCounts; totals: Record<string, number> }[]> {
      const out: { version: number; nodes: FlowNodeCounts; totals: Record<string, number> }[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": statsPk(companyId, flowId) }, ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) {
          const nodes: FlowNodeCounts = {};
          const totals: Record<string, number> = {};
          for (const [k, v] of Object.entries(item)) {
            const kind = k.startsWith("e#") ? "entered" : k.startsWith("x#") ? "exited" : k.startsWith("d#") ? "dropped" : null;
            if (kind) (nodes[k.slice(2)] ??= { entered: 0, exited: 0, dropped: 0 })[kind] = Number(v);
            else if (k.startsWith("t#")) totals[k.slice(2)] = Number(v);
          }
          out.push({ version: Number(String(item.sk).slice(2)), nodes, totals });
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return out;
    },
    /** several drafts' published versions at once (unused ids are skipped) */
    async findMany(companyId: number, ids: number[]): Promise<StoredFlow[]> {
      if (ids.length === 0) return [];
      const out = await db.doc.send(new BatchGetCommand({ RequestItems: { [T]: { Keys: ids.slice(0, 100).map((id) => draftKey(companyId, id)) } } }));
      return (out.Responses?.[T] ?? []).map(toFlow);
    },
  };
};
export type FlowsRepository = ReturnType<typeof createFlowsRepository>;
export const versionSummaryLimit = MAX_VERSION_SUMMARIES;
