import type { Channel, ChannelCapabilities, ChannelKind, Channels } from "./channel.port";

/**
 * The channel registry with the kind resolved per connection: a caller that passes only `whatsappId` gets a
 * channel that looks the connection's kind up at dispatch (cached by the lookup), so code written before the
 * second provider sends Cloud API connections through the Cloud API adapter without knowing of it. A caller that
 * knows the kind (the connection's `provider`) passes it and gets that adapter directly, capabilities included.
 */
export const providerKind = (provider: string | null | undefined): ChannelKind => (provider === "cloudapi" ? "cloud-api" : provider === "webchat" ? "webchat" : "session-host");

export const createProviderChannels = (
  adapters: Record<ChannelKind, Channel>,
  kindOf: (companyId: number, whatsappId: number) => Promise<ChannelKind>,
): Channels & { capabilitiesOf(provider: string | null | undefined): ChannelCapabilities } => ({
  forConnection: ({ kind }) =>
    kind
      ? adapters[kind]
      : {
          kind: "session-host",
          capabilities: adapters["session-host"].capabilities,
          dispatch: async (command) => adapters[await kindOf(command.companyId, command.whatsappId)].dispatch(command),
        },
  capabilitiesOf: (provider) => adapters[providerKind(provider)].capabilities,
});
