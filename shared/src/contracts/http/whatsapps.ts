import type { ConnectionStatus } from "../../constants/business";
import type { PhoneNumberInfo } from "../../domain/cloud-api/cloud-api-connection";

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

/** A connection as GET /whatsapp and GET /whatsapp/{id} answer it (spec 2 section 3). */
export type WhatsappResponse = {
  id: number;
  name: string;
  number: string;
  status: ConnectionStatus;
  isDefault: boolean;
  channel: "simulator" | "baileys";
  provider: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number | null;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  queueIds: number[];
  queues: { id: number; name: string; color: string; greetingMessage: string }[];
  schedules: { weekday: string; weekdayEn: string; startTime: string; endTime: string }[];
  /** the external API token (admins only; "" for attendants) */
  token: string;
  qrcode: string;
  retries: number;
  /** why the session stopped, while DISCONNECTED: a close reason of ADR 0014 (forbidden, connectionReplaced, loggedOut, ...) */
  disconnectReason: string | null;
  /** pairing-code login: the 8-character code to enter on the phone, while the session waits for it */
  pairingCode: string | null;
  createdAt: string;
  updatedAt: string;
  /** provider "cloudapi" only (GET /whatsapp/{id}, POST, PUT): the Cloud API settings, secrets masked */
  cloudApi?: CloudApiConnectionView | null;
};

/** Realtime `whatsappSession` (action update) and `whatsapp` (update / delete) events on company-{id}-... */
export type WhatsappSessionEvent = { action: "update"; session: WhatsappResponse };
export type WhatsappEvent = { action: "update"; whatsapp: WhatsappResponse } | { action: "delete"; whatsappId: number };
