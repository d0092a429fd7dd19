import type { ConnectionStatus } from "../../constants/business";

/** A connection as stored (GET /whatsapp answers a view of it with its queues; the token only to admins). */
export type WhatsappSchedule = { weekday: string; weekdayEn: string; startTime: string; endTime: string };
export type Whatsapp = {
  id: number;
  companyId: number;
  name: string;
  number: string;
  status: ConnectionStatus;
  isDefault: boolean;
  /** "simulator" or "baileys": which session-host provider drives it */
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
  /** issue 30: the flow a new conversation starts (absent on rows saved before it) */
  flowId?: number | null;
  queueIds: number[];
  schedules?: WhatsappSchedule[];
  token: string;
  qrcode: string;
  retries: number;
  /** why the session stopped (a close reason of ADR 0014), while DISCONNECTED */
  disconnectReason?: string | null;
  /** pairing-code login: the code the phone must enter, while the session waits for it (status qrcode) */
  pairingCode?: string | null;
  createdAt: string;
  updatedAt: string;
};
export type NewWhatsapp = Omit<Whatsapp, "id" | "companyId" | "createdAt" | "updatedAt">;
export type WhatsappChanges = Partial<Omit<Whatsapp, "id" | "companyId" | "createdAt" | "token" | "channel">>;
