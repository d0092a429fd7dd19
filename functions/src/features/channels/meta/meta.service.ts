import { randomBytes } from "node:crypto";
import { isMaskedSecret, maskSecret } from "@atende/shared/domain/prompts/prompt";
import { AppError } from "../../../platform/errors";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import type { MetaProvider } from "../../../platform/channels/meta/meta-webhook.mapper";
import { META_GRAPH_URL } from "../../../platform/channels/meta/send-api.client";
import type { MetaSettings } from "../../../platform/channels/meta/meta-sender";
import { messagingWindow, type MessagingWindow } from "../../../platform/channels/meta/messaging-window";
import { META_WEBHOOK_PATH } from "./meta-webhook.routes";
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
}) => {
  const { repo, secrets, clock } = deps;
  return {
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
    remove: (companyId: number, whatsappId: number) => repo.remove(companyId, whatsappId),
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
  };
};
export type MetaService = ReturnType<typeof createMetaService>;
