import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../db/client";
import { AppError } from "../errors";

/**
 * The one limiter of attempts (docs/adr/0064): sign-in, two-factor codes, reset codes, sign-up, the external API.
 *
 * An attempt TAKES its slot before the secret is checked, in one conditional `ADD` on `LIMIT#<key>` / `LIMIT`
 * (count + n ≤ limit, inside the window), so a hundred requests sent at once get `limit` slots between them and
 * the rest are refused before any of them is checked. A request that turns out not to be a failure (the right
 * password) gives its slot back. The window starts at the key's first counted attempt and lasts `windowSeconds`;
 * once it has passed, the first attempt after it starts the next window (a conditional reset that one caller wins).
 * Items expire by TTL. Not tenant data: the keys say what they count (an address, an email, a connection).
 */
export type LimitRule = { limit: number; windowSeconds: number };

/** A taken slot: `release` gives it back (at most once; a slot of a window that has since been reset is dropped). */
export type Slot = { release(): Promise<void> };

const TTL_SLACK_SECONDS = 60;
const isConditionFailure = (e: unknown) => (e as { name?: string }).name === "ConditionalCheckFailedException";

/** ERR_TOO_MANY_ATTEMPTS (429) with the seconds until the window ends: the HTTP answer's Retry-After. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError("ERR_TOO_MANY_ATTEMPTS", { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)) });

export const createAttemptLimiter = (db: Db, clock: () => Date) => {
  const itemKey = (key: string) => ({ pk: `LIMIT#${key}`, sk: "LIMIT" });

  const slotOf = (key: string, n: number, windowEnd: number): Slot => {
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        try {
          await db.doc.send(
            new UpdateCommand({
              TableName: db.tableName,
              Key: itemKey(key),
              UpdateExpression: "ADD #c :neg",
              ConditionExpression: "#e = :end AND #c >= :n",
              ExpressionAttributeNames: { "#c": "count", "#e": "windowEnd" },
              ExpressionAttributeValues: { ":neg": -n, ":end": windowEnd, ":n": n },
            }),
          );
        } catch (e) {
          if (!isConditionFailure(e)) throw e;
        }
      },
    };
  };

  /** Takes `n` slots of `key`, or throws ERR_TOO_MANY_ATTEMPTS (data.retryAfter: seconds) when fewer are left. */
  const take = async (key: string, rule: LimitRule, n = 1): Promise<Slot> => {
    const windowMs = rule.windowSeconds * 1000;
    if (n > rule.limit) throw tooManyAttempts(rule.windowSeconds);
    // a lost race with another caller's reset (or a TTL deletion) is tried again; a few rounds are plenty
    for (let round = 0; round < 5; round++) {
      const now = clock().getTime();
      const end = now + windowMs;
      const ttl = Math.ceil(end / 1000) + TTL_SLACK_SECONDS;
      try {
        const out = await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: itemKey(key),
            UpdateExpression: "SET #e = if_not_exists(#e, :end), #t = if_not_exists(#t, :ttl) ADD #c :n",
            ConditionExpression: "attribute_not_exists(#c) OR (#e > :now AND #c <= :max)",
            ExpressionAttributeNames: { "#c": "count", "#e": "windowEnd", "#t": "ttl" },
            ExpressionAttributeValues: { ":end": end, ":ttl": ttl, ":n": n, ":now": now, ":max": rule.limit - n },
            ReturnValues: "UPDATED_NEW",
          }),
        );
        return slotOf(key, n, Number(out.Attributes?.windowEnd ?? end));
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
      const current = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: itemKey(key), ConsistentRead: true }));
      if (!current.Item) continue;
      const windowEnd = Number(current.Item.windowEnd);
      if (windowEnd > now) {
        // a window another caller opened between our update and this read may still have room: try it again
        if (Number(current.Item.count) + n <= rule.limit) continue;
        throw tooManyAttempts((windowEnd - now) / 1000);
      }
      // the window has passed: start the next one with this attempt (only one caller replaces a given window)
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: itemKey(key),
            UpdateExpression: "SET #c = :n, #e = :end, #t = :ttl",
            ConditionExpression: "#e = :old",
            ExpressionAttributeNames: { "#c": "count", "#e": "windowEnd", "#t": "ttl" },
            ExpressionAttributeValues: { ":n": n, ":end": end, ":ttl": ttl, ":old": current.Item.windowEnd },
          }),
        );
        return slotOf(key, n, end);
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
    }
    throw tooManyAttempts(1);
  };

  return {
    take,

    /**
     * One slot of each key, or none: when any is refused the others taken are given back and the refusal (the
     * longest wait) is thrown. The returned slot gives back all of them.
     */
    async takeAll(requests: { key: string; rule: LimitRule }[]): Promise<Slot> {
      const results = await Promise.allSettled(requests.map((r) => take(r.key, r.rule)));
      const taken = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      if (refused.length) {
        await Promise.all(taken.map((s) => s.release()));
        const waits = refused.map((e) => (e instanceof AppError ? Number((e.data as { retryAfter?: number } | undefined)?.retryAfter) : NaN));
        const known = waits.filter((w) => Number.isFinite(w));
        throw known.length ? tooManyAttempts(Math.max(...known)) : refused[0];
      }
      return {
        async release() {
          await Promise.all(taken.map((s) => s.release()));
        },
      };
    },

    /** Forgets a key's window (a completed sign-in clears the account's failures). */
    async reset(key: string): Promise<void> {
      await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: itemKey(key) }));
    },
  };
};
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
