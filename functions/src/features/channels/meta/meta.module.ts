import type { ChannelFeature, ChannelModuleDeps } from "../channel-feature";
import type { FeatureModule } from "../../../platform/modules/feature-module";
import type { JobQueue } from "../../../platform/queues/jobs.port";
import { chatOfEvent } from "../../../platform/queues/inbound-queue.port";
import type { ChannelCommand } from "../../../platform/channels/channel.port";
import { createMetaChannel } from "../../../platform/channels/meta/meta-channel.adapter";
import { createMetaSender } from "../../../platform/channels/meta/meta-sender";
import { createSendApiClient } from "../../../platform/channels/meta/send-api.client";
import { createSendChain } from "../send-chain";
import { createMetaInbound } from "./meta-inbound";
import { createMetaRepository } from "./meta.repository";
import { createMetaService } from "./meta.service";
import { createMetaWebhookService } from "./meta-webhook.service";
import { META_WEBHOOK_PATH, metaWebhookRoutes } from "./meta-webhook.routes";

/** The jobs-queue job that runs one Messenger / Instagram command. */
export const META_SEND_JOB = "meta.send";

/**
 * Messenger and Instagram Direct (docs/adr/0090): settings, the signed webhook (verify and enqueue), the consumer
 * step (window, profile name, attachments), and the channel adapter whose sends run as jobs through the sender.
 */
export const createMetaModule = (deps: ChannelModuleDeps & { jobs: JobQueue }) => {
  const { db, secrets, media, inbound, jobs, clock, logger } = deps;
  const repo = createMetaRepository(db);
  const client = (baseUrl: string, pageAccessToken: string) => createSendApiClient({ baseUrl, pageAccessToken, fetch: deps.fetch });
  const service = createMetaService({ repo, secrets, clock, publicBaseUrl: deps.config.PUBLIC_BASE_URL, checkUrl: deps.checkUrl, client });
  const webhook = createMetaWebhookService({ repo, secrets, inbound, logger, metrics: deps.metrics });
  const inboundStep = createMetaInbound({ repo, secrets, media, logger, client: (rec, token) => client(rec.graphApiUrl, token) });
  const sender = createMetaSender({
    settings: service.settings,
    client: (s) => client(s.graphApiUrl, s.pageAccessToken),
    lastInboundAt: repo.lastInboundAt,
    media,
    report: (event) => inbound.put(event, chatOfEvent(event)),
    clock,
    logger,
    metrics: deps.metrics,
  });
  const enqueue = (command: ChannelCommand) => jobs.enqueue({ type: "feature", companyId: command.companyId, name: META_SEND_JOB, payload: command as unknown as Record<string, unknown> });
  // a bot turn's sends in order (docs/adr/0106): a later one waits for the one before it to settle
  const chain = createSendChain(db, { enqueue, clock });
  const channel = createMetaChannel({ enqueue: chain.dispatch });
  const mod: FeatureModule<typeof service> = {
    service,
    // public: Meta's webhook (the signature is the authentication); /api prefix added by http-app
    routes: [{ path: META_WEBHOOK_PATH.replace(/^\/api/, ""), app: metaWebhookRoutes(webhook) }],
    jobs: {
      named: {
        // every send ends in its job (sent or failed: the sender reports it and never re-queues)
        [META_SEND_JOB]: async (_companyId, payload) => {
          const command = payload as unknown as ChannelCommand;
          await chain.jobEnded(command, await sender.run(command));
        },
      },
    },
  };
  return { ...mod, repo, webhook, inboundStep, sender, channel };
};
export type MetaModule = ReturnType<typeof createMetaModule>;

/**
 * The two channel entries of the composition (docs/adr/0088): Messenger and Instagram share this one module, so its
 * routes and jobs are listed once (with Messenger's entry); each provider has its own connections part and kind.
 */
export const metaChannelFeatures = (m: MetaModule): ChannelFeature[] =>
  (["messenger", "instagram"] as const).map((provider) => ({
    provider,
    connections: m.service.connections(provider),
    channel: { kind: provider, ...m.channel },
    module: provider === "messenger" ? (m as FeatureModule<unknown>) : { service: m.service },
  }));
