/** Business constants and limits of spec 1 section 9 and spec 2 section 9. */
export const SOCKET_PING_MS = 18_000;
export const USER_STATUS_PING_MS = 300_000;
export const USER_OFFLINE_AFTER_MS = 5 * 60_000;
export const DEBOUNCE_SEARCH_MS = 500;
export const DEBOUNCE_VCARD_MS = 1_500;
export const DEBOUNCE_CONNECTION_BADGE_MS = 2_000;
export const SEARCH_MIN_CHARS = 3;
export const MESSAGES_SCROLL_TOP_PX = 50;
export const LIST_SCROLL_BOTTOM_PX = 100;
export const NAME_MIN = 2;
export const NAME_MAX = 50;
export const CONTACT_NUMBER_MIN = 8;
export const CONTACT_NUMBER_MAX = 50;
export const PASSWORD_MIN = 5;
export const PASSWORD_MAX = 50;
export const RESET_PASSWORD_MIN = 8;
export const ERROR_TOAST_MS = 2_000;
export const DUE_DATE_WARNING_DAYS = 5;
export const REACTION_QUICK_COUNT = 6;
export const EDIT_MESSAGE_ROWS = 6;
export const COMPOSER_ROWS = 5;
export const QUICK_MESSAGE_LABEL_MAX = 35;
export const FORWARD_PAUSE_MS = 900;
export const AUDIO_MIN_BYTES = 10_000;
/** The largest media a message may carry, sent or received (larger media is refused, never buffered). */
export const MAX_MESSAGE_MEDIA_BYTES = 64 * 1024 * 1024;
export const IMAGE_QUALITY = 0.7;
export const AUDIO_BITRATE = 128;
export const RATING_MIN = 1;
export const RATING_MAX = 3;
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
export const AUTO_CLOSE_HOURS = 24;
export const ANNOUNCEMENT_PRIORITY_COLORS = { 1: "red", 2: "orange", 3: "grey" } as const;
export const TICKET_AGE_REFRESH_MS = 30_000;
export const TRIAL_DAYS_DEFAULT = 3;
export const TRIAL_DAYS_MIN = 1;
export const TRIAL_DAYS_MAX = 7;
export const LOGO_REDIRECT_MS = 500;
export const CHECKOUT_REDIRECT_MS = 4_000;
export const QUEUE_COLOR_MIN = 3;
export const QUEUE_COLOR_MAX = 9;
export const PAGE_SIZE = 20;
export const MESSAGES_PAGE_SIZE = 20;

export const RECURRENCES = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;
export type Recurrence = keyof typeof RECURRENCES;

export const CONNECTION_DEFAULTS = {
  maxUseBotQueues: 3,
  timeUseBotQueues: 0,
  expiresTicket: 0,
  provider: "beta",
} as const;

/**
* PASSKEY_REQUIRED: WhatsApp asked this number for a passkey while linking (docs/adr/0076); a linked device
 * built on WhatsApp Web's protocol cannot answer it, so the connection waits for the owner.
 * WAITING_CAPACITY: the connection should run but every session host is full (docs/adr/0070); it starts as soon
 * as a host has room.
 */
export const CONNECTION_STATUSES = ["CONNECTED", "qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING", "PASSKEY_REQUIRED", "WAITING_CAPACITY"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
/** States that put the red badge on the connections menu item. */
export const CONNECTION_ALERT_STATUSES: readonly ConnectionStatus[] = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING", "PASSKEY_REQUIRED", "WAITING_CAPACITY"];

export const WEEKDAYS = [
  { weekday: "Segunda-feira", weekdayEn: "monday" },
  { weekday: "Terça-feira", weekdayEn: "tuesday" },
  { weekday: "Quarta-feira", weekdayEn: "wednesday" },
  { weekday: "Quinta-feira", weekdayEn: "thursday" },
  { weekday: "Sexta-feira", weekdayEn: "friday" },
  { weekday: "Sábado", weekdayEn: "saturday" },
  { weekday: "Domingo", weekdayEn: "sunday" },
] as const;

/** Default queue working hours (spec 2 section 9). */
export const DEFAULT_SCHEDULES = WEEKDAYS.map(({ weekday, weekdayEn }) => ({
  weekday,
  weekdayEn,
  startTime: weekdayEn === "sunday" ? "00:00" : "08:00",
  endTime: weekdayEn === "sunday" ? "00:00" : weekdayEn === "saturday" ? "12:00" : "18:00",
}));

export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";
export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
