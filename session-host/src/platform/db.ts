import { createDocClient, type DocClient } from "@atende/shared/node/dynamo/lean-doc.client";

/** The session host's DynamoDB port: the same lean transport as the API's (docs/adr/0054). */
export type Db = { doc: DocClient; tableName: string };

export const createDb = (opts: { tableName: string; endpoint?: string; region: string; transport?: "lean" | "sdk" }): Db => ({
  tableName: opts.tableName,
  doc: createDocClient({
    region: opts.region,
    transport: opts.transport,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  }),
});

/** A single-item write whose condition did not hold. */
export const isConditionFailure = (err: unknown) => err instanceof Error && err.name === "ConditionalCheckFailedException";

/**
 * Why each action of a cancelled transaction was refused ("None", "ConditionalCheckFailed",
 * "TransactionConflict", ...), in action order; read from the message when the SDK gave no reasons.
 */
export const cancellationCodes = (err: unknown): string[] => {
  if (!(err instanceof Error) || err.name !== "TransactionCanceledException") return [];
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  if (reasons?.length) return reasons.map((r) => r.Code ?? "None");
  const listed = /\[([^\]]*)\]\s*$/.exec(err.message)?.[1];
  return listed ? listed.split(",").map((c) => c.trim()) : [];
};

/**
 * Refused only because other work on the same item was in flight (a concurrent transaction, a heartbeat):
 * nothing is wrong, the same request succeeds a moment later.
 */
export const isTransientConflict = (err: unknown) => {
  if (!(err instanceof Error)) return false;
  if (err.name === "TransactionConflictException" || err.name === "TransactionInProgressException") return true;
  const codes = cancellationCodes(err);
  return codes.includes("TransactionConflict") && !codes.includes("ConditionalCheckFailed");
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `op` again after transient conflicts, with jittered exponential backoff (about 6 s in all). */
export const retryConflicts = async <T>(op: () => Promise<T>, opts: { attempts?: number; baseMs?: number; onRetry?: (err: unknown, attempt: number) => void } = {}): Promise<T> => {
  const attempts = opts.attempts ?? 10;
  const base = opts.baseMs ?? 25;
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= attempts || !isTransientConflict(err)) throw err;
      opts.onRetry?.(err, attempt);
      await sleep(Math.min(2_000, base * 2 ** (attempt - 1)) * (0.5 + Math.random()));
    }
  }
};
