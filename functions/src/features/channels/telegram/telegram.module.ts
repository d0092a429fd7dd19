import { chatOfEvent } from "../../../platform/queues/inbound-queue.port";
import type { GraphFetch } from "../../../platform/channels/cloud-api/graph-api.client";
import { createTelegramBotClient } from "../../../platform/channels/telegram/telegram-bot.client";
import { createTelegramChannel } from "../../../platform/channels/telegram/telegram-channel.adapter";
import type { ChannelFeature, ChannelModuleDeps } from "../channel-feature";
import { createTelegramRepository } from "./telegram.repository";
import type { JobQueue } from "../../../platform/queues/jobs.port";
import { createSendChain } from "../send-chain";
import { createTelegramSender, type TelegramJob } from "./telegram-sender";
import { createTelegramService, TELEGRAM_WEBHOOK_PATH, type TelegramSettings } from "./telegram.service";
import { createTelegramWebhookService } from "./telegram-webhook.service";
import { telegramWebhookRoutes } from "./telegram-webhook.routes";

/**
 * The Telegram channel (issue 31, docs/adr/0088): connections (token sealed, getMe and setWebhook on save), the
 * webhook (secret token, mapping, files downloaded) into the common inbound pipeline, and the sender behind the
 * channel port. Every Bot API call goes through the given fetch: the one outbound guard (docs/adr/0062).
 */
/** The jobs-queue job that runs one Telegram command (send, edit), out of the attendant's request. */
export const TELEGRAM_SEND_JOB = "telegram.send";

export const createTelegramModule = (deps: ChannelModuleDeps & { fetch: GraphFetch; jobs: JobQueue }): ChannelFeature & { service: ReturnType<typeof createTelegramService>; webhook: ReturnType<typeof createTelegramWebhookService> } => {
  const repo = createTelegramRepository(deps.db);
  const bot = (s: TelegramSettings) => createTelegramBotClient({ baseUrl: s.telegramApiUrl, botToken: s.botToken, fetch: deps.fetch });
  const service = createTelegramService({ repo, secrets: deps.secrets, bot, clock: deps.clock, logger: deps.logger, publicBaseUrl: deps.config.PUBLIC_BASE_URL, checkUrl: deps.checkUrl });
  const webhook = createTelegramWebhookService({ repo, secrets: deps.secrets, inbound: deps.inbound, media: deps.media, bot, logger: deps.logger, metrics: deps.metrics });
  const enqueue = (job: TelegramJob, delaySeconds = 0) => deps.jobs.enqueue({ type: "feature", companyId: job.command.companyId, name: TELEGRAM_SEND_JOB, payload: job as unknown as Record<string, unknown> }, delaySeconds);
  // a bot turn's (and several files') sends in order (docs/adr/0106): a later one waits for the one before it to settle
  const chain = createSendChain(deps.db, { enqueue: (command) => enqueue({ command, attempt: 0 }), clock: deps.clock });
  const sender = createTelegramSender({
    later: (job, delaySeconds) => enqueue(job, delaySeconds),
    settings: (companyId, whatsappId) => service.settings(companyId, whatsappId),
    bot,
    repo,
    media: deps.media,
    report: (event) => deps.inbound.put(event, chatOfEvent(event)),
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  return {
    provider: "telegram",
    connections: service.connections,
    channel: createTelegramChannel({ run: chain.dispatch }),
    module: {
      service,
      // public: Telegram's webhook (the secret token is the authentication); /api prefix added by http-app
      routes: [{ path: TELEGRAM_WEBHOOK_PATH.replace(/^\/api/, ""), app: telegramWebhookRoutes(webhook) }],
      jobs: {
        named: {
          [TELEGRAM_SEND_JOB]: async (_companyId, payload) => {
            const job = payload as unknown as TelegramJob;
            await chain.jobEnded(job.command, await sender.run(job));
          },
        },
      },
    },
    service,
    webhook,
  };
};
