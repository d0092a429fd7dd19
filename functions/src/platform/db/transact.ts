import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "./client";

/** One action of a TransactWrite, in the document client's shape (repositories build these; services compose them). */
export type TxItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>[number];

/** Thrown when a transaction lost on a condition; `failed` holds the indexes of the items whose condition failed. */
export class TxConditionFailed extends Error {
  constructor(readonly failed: number[]) {
    super("transaction condition failed");
    this.name = "TxConditionFailed";
  }
}

/** Attempts of a transaction that lost only to another transaction on the same item (e.g. a shared counter). */
const CONFLICT_ATTEMPTS = 5;

/** A transaction cancelled only because another transaction held one of its items (nothing was written): it may be tried again. */
export const isTransactionConflict = (e: unknown): boolean => {
  const err = e as { name?: string; CancellationReasons?: { Code?: string }[] } | null;
  return (
    err?.name === "TransactionCanceledException" &&
    !!err.CancellationReasons?.some((r) => r.Code === "TransactionConflict") &&
    err.CancellationReasons.every((r) => !r.Code || r.Code === "None" || r.Code === "TransactionConflict")
  );
};

/**
 * Runs the items as one transaction; a lost condition becomes TxConditionFailed with the failing item indexes.
 * A cancellation caused only by a concurrent transaction on one of the items (`TransactionConflict`: nothing was
 * written) is retried after a short random pause (docs/adr/0036-ticket-list-keys.md: the list counters).
 */
export const transact = async (db: Db, items: TxItem[]): Promise<void> => {
  if (items.length === 0) return;
  for (let attempt = 1; ; attempt++) {
    try {
      await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (e) {
      const err = e as { name?: string; CancellationReasons?: { Code?: string }[] };
      if (err.name === "TransactionCanceledException" && err.CancellationReasons?.some((r) => r.Code === "ConditionalCheckFailed")) {
        throw new TxConditionFailed(err.CancellationReasons.flatMap((r, i) => (r.Code === "ConditionalCheckFailed" ? [i] : [])));
      }
      if (!isTransactionConflict(e) || attempt >= CONFLICT_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
};
