import { createCopilotModule } from "../features/copilot/copilot.module";
import { createCopilotSettingsRepository } from "../features/copilot/copilot-settings.repository";
import { copilotProviderElsewhere } from "../features/copilot/copilot-provider.port";
import type { Base } from "./container-adapters";
import type { Foundation } from "./container-foundation";
import type { Administration } from "./container-administration";
import type { InboxStage } from "./container-inbox";
import type { Business } from "./container-business";

/**
 * Stage 6 of the composition: the attendants' copilot (issue 33, docs/adr/0099). It reads the inbox (its copilot
 * reads), the quick messages and the queue's AI prompt, and counts tokens on the bots' usage records; the inbox calls
 * its hooks (a customer's audio, a transfer) through `late.copilot`. The provider (`openai`) is a heavy port
 * (lambda-roles.ts): api and jobs only.
 */
export const composeCopilot = (deps: Base & Foundation & Administration & InboxStage & Business) => {
  const { config, overrides, db, secrets, outbound, audit, jobs, clock, logger, guards, inboxModule, botIntake, quickMessagesModule, promptsRepo, repos } = deps;
  const copilotModule = createCopilotModule({
    settings: createCopilotSettingsRepository(db),
    secrets,
    // the company's provider address through THE outbound guard (docs/adr/0062)
    provider: overrides.copilotProvider ? overrides.copilotProvider({ fetch: outbound.fetch }) : copilotProviderElsewhere,
    inbox: inboxModule.copilot,
    usage: botIntake.usage,
    audit,
    knowledge: async (auth, queueId) => {
      const [quick, queue] = await Promise.all([quickMessagesModule.service.listUsable(auth), queueId !== null ? repos.queues.findById(auth.companyId, queueId) : null]);
      const prompt = queue?.promptId ? await promptsRepo.findById(auth.companyId, queue.promptId) : null;
      return { quickMessages: quick.filter((q) => !q.isMedia).slice(0, 30).map((q) => ({ shortcode: q.shortcode, message: q.message })), queuePrompt: prompt?.prompt ?? null };
    },
    jobs,
    clock,
    logger,
    timeoutMs: config.COPILOT_TIMEOUT_MS,
    maxAudioBytes: config.COPILOT_TRANSCRIPTION_MAX_BYTES,
    checkUrl: outbound.checkSavedUrl,
    guards,
  });
  return { copilotModule };
};
