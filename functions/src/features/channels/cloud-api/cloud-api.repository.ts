import type { CloudApiConnectionView } from "@atende/shared/contracts/http/whatsapps";
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { MessageTemplate } from "@atende/shared/domain/cloud-api/message-templates";
import type { Db } from "../../../platform/db/client";
import { companyPk, pad } from "../../../platform/db/keys";
import { mapItem } from "../../../platform/db/map-item";
import { createChatWindow, createHookedSettings } from "../channel-store";
import { queryPrefix } from "../../../platform/db/query-prefix";
import type { CloudApiIds } from "../../../platform/channels/cloud-api/cloud-api-sender";

/**
 * A Cloud API connection's provider settings, kept beside the connection record (WHATSAPP#) in the company's
 * partition. Secrets (accessToken, appSecret) are stored sealed by the SecretBox, never in plain text.
 * The webhook URL carries `hookId` (random): a platform-level index item finds the connection (and its company)
 * without trusting anything in the request.
 */
export type CloudApiRecord = Omit<CloudApiConnectionView, "webhookUrl"> & {
  whatsappId: number;
  /** the webhook URL's opaque id (CAHOOK index) */
  hookId: string;
  createdAt: string;
  updatedAt: string;
};
export type StoredTemplate = MessageTemplate & { whatsappId: number; syncedAt: string };

/** Every Cloud API connection of the platform, for the daily template sync (small: one item per connection). */
const registryKey = (companyId: number, whatsappId: number) => ({ pk: "CLOUDAPI", sk: `C#${pad(companyId)}#${pad(whatsappId)}` });
const wamidKey = (companyId: number, wamid: string) => ({ pk: companyPk(companyId), sk: `CAWAMID#${wamid}` });
const oursKey = (companyId: number, ourId: string) => ({ pk: companyPk(companyId), sk: `CAOURS#${ourId}` });
const claimKey = (companyId: number, k: string) => ({ pk: companyPk(companyId), sk: `CACLAIM#${k}` });
const templatePrefix = (whatsappId: number) => `CATPL#${pad(whatsappId)}#`;
const templateKey = (companyId: number, whatsappId: number, name: string, language: string) => ({ pk: companyPk(companyId), sk: `${templatePrefix(whatsappId)}${name}#${language}` });

const toRecord = mapItem<CloudApiRecord>({
  whatsappId: true,
  phoneNumberId: true,
  wabaId: true,
  accessToken: true,
  appSecret: true,
  graphApiUrl: true,
  verifyToken: true,
  hookId: true,
  throughputPerSecond: true,
  ratingTemplate: true,
  inactivityTemplate: true,
  transferTemplate: true,
  phoneInfo: true,
  checkedAt: true,
  templatesSyncedAt: true,
  createdAt: true,
  updatedAt: true,
});
const toTemplate = mapItem<StoredTemplate>({
  id: true,
  name: true,
  language: true,
  category: true,
  status: true,
  header: true,
  body: true,
  footer: true,
  buttons: true,
  whatsappId: true,
  syncedAt: true,
});

const ID_TTL_SECONDS = 60 * 24 * 3600;
const ttlFrom = (now: Date, seconds: number) => Math.floor(now.getTime() / 1000) + seconds;

export const createCloudApiRepository = (db: Db) => {
  const T = db.tableName;
  // settings CLOUDAPI#<whatsappId>, webhook index CAHOOK#<hookId>, window CAWIN#<whatsappId>#<chatJid> (../channel-store.ts)
  const hooked = createHookedSettings(db, { settings: "CLOUDAPI", hook: "CAHOOK", entity: "cloudApi", hookEntity: "cloudApiHook" }, toRecord);
  const repo = {
    get: hooked.get,
    byHook: hooked.byHook,
    /** Writes the settings and (when new or changed) the webhook index item, and the platform's list entry. */
    async put(companyId: number, record: CloudApiRecord, previousHookId?: string | null): Promise<void> {
      await hooked.put(companyId, record, previousHookId);
      await db.doc.send(
        new PutCommand({ TableName: T, Item: { ...registryKey(companyId, record.whatsappId), entity: "cloudApiRegistry", companyId, whatsappId: record.whatsappId, templatesSyncedAt: record.templatesSyncedAt } }),
      );
    },
    async remove(companyId: number, whatsappId: number): Promise<void> {
      if (await hooked.remove(companyId, whatsappId)) await db.doc.send(new DeleteCommand({ TableName: T, Key: registryKey(companyId, whatsappId) }));
    },
    ...createChatWindow(db, { prefix: "CAWIN", entity: "cloudApiWindow" }),
    /** Every Cloud API connection with when its templates were last synced. */
    async listAll(): Promise<{ companyId: number; whatsappId: number; templatesSyncedAt: string | null }[]> {
      return (await queryPrefix(db, "CLOUDAPI", "C#")).map((i) => ({ companyId: Number(i.companyId), whatsappId: Number(i.whatsappId), templatesSyncedAt: (i.templatesSyncedAt as string | null) ?? null }));
    },
    async listTemplates(companyId: number, whatsappId: number): Promise<StoredTemplate[]> {
      return (await queryPrefix(db, companyPk(companyId), templatePrefix(whatsappId))).map(toTemplate);
    },
    /** Replaces the connection's templates with the synced list (templates gone from the WABA are removed). */
    async replaceTemplates(companyId: number, whatsappId: number, templates: MessageTemplate[], now: Date): Promise<void> {
      const syncedAt = now.toISOString();
      const current = await repo.listTemplates(companyId, whatsappId);
      const keep = new Set(templates.map((t) => `${t.name}#${t.language}`));
      const writes = [
        ...templates.map((t) => ({ PutRequest: { Item: { ...templateKey(companyId, whatsappId, t.name, t.language), entity: "cloudApiTemplate", ...t, whatsappId, syncedAt } } })),
        ...current.filter((t) => !keep.has(`${t.name}#${t.language}`)).map((t) => ({ DeleteRequest: { Key: templateKey(companyId, whatsappId, t.name, t.language) } })),
      ];
      for (let i = 0; i < writes.length; i += 25) await db.doc.send(new BatchWriteCommand({ RequestItems: { [T]: writes.slice(i, i + 25) } }));
    },
    async findTemplate(companyId: number, whatsappId: number, name: string, language: string): Promise<StoredTemplate | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: templateKey(companyId, whatsappId, name, language) }));
      return out.Item ? toTemplate(out.Item) : null;
    },
  };
  /** wamid ↔ our message id, and once-only send claims (docs/adr/0028). */
  const ids: CloudApiIds = {
    async claim(companyId, k, now) {
      try {
        await db.doc.send(
          new PutCommand({ TableName: T, Item: { ...claimKey(companyId, k), entity: "cloudApiClaim", ttl: ttlFrom(now, 7 * 24 * 3600) }, ConditionExpression: "attribute_not_exists(pk)" }),
        );
        return true;
      } catch (e) {
        if ((e as Error).name === "ConditionalCheckFailedException") return false;
        throw e;
      }
    },
    async link(companyId, ourId, wamid, now) {
      const ttl = ttlFrom(now, ID_TTL_SECONDS);
      await db.doc.send(
        new BatchWriteCommand({
          RequestItems: {
            [T]: [
              { PutRequest: { Item: { ...wamidKey(companyId, wamid), entity: "cloudApiId", ourId, ttl } } },
              { PutRequest: { Item: { ...oursKey(companyId, ourId), entity: "cloudApiId", wamid, ttl } } },
            ],
          },
        }),
      );
    },
    async wamidOf(companyId, ourId) {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: oursKey(companyId, ourId) }));
      return typeof out.Item?.wamid === "string" ? out.Item.wamid : null;
    },
    async ourIdOf(companyId, wamid) {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: wamidKey(companyId, wamid) }));
      return typeof out.Item?.ourId === "string" ? out.Item.ourId : null;
    },
  };
  return { ...repo, ids };
};
export type CloudApiRepository = ReturnType<typeof createCloudApiRepository>;
