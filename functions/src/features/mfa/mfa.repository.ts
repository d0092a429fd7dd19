import { createHash } from "node:crypto";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";

/**
 * A user's two-factor state, beside (not inside) the user item so the users feature never handles it:
 * `CO#<cid>` / `MFA#<userId>`. The TOTP secret is sealed (SecretBox); recovery codes are scrypt hashes in a string
 * set, so using one is an atomic `DELETE` conditioned on it still being there (single use even under a race).
 *
 * Sign-in challenges (`mfaToken`) are not tenant data (login knows only the email): `MFATOKEN#<sha256 of token>`,
 * TTL-deleted, expiry also checked on read. Only the hash is stored, so the table never holds a usable token.
 */
export type MfaRecord = {
  companyId: number;
  userId: number;
  enabled: boolean;
  /** sealed TOTP secret in use (null until enabled) */
  secret: string | null;
  /** sealed secret from the last setup, waiting for a first code to enable it */
  pendingSecret: string | null;
  /** the last TOTP step accepted: a code at or before it is refused (no replay) */
  lastStep: number;
  recoveryHashes: string[];
  enabledAt: string | null;
  updatedAt: string;
};

export type MfaChallengePurpose = "verify" | "setup";
export type MfaChallenge = {
  companyId: number;
  userId: number;
  email: string;
  purpose: MfaChallengePurpose;
  expiresAt: string;
};

const isConditionFailure = (e: unknown) => (e as { name?: string }).name === "ConditionalCheckFailedException";

const key = (companyId: number, userId: number) => ({ pk: companyPk(companyId), sk: `MFA#${pad(userId)}` });
const challengeKey = (token: string) => ({ pk: `MFATOKEN#${createHash("sha256").update(token).digest("base64url")}`, sk: "MFATOKEN" });

const toMfa = mapItem<MfaRecord>({
  companyId: true,
  userId: true,
  enabled: true,
  secret: true,
  pendingSecret: true,
  lastStep: true,
  recoveryHashes: true,
  enabledAt: true,
  updatedAt: true,
});
const toChallenge = mapItem<MfaChallenge>({ companyId: true, userId: true, email: true, purpose: true, expiresAt: true });

const fromItem = (item: Record<string, unknown>): MfaRecord => {
  const rec = toMfa(item);
  const hashes = item.recoveryHashes;
  return {
    ...rec,
    secret: rec.secret ?? null,
    pendingSecret: rec.pendingSecret ?? null,
    lastStep: Number(rec.lastStep ?? -1),
    recoveryHashes: hashes instanceof Set ? [...(hashes as Set<string>)] : Array.isArray(hashes) ? (hashes as string[]) : [],
    enabledAt: rec.enabledAt ?? null,
  };
};

/** One conditional update of a user's two-factor item: false when its condition did not hold (nothing changed). */
const conditionalUpdate = async (
  db: Db,
  companyId: number,
  userId: number,
  update: Required<Pick<UpdateCommandInput, "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues">>,
): Promise<boolean> => {
  try {
    await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: key(companyId, userId), ...update }));
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
};

export const createMfaRepository = (db: Db) => ({
  async find(companyId: number, userId: number): Promise<MfaRecord | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key(companyId, userId), ConsistentRead: true }));
    return out.Item ? fromItem(out.Item) : null;
  },

  /** A new pending secret (setup); an enabled secret stays in use until the new one is confirmed. */
  async putPending(companyId: number, userId: number, sealedSecret: string, now: Date): Promise<void> {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: key(companyId, userId),
        UpdateExpression: "SET #e = if_not_exists(#e, :f), #c = :c, #u = :u, #p = :p, #l = if_not_exists(#l, :neg), #at = :now",
        ExpressionAttributeNames: { "#e": "enabled", "#c": "companyId", "#u": "userId", "#p": "pendingSecret", "#l": "lastStep", "#at": "updatedAt" },
        ExpressionAttributeValues: { ":f": false, ":c": companyId, ":u": userId, ":p": sealedSecret, ":neg": -1, ":now": now.toISOString() },
      }),
    );
  },

  /**
   * Turns it on with the pending secret the code was checked against: conditional on that pending secret still
   * being the stored one (a second setup in between wins). Answers false when it was not.
   */
  async enable(companyId: number, userId: number, pendingSecret: string, step: number, recoveryHashes: string[], now: Date): Promise<boolean> {
    return conditionalUpdate(db, companyId, userId, {
      UpdateExpression: "SET #e = :t, #s = :p, #l = :step, #r = :r, #ea = :now, #at = :now REMOVE #p",
      ConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#e": "enabled", "#s": "secret", "#p": "pendingSecret", "#l": "lastStep", "#r": "recoveryHashes", "#ea": "enabledAt", "#at": "updatedAt" },
      ExpressionAttributeValues: { ":t": true, ":p": pendingSecret, ":step": step, ":r": new Set(recoveryHashes), ":now": now.toISOString() },
    });
  },

  /** Records an accepted TOTP step; false when that step (or a later one) was already used: a replay. */
  async useStep(companyId: number, userId: number, step: number, now: Date): Promise<boolean> {
    return conditionalUpdate(db, companyId, userId, {
      UpdateExpression: "SET #l = :step, #at = :now",
      ConditionExpression: "#e = :t AND #l < :step",
      ExpressionAttributeNames: { "#l": "lastStep", "#e": "enabled", "#at": "updatedAt" },
      ExpressionAttributeValues: { ":step": step, ":t": true, ":now": now.toISOString() },
    });
  },

  /** Spends one recovery code: false when it was already spent (by this call's twin, a moment ago). */
  async useRecoveryCode(companyId: number, userId: number, hash: string, now: Date): Promise<boolean> {
    return conditionalUpdate(db, companyId, userId, {
      UpdateExpression: "DELETE #r :set SET #at = :now",
      ConditionExpression: "#e = :t AND contains(#r, :hash)",
      ExpressionAttributeNames: { "#r": "recoveryHashes", "#e": "enabled", "#at": "updatedAt" },
      ExpressionAttributeValues: { ":set": new Set([hash]), ":hash": hash, ":t": true, ":now": now.toISOString() },
    });
  },

  /** Turns it off: the whole item goes (secret, pending secret, recovery hashes). */
  async remove(companyId: number, userId: number): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key(companyId, userId) }));
  },

  async putChallenge(token: string, challenge: MfaChallenge): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...challengeKey(token), entity: "mfaChallenge", ...challenge, ttl: Math.ceil(Date.parse(challenge.expiresAt) / 1000) + 60 },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  },

  /** The challenge behind a token, or null when unknown or expired (TTL deletion is lazy: expiry is checked here). */
  async findChallenge(token: string, now: Date): Promise<MfaChallenge | null> {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: challengeKey(token), ConsistentRead: true }));
    if (!out.Item) return null;
    const challenge = toChallenge(out.Item);
    return Date.parse(challenge.expiresAt) > now.getTime() ? challenge : null;
  },

  /** Ends a challenge once it has served; false when another request ended it first (a token serves once). */
  async consumeChallenge(token: string): Promise<boolean> {
    try {
      await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: challengeKey(token), ConditionExpression: "attribute_exists(pk)" }));
      return true;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  },
});
export type MfaRepository = ReturnType<typeof createMfaRepository>;
