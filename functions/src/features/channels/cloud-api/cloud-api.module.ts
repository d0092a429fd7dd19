import type { FeatureModule, Guards } from "../../../platform/modules/feature-module";
import type { JobQueue } from "../../../platform/queues/jobs.port";
import { chatOfEvent } from "../../../platform/queues/inbound-queue.port";
import type { ChannelModuleDeps } from "../channel-feature";
import { createSendChain } from "../send-chain";
import { createCloudApiChannel } from "../../../platform/channels/cloud-api/cloud-api-channel.adapter";
import { createCloudApiSender, type CloudApiJob } from "../../../platform/channels/cloud-api/cloud-api-sender";
import { createGraphApiClient } from "../../../platform/channels/cloud-api/graph-api.client";
import { createCloudApiInbound } from "./cloud-api-inbound";
import { createDynamoGates } from "./cloud-api-gates.repository";
import { createCloudApiRepository } from "./cloud-api.repository";
import { createCloudApiService } from "./cloud-api.service";
import { createCloudApiWebhookService } from "./cloud-api-webhook.service";
import { cloudApiWebhookRoutes } from "./cloud-api-webhook.routes";
import { cloudApiRoutes } from "./cloud-api.routes";
import { WEBHOOK_PATH } from "./cloud-api.service";

/** The jobs-queue job that runs one Cloud API command (send, react, read), retried with a delay. */
export const CLOUD_API_SEND_JOB = "cloudapi.send";

/**
 * The Cloud API feature, built from the platform's parts (docs/adr/0028-cloud-api-provider.md): settings and
 * templates, the webhook (verify and enqueue), the consumer step (ids, media, window), and the channel adapter
 * whose commands run as jobs through the sender.
 */
export const createCloudApiModule = (deps: ChannelModuleDeps & {
  jobs: JobQueue;
  /** the route guards; without them the module has no routes (the webhook Lambda builds only the webhook) */
  guards?: Pick<Guards, "auth">;
  /** the ticket's connection and chat, when the ticket is the company's (the inbox's read) */
  ticketOf?: Parameters<typeof cloudApiRoutes>[0]["ticketOf"];
  /** the connection's provider, when the connection is the company's (the connections feature's read) */
  providerOf?: (companyId: number, whatsappId: number) => Promise<string | null>;
  /** another channel's reply window for the composer (Messenger / Instagram, docs/adr/0090) */
  otherWindow?: Parameters<typeof cloudApiRoutes>[0]["otherWindow"];
}) => {
  const { db, secrets, media, inbound, jobs, clock, logger } = deps;
  const repo = createCloudApiRepository(db);
  const graph = (o: { baseUrl: string; accessToken: string }) => createGraphApiClient({ ...o, fetch: deps.fetch });
  const service = createCloudApiService({ repo, secrets, graph, clock, logger, publicBaseUrl: deps.config.PUBLIC_BASE_URL, checkUrl: deps.checkUrl });
  const webhook = createCloudApiWebhookService({ repo, secrets, inbound, logger, metrics: deps.metrics });
  const inboundStep = createCloudApiInbound({ repo, secrets, media, graph, logger });
  const enqueue = (job: CloudApiJob, delayMs = 0) =>
    jobs.enqueue({ type: "feature", companyId: job.command.companyId, name: CLOUD_API_SEND_JOB, payload: job as unknown as Record<string, unknown> }, Math.min(900, Math.ceil(delayMs / 1000)));
  const sender = createCloudApiSender({
    settings: (companyId, whatsappId) => service.settings(companyId, whatsappId),
    graph: (s) => graph({ baseUrl: s.graphApiUrl, accessToken: s.accessToken }),
    ids: repo.ids,
    media,
    report: (event) => inbound.put(event, chatOfEvent(event)),
    later: (job, delayMs) => enqueue(job, delayMs),
    gates: createDynamoGates(db),
    clock,
    logger,
    metrics: deps.metrics,
  });
  // a bot turn's sends in order (docs/adr/0106): a later one waits for the one before it to settle
  const chain = createSendChain(db, { enqueue: (command) => enqueue({ command, attempt: 0, turn: 0 }), clock });
  const channel = createCloudApiChannel({ enqueue: chain.dispatch });
  const mod: FeatureModule<typeof service> = {
    service,
    routes: [
      // public: Meta's webhook (the signature is the authentication); /api prefix added by http-app
      { path: WEBHOOK_PATH.replace(/^\/api/, ""), app: cloudApiWebhookRoutes(webhook) },
      ...(deps.guards && deps.ticketOf && deps.providerOf
        ? [{ path: "/cloud-api", app: cloudApiRoutes({ service, guards: deps.guards, ticketOf: deps.ticketOf, providerOf: deps.providerOf, otherWindow: deps.otherWindow }) }]
        : []),
    ],
    jobs: {
      named: {
        [CLOUD_API_SEND_JOB]: async (_companyId, payload) => {
          const job = payload as unknown as CloudApiJob;
          await chain.jobEnded(job.command, await sender.run(job));
        },
      },
    },
    // templates synced once a day per connection (the minute tick picks the ones due)
    tick: [{ name: "cloudapi.templates", run: async (now) => void (await service.syncDue(now)) }],
  };
  return { ...mod, repo, webhook, inboundStep, sender, channel };
};
export type CloudApiModule = ReturnType<typeof createCloudApiModule>;
