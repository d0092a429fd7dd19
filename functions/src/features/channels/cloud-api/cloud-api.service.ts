import type { CloudApiConnectionView } from "@atende/shared/contracts/http/whatsapps";
import { randomBytes } from "node:crypto";
import { cloudApiFieldsSchema, type CloudApiFields, type PhoneNumberInfo } from "@atende/shared/domain/cloud-api/cloud-api-connection";
import { canSendFreeForm, replyWindow, type ReplyWindow } from "@atende/shared/domain/cloud-api/reply-window";
import { isSendable, missingValues, renderTemplate, templateComponents, variablesOf, type TemplateSend, type TemplateValues } from "@atende/shared/domain/cloud-api/message-templates";
import { automaticTemplateValues, type AutomaticKind, type AutomaticSkipReason, type AutomaticValues } from "@atende/shared/domain/cloud-api/automatic-messages";
import { isMaskedSecret, maskSecret } from "@atende/shared/domain/prompts/prompt";
import { AppError } from "../../../platform/errors";
import type { Logger } from "../../../platform/logger";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import type { GraphApiClient } from "../../../platform/channels/cloud-api/graph-api.client";
import { GraphApiError } from "../../../platform/channels/cloud-api/graph-api-errors";
import type { CloudApiSettings } from "../../../platform/channels/cloud-api/cloud-api-sender";
import type { CloudApiRecord, CloudApiRepository, StoredTemplate } from "./cloud-api.repository";

export const WEBHOOK_PATH = "/api/channels/cloud-api/webhook";

/** What the API answers about a Cloud API connection: secrets masked, the webhook URL and verify token to copy. */
export type CloudApiView = CloudApiConnectionView;

/** A template message ready for the send command: the rendered text to store and the components to send. */
export type PreparedTemplate = { body: string; template: { name: string; language: string; components: Record<string, unknown>[] } };

/**
 * What to do with an automatic message (rating request, inactivity message, transfer notice): send the text (QR
 * connections, or the window is open), send the connection's template instead, or skip it (with the reason, for
 * the internal note on the ticket).
 */
export type AutomaticDecision =
  | { send: "text" }
  | { send: "template"; prepared: PreparedTemplate }
  | { send: "skip"; reason: AutomaticSkipReason };

const token = (bytes: number) => randomBytes(bytes).toString("base64url");

/**
 * Cloud API connection settings (sealed secrets, webhook URL and verify token), the connection test (Graph's phone
 * number read), template sync, and the settings the sender uses (token opened, cached briefly).
 */
export const createCloudApiService = (deps: {
  repo: CloudApiRepository;
  secrets: SecretBox;
  graph: (opts: { baseUrl: string; accessToken: string }) => GraphApiClient;
  clock: () => Date;
  logger: Logger;
  /** the public origin webhook URLs are built on (config PUBLIC_BASE_URL), else the request's origin */
  publicBaseUrl?: string;
  settingsTtlMs?: number;
  /** the outbound guard's save-time check of `graphApiUrl` (docs/adr/0062): ERR_URL_NOT_ALLOWED when refused */
  checkUrl?: (url: string) => Promise<void>;
}) => {
  const { repo, secrets, clock, logger } = deps;
  const cache = new Map<string, { at: number; value: CloudApiSettings | null }>();
  const ttl = deps.settingsTtlMs ?? 30_000;

  const view = (rec: CloudApiRecord, origin: string, plain: { accessToken: string; appSecret: string }): CloudApiView => ({
    phoneNumberId: rec.phoneNumberId,
    wabaId: rec.wabaId,
    accessToken: maskSecret(plain.accessToken),
    appSecret: maskSecret(plain.appSecret),
    graphApiUrl: rec.graphApiUrl,
    webhookUrl: `${(deps.publicBaseUrl ?? origin).replace(/\/+$/, "")}${WEBHOOK_PATH}/${rec.hookId}`,
    verifyToken: rec.verifyToken,
    throughputPerSecond: rec.throughputPerSecond,
    ratingTemplate: rec.ratingTemplate,
    inactivityTemplate: rec.inactivityTemplate,
    transferTemplate: rec.transferTemplate,
    phoneInfo: rec.phoneInfo,
    checkedAt: rec.checkedAt,
    templatesSyncedAt: rec.templatesSyncedAt,
  });
  const openAll = async (rec: CloudApiRecord) => ({
    accessToken: rec.accessToken ? await secrets.open(rec.accessToken) : "",
    appSecret: rec.appSecret ? await secrets.open(rec.appSecret) : "",
  });
  const clientOf = async (rec: CloudApiRecord) => deps.graph({ baseUrl: rec.graphApiUrl, accessToken: (await openAll(rec)).accessToken });
  const mustGet = async (companyId: number, whatsappId: number) => {
    const rec = await repo.get(companyId, whatsappId);
    if (!rec) throw new AppError("ERR_NO_WAPP_FOUND");
    return rec;
  };

  const service = {
    /**
     * Validates the Cloud API fields of a connection form (throws ERR_VALIDATION); secrets required unless kept; a
     * Graph API URL the outbound guard refuses throws ERR_URL_NOT_ALLOWED.
     */
    async parseFields(input: unknown, existing: boolean): Promise<CloudApiFields> {
      const parsed = cloudApiFieldsSchema.safeParse(input);
      if (!parsed.success) throw new AppError("ERR_VALIDATION", undefined, 400);
      const f = parsed.data;
      const keep = (v: string) => !v || isMaskedSecret(v);
      if (!existing && (keep(f.accessToken) || keep(f.appSecret))) throw new AppError("ERR_VALIDATION", { issues: [{ path: [keep(f.accessToken) ? "accessToken" : "appSecret"], message: "Required" }] }, 400);
      await deps.checkUrl?.(f.graphApiUrl);
      return f;
    },
    /** Stores the settings: new secrets sealed, masked/empty ones keep the stored value; hookId and verifyToken are made once. */
    async configure(companyId: number, whatsappId: number, f: CloudApiFields): Promise<CloudApiRecord> {
      const current = await repo.get(companyId, whatsappId);
      const now = clock().toISOString();
      const keep = (v: string) => !v || isMaskedSecret(v);
      const rec: CloudApiRecord = {
        whatsappId,
        phoneNumberId: f.phoneNumberId,
        wabaId: f.wabaId,
        accessToken: keep(f.accessToken) ? (current?.accessToken ?? "") : await secrets.seal(f.accessToken),
        appSecret: keep(f.appSecret) ? (current?.appSecret ?? "") : await secrets.seal(f.appSecret),
        graphApiUrl: f.graphApiUrl,
        verifyToken: current?.verifyToken ?? token(18),
        hookId: current?.hookId ?? token(24),
        throughputPerSecond: f.throughputPerSecond,
        ratingTemplate: f.ratingTemplate,
        inactivityTemplate: f.inactivityTemplate,
        transferTemplate: f.transferTemplate,
        phoneInfo: current && current.phoneNumberId === f.phoneNumberId ? current.phoneInfo : null,
        checkedAt: current && current.phoneNumberId === f.phoneNumberId ? current.checkedAt : null,
        templatesSyncedAt: current?.templatesSyncedAt ?? null,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      };
      await repo.put(companyId, rec, current?.hookId ?? null);
      cache.delete(`${companyId}:${whatsappId}`);
      return rec;
    },
    async view(companyId: number, whatsappId: number, origin: string): Promise<CloudApiView | null> {
      const rec = await repo.get(companyId, whatsappId);
      return rec ? view(rec, origin, await openAll(rec)) : null;
    },
    async remove(companyId: number, whatsappId: number) {
      await repo.remove(companyId, whatsappId);
      cache.delete(`${companyId}:${whatsappId}`);
    },
    /**
     * The test button: reads the phone number from the Graph API (display number, verified name, quality rating,
     * messaging limit tier), stores it, and answers it; the connection is CONNECTED when this succeeds.
     */
    async check(companyId: number, whatsappId: number): Promise<{ ok: true; info: PhoneNumberInfo } | { ok: false; error: string }> {
      const rec = await mustGet(companyId, whatsappId);
      try {
        const info = await (await clientOf(rec)).phoneNumber(rec.phoneNumberId);
        await repo.put(companyId, { ...rec, phoneInfo: info, checkedAt: clock().toISOString() }, rec.hookId);
        return { ok: true, info };
      } catch (err) {
        logger.warn("cloud-api: connection check failed", { companyId, whatsappId, err: String(err) });
        return { ok: false, error: err instanceof GraphApiError ? `${err.code} ${err.title}` : "unreachable" };
      }
    },
    /** Reads every template of the WABA and replaces the stored list (on demand and from the daily tick). */
    async syncTemplates(companyId: number, whatsappId: number): Promise<StoredTemplate[]> {
      const rec = await mustGet(companyId, whatsappId);
      let list;
      try {
        list = await (await clientOf(rec)).listTemplates(rec.wabaId);
      } catch (err) {
        logger.warn("cloud-api: template sync failed", { companyId, whatsappId, err: String(err) });
        throw new AppError("ERR_CLOUDAPI_CHECK_FAILED");
      }
      const now = clock();
      await repo.replaceTemplates(companyId, whatsappId, list, now);
      await repo.put(companyId, { ...rec, templatesSyncedAt: now.toISOString() }, rec.hookId);
      return repo.listTemplates(companyId, whatsappId);
    },
    listTemplates: (companyId: number, whatsappId: number) => repo.listTemplates(companyId, whatsappId),
    /** The daily sync (from the minute tick): connections whose templates are a day old or never synced. */
    async syncDue(now: Date): Promise<number> {
      let synced = 0;
      for (const c of await repo.listAll()) {
        if (c.templatesSyncedAt && now.getTime() - Date.parse(c.templatesSyncedAt) < 24 * 3600_000) continue;
        await service.syncTemplates(c.companyId, c.whatsappId).then(
          () => synced++,
          // a failing connection (bad token) is retried tomorrow, not every minute
          async () => {
            const rec = await repo.get(c.companyId, c.whatsappId);
            if (rec) await repo.put(c.companyId, { ...rec, templatesSyncedAt: now.toISOString() }, rec.hookId);
          },
        );
      }
      return synced;
    },
    /**
     * A template message ready for the send command: approved template, every variable filled (else a catalogue
     * code), the rendered text to store and the components to send.
     */
    async prepareTemplate(companyId: number, whatsappId: number, t: TemplateSend): Promise<PreparedTemplate> {
      // a QR connection has no templates
      if (!(await service.isCloudApi(companyId, whatsappId))) throw new AppError("ERR_CHANNEL_UNSUPPORTED");
      const stored = await repo.findTemplate(companyId, whatsappId, t.name, t.language);
      if (!stored) throw new AppError("ERR_TEMPLATE_NOT_FOUND");
      if (!isSendable(stored)) throw new AppError("ERR_TEMPLATE_NOT_APPROVED");
      const missing = missingValues(stored, t.values);
      if (missing.length) throw new AppError("ERR_TEMPLATE_VALUES_MISSING", { missing });
      return {
        body: renderTemplate(stored, t.values),
        template: { name: stored.name, language: stored.language, components: templateComponents(stored, t.values, t.headerMediaUrl) },
      };
    },
    /** The customer service window of a chat on a Cloud API connection, now. */
    async windowOf(companyId: number, whatsappId: number, chatJid: string): Promise<ReplyWindow> {
      return replyWindow(await repo.lastInboundAt(companyId, whatsappId, chatJid), clock());
    },
    /**
     * What the inbox asks before storing an outbound action on a connection: nothing for QR connections; on a
     * Cloud API connection editing and deleting are refused (ERR_CHANNEL_UNSUPPORTED) and free-form content
     * (text, media, reactions) outside the 24-hour window too (ERR_WINDOW_CLOSED); templates are always allowed.
     */
    async assertOutbound(
      companyId: number,
      whatsappId: number | null,
      chatJid: string,
      action: "text" | "media" | "react" | "template" | "edit" | "delete",
      opts: { bulk?: boolean } = {},
    ): Promise<void> {
      if (!whatsappId || !(await service.isCloudApi(companyId, whatsappId))) return;
      if (action === "edit" || action === "delete") throw new AppError("ERR_CHANNEL_UNSUPPORTED");
      if (action === "template") return;
      // campaign messages on a Cloud API connection are approved templates only, whatever the window
      if (opts.bulk) throw new AppError("ERR_CAMPAIGN_TEMPLATE_REQUIRED");
      if (!canSendFreeForm(await service.windowOf(companyId, whatsappId, chatJid))) throw new AppError("ERR_WINDOW_CLOSED");
    },
    /**
     * A campaign's message on its connection (create, update, and each send): on a Cloud API connection a template
     * is required (ERR_CAMPAIGN_TEMPLATE_REQUIRED), synced (ERR_TEMPLATE_NOT_FOUND), approved
     * (ERR_TEMPLATE_NOT_APPROVED) and with a value (typed or a contact placeholder) for every variable
     * (ERR_TEMPLATE_VALUES_MISSING); a QR connection takes no template (ERR_CHANNEL_UNSUPPORTED).
     */
    async assertCampaignTemplate(companyId: number, whatsappId: number, t: TemplateSend | null): Promise<void> {
      if (!(await service.isCloudApi(companyId, whatsappId))) {
        if (t) throw new AppError("ERR_CHANNEL_UNSUPPORTED");
        return;
      }
      if (!t) throw new AppError("ERR_CAMPAIGN_TEMPLATE_REQUIRED");
      const stored = await repo.findTemplate(companyId, whatsappId, t.name, t.language);
      if (!stored) throw new AppError("ERR_TEMPLATE_NOT_FOUND");
      if (!isSendable(stored)) throw new AppError("ERR_TEMPLATE_NOT_APPROVED");
      const missing = missingValues(stored, t.values);
      if (missing.length) throw new AppError("ERR_TEMPLATE_VALUES_MISSING", { missing });
    },
    /**
     * An automatic message (rating request, inactivity message, transfer notice) about to be sent in a chat: QR
     * connections and an open window send the text; outside the window the template chosen in the connection's
     * settings (ratingTemplate / inactivityTemplate / transferTemplate) is sent instead, its variables filled from
     * `values` (automaticTemplateValues), or the message is skipped with the reason.
     */
    async automaticMessage(companyId: number, whatsappId: number | null, chatJid: string, kind: AutomaticKind, values: AutomaticValues): Promise<AutomaticDecision> {
      if (!whatsappId) return { send: "text" };
      const rec = await repo.get(companyId, whatsappId);
      if (!rec) return { send: "text" };
      if (canSendFreeForm(await service.windowOf(companyId, whatsappId, chatJid))) return { send: "text" };
      const name = { rating: rec.ratingTemplate, inactivity: rec.inactivityTemplate, transfer: rec.transferTemplate }[kind]?.trim();
      if (!name) return { send: "skip", reason: "no_template" };
      // the name chosen in the settings, in any language it was approved in (the first approved one)
      const candidates = (await repo.listTemplates(companyId, whatsappId)).filter((x) => x.name === name);
      if (!candidates.length) return { send: "skip", reason: "template_not_found" };
      const stored = candidates.find(isSendable);
      if (!stored) return { send: "skip", reason: "template_not_approved" };
      const filled: TemplateValues = automaticTemplateValues(variablesOf(stored), values);
      if (missingValues(stored, filled).length) return { send: "skip", reason: "template_values_missing" };
      return {
        send: "template",
        prepared: { body: renderTemplate(stored, filled), template: { name: stored.name, language: stored.language, components: templateComponents(stored, filled) } },
      };
    },
    /** Whether the connection is a Cloud API one (its settings exist), cached like the settings. */
    async isCloudApi(companyId: number, whatsappId: number): Promise<boolean> {
      return (await service.settings(companyId, whatsappId)) !== null;
    },
    /** The sender's view of a connection (token opened), cached for a short while. */
    async settings(companyId: number, whatsappId: number): Promise<CloudApiSettings | null> {
      const k = `${companyId}:${whatsappId}`;
      const hit = cache.get(k);
      if (hit && clock().getTime() - hit.at < ttl) return hit.value;
      const rec = await repo.get(companyId, whatsappId);
      const value = rec
        ? { companyId, whatsappId, phoneNumberId: rec.phoneNumberId, wabaId: rec.wabaId, accessToken: (await openAll(rec)).accessToken, graphApiUrl: rec.graphApiUrl, throughputPerSecond: rec.throughputPerSecond }
        : null;
      cache.set(k, { at: clock().getTime(), value });
      return value;
    },
  };
  return service;
};
export type CloudApiService = ReturnType<typeof createCloudApiService>;
