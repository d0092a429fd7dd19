import type { ChannelProvider } from "@atende/shared/domain/channels/channel-providers";
import type { Channel } from "../../platform/channels/channel.port";
import type { FeatureModule } from "../../platform/modules/feature-module";
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
