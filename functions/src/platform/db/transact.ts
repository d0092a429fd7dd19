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

/** Runs the items as one transaction; a lost condition becomes TxConditionFailed with the failing item indexes. */
export const transact = async (db: Db, items: TxItem[]): Promise<void> => {
  if (items.length === 0) return;
  try {
    await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (e) {
    const err = e as { name?: string; CancellationReasons?: { Code?: string }[] };
    if (err.name === "TransactionCanceledException" && err.CancellationReasons?.some((r) => r.Code === "ConditionalCheckFailed")) {
      throw new TxConditionFailed(err.CancellationReasons.flatMap((r, i) => (r.Code === "ConditionalCheckFailed" ? [i] : [])));
    }
    throw e;
  }
};
