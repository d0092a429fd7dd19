import { DEFAULT_HANDOVER_KEYWORDS } from "@atende/shared/domain/bots/handover-keywords";
import { PROMPT_DEFAULTS } from "@atende/shared/domain/prompts/prompt";
import type { IntegrationType } from "@atende/shared/domain/queue-integrations/queue-integration";
import type { SecretBox } from "../../platform/secrets/secret-box.port";
import { isSealed } from "../../platform/secrets/secret-box.port";
import type { BotBinding, BotResolver, BotTicket, KnownBotItem } from "./bot-inbox.port";
import type { PromptBotConfig } from "./prompt-engine";

/** What the resolver reads of a stored prompt (the prompts feature's record). */
export type StoredPrompt = {
  id: number;
  name: string;
  prompt: string;
  model?: string;
  baseUrl?: string;
  apiKey: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  handoverKeywords?: string[];
  monthlyTokenCap?: number;
};
export type StoredIntegration = { id: number; type: IntegrationType } & Record<string, unknown>;
type Binds = { promptId: number | null; integrationId: number | null };

/** Opens a stored secret; a value stored before sealing existed (plain) is used as it is. */
export const openSecret = async (box: SecretBox, stored: string) => (stored && isSealed(stored) ? box.open(stored) : stored);

/** A stored prompt with its secrets opened, as the prompt engine takes it. */
export const promptConfig = async (box: SecretBox, p: StoredPrompt): Promise<PromptBotConfig> => ({
  id: p.id,
  name: p.name,
  prompt: p.prompt,
  model: p.model ?? "",
  baseUrl: p.baseUrl ?? "",
  apiKey: await openSecret(box, p.apiKey),
  maxTokens: p.maxTokens || PROMPT_DEFAULTS.maxTokens,
  temperature: p.temperature ?? PROMPT_DEFAULTS.temperature,
  maxMessages: p.maxMessages || PROMPT_DEFAULTS.maxMessages,
  voice: p.voice || "texto",
  voiceKey: await openSecret(box, p.voiceKey ?? ""),
  voiceRegion: p.voiceRegion ?? "",
  handoverKeywords: p.handoverKeywords ?? [...DEFAULT_HANDOVER_KEYWORDS],
});

/**
 * Which bot answers a ticket (ADR 0026): a ticket in a queue, the queue's (its integration, else its prompt); a ticket
 * without a queue, the connection's (integration, else prompt). Reads through the features' services, handed in as plain lookups.
 * `integrationConfig` turns a stored integration into its engine's config (bots-flows opens its secrets there).
 */
export const createBotResolver = (deps: {
  queue: (companyId: number, id: number) => Promise<Binds | null>;
  connection: (companyId: number, id: number) => Promise<Binds | null>;
  prompt: (companyId: number, id: number) => Promise<StoredPrompt | null>;
  integration: (companyId: number, id: number) => Promise<StoredIntegration | null>;
  secrets: SecretBox;
  integrationConfig?: (integration: StoredIntegration) => Promise<unknown>;
  /** issue 30: a flow's binding, asked first (flows/flow-binding.ts) */
  flow?: (ticket: BotTicket, known?: { item?: KnownBotItem }) => Promise<BotBinding | null>;
}): BotResolver => {
  const integrationConfig = deps.integrationConfig ?? (async (i: StoredIntegration) => i);
  const bindingOf = async (companyId: number, binds: Binds | null): Promise<BotBinding | null> => {
    if (!binds) return null;
    if (binds.integrationId) {
      const i = await deps.integration(companyId, binds.integrationId);
      if (i) return { kind: i.type, id: i.id, config: await integrationConfig(i) };
    }
    if (binds.promptId) {
      const p = await deps.prompt(companyId, binds.promptId);
      if (p) return { kind: "prompt", id: p.id, config: await promptConfig(deps.secrets, p), historyLimit: p.maxMessages, monthlyTokenCap: p.monthlyTokenCap ?? 0 };
    }
    return null;
  };
  return {
    async resolve(ticket: BotTicket, known) {
      const flow = deps.flow ? await deps.flow(ticket, known) : null;
      if (flow) return flow;
      // a ticket in a queue belongs to that queue: a queue without a bot is for people, whatever the connection has
      if (ticket.queueId) return bindingOf(ticket.companyId, await deps.queue(ticket.companyId, ticket.queueId));
      return ticket.whatsappId ? bindingOf(ticket.companyId, await deps.connection(ticket.companyId, ticket.whatsappId)) : null;
    },
  };
};
