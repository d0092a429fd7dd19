import * as z from "zod";

/**
 * The one validated configuration of the functions deployable. Nothing else reads process.env.
 * AWS sets these on the Lambdas (infra/aws); the local runner and tests set them in-process.
 */
const configSchema = z.object({
  TABLE_NAME: z.string().min(1),
  /** set only for DynamoDB Local */
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  /** "sdk": the AWS SDK's DocumentClient instead of the lean transport (docs/adr/0054), the way back and the A/B */
  DYNAMODB_TRANSPORT: z.enum(["lean", "sdk"]).default("lean"),
  AWS_REGION: z.string().default("us-east-1"),
  JWT_SECRET: z.string().min(32),
  JWT_REFRESH_SECRET: z.string().min(32),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(10),
  COOKIE_SECURE: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  /** API Gateway management endpoint (https://{api}.execute-api.{region}.amazonaws.com/{stage}) or the local gateway's */
  WS_MANAGEMENT_ENDPOINT: z.string().url().optional(),
  SQS_ENDPOINT: z.string().url().optional(),
  QUEUE_URL_INBOUND: z.string().optional(),
  QUEUE_URL_OUTBOUND: z.string().optional(),
  QUEUE_URL_JOBS: z.string().optional(),
  MEDIA_BUCKET: z.string().optional(),
  /** the WhatsApp provider new connections use: the simulator on one machine, Baileys in AWS */
  WHATSAPP_CHANNEL: z.enum(["simulator", "baileys"]).default("baileys"),
  MEDIA_DIR: z.string().optional(),
  MAIL_DIR: z.string().optional(),
  MAIL_FROM: z.string().default("no-reply@atende.local"),
  APP_VERSION: z.string().default("0.1.0"),
  /** sign-in (docs/adr/0064): failed attempts per account (email) in a window, password and two-factor codes alike */
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  /** failed sign-ins per client address in a window, for any accounts (an office behind one NAT address shares it) */
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  /**
   * how long the inbox reuses a company's queues/users/connections/settings/tags lookups (0 = always fresh; the inbox
   * caps it at 1 s, issue 15's rule for per-instance caches, docs/adr/0050)
   */
  INBOX_DIRECTORY_TTL_MS: z.coerce.number().int().min(0).default(1000),
  /** set in AWS: CloudFront adds `x-origin-verify` with this value; requests without it (the raw API URL) are refused */
  ORIGIN_VERIFY_SECRET: z.string().min(16).optional(),
  /**
   * LGPD erasure (docs/adr/0030): the key of the HMAC an erased person's number is remembered by. Set once and kept
   * (a new value makes earlier hashes unrecognisable); without it a key is derived from JWT_SECRET (HKDF, own label).
   */
  ERASURE_HASH_SECRET: z.string().min(32).optional(),
  /** LGPD: up to this many messages an export or erasure runs within the request; above it, as a background job */
  LGPD_SYNC_MAX_MESSAGES: z.coerce.number().int().min(0).default(300),
  /** reports (docs/adr/0034): up to this many rows an export is written within the request; above it, as a background job */
  REPORTS_INLINE_EXPORT_ROWS: z.coerce.number().int().min(0).default(2000),
  /** agent status (docs/adr/0044): seconds an attendant without any socket stays as they were (SQS delay: at most 900) */
  AGENT_OFFLINE_GRACE_SECONDS: z.coerce.number().int().min(0).max(900).default(30),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Pix provider (docs/billing.md): the local fake bank, or Efí (skeleton; needs the EFI_* settings below) */
  PAYMENTS_PROVIDER: z.enum(["fake", "efi"]).default("efi"),
  /** shared secret the provider sends in x-webhook-secret; without it every payment notification is refused */
  PAYMENTS_WEBHOOK_SECRET: z.string().min(16).optional(),
  EFI_BASE_URL: z.string().url().default("https://pix.api.efipay.com.br"),
  EFI_CLIENT_ID: z.string().optional(),
  EFI_CLIENT_SECRET: z.string().optional(),
  EFI_PIX_KEY: z.string().optional(),
  EFI_CERT_PATH: z.string().optional(),
  EFI_CERT_PASSPHRASE: z.string().optional(),
  /** AWS: the KMS key that seals the secrets companies give us (model API keys, tokens); set by infra/aws */
  SECRETS_KMS_KEY_ID: z.string().optional(),
  /** one machine: the AES key file of the local secret box (the local runner keeps it under .data/) */
  SECRETS_KEY_FILE: z.string().optional(),
  /** bots: Azure Speech's endpoint base, `{region}` replaced by the prompt's voiceRegion (the local runner: /simulator/ai/azure/{region}) */
  AZURE_SPEECH_BASE_URL: z.string().default("https://{region}.tts.speech.microsoft.com"),
  /** bots: the timeout of one call to a bot (model, flow, webhook); a turn may make two (one retry) */
  BOT_TIMEOUT_MS: z.coerce.number().int().positive().default(12_000),
  /** the copilot's wait for its provider (issue 33): past it, ERR_COPILOT_PROVIDER with status 0 */
  COPILOT_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  /** the most audio bytes sent for one transcript (Whisper's limit is 25 MB): longer files are cut, and the message says so */
  COPILOT_TRANSCRIPTION_MAX_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  /** DialogFlow's OAuth token and API addresses (Google's; the local platform points them at /simulator/dialogflow) */
  DIALOGFLOW_TOKEN_URL: z.string().url().default("https://oauth2.googleapis.com/token"),
  DIALOGFLOW_API_BASE: z.string().url().default("https://dialogflow.googleapis.com"),
  /**
   * the outbound guard (docs/adr/0062, platform/net/outbound-fetch.ts): "on" refuses every call to a loopback,
   * private, link-local or otherwise non-public address (AWS sets it on every Lambda); "off" only on the local
   * platform, whose stand-ins live on 127.0.0.1 (its runner sets it off unless OUTBOUND_GUARD=on is given)
   */
  OUTBOUND_GUARD: z.enum(["on", "off"]).default("on"),
  /** the public origin (https://app.example.com) Cloud API webhook URLs are built on; the request's origin when absent */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /**
   * Web Push (docs/adr/0097): AWS: a secret Secrets Manager generated once, the VAPID key pair is derived from it;
   * one machine: VAPID_KEY_FILE under .data (written once); neither (tests): derived from JWT_SECRET
   */
  VAPID_SECRET: z.string().min(32).optional(),
  VAPID_KEY_FILE: z.string().optional(),
  /** the VAPID `sub` claim: a mailto: or https: contact the push services may write to */
  VAPID_SUBJECT: z.string().default("mailto:suporte@atende.app"),
});

export type Config = z.infer<typeof configSchema>;

export const parseConfig = (env: Record<string, string | undefined>): Config => configSchema.parse(env);

let cached: Config | undefined;
/** Reads process.env once (Lambda cold start). */
export const loadConfig = (): Config => (cached ??= parseConfig(process.env));

/**
 * The Lambda runtime's own variables (set by AWS and infra/aws, not ours to validate): what the logger, metrics
 * and tracer adapters need. Read here, live, so process.env is read in this file only.
 */
export const lambdaRuntime = (env: Record<string, string | undefined> = process.env) => ({
  /** set in Lambda only */
  functionName: env.AWS_LAMBDA_FUNCTION_NAME,
  serviceName: env.POWERTOOLS_SERVICE_NAME,
  metricsNamespace: env.POWERTOOLS_METRICS_NAMESPACE,
  traceEnabled: env.POWERTOOLS_TRACE_ENABLED !== "false",
});
