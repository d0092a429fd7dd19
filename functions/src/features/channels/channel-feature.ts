import type { ChannelProvider } from "@atende/shared/domain/channels/channel-providers";
import type { Channel } from "../../platform/channels/channel.port";
import type { FeatureModule } from "../../platform/modules/feature-module";
import type { GraphFetch } from "../../platform/channels/cloud-api/graph-api.client";
import type { Config } from "../../platform/config";
import type { Db } from "../../platform/db/client";
import type { Logger } from "../../platform/logger";
import type { Metrics } from "../../platform/metrics";
import type { InboundQueue } from "../../platform/queues/inbound-queue.port";
import type { SecretBox } from "../../platform/secrets/secret-box.port";
import type { MediaStore } from "../../platform/storage/media-store.port";
import type { ProviderConnections } from "../whatsapps/whatsapps.service";

/**
 * One channel beyond WhatsApp, as the composition plugs it in (docs/adr/0088): its connections part (what
 * POST/PUT /whatsapp with its `provider` calls), its adapter behind the channel port (what the inbox dispatches
 * sends to), and its module (webhook and routes, jobs, ticks). The container lists them in one array
 * (app/container-administration.ts, `channelFeatures`): adding a channel is adding its entry there.
 */
export type ChannelFeature = {
  provider: ChannelProvider;
  connections: ProviderConnections;
  channel: Channel;
  module: FeatureModule<unknown>;
};

/** The registries the composition derives from the list: connections by provider, adapters by kind. */
export const channelRegistries = (features: ChannelFeature[]) => ({
  connections: Object.fromEntries(features.map((f) => [f.provider, f.connections])) as Partial<Record<ChannelProvider, ProviderConnections>>,
  adapters: Object.fromEntries(features.map((f) => [f.provider, f.channel])) as Partial<Record<ChannelProvider, Channel>>,
});

/** What every channel's module is built from (Cloud API, Messenger/Instagram, Telegram): the platform's parts. */
export type ChannelModuleDeps = {
  db: Db;
  config: Pick<Config, "PUBLIC_BASE_URL">;
  secrets: SecretBox;
  media: MediaStore;
  inbound: InboundQueue;
  clock: () => Date;
  logger: Logger;
  /** webhook and sender counters (messages in/out, send failures, signature failures) */
  metrics?: Metrics;
  /** the guarded outbound fetch (platform/net/outbound-fetch.ts, docs/adr/0062); tests: a stand-in */
  fetch?: GraphFetch;
  /** the outbound guard's save-time URL check */
  checkUrl?: (url: string) => Promise<void>;
};
