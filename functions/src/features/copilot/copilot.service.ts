import type {
  CopilotAvailability,
  CopilotFeature,
  CopilotRewriteResponse,
  CopilotSettingsInput,
  CopilotSettingsResponse,
  CopilotSuggestionsResponse,
  CopilotSummaryResponse,
  CopilotTestResponse,
  RewriteInput,
} from "@atende/shared/contracts/http/copilot";
import { isMaskedSecret, maskSecret } from "@atende/shared/domain/prompts/prompt";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { AppError } from "../../platform/errors";
import type { SecretBox } from "../../platform/secrets/secret-box.port";
import type { JobQueue } from "../../platform/queues/jobs.port";
import type { Logger } from "../../platform/logger";
import type { AuditRecorder } from "../audit/audit.port";
import { auditEntry, systemActor } from "../audit/audit-diff";
import type { CopilotReads, CopilotTicket } from "../inbox/copilot-reads";
import { CopilotProviderError, CopilotUrlRefusedError, type CopilotProvider, type ProviderTarget, type ProviderUsage } from "./copilot-provider.port";
import type { CopilotSettings, CopilotSettingsRepository } from "./copilot-settings.repository";
import { parseSuggestions, READ_LIMIT, rewriteMessages, suggestionsMessages, summaryMessages, knowledgeText } from "./copilot-prompts";

export const DEFAULT_COPILOT_MODEL = "gpt-4o-mini";
export const DEFAULT_TRANSCRIPTION_MODEL = "whisper-1";
export const COPILOT_TRANSCRIBE_JOB = "copilot.transcribe";
export const COPILOT_TRANSFER_SUMMARY_JOB = "copilot.transferSummary";
/** The usage records' prompt id the copilot's tokens are counted under (prompt ids start at 1). */
export const COPILOT_USAGE_ID = 0;

/** The usage records (features/bots/bot-usage.repository.ts): the company's AI tokens per month. */
export type CopilotUsage = {
  add(companyId: number, month: string, promptId: number, usage: ProviderUsage): Promise<void>;
  get(companyId: number, month: string): Promise<{ promptTokens: number; completionTokens: number }>;
};
/** What the suggestions know beyond the conversation: the caller's quick messages and the ticket queue's AI prompt. */
export type CopilotKnowledge = (auth: AuthContext, queueId: number | null) => Promise<{ quickMessages: { shortcode: string; message: string }[]; queuePrompt: string | null }>;

export type CopilotDeps = {
  settings: CopilotSettingsRepository;
  secrets: SecretBox;
  provider: CopilotProvider;
  inbox: Pick<CopilotReads, "visibleTicket" | "ticket" | "conversation" | "audio" | "readMedia" | "saveTranscript" | "addNote">;
  usage: CopilotUsage;
  audit: AuditRecorder;
  knowledge: CopilotKnowledge;
  jobs: JobQueue;
  clock: () => Date;
  logger: Logger;
  /** 20 s in production (COPILOT_TIMEOUT_MS) */
  timeoutMs: number;
  /** the most audio bytes sent for one transcript (COPILOT_TRANSCRIPTION_MAX_BYTES) */
  maxAudioBytes: number;
  /** the outbound guard's save-time check of `baseUrl` (docs/adr/0062) */
  checkUrl?: (url: string) => Promise<void>;
};

/**
 * The attendants' copilot (issue 33, docs/adr/0099). Every call: the company's switch and the feature's (off: nothing
 * is sent, ERR_COPILOT_DISABLED), the ticket as the caller may see it, the monthly cap (ERR_AI_QUOTA), one provider
 * call bounded by `timeoutMs` (ERR_COPILOT_PROVIDER with the provider's status), its tokens counted on the usage
 * records and one audit entry (who, which ticket, which feature; never the text).
 */
export const createCopilotService = (deps: CopilotDeps) => {
  const { settings, secrets, provider, inbox, usage, audit, clock } = deps;
  const month = () => clock().toISOString().slice(0, 7);

  const respond = async (s: CopilotSettings): Promise<CopilotSettingsResponse> => {
    const u = await usage.get(s.companyId, month());
    return {
      enabled: s.enabled,
      baseUrl: s.baseUrl,
      apiKey: s.apiKeyMask,
      model: s.model,
      transcriptionModel: s.transcriptionModel,
      features: { ...s.features },
      summaryOnTransfer: s.summaryOnTransfer,
      monthlyTokenCap: s.monthlyTokenCap,
      tokensThisMonth: u.promptTokens + u.completionTokens,
    };
  };
  const merged = async (stored: CopilotSettings, input: Partial<CopilotSettingsInput>): Promise<CopilotSettings> => {
    const newKey = input.apiKey !== undefined && input.apiKey !== "" && !isMaskedSecret(input.apiKey) ? input.apiKey : null;
    return {
      ...stored,
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
      ...(input.transcriptionModel !== undefined ? { transcriptionModel: input.transcriptionModel } : {}),
      ...(input.features !== undefined ? { features: { ...stored.features, ...input.features } } : {}),
      ...(input.summaryOnTransfer !== undefined ? { summaryOnTransfer: input.summaryOnTransfer } : {}),
      ...(input.monthlyTokenCap !== undefined ? { monthlyTokenCap: input.monthlyTokenCap } : {}),
      ...(newKey ? { apiKey: await secrets.seal(newKey), apiKeyMask: maskSecret(newKey) } : {}),
    };
  };
  const targetOf = async (s: CopilotSettings, model: string): Promise<ProviderTarget> => ({ baseUrl: s.baseUrl, apiKey: s.apiKey ? await secrets.open(s.apiKey) : "", model });

  /** The company's settings if the copilot and this feature are on; else nothing is sent. */
  const ready = async (companyId: number, feature: CopilotFeature) => {
    const s = await settings.get(companyId);
    if (!s.enabled || !s.features[feature]) throw new AppError("ERR_COPILOT_DISABLED");
    if (s.monthlyTokenCap > 0) {
      const u = await usage.get(companyId, month());
      if (u.promptTokens + u.completionTokens >= s.monthlyTokenCap) throw new AppError("ERR_AI_QUOTA", { cap: s.monthlyTokenCap });
    }
    return s;
  };
  /** One provider call under the timeout; its failures as catalogue errors (never a 500). */
  const call = async <T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const signal = AbortSignal.timeout(deps.timeoutMs);
    try {
      return await fn(signal);
    } catch (err) {
      if (err instanceof CopilotUrlRefusedError) throw new AppError("ERR_URL_NOT_ALLOWED");
      if (err instanceof CopilotProviderError) throw new AppError("ERR_COPILOT_PROVIDER", { status: signal.aborted ? 0 : err.status });
      if (signal.aborted) throw new AppError("ERR_COPILOT_PROVIDER", { status: 0 });
      throw err;
    }
  };
  const chat = async (s: CopilotSettings, messages: Parameters<CopilotProvider["chat"]>[1], maxTokens: number, temperature?: number) => {
    const target = await targetOf(s, s.model || DEFAULT_COPILOT_MODEL);
    const out = await call((signal) => provider.chat(target, messages, { maxTokens, ...(temperature !== undefined ? { temperature } : {}), signal }));
    await usage.add(s.companyId, month(), COPILOT_USAGE_ID, out.usage);
    return out.text;
  };
  const trail = (auth: AuthContext, feature: CopilotFeature, record: { kind: "ticket" | "message" | "user"; id: number | string }) =>
    audit.record(auditEntry(auth, "copilot", record, { feature: { from: null, to: feature } }));
  const systemTrail = (companyId: number, feature: CopilotFeature, record: { kind: "ticket" | "message"; id: number | string }) =>
    audit.record({ companyId, actor: systemActor("copilot"), ip: "system", action: "copilot", record: { kind: record.kind, id: String(record.id) }, changes: { feature: { from: null, to: feature } } });

  const summarize = async (s: CopilotSettings, t: CopilotTicket, lang: string | undefined) => {
    const lines = await inbox.conversation(t, READ_LIMIT);
    return chat(s, summaryMessages(lines, lang), 300, 0.2);
  };
  /**
   * The ticket as the caller may see it and the company's settings, read side by side; the ticket's refusal
   * (not found, not visible) wins over the copilot's (off, over the cap), as if read one after the other.
   */
  const ticketAndSettings = async (auth: AuthContext, ticketId: number, feature: CopilotFeature) => {
    const [t, s] = await Promise.allSettled([inbox.visibleTicket(auth, ticketId), ready(auth.companyId, feature)]);
    if (t.status === "rejected") throw t.reason;
    if (s.status === "rejected") throw s.reason;
    return { t: t.value, s: s.value };
  };

  return {
    async getSettings(auth: AuthContext): Promise<CopilotSettingsResponse> {
      return respond(await settings.get(auth.companyId));
    },
    async putSettings(auth: AuthContext, input: CopilotSettingsInput): Promise<CopilotSettingsResponse> {
      if (input.baseUrl) await deps.checkUrl?.(input.baseUrl);
      const before = await settings.get(auth.companyId);
      const next = { ...(await merged(before, input)), updatedAt: clock().toISOString() };
      await settings.put(next);
      const changed = (["enabled", "baseUrl", "model", "transcriptionModel", "summaryOnTransfer", "monthlyTokenCap"] as const).filter((k) => before[k] !== next[k]);
      await audit.record(
        auditEntry(auth, "update", { kind: "setting", id: "copilot" }, {
          ...Object.fromEntries(changed.map((k) => [k, { from: before[k], to: next[k] }])),
          ...(before.apiKey !== next.apiKey ? { apiKey: { from: before.apiKey ? "••••" : null, to: "••••" } } : {}),
          ...(JSON.stringify(before.features) !== JSON.stringify(next.features) ? { features: { from: before.features, to: next.features } } : {}),
        }),
      );
      return respond(next);
    },
    /** The *Testar* button: one small chat call with the settings being edited (a key typed but not saved too). */
    async test(auth: AuthContext, input: Partial<CopilotSettingsInput>): Promise<CopilotTestResponse> {
      if (input.baseUrl) await deps.checkUrl?.(input.baseUrl);
      const s = await merged(await settings.get(auth.companyId), input);
      const model = s.model || DEFAULT_COPILOT_MODEL;
      try {
        const target = await targetOf(s, model);
        await call((signal) => provider.chat(target, [{ role: "user", content: "ping" }], { maxTokens: 5, signal }));
        return { ok: true, status: 200, model };
      } catch (err) {
        if (err instanceof AppError && err.code === "ERR_COPILOT_PROVIDER") return { ok: false, status: (err.data as { status: number }).status, model };
        throw err;
      }
    },
    async availability(auth: AuthContext): Promise<CopilotAvailability> {
      const s = await settings.get(auth.companyId);
      return { summary: s.enabled && s.features.summary, suggestions: s.enabled && s.features.suggestions, rewrite: s.enabled && s.features.rewrite, transcription: s.enabled && s.features.transcription };
    },
    async summary(auth: AuthContext, ticketId: number, lang?: string): Promise<CopilotSummaryResponse> {
      const { t, s } = await ticketAndSettings(auth, ticketId, "summary");
      const [summary] = await Promise.all([summarize(s, t, lang), trail(auth, "summary", { kind: "ticket", id: t.id })]);
      return { summary };
    },
    async suggestions(auth: AuthContext, ticketId: number, lang?: string): Promise<CopilotSuggestionsResponse> {
      const { t, s } = await ticketAndSettings(auth, ticketId, "suggestions");
      const [lines, k] = await Promise.all([inbox.conversation(t, READ_LIMIT), deps.knowledge(auth, t.queueId), trail(auth, "suggestions", { kind: "ticket", id: t.id })]);
      return { suggestions: parseSuggestions(await chat(s, suggestionsMessages(lines, knowledgeText(k), lang), 400, 0.7)) };
    },
    async rewrite(auth: AuthContext, input: RewriteInput): Promise<CopilotRewriteResponse> {
      const s = await ready(auth.companyId, "rewrite");
      await trail(auth, "rewrite", { kind: "user", id: auth.user.id });
      const text = await chat(s, rewriteMessages(input.text, input.style), Math.min(1_000, Math.ceil(input.text.length / 2) + 100), 0.3);
      return { text: text || input.text };
    },

    /** Inbox hook (every stored message): a new customer audio is queued for its transcript when the company has transcription on. */
    async onMessage(action: "create" | "update", m: { id: string; fromMe: boolean; mediaType: string; transcript?: string | null }, ticket: { id: number; companyId: number }): Promise<void> {
      if (action !== "create" || m.fromMe || m.mediaType !== "audio" || m.transcript) return;
      const s = await settings.get(ticket.companyId);
      if (!s.enabled || !s.features.transcription) return;
      await deps.jobs.enqueue({ type: "feature", companyId: ticket.companyId, name: COPILOT_TRANSCRIBE_JOB, payload: { ticketId: ticket.id, messageId: m.id } });
    },
    /** Inbox hook: a ticket handed from one attendant to another gets the summary as a note, if the company wants it. */
    async onTicketChange(before: { userId: number | null } | null, after: { id: number; companyId: number; userId: number | null }): Promise<void> {
      if (!before || before.userId === null || after.userId === null || before.userId === after.userId) return;
      const s = await settings.get(after.companyId);
      if (!s.enabled || !s.features.summary || !s.summaryOnTransfer) return;
      await deps.jobs.enqueue({ type: "feature", companyId: after.companyId, name: COPILOT_TRANSFER_SUMMARY_JOB, payload: { ticketId: after.id, toUserId: after.userId } });
    },
    /** The `copilot.transcribe` job: the audio (cut to the provider's limit) to text, stored on the message. */
    async transcribe(companyId: number, payload: { ticketId: number; messageId: string }): Promise<void> {
      const m = await inbox.audio(companyId, payload.ticketId, payload.messageId);
      if (!m || m.transcript || !m.mediaKey) return;
      let s: CopilotSettings;
      try {
        s = await ready(companyId, "transcription");
      } catch (err) {
        if (err instanceof AppError) return; // turned off meanwhile, or over the cap: no transcript
        throw err;
      }
      const bytes = await inbox.readMedia(m.mediaKey);
      if (!bytes) return;
      const cut = bytes.length > deps.maxAudioBytes;
      const target = await targetOf(s, s.transcriptionModel || DEFAULT_TRANSCRIPTION_MODEL);
      await systemTrail(companyId, "transcription", { kind: "message", id: m.id });
      try {
        const out = await call((signal) =>
          provider.transcribe(target, { bytes: cut ? bytes.subarray(0, deps.maxAudioBytes) : bytes, filename: m.mediaName || "audio.ogg", mimetype: m.mediaMimetype || "audio/ogg" }, { signal }),
        );
        if (out.text) await inbox.saveTranscript(companyId, m.ticketId, m.id, out.text, cut);
      } catch (err) {
        // a provider failure leaves the audio without a transcript (the job is not retried for ever)
        if (err instanceof AppError) deps.logger.warn("copilot: transcription failed", { companyId, messageId: m.id, code: err.code, data: err.data });
        else throw err;
      }
    },
    /** The `copilot.transferSummary` job: the summary as an internal note for the receiving attendant. */
    async transferSummary(companyId: number, payload: { ticketId: number }): Promise<void> {
      const t = await inbox.ticket(companyId, payload.ticketId);
      if (!t) return;
      try {
        const s = await ready(companyId, "summary");
        await systemTrail(companyId, "summary", { kind: "ticket", id: t.id });
        const summary = await summarize(s, t, undefined);
        if (summary) await inbox.addNote(t, `Resumo do copiloto: ${summary}`);
      } catch (err) {
        if (err instanceof AppError) deps.logger.warn("copilot: transfer summary skipped", { companyId, ticketId: t.id, code: err.code });
        else throw err;
      }
    },
  };
};
export type CopilotService = ReturnType<typeof createCopilotService>;
