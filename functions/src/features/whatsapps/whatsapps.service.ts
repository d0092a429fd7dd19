import { randomBytes, randomUUID } from "node:crypto";
import type { CompaniesService } from "../companies/companies.service";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { ChannelConnectionView, CloudApiConnectionView, WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import { isCloudApiProvider, type CloudApiFields, type PhoneNumberInfo } from "@atende/shared/domain/cloud-api/cloud-api-connection";
import { isChannelProvider, type ChannelProvider } from "@atende/shared/domain/channels/channel-providers";
import { pairingPhoneNumber } from "@atende/shared/domain/format/phone";
import { isOverPlanLimit } from "@atende/shared/domain/plans/plan";
import type { WhatsappForm } from "@atende/shared/domain/whatsapps/whatsapp-form";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { CommandQueue } from "../../platform/queues/commands.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { CompanyLookup } from "../companies/companies.ports";
import type { PlanLookup } from "../plans/plans.ports";
import type { Queue } from "@atende/shared/domain/queues/queue";
import type { QueuesOfCompany } from "../queues/queues.ports";
import type { RealtimeService } from "../realtime/realtime.service";
import { DuplicateNameError, type Whatsapp, type WhatsappsRepository } from "./whatsapps.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry } from "../audit/audit-diff";

type Deps = {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  whatsapps: WhatsappsRepository;
  queues: QueuesOfCompany;
  companies: CompanyLookup;
  plans: PlanLookup;
  companiesService: Pick<CompaniesService, "assertPlanAllows">;
  realtime: RealtimeService;
  commands: CommandQueue;
  clock: () => Date;
  logger: Logger;
  /** the provider new connections use: "simulator" on one machine, "baileys" in AWS */
  channel: "simulator" | "baileys";
  /** how the prompts and queue-integrations features tell a company's own ids (reads, passed at construction: ADR 0024) */
  references: Record<"promptId" | "integrationId" | "flowId", (companyId: number, id: number) => Promise<boolean>>;
  /** Cloud API connections (provider "cloudapi", docs/adr/0028): settings, the number check; no session host */
  cloudApi?: CloudApiConnections;
  /** the other channels' connections (docs/adr/0088), by provider: each feature's settings, check and view */
  channels?: Partial<Record<ChannelProvider, ProviderConnections>>;
};

/**
 * What the connections feature needs of another channel's feature (Telegram, Messenger, Instagram, website chat):
 * its fields parsed (secrets kept when masked), stored (sealed) and set up at the provider, checked, shown (masked).
 */
export type ProviderConnections = {
  parseFields(input: unknown, existing: boolean): Promise<unknown>;
  /** `origin`: the request's, for a webhook URL to register when PUBLIC_BASE_URL is not set */
  configure(companyId: number, whatsappId: number, fields: unknown, origin?: string): Promise<unknown>;
  /** ok: the connection works (`number`: what the list shows in the number column, e.g. the bot's @username) */
  check(companyId: number, whatsappId: number): Promise<{ ok: true; number: string } | { ok: false; error: string }>;
  view(companyId: number, whatsappId: number, origin: string): Promise<ChannelConnectionView | null>;
  remove(companyId: number, whatsappId: number): Promise<void>;
};

/** What the connections feature needs of the Cloud API feature (its service implements it). */
export type CloudApiConnections = {
  parseFields(input: unknown, existing: boolean): Promise<CloudApiFields>;
  configure(companyId: number, whatsappId: number, fields: CloudApiFields): Promise<unknown>;
  check(companyId: number, whatsappId: number): Promise<{ ok: true; info: PhoneNumberInfo } | { ok: false; error: string }>;
  view(companyId: number, whatsappId: number, origin: string): Promise<CloudApiConnectionView | null>;
  remove(companyId: number, whatsappId: number): Promise<void>;
};

/** A long random token the external API identifies the connection by (never chosen by the client). */
const newToken = () => randomBytes(32).toString("base64url");

export const toWhatsappResponse = (w: Whatsapp, queues: Queue[], withToken: boolean): WhatsappResponse => ({
  id: w.id,
  name: w.name,
  number: w.number,
  status: w.status,
  isDefault: w.isDefault,
  channel: w.channel,
  provider: w.provider,
  greetingMessage: w.greetingMessage,
  complationMessage: w.complationMessage,
  outOfHoursMessage: w.outOfHoursMessage,
  ratingMessage: w.ratingMessage,
  expiresInactiveMessage: w.expiresInactiveMessage,
  expiresTicket: w.expiresTicket,
  timeUseBotQueues: w.timeUseBotQueues,
  maxUseBotQueues: w.maxUseBotQueues,
  timeToTransfer: w.timeToTransfer,
  transferQueueId: w.transferQueueId,
  promptId: w.promptId,
  integrationId: w.integrationId,
  flowId: w.flowId ?? null,
  queueIds: w.queueIds,
  queues: queues.filter((q) => w.queueIds.includes(q.id)).map((q) => ({ id: q.id, name: q.name, color: q.color, greetingMessage: q.greetingMessage })),
  schedules: w.schedules ?? [],
  token: withToken ? w.token : "",
  qrcode: w.qrcode,
  retries: w.retries,
  disconnectReason: w.disconnectReason ?? null,
  pairingCode: w.pairingCode ?? null,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

export const createWhatsappsService = (deps: Deps) => {
  const { whatsapps, queues, companies, plans, realtime, commands, clock, logger } = deps;
  const isAdmin = (auth: AuthContext) => auth.user.profile === "admin";

  const find = async (companyId: number, id: number) => {
    const w = await whatsapps.findById(companyId, id);
    if (!w) throw new AppError("ERR_NO_WAPP_FOUND");
    return w;
  };

  const command = (w: Whatsapp, type: "session.start" | "session.stop" | "session.logout" | "session.newQr") =>
    // a Cloud API connection has no session host: nothing to start, stop or log out
    isWebhookProvider(w.provider) ? Promise.resolve() :
    commands.send(
      type === "session.start" || type === "session.newQr"
        ? { type, commandId: randomUUID(), companyId: w.companyId, whatsappId: w.id, channel: w.channel }
        : { type, commandId: randomUUID(), companyId: w.companyId, whatsappId: w.id },
    );

  const { references } = deps;
  /** A connection may only point at its own company's prompt and integration, and only when the plan has them. */
  const checkReferences = async (companyId: number, form: Pick<WhatsappForm, "promptId" | "integrationId" | "flowId">) => {
    if (form.flowId) {
      await deps.companiesService.assertPlanAllows(companyId, "useIntegrations");
      if (!(await references.flowId(companyId, form.flowId))) throw new AppError("ERR_NO_FLOW_FOUND");
    }
    if (form.promptId) {
      await deps.companiesService.assertPlanAllows(companyId, "useOpenAi");
      if (!(await references.promptId(companyId, form.promptId))) throw new AppError("ERR_NO_PROMPT_FOUND");
    }
    if (form.integrationId) {
      await deps.companiesService.assertPlanAllows(companyId, "useIntegrations");
      if (!(await references.integrationId(companyId, form.integrationId))) throw new AppError("ERR_NO_INTEGRATION_FOUND");
    }
  };

  /** Queue ids must be the company's; more than one queue needs a greeting (it introduces the queue menu). */
  const checkQueues = async (companyId: number, form: Pick<WhatsappForm, "queueIds" | "transferQueueId" | "greetingMessage">) => {
    const own = await queues.listByCompany(companyId);
    const ids = new Set(own.map((q) => q.id));
    if (form.queueIds.some((id) => !ids.has(id)) || (form.transferQueueId !== null && !ids.has(form.transferQueueId))) throw new AppError("ERR_VALIDATION");
    if (new Set(form.queueIds).size > 1 && !form.greetingMessage.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
    return own;
  };

  /**
   * Cloud API connections (docs/adr/0028): their settings stored by the Cloud API feature (secrets sealed), then
   * the number read from the Graph API: CONNECTED with its display number when that works, DISCONNECTED otherwise.
   */
  /** A connection without a session host (the Cloud API and the other channels, docs/adr/0088): its feature's part. */
  const isWebhookProvider = (provider: string | null | undefined) => isCloudApiProvider(provider) || isChannelProvider(provider);
  const cloudApiAsProvider = (c: CloudApiConnections): ProviderConnections => ({
    parseFields: (input, existing) => c.parseFields(input, existing),
    configure: (companyId, whatsappId, fields) => c.configure(companyId, whatsappId, fields as CloudApiFields),
    check: async (companyId, whatsappId) => {
      const out = await c.check(companyId, whatsappId);
      return out.ok ? { ok: true, number: out.info.displayPhoneNumber.replace(/\D/g, "") } : out;
    },
    view: () => Promise.resolve(null),
    remove: (companyId, whatsappId) => c.remove(companyId, whatsappId),
  });
  const providerOf = (provider: string): ProviderConnections => {
    const p = isCloudApiProvider(provider) ? deps.cloudApi && cloudApiAsProvider(deps.cloudApi) : isChannelProvider(provider) ? deps.channels?.[provider] : undefined;
    if (!p) throw new AppError("ERR_VALIDATION");
    return p;
  };
  const checkCloudApi = async (w: Whatsapp): Promise<Whatsapp> => {
    const out = await providerOf(w.provider).check(w.companyId, w.id);
    const state = out.ok
      ? { status: "CONNECTED" as const, qrcode: "", retries: 0, number: out.number, disconnectReason: null }
      : { status: "DISCONNECTED" as const, qrcode: "", retries: 0, disconnectReason: isCloudApiProvider(w.provider) ? "cloudApiCheckFailed" : "channelCheckFailed" };
    return (await whatsapps.setSession(w.companyId, w.id, state, clock())) ?? w;
  };
  const withCloudApi = async (companyId: number, r: WhatsappResponse, origin = ""): Promise<WhatsappResponse> => {
    if (isCloudApiProvider(r.provider) && deps.cloudApi) return { ...r, cloudApi: await deps.cloudApi.view(companyId, r.id, origin) };
    const other = isChannelProvider(r.provider) ? deps.channels?.[r.provider] : undefined;
    return other ? { ...r, channelSettings: await other.view(companyId, r.id, origin) } : r;
  };

  const publishWhatsapp = async (companyId: number, w: Whatsapp, own?: Queue[]) => {
    const session = toWhatsappResponse(w, own ?? (await queues.listByCompany(companyId)), true);
    await realtime.publish(companyId, "whatsapp", { action: "update", whatsapp: session }, { kind: "admins" });
    return session;
  };

  const fieldsOf = (form: WhatsappForm) => ({
    name: form.name,
    greetingMessage: form.greetingMessage,
    complationMessage: form.complationMessage,
    outOfHoursMessage: form.outOfHoursMessage,
    ratingMessage: form.ratingMessage,
    expiresInactiveMessage: form.expiresInactiveMessage,
    provider: form.provider,
    expiresTicket: form.expiresTicket,
    timeUseBotQueues: form.timeUseBotQueues,
    maxUseBotQueues: form.maxUseBotQueues,
    timeToTransfer: form.timeToTransfer,
    transferQueueId: form.transferQueueId,
    promptId: form.promptId,
    integrationId: form.integrationId,
    flowId: form.flowId ?? null,
    queueIds: [...new Set(form.queueIds)],
    schedules: form.schedules,
  });

  return {
    /** GET /whatsapp: every connection of the caller's company (token only for admins). */
    async list(auth: AuthContext): Promise<WhatsappResponse[]> {
      const [list, own] = await Promise.all([whatsapps.listByCompany(auth.companyId), queues.listByCompany(auth.companyId)]);
      return list.sort((a, b) => a.id - b.id).map((w) => toWhatsappResponse(w, own, isAdmin(auth)));
    },

    /** GET /whatsapp/{id}; a Cloud API connection carries its settings (masked), webhook URL and verify token (admins) */
    async show(auth: AuthContext, id: number, origin?: string): Promise<WhatsappResponse> {
      const w = await find(auth.companyId, id);
      const r = toWhatsappResponse(w, await queues.listByCompany(auth.companyId), isAdmin(auth));
      return isAdmin(auth) ? withCloudApi(auth.companyId, r, origin) : r;
    },

    /** POST /whatsapp: within the plan's connection limit; the first connection is the default; starts its session. */
    async create(auth: AuthContext, form: WhatsappForm, raw: unknown = {}, origin?: string): Promise<WhatsappResponse> {
      const companyId = auth.companyId;
      // Cloud API fields checked before anything is stored
      const cloud = isWebhookProvider(form.provider) ? { fields: await providerOf(form.provider).parseFields(raw, false) } : null;
      const company = await companies.findById(companyId);
      const plan = company?.planId ? await plans.findById(company.planId) : null;
      const existing = await whatsapps.listByCompany(companyId);
      if (!plan || isOverPlanLimit(plan, "connections", existing.length)) throw new AppError("ERR_PLAN_LIMIT_CONNECTIONS");
      if (existing.some((w) => w.name.trim().toLowerCase() === form.name.trim().toLowerCase())) throw new AppError("ERR_DUPLICATED_NAME");
      const own = await checkQueues(companyId, form);
      await checkReferences(companyId, form);
      const isDefault = form.isDefault || !existing.some((w) => w.isDefault);
      const now = clock();
      let w: Whatsapp;
      try {
        w = await whatsapps.create(
          companyId,
          { ...fieldsOf(form), number: "", status: cloud ? "DISCONNECTED" : "OPENING", isDefault, channel: deps.channel, token: newToken(), qrcode: "", retries: 0 },
          now,
        );
      } catch (err) {
        if (err instanceof DuplicateNameError) throw new AppError("ERR_DUPLICATED_NAME");
        throw err;
      }
      if (isDefault) await whatsapps.setDefault(companyId, w.id, existing.filter((x) => x.isDefault).map((x) => x.id), now);
      if (cloud) {
        await providerOf(form.provider).configure(companyId, w.id, cloud.fields, origin);
        w = await checkCloudApi(w);
      } else await command(w, "session.start");
      for (const other of existing.filter((x) => x.isDefault && isDefault)) await publishWhatsapp(companyId, { ...other, isDefault: false }, own);
      await deps.audit.record(auditEntry(auth, "create", { kind: "connection", id: w.id }, auditChanges(null, w, { ignore: ["qrcode", "retries", "status", "session", "number"] })));
      return withCloudApi(companyId, await publishWhatsapp(companyId, w, own), origin);
    },

    /** PUT /whatsapp/{id}. Unsetting the only default is refused (ERR_NO_OTHER_WHATSAPP). */
    async update(auth: AuthContext, id: number, form: WhatsappForm, raw: unknown = {}, origin?: string): Promise<WhatsappResponse> {
      const companyId = auth.companyId;
      const current = await find(companyId, id);
      const wasCloud = isWebhookProvider(current.provider);
      const cloud = isWebhookProvider(form.provider) ? { fields: await providerOf(form.provider).parseFields(raw, current.provider === form.provider) } : null;
      const all = await whatsapps.listByCompany(companyId);
      if (all.some((w) => w.id !== id && w.name.trim().toLowerCase() === form.name.trim().toLowerCase())) throw new AppError("ERR_DUPLICATED_NAME");
      const own = await checkQueues(companyId, form);
      if (form.promptId !== current.promptId || form.integrationId !== current.integrationId || (form.flowId ?? null) !== (current.flowId ?? null)) await checkReferences(companyId, form);
      if (current.isDefault && !form.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP");
      const now = clock();
      let updated: Whatsapp;
      try {
        updated = await whatsapps.update(current, { ...fieldsOf(form), isDefault: form.isDefault || current.isDefault }, now);
      } catch (err) {
        if (err instanceof DuplicateNameError) throw new AppError("ERR_DUPLICATED_NAME");
        throw err;
      }
      if (form.isDefault && !current.isDefault) {
        const others = all.filter((w) => w.id !== id && w.isDefault);
        await whatsapps.setDefault(companyId, id, others.map((w) => w.id), now);
        for (const other of others) await publishWhatsapp(companyId, { ...other, isDefault: false }, own);
      }
      await deps.audit.record(auditEntry(auth, "update", { kind: "connection", id }, auditChanges(current, updated, { ignore: ["qrcode", "retries", "status", "session", "number"] })));
      // another provider than before: the old provider's settings go
      if (wasCloud && current.provider !== form.provider) await providerOf(current.provider).remove(companyId, id);
      if (cloud) {
        await providerOf(form.provider).configure(companyId, id, cloud.fields, origin);
        updated = await checkCloudApi(updated);
      } else if (wasCloud) {
        // back to a QR session: the session host takes over
        await command(updated, "session.start");
      }
      return withCloudApi(companyId, await publishWhatsapp(companyId, updated, own), origin);
    },

    /** DELETE /whatsapp/{id}: unlinks the phone, removes the connection; another becomes the default if needed. */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const companyId = auth.companyId;
      const w = await find(companyId, id);
      await command(w, "session.logout");
      if (isWebhookProvider(w.provider)) await providerOf(w.provider).remove(companyId, id);
      await whatsapps.remove(w);
      if (w.isDefault) {
        const next = (await whatsapps.listByCompany(companyId)).sort((a, b) => a.id - b.id)[0];
        if (next) {
          await whatsapps.setDefault(companyId, next.id, [], clock());
          await publishWhatsapp(companyId, { ...next, isDefault: true });
        }
      }
      await realtime.publish(companyId, "whatsapp", { action: "delete", whatsappId: id }, { kind: "admins" });
      await deps.audit.record(auditEntry(auth, "delete", { kind: "connection", id }, auditChanges(w, null, { ignore: ["qrcode", "retries", "status", "session", "number"] })));
    },

    /** POST /whatsapp-restart: every connection of the company reconnects. */
    async restartAll(auth: AuthContext): Promise<{ message: string }> {
      for (const w of await whatsapps.listByCompany(auth.companyId)) {
        await command(w, "session.stop");
        await command(w, "session.start");
      }
      return { message: "Whatsapp restart." };
    },

    /** Asks the session host to run every connection of a company (the local runner after seeding demo data). */
    async startAllOfCompany(companyId: number) {
      for (const w of await whatsapps.listByCompany(companyId)) await command(w, "session.start");
    },

    /** POST /whatsappsession/{id}: start (or try again). */
    async startSession(auth: AuthContext, id: number) {
      const w = await find(auth.companyId, id);
      // a Cloud API connection "starts" by reading its number again
      if (isWebhookProvider(w.provider)) await publishWhatsapp(auth.companyId, await checkCloudApi(w));
      else await command(w, "session.start");
      return { message: "Starting session." };
    },

    /** PUT /whatsappsession/{id}: a new QR code (the stored session is cleared). */
    async newQr(auth: AuthContext, id: number) {
      await command(await find(auth.companyId, id), "session.newQr");
      return { message: "Starting session." };
    },

    /**
     * POST /whatsappsession/{id}/pairingcode: link by phone number instead of scanning. The session host asks
     * WhatsApp for an 8-character code once the session waits for a QR; the code arrives on the connection
     * (pairingCode) through the realtime `whatsappSession` event. A connected session ignores it (nothing to pair).
     */
    async requestPairingCode(auth: AuthContext, id: number, input: unknown) {
      const w = await find(auth.companyId, id);
      const raw = typeof input === "object" && input && typeof (input as { number?: unknown }).number === "string" ? (input as { number: string }).number : "";
      const phoneNumber = pairingPhoneNumber(raw);
      if (!phoneNumber) throw new AppError("ERR_WAPP_INVALID_CONTACT");
      await commands.send({ type: "session.pairingCode", commandId: randomUUID(), companyId: w.companyId, whatsappId: w.id, phoneNumber, channel: w.channel });
      return { message: "Requesting pairing code." };
    },

    /** DELETE /whatsappsession/{id}: disconnect (logs the device out). */
    async disconnect(auth: AuthContext, id: number) {
      await command(await find(auth.companyId, id), "session.logout");
      return { message: "Session disconnected." };
    },

    /** inbound `connection` event from the session host: state, QR and number, to the company's admins live. */
    async onConnectionEvent(event: Extract<InboundEvent, { type: "connection" }>) {
      const w = await whatsapps.setSession(
        event.companyId,
        event.whatsappId,
        {
          status: event.status,
          qrcode: event.status === "qrcode" ? event.qrcode : "",
          retries: event.retries,
          disconnectReason: event.status === "DISCONNECTED" ? (event.reason ?? null) : null,
          pairingCode: event.status === "qrcode" ? (event.pairingCode ?? null) : null,
          ...(event.number ? { number: event.number } : {}),
        },
        clock(),
      );
      if (!w) {
        logger.info("connection event for a deleted connection", { companyId: event.companyId, whatsappId: event.whatsappId });
        return;
      }
      const session = toWhatsappResponse(w, await queues.listByCompany(event.companyId), true);
      await realtime.publish(event.companyId, "whatsappSession", { action: "update", session }, { kind: "admins" });
    },
  };
};
export type WhatsappsService = ReturnType<typeof createWhatsappsService>;
