import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";

/**
 * One pending reset per email: `RESET#<email>` / `RESET`, holding the code's hash, its expiry and the wrong
 * attempts so far; DynamoDB's TTL removes stale ones. Not tenant data (the company is unknown before login).
 * Request throttles: `THROTTLE#reset#<subject>#<window>`.
 */
export type PendingReset = { codeHash: string; expiresAt: string; attempts: number; companyId: number; userId: number };

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
    const { codeHash, expiresAt, attempts, companyId, userId } = out.Item;
    return { codeHash: String(codeHash), expiresAt: String(expiresAt), attempts: Number(attempts), companyId: Number(companyId), userId: Number(userId) };
  },
  async recordWrongAttempt(email: string): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(email),
        UpdateExpression: "ADD attempts :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":one": 1 },
      }),
    ).catch(() => undefined);
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
  /** Counts one request for a subject in a fixed window; returns the count so far. */
  async hit(subject: string, now: Date, windowSeconds: number): Promise<number> {
    const bucket = Math.floor(now.getTime() / 1000 / windowSeconds);
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: { pk: `THROTTLE#reset#${subject}#${bucket}`, sk: "THROTTLE" },
        UpdateExpression: "ADD #c :one SET #t = :ttl",
        ExpressionAttributeNames: { "#c": "count", "#t": "ttl" },
        ExpressionAttributeValues: { ":one": 1, ":ttl": (bucket + 2) * windowSeconds },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return Number(out.Attributes?.count ?? 0);
  },
});
export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
