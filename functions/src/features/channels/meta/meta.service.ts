import { randomBytes } from "node:crypto";
import { isMaskedSecret, maskSecret } from "@atende/shared/domain/prompts/prompt";
import { AppError } from "../../../platform/errors";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import type { MetaProvider } from "../../../platform/channels/meta/meta-webhook.mapper";
import { META_GRAPH_URL } from "../../../platform/channels/meta/send-api.client";
import type { MetaSettings } from "../../../platform/channels/meta/meta-sender";
import { HUMAN_AGENT_WINDOW_MS, messagingWindow, type MessagingWindow } from "../../../platform/channels/meta/messaging-window";
import { replyWindow, type ReplyWindow } from "@atende/shared/domain/cloud-api/reply-window";
import { META_WEBHOOK_PATH } from "./meta-webhook.routes";
import { instagramFieldsSchema, messengerFieldsSchema } from "@atende/shared/domain/channels/meta";
import type { ChannelConnectionView } from "@atende/shared/contracts/http/whatsapps";
import type { ProviderConnections } from "../../whatsapps/whatsapps.service";
import type { SendApiClient } from "../../../platform/channels/meta/send-api.client";
import type { MetaRecord, MetaRepository } from "./meta.repository";

/** The Messenger / Instagram fields of a connection form (validated by the shared per-provider schema). */
export type MetaFields = { pageId: string; pageAccessToken: string; appSecret: string; graphApiUrl?: string | null };

/** What the API answers about such a connection: secrets masked, the webhook URL and verify token to copy. */
export type MetaView = { pageId: string; pageAccessToken: string; appSecret: string; graphApiUrl: string; webhookUrl: string; verifyToken: string };

const token = (bytes: number) => randomBytes(bytes).toString("base64url");
const keep = (v: string | undefined | null) => !v || isMaskedSecret(v);

/**
 * Messenger / Instagram connection settings (docs/adr/0090): secrets sealed (SecretBox) and answered masked, the
 * webhook URL (random hookId) and verify token made once, the Graph URL checked by the ONE outbound guard at save
 * time (docs/adr/0062), and the messaging window of a chat (for the composer and the inbox's send check).
 */
export const createMetaService = (deps: {
  repo: MetaRepository;
  secrets: SecretBox;
  clock: () => Date;
  publicBaseUrl?: string;
  checkUrl?: (url: string) => Promise<void>;
  /** the Send API client of a base URL and token (the connection check reads the page / account) */
  client?: (baseUrl: string, pageAccessToken: string) => SendApiClient;
}) => {
  const { repo, secrets, clock } = deps;
  const service = {
    async configure(companyId: number, whatsappId: number, provider: MetaProvider, f: MetaFields): Promise<MetaRecord> {
      const current = await repo.get(companyId, whatsappId);
      if (!current && (keep(f.pageAccessToken) || keep(f.appSecret))) {
        throw new AppError("ERR_VALIDATION", { issues: [{ path: [keep(f.pageAccessToken) ? "pageAccessToken" : "appSecret"], message: "Required" }] }, 400);
      }
      const graphApiUrl = f.graphApiUrl || META_GRAPH_URL;
      await deps.checkUrl?.(graphApiUrl);
      const now = clock().toISOString();
      const rec: MetaRecord = {
        whatsappId,
        provider,
        pageId: f.pageId,
        pageAccessToken: keep(f.pageAccessToken) ? (current?.pageAccessToken ?? "") : await secrets.seal(f.pageAccessToken),
        appSecret: keep(f.appSecret) ? (current?.appSecret ?? "") : await secrets.seal(f.appSecret),
        graphApiUrl,
        verifyToken: current?.verifyToken ?? token(18),
        hookId: current?.hookId ?? token(24),
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      };
      await repo.put(companyId, rec, current?.hookId ?? null);
      return rec;
    },
    async view(companyId: number, whatsappId: number, origin: string): Promise<MetaView | null> {
      const rec = await repo.get(companyId, whatsappId);
      if (!rec) return null;
      return {
        pageId: rec.pageId,
        pageAccessToken: maskSecret(rec.pageAccessToken ? await secrets.open(rec.pageAccessToken) : ""),
        appSecret: maskSecret(rec.appSecret ? await secrets.open(rec.appSecret) : ""),
        graphApiUrl: rec.graphApiUrl,
        webhookUrl: `${(deps.publicBaseUrl ?? origin).replace(/\/+$/, "")}${META_WEBHOOK_PATH}/${rec.hookId}`,
        verifyToken: rec.verifyToken,
      };
    },
    async remove(companyId: number, whatsappId: number): Promise<void> {
      await repo.remove(companyId, whatsappId);
    },
    /** The sender's settings, token opened. */
    async settings(companyId: number, whatsappId: number): Promise<MetaSettings | null> {
      const rec = await repo.get(companyId, whatsappId);
      if (!rec) return null;
      return { companyId, whatsappId, provider: rec.provider, pageId: rec.pageId, pageAccessToken: await secrets.open(rec.pageAccessToken), graphApiUrl: rec.graphApiUrl };
    },
    /** The chat's messaging window now (24 h free, 7 days with HUMAN_AGENT, then closed). */
    async window(companyId: number, whatsappId: number, chatJid: string): Promise<MessagingWindow> {
      return messagingWindow(await repo.lastInboundAt(companyId, whatsappId, chatJid), clock());
    },
    /**
     * The inbox's rule for a Messenger / Instagram connection before an outbound action is stored (docs/adr/0090):
     * edits, deletes, reactions and templates do not exist there (ERR_CHANNEL_UNSUPPORTED); text and files only
     * while Meta's window allows (24 h free, then 7 days with HUMAN_AGENT), else ERR_WINDOW_CLOSED. Answers false
     * when the connection is not a Meta one (the next rule decides).
     */
    async assertOutbound(companyId: number, whatsappId: number | null, chatJid: string, action: string): Promise<boolean> {
      if (!whatsappId || !(await repo.get(companyId, whatsappId))) return false;
      if (action !== "text" && action !== "media") throw new AppError("ERR_CHANNEL_UNSUPPORTED");
      if ((await service.window(companyId, whatsappId, chatJid)).state === "closed") throw new AppError("ERR_WINDOW_CLOSED");
      return true;
    },
    /** The window as the composer shows it (the Cloud API's ReplyWindow shape): open until the 7-day HUMAN_AGENT limit. */
    async replyWindowOf(companyId: number, whatsappId: number, chatJid: string): Promise<ReplyWindow | null> {
      if (!(await repo.get(companyId, whatsappId))) return null;
      return replyWindow(await repo.lastInboundAt(companyId, whatsappId, chatJid), clock(), HUMAN_AGENT_WINDOW_MS / 3600_000);
    },
    /** What the connections feature calls for `provider: "messenger"` / `"instagram"` (docs/adr/0088). */
    connections(provider: MetaProvider): ProviderConnections {
      const schema = provider === "instagram" ? instagramFieldsSchema : messengerFieldsSchema;
      return {
        async parseFields(input: unknown, existing: boolean) {
          const parsed = schema.safeParse({ ...(input as object), provider });
          if (!parsed.success) throw new AppError("ERR_VALIDATION", { issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })) }, 400);
          const d = parsed.data;
          const f: MetaFields = { pageId: "pageId" in d ? d.pageId : d.instagramAccountId, pageAccessToken: d.pageAccessToken, appSecret: d.appSecret, graphApiUrl: d.graphApiUrl };
          if (!existing && (keep(f.pageAccessToken) || keep(f.appSecret))) throw new AppError("ERR_VALIDATION", { issues: [{ path: [keep(f.pageAccessToken) ? "pageAccessToken" : "appSecret"], message: "Required" }] }, 400);
          await deps.checkUrl?.(f.graphApiUrl || META_GRAPH_URL);
          return f;
        },
        configure: (companyId, whatsappId, fields) => service.configure(companyId, whatsappId, provider, fields as MetaFields),
        async check(companyId, whatsappId) {
          const s = await service.settings(companyId, whatsappId);
          if (!s || !deps.client) return { ok: false, error: "ERR_NO_WAPP_FOUND" };
          const out = await deps.client(s.graphApiUrl, s.pageAccessToken).account(s.pageId);
          return "error" in out ? { ok: false, error: out.error } : { ok: true, number: out.label };
        },
        async view(companyId, whatsappId, origin) {
          const v = await service.view(companyId, whatsappId, origin);
          if (!v) return null;
          const { pageId, ...rest } = v;
          return { provider, ...(provider === "instagram" ? { instagramAccountId: pageId } : { pageId }), ...rest } as ChannelConnectionView;
        },
        remove: (companyId, whatsappId) => service.remove(companyId, whatsappId),
      };
    },
  };
  return service;
};
export type MetaService = ReturnType<typeof createMetaService>;
