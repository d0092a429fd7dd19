import { createHash } from "node:crypto";
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../platform/db/client";
import { companyPk, pad } from "../../platform/db/keys";
import { mapItem } from "../../platform/db/map-item";
import { queryPrefix } from "../../platform/db/query-prefix";

/** A browser's push subscription, per user and device (docs/adr/0097). `lang`: the device's language for the texts. */
export type PushSubscriptionRecord = {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: "pt" | "en" | "es";
  createdAt: string;
};

/** What a user wants pushed (profile dialog); quiet hours "HH:MM" in the company's time zone, both or neither. */
export type PushPreferences = {
  waiting: boolean;
  message: boolean;
  transfer: boolean;
  chat: boolean;
  announcement: boolean;
  quietStart: string | null;
  quietEnd: string | null;
};
export const DEFAULT_PUSH_PREFERENCES: PushPreferences = { waiting: true, message: true, transfer: true, chat: true, announcement: true, quietStart: null, quietEnd: null };

/** An endpoint is a long URL: its key is a hash (the endpoint itself is stored in the item). */
export const endpointKey = (endpoint: string) => createHash("sha256").update(endpoint).digest("base64url").slice(0, 32);
const subPrefix = (userId: number) => `PUSHSUB#${pad(userId)}#`;
const subKey = (companyId: number, userId: number, endpoint: string) => ({ pk: companyPk(companyId), sk: `${subPrefix(userId)}${endpointKey(endpoint)}` });
/** which user of the company holds an endpoint (a browser shared by two users of one company keeps the last one's) */
const ownerKey = (companyId: number, endpoint: string) => ({ pk: companyPk(companyId), sk: `PUSHEP#${endpointKey(endpoint)}` });
const prefKey = (companyId: number, userId: number) => ({ pk: companyPk(companyId), sk: `PUSHPREF#${pad(userId)}` });

const toSubscription = mapItem<PushSubscriptionRecord>({ userId: true, endpoint: true, p256dh: true, auth: true, lang: true, createdAt: true });

export const createPushRepository = (db: Db) => {
  const T = db.tableName;
  return {
    async listByUser(companyId: number, userId: number): Promise<PushSubscriptionRecord[]> {
      return (await queryPrefix(db, companyPk(companyId), subPrefix(userId))).map(toSubscription);
    },
    async find(companyId: number, userId: number, endpoint: string): Promise<PushSubscriptionRecord | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: subKey(companyId, userId, endpoint) }));
      return out.Item ? toSubscription(out.Item) : null;
    },
    /** Stores the subscription and makes the user its only holder in the company; answers the previous holder, if another. */
    async put(companyId: number, sub: PushSubscriptionRecord): Promise<number | null> {
      const owner = await db.doc.send(new GetCommand({ TableName: T, Key: ownerKey(companyId, sub.endpoint) }));
      const previous = owner.Item ? Number(owner.Item.userId) : null;
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...subKey(companyId, sub.userId, sub.endpoint), entity: "pushSubscription", ...sub } }));
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...ownerKey(companyId, sub.endpoint), entity: "pushEndpoint", userId: sub.userId } }));
      if (previous !== null && previous !== sub.userId) await db.doc.send(new DeleteCommand({ TableName: T, Key: subKey(companyId, previous, sub.endpoint) }));
      return previous !== sub.userId ? previous : null;
    },
    /** Removes the user's subscription of `endpoint`; false when the user has none (another user's stays). */
    async remove(companyId: number, userId: number, endpoint: string): Promise<boolean> {
      const out = await db.doc.send(new DeleteCommand({ TableName: T, Key: subKey(companyId, userId, endpoint), ReturnValues: "ALL_OLD" }));
      if (!out.Attributes) return false;
      await db.doc
        .send(new DeleteCommand({ TableName: T, Key: ownerKey(companyId, endpoint), ConditionExpression: "userId = :u", ExpressionAttributeValues: { ":u": userId } }))
        .catch(() => undefined);
      return true;
    },
    async preferences(companyId: number, userId: number): Promise<PushPreferences> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: prefKey(companyId, userId) }));
      const i = out.Item ?? {};
      const pick = (k: keyof PushPreferences) => (k in i ? i[k] : DEFAULT_PUSH_PREFERENCES[k]);
      return {
        waiting: pick("waiting") as boolean,
        message: pick("message") as boolean,
        transfer: pick("transfer") as boolean,
        chat: pick("chat") as boolean,
        announcement: pick("announcement") as boolean,
        quietStart: pick("quietStart") as string | null,
        quietEnd: pick("quietEnd") as string | null,
      };
    },
    async setPreferences(companyId: number, userId: number, prefs: PushPreferences): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...prefKey(companyId, userId), entity: "pushPreferences", ...prefs } }));
    },
  };
};
export type PushRepository = ReturnType<typeof createPushRepository>;
