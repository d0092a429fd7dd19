import type { Db } from "../../../platform/db/client";
import { mapItem } from "../../../platform/db/map-item";
import type { MetaProvider } from "../../../platform/channels/meta/meta-webhook.mapper";
import { createChatWindow, createHookedSettings } from "../channel-store";

/**
 * A Messenger / Instagram connection's provider settings (docs/adr/0090), beside the connection record in the
 * company's partition. Secrets (pageAccessToken, appSecret) are stored sealed by the SecretBox. The webhook URL
 * carries `hookId` (random): a platform-level index item (METAHOOK#) finds the connection and its company without
 * trusting anything in the request, as the Cloud API's does.
 */
export type MetaRecord = {
  whatsappId: number;
  provider: MetaProvider;
  /** the Facebook page id (Messenger) or the Instagram professional account id */
  pageId: string;
  /** sealed */
  pageAccessToken: string;
  /** sealed */
  appSecret: string;
  verifyToken: string;
  /** Meta's Graph API, or the local stand-in */
  graphApiUrl: string;
  hookId: string;
  createdAt: string;
  updatedAt: string;
};

const toRecord = mapItem<MetaRecord>({
  whatsappId: true,
  provider: true,
  pageId: true,
  pageAccessToken: true,
  appSecret: true,
  verifyToken: true,
  graphApiUrl: true,
  hookId: true,
  createdAt: true,
  updatedAt: true,
});

/**
 * Settings `META#<whatsappId>`, webhook index `METAHOOK#<hookId>`, window `METAWIN#<whatsappId>#<chatJid>`: the
 * channels' shared store (../channel-store.ts).
 */
export const createMetaRepository = (db: Db) => ({
  ...createHookedSettings(db, { settings: "META", hook: "METAHOOK", entity: "metaChannel", hookEntity: "metaHook" }, toRecord),
  ...createChatWindow(db, { prefix: "METAWIN", entity: "metaWindow" }),
});
export type MetaRepository = ReturnType<typeof createMetaRepository>;
