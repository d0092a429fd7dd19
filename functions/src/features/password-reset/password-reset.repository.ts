import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";

/**
 * One pending reset per email: `RESET#<email>` / `RESET`, holding the code's hash and its expiry; DynamoDB's TTL
 * removes stale ones. Not tenant data (the company is unknown before login). The wrong guesses of a code and the
 * requests are counted by the attempt limiter (platform/limits, docs/adr/0064).
 */
export type PendingReset = { codeHash: string; expiresAt: string; companyId: number; userId: number };

const key = (email: string) => ({ pk: `RESET#${email.toLowerCase()}`, sk: "RESET" });

export const createPasswordResetRepository = (db: Db) => ({
  async save(email: string, reset: PendingReset): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...key(email), entity: "passwordReset", ...reset, ttl: Math.ceil(new Date(reset.expiresAt).getTime() / 1000) + 3600 },
      }),
    );
  },
  async find(email: string): Promise<PendingReset | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(email), ConsistentRead: true }));
    if (!out.Item) return null;
    const { codeHash, expiresAt, companyId, userId } = out.Item;
    return { codeHash: String(codeHash), expiresAt: String(expiresAt), companyId: Number(companyId), userId: Number(userId) };
  },
  /** Single use: the delete succeeds for exactly one caller holding the same code hash. */
  async consume(email: string, codeHash: string): Promise<boolean> {
    try {
      await db.doc.send(
        new DeleteCommand({
          TableName: db.tableName,
          Key: key(email),
          ConditionExpression: "codeHash = :h",
          ExpressionAttributeValues: { ":h": codeHash },
        }),
      );
      return true;
    } catch (e) {
      if ((e as Error).name === "ConditionalCheckFailedException") return false;
      throw e;
    }
  },
});
export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
