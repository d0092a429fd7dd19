import * as z from "zod";
import { CLOUD_API_PROVIDER } from "../cloud-api/cloud-api-connection";
import { telegramFieldsSchema } from "./telegram";
import { messengerFieldsSchema, instagramFieldsSchema } from "./meta";
import { webchatFieldsSchema } from "./webchat";

/**
 * The channels a ticket can come from (docs/adr/0088-channels-common-provider-model.md). A connection's `provider`
 * tells its channel: "beta" (or any QR provider) is WhatsApp through a session host, "cloudapi" the official Cloud
 * API, and each other channel is its own provider value, reached through its official API behind the channel port.
 */
export const CHANNELS = ["whatsapp", "cloudapi", "telegram", "messenger", "instagram", "webchat"] as const;
export type ChannelName = (typeof CHANNELS)[number];

/** The providers that are not WhatsApp: each has its own settings (schemas below), webhook and client. */
export const CHANNEL_PROVIDERS = ["telegram", "messenger", "instagram", "webchat"] as const;
export type ChannelProvider = (typeof CHANNEL_PROVIDERS)[number];
export const isChannelProvider = (provider: string | null | undefined): provider is ChannelProvider =>
  (CHANNEL_PROVIDERS as readonly string[]).includes(provider ?? "");

/** The channel of a connection's provider (absent or a QR provider: WhatsApp). */
export const channelOfProvider = (provider: string | null | undefined): ChannelName =>
  provider === CLOUD_API_PROVIDER ? "cloudapi" : isChannelProvider(provider) ? provider : "whatsapp";

/**
 * A channel user's chat id in the inbound pipeline and on outbound commands: `<userId>@<channel>` (a Telegram user
 * 12345 is "12345@telegram"), the same place a WhatsApp jid takes, so queues, tickets and bots need no new path.
 */
export const channelJid = (channel: ChannelProvider, userId: string) => `${userId}@${channel}`;
export const parseChannelJid = (jid: string): { channel: ChannelProvider; userId: string } | null => {
  const at = jid.lastIndexOf("@");
  if (at <= 0) return null;
  const channel = jid.slice(at + 1);
  return isChannelProvider(channel) ? { channel, userId: jid.slice(0, at) } : null;
};

/**
 * The provider-specific fields of the connection form (POST /whatsapp, PUT /whatsapp/{id}), discriminated by
 * `provider`. Secrets: on PUT a masked value (or empty) keeps the stored one; they are sealed at rest and masked
 * in every answer (as the Cloud API's access token).
 */
export const channelFieldsSchema = z.discriminatedUnion("provider", [telegramFieldsSchema, messengerFieldsSchema, instagramFieldsSchema, webchatFieldsSchema]);
export type ChannelFields = z.infer<typeof channelFieldsSchema>;
export type ChannelFieldsOf<P extends ChannelProvider> = Extract<ChannelFields, { provider: P }>;
