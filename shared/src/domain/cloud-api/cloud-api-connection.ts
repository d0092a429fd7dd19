import * as z from "zod";

/** Meta's Graph API base URL (the version the provider was written against); tests and the simulator point elsewhere. */
export const DEFAULT_GRAPH_API_URL = "https://graph.facebook.com/v23.0";
/** `provider` of a connection: the spec's default "beta" is a QR session; "cloudapi" is the official Cloud API. */
export const CLOUD_API_PROVIDER = "cloudapi";
export const isCloudApiProvider = (provider: string | null | undefined) => provider === CLOUD_API_PROVIDER;

/** Meta's default throughput per business phone number (messages per second), and the per-recipient pair rate. */
export const DEFAULT_THROUGHPUT_PER_SECOND = 80;
export const PAIR_RATE_MS = 6_000;

const graphId = z.string().trim().regex(/^\d{5,25}$/, "Invalid");
/**
 * The Cloud API fields of the connection form (POST /whatsapp, PUT /whatsapp/{id} with provider "cloudapi").
 * Secrets: on PUT a masked value (or empty) keeps the stored one.
 */
export const cloudApiFieldsSchema = z.object({
  phoneNumberId: graphId,
  wabaId: graphId,
  accessToken: z.string().trim().max(1000).default(""),
  appSecret: z.string().trim().max(200).default(""),
  graphApiUrl: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().url().max(300).default(DEFAULT_GRAPH_API_URL)),
  /** messages per second this number may send (Meta: 80 by default, up to 1000 after an upgrade) */
  throughputPerSecond: z.preprocess((v) => (v === "" || v === null || v === undefined ? DEFAULT_THROUGHPUT_PER_SECOND : v), z.coerce.number().int().min(1).max(1000)),
  /** approved template names used for automatic messages outside the window; "" = skip with an internal note */
  ratingTemplate: z.string().max(512).default(""),
  inactivityTemplate: z.string().max(512).default(""),
  transferTemplate: z.string().max(512).default(""),
});
export type CloudApiFields = z.infer<typeof cloudApiFieldsSchema>;

/** What the test button shows: Graph's `GET /<PHONE_NUMBER_ID>` fields. */
export type PhoneNumberInfo = {
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating: string;
  messagingLimitTier: string | null;
};
