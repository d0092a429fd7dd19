import type { PhoneNumberInfo } from "../../domain/cloud-api/cloud-api-connection";
import type { Whatsapp, WhatsappSchedule } from "../../domain/whatsapps/whatsapp";
import type { ChannelProvider } from "../../domain/channels/channel-providers";
import type { TelegramConnectionView } from "../../domain/channels/telegram";

/**
 * Another channel's settings as answered to admins (secrets masked; docs/adr/0088), discriminated by provider.
 * Each channel adds its view here; a channel without a typed view yet answers its fields as they are.
 */
export type ChannelConnectionView =
  | ({ provider: "telegram" } & TelegramConnectionView)
  | ({ provider: Exclude<ChannelProvider, "telegram">; webhookUrl?: string } & Record<string, unknown>);

/** A Cloud API connection's settings as answered (secrets masked), with its webhook URL and verify token. */
export type CloudApiConnectionView = {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  graphApiUrl: string;
  webhookUrl: string;
  verifyToken: string;
  throughputPerSecond: number;
  ratingTemplate: string;
  inactivityTemplate: string;
  transferTemplate: string;
  phoneInfo: PhoneNumberInfo | null;
  checkedAt: string | null;
  templatesSyncedAt: string | null;
};

/**
 * A connection as GET /whatsapp and GET /whatsapp/{id} answer it (spec 2 section 3): the stored connection
 * (shared/domain/whatsapps/whatsapp.ts) without its company, with its queues, its schedules always present, and the
 * external API `token` only for admins ("" for attendants).
 */
export type WhatsappResponse = Omit<Whatsapp, "companyId" | "schedules" | "disconnectReason" | "pairingCode"> & {
  queues: { id: number; name: string; color: string; greetingMessage: string }[];
  schedules: WhatsappSchedule[];
  /** why the session stopped, while DISCONNECTED: a close reason of ADR 0014 (forbidden, connectionReplaced, loggedOut, ...) */
  disconnectReason: string | null;
  /** pairing-code login: the 8-character code to enter on the phone, while the session waits for it */
  pairingCode: string | null;
  /** provider "cloudapi" only (GET /whatsapp/{id}, POST, PUT): the Cloud API settings, secrets masked */
  cloudApi?: CloudApiConnectionView | null;
  /** the other channels (provider telegram, messenger, instagram, webchat; GET /whatsapp/{id}, POST, PUT): their settings, secrets masked */
  channelSettings?: ChannelConnectionView | null;
};

/** Realtime `whatsappSession` (action update) and `whatsapp` (update / delete) events on company-{id}-... */
export type WhatsappSessionEvent = { action: "update"; session: WhatsappResponse };
export type WhatsappEvent = { action: "update"; whatsapp: WhatsappResponse } | { action: "delete"; whatsappId: number };
