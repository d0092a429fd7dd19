import type { PromptEventData, PromptListResponse, PromptResponse, PromptUsage } from "@atende/shared/contracts/http/prompts";
import { DEFAULT_HANDOVER_KEYWORDS } from "@atende/shared/domain/bots/handover-keywords";
import { type PromptInput, type PromptUpdateInput, isMaskedSecret, maskSecret } from "@atende/shared/domain/prompts/prompt";
import { AppError } from "../../platform/errors";
import { isSealed, type SecretBox } from "../../platform/secrets/secret-box.port";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { Queue } from "@atende/shared/domain/queues/queue";
import type { QueuesService } from "../queues/queues.service";
import type { RealtimeService } from "../realtime/realtime.service";
import type { WhatsappsService } from "../whatsapps/whatsapps.service";
import type { Prompt, PromptsRepository } from "./prompts.repository";
import type { AuditRecorder } from "../audit/audit.port";
import { auditChanges, auditEntry } from "../audit/audit-diff";

/** A stored secret's mask: the one kept at sealing time, else (a row saved before sealing) computed from its plain text. */
const maskOf = (stored: string, mask: string | undefined) => mask ?? (stored && !isSealed(stored) ? maskSecret(stored) : stored ? "•".repeat(8) : "");

/** The browser never gets a stored secret back: `apiKey` and `voiceKey` are masked. */
export const toPromptResponse = (p: Prompt, queue: Pick<Queue, "id" | "name" | "color"> | null, tokensThisMonth = 0): PromptResponse => ({
  id: p.id,
  name: p.name,
  prompt: p.prompt,
  voice: p.voice,
  voiceKey: maskOf(p.voiceKey, p.voiceKeyMask),
  voiceRegion: p.voiceRegion,
  maxTokens: p.maxTokens,
  temperature: p.temperature,
  apiKey: maskOf(p.apiKey, p.apiKeyMask),
  queueId: p.queueId,
  queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
  maxMessages: p.maxMessages,
  model: p.model ?? "",
  baseUrl: p.baseUrl ?? "",
  handoverKeywords: p.handoverKeywords ?? [...DEFAULT_HANDOVER_KEYWORDS],
  monthlyTokenCap: p.monthlyTokenCap ?? 0,
  tokensThisMonth,
  companyId: p.companyId,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** What the prompts page reads of the bot runner's counters: a company's tokens in a month (UTC, "2026-11"). */
export type PromptTokenCounts = {
  get(companyId: number, month: string): Promise<{ promptTokens: number; completionTokens: number; byPrompt: Record<number, number> }>;
};

/** AI prompts (spec 3): admin-only, plan flag useOpenAi (both checked by the routes). */
export const createPromptsService = (deps: {
  /** the audit trail (docs/adr/0029) */
  audit: AuditRecorder;
  prompts: PromptsRepository;
  queues: Pick<QueuesService, "findById" | "listByCompany">;
  whatsapps: Pick<WhatsappsService, "list">;
  realtime: RealtimeService;
  clock: () => Date;
  /** seals the API and voice keys before they are stored (KMS in AWS, a key file on one machine) */
  secrets: SecretBox;
  /** the bot runner's token counters (tokens this month on the list) */
  tokens: PromptTokenCounts;
  /** the outbound guard's save-time check of `baseUrl` (docs/adr/0062): ERR_URL_NOT_ALLOWED when refused */
  checkUrl?: (url: string) => Promise<void>;
}) => {
  const { prompts, queues, whatsapps, realtime, clock, secrets, tokens } = deps;
  const month = () => clock().toISOString().slice(0, 7);
  /** A secret as stored, with its mask: sealed ("" stays ""). */
  const seal = async (plain: string) => (plain ? { sealed: await secrets.seal(plain), mask: maskSecret(plain) } : { sealed: "", mask: "" });
  /** An update's secret: absent, empty or the masked value we answered keeps the stored one; anything else is sealed. */
  const nextSecret = async (sent: string | undefined, stored: string, storedMask: string | undefined) => {
    if (sent !== undefined && sent !== "" && !isMaskedSecret(sent)) return seal(sent);
    // a row saved before sealing existed is sealed the first time it is saved again
    return stored && !isSealed(stored) ? seal(stored) : { sealed: stored, mask: storedMask };
  };
  const usageOf = async (companyId: number): Promise<{ usage: PromptUsage; byPrompt: Record<number, number> }> => {
    const m = month();
    const u = await tokens.get(companyId, m);
    return { usage: { month: m, promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens: u.promptTokens + u.completionTokens }, byPrompt: u.byPrompt };
  };

  const find = async (companyId: number, id: number) => {
    const p = await prompts.findById(companyId, id);
    if (!p) throw new AppError("ERR_NO_PROMPT_FOUND");
    return p;
  };
  /** The prompt's queue must be one of the company's own queues. */
  const ownQueue = async (companyId: number, queueId: number) => {
    const queue = await queues.findById(companyId, queueId);
    if (!queue) throw new AppError("ERR_NO_QUEUE_FOUND");
    return queue;
  };
  const respond = async (p: Prompt) => {
    const [queue, { byPrompt }] = await Promise.all([p.queueId ? queues.findById(p.companyId, p.queueId) : null, usageOf(p.companyId)]);
    return toPromptResponse(p, queue, byPrompt[p.id] ?? 0);
  };
  /** Prompts hold secrets (masked) and are an admin page: only the company's admins hear of them. */
  const publish = (companyId: number, data: PromptEventData) => realtime.publish<PromptEventData>(companyId, "prompt", data, { kind: "admins" });

  return {
    /** GET /prompt: every prompt of the company with its queue (a company has a handful). */
    async list(auth: AuthContext): Promise<PromptListResponse> {
      const [all, companyQueues, { usage, byPrompt }] = await Promise.all([prompts.listByCompany(auth.companyId), queues.listByCompany(auth.companyId), usageOf(auth.companyId)]);
      const byId = new Map(companyQueues.map((q) => [q.id, q]));
      return { prompts: all.map((p) => toPromptResponse(p, p.queueId ? (byId.get(p.queueId) ?? null) : null, byPrompt[p.id] ?? 0)), usage };
    },
    async get(auth: AuthContext, id: number): Promise<PromptResponse> {
      return respond(await find(auth.companyId, id));
    },
    /** For other features (queues): whether the company has this prompt. */
    async exists(companyId: number, id: number): Promise<boolean> {
      return (await prompts.findById(companyId, id)) !== null;
    },
    async create(auth: AuthContext, input: PromptInput): Promise<PromptResponse> {
      const queue = await ownQueue(auth.companyId, input.queueId);
      await deps.checkUrl?.(input.baseUrl);
      const [apiKey, voiceKey] = await Promise.all([seal(input.apiKey), seal(input.voiceKey)]);
      const p = await prompts.create(
        { companyId: auth.companyId, ...input, apiKey: apiKey.sealed, apiKeyMask: apiKey.mask, voiceKey: voiceKey.sealed, voiceKeyMask: voiceKey.mask, queueId: queue.id },
        clock(),
      );
      const out = toPromptResponse(p, queue);
      await publish(auth.companyId, { action: "create", prompt: out });
      await deps.audit.record(auditEntry(auth, "create", { kind: "prompt", id: p.id }, auditChanges(null, p)));
      return out;
    },
    async update(auth: AuthContext, id: number, input: PromptUpdateInput): Promise<PromptResponse> {
      const before = await find(auth.companyId, id);
      const queueId = input.queueId ?? before.queueId;
      // a prompt must keep a queue ("Informe o setor"): an old prompt whose queue was deleted needs a new one
      if (!queueId) throw new AppError("ERR_NO_QUEUE_FOUND");
      const queue = await ownQueue(auth.companyId, queueId);
      if (input.baseUrl !== undefined) await deps.checkUrl?.(input.baseUrl);
      const [apiKey, voiceKey] = await Promise.all([nextSecret(input.apiKey, before.apiKey, before.apiKeyMask), nextSecret(input.voiceKey, before.voiceKey, before.voiceKeyMask)]);
      const next: Prompt = {
        ...before,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
        ...(input.voice !== undefined ? { voice: input.voice } : {}),
        ...(input.voiceRegion !== undefined ? { voiceRegion: input.voiceRegion } : {}),
        ...(input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}),
        ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
        ...(input.maxMessages !== undefined ? { maxMessages: input.maxMessages } : {}),
        ...(input.model !== undefined ? { model: input.model } : {}),
        ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
        ...(input.handoverKeywords !== undefined ? { handoverKeywords: input.handoverKeywords } : {}),
        ...(input.monthlyTokenCap !== undefined ? { monthlyTokenCap: input.monthlyTokenCap } : {}),
        apiKey: apiKey.sealed,
        apiKeyMask: apiKey.mask,
        voiceKey: voiceKey.sealed,
        voiceKeyMask: voiceKey.mask,
        queueId: queue.id,
        updatedAt: clock().toISOString(),
      };
      await prompts.replace(next);
      const out = toPromptResponse(next, queue, (await usageOf(auth.companyId)).byPrompt[next.id] ?? 0);
      await publish(auth.companyId, { action: "update", prompt: out });
      await deps.audit.record(auditEntry(auth, "update", { kind: "prompt", id }, auditChanges(before, next)));
      return out;
    },
    /** Refused while a queue or a connection still uses the prompt (ERR_PROMPT_IN_USE with their names). */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const p = await find(auth.companyId, id);
      const [companyQueues, connections] = await Promise.all([queues.listByCompany(auth.companyId), whatsapps.list(auth)]);
      const usedBy = {
        queues: companyQueues.filter((q) => q.promptId === id).map((q) => q.name),
        connections: connections.filter((w) => w.promptId === id).map((w) => w.name),
      };
      if (usedBy.queues.length || usedBy.connections.length) throw new AppError("ERR_PROMPT_IN_USE", usedBy);
      await prompts.remove(auth.companyId, p.id);
      await publish(auth.companyId, { action: "delete", promptId: p.id });
      await deps.audit.record(auditEntry(auth, "delete", { kind: "prompt", id: p.id }, auditChanges(p, null)));
    },
    /** When a queue goes, prompts bound to it keep existing without a queue (the list shows none; editing asks for one). */
    async detachQueue(companyId: number, queueId: number): Promise<void> {
      for (const p of await prompts.listByCompany(companyId)) {
        if (p.queueId !== queueId) continue;
        const next = { ...p, queueId: null, updatedAt: clock().toISOString() };
        await prompts.replace(next);
        await publish(companyId, { action: "update", prompt: toPromptResponse(next, null) });
      }
    },
  };
};
export type PromptsService = ReturnType<typeof createPromptsService>;
