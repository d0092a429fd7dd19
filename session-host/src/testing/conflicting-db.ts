import { TransactionCanceledException, TransactionConflictException } from "@aws-sdk/client-dynamodb";
import type { Db } from "../platform/db";

type Keyed = { Key?: Record<string, unknown>; Item?: Record<string, unknown> };
const itemKey = (k: Keyed | undefined) => {
  const src = k?.Key ?? k?.Item;
  return src ? `${String(src.pk)}|${String(src.sk)}` : undefined;
};

/**
 * The real DynamoDB refuses work on an item that an in-flight transaction touches: another transaction is
 * cancelled with reason "TransactionConflict" for that item, a single-item write fails with
 * TransactionConflictException. DynamoDB Local serialises every request, so it never does. This wrapper puts
 * that rule back in front of DynamoDB Local, with the SDK's own error classes, so tests meet the conflicts
 * production meets. `conflicts` counts the refusals it made.
 */
export const withTransactionConflicts = (db: Db) => {
  const inFlight = new Map<string, number>();
  const stats = { conflicts: 0 };
  const send = db.doc.send.bind(db.doc) as (cmd: unknown) => Promise<unknown>;
  const wrapped = async (cmd: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = cmd.constructor.name;
    let keys: (string | undefined)[] = [];
    if (name === "TransactWriteCommand") {
      const items = (cmd.input.TransactItems ?? []) as Record<string, Keyed>[];
      keys = items.map((t) => itemKey(t.Put ?? t.Delete ?? t.Update ?? t.ConditionCheck));
      const busy = keys.map((k) => (k && inFlight.has(k) ? "TransactionConflict" : "None"));
      if (busy.includes("TransactionConflict")) {
        stats.conflicts++;
        throw new TransactionCanceledException({
          message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${busy.join(", ")}]`,
          $metadata: {},
          CancellationReasons: busy.map((Code) => (Code === "None" ? { Code } : { Code, Message: "Transaction is ongoing for the item" })),
        });
      }
    } else if (name === "UpdateCommand" || name === "PutCommand" || name === "DeleteCommand") {
      const k = itemKey(cmd.input as Keyed);
      if (k && inFlight.has(k)) {
        stats.conflicts++;
        throw new TransactionConflictException({ message: "Transaction is ongoing for the item", $metadata: {} });
      }
    }
    // only transactions hold items while in flight
    if (name !== "TransactWriteCommand") return send(cmd);
    for (const k of keys) if (k) inFlight.set(k, (inFlight.get(k) ?? 0) + 1);
    try {
      return await send(cmd);
    } finally {
      for (const k of keys) {
        if (!k) continue;
        const n = (inFlight.get(k) ?? 1) - 1;
        if (n <= 0) inFlight.delete(k);
        else inFlight.set(k, n);
      }
    }
  };
  const doc = new Proxy(db.doc, { get: (target, prop, recv) => (prop === "send" ? wrapped : Reflect.get(target, prop, recv)) });
  return { db: { tableName: db.tableName, doc } as Db, stats };
};
