import { isChannelProvider } from "@atende/shared/domain/channels/channel-providers";
import type { Channel, ChannelCapabilities, ChannelKind, Channels } from "./channel.port";

/**
 * The channel registry with the kind resolved per connection: a caller that passes only `whatsappId` gets a
 * channel that looks the connection's kind up at dispatch (cached by the lookup), so code written before the
 * second provider sends Cloud API connections through the Cloud API adapter without knowing of it. A caller that
 * knows the kind (the connection's `provider`) passes it and gets that adapter directly, capabilities included.
 * The other channels (docs/adr/0088) register their adapter under their provider name; a kind without an adapter
 * (a channel not built into this deployment) fails its dispatch instead of reaching the session host.
 */
export const providerKind = (provider: string | null | undefined): ChannelKind =>
  provider === "cloudapi" ? "cloud-api" : isChannelProvider(provider) ? provider : "session-host";

export type ChannelAdapters = Record<"session-host" | "cloud-api", Channel> & Partial<Record<ChannelKind, Channel>>;

const missing = (kind: ChannelKind, base: Channel): Channel => ({
  kind,
  capabilities: base.capabilities,
  dispatch: async () => {
    throw new Error(`channel ${kind}: no adapter registered`);
  },
});

export const createProviderChannels = (
  adapters: ChannelAdapters,
  kindOf: (companyId: number, whatsappId: number) => Promise<ChannelKind>,
): Channels & { capabilitiesOf(provider: string | null | undefined): ChannelCapabilities } => {
  const adapterOf = (kind: ChannelKind): Channel => adapters[kind] ?? missing(kind, adapters["session-host"]);
  return {
    forConnection: ({ kind }) =>
      kind
        ? adapterOf(kind)
        : {
            kind: "session-host",
            capabilities: adapters["session-host"].capabilities,
            dispatch: async (command) => adapterOf(await kindOf(command.companyId, command.whatsappId)).dispatch(command),
          },
    capabilitiesOf: (provider) => adapterOf(providerKind(provider)).capabilities,
  };
};
