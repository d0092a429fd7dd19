import * as z from "zod";
import { SESSION_HOST_CAPACITY_DEFAULT, SESSION_HOST_STALE_MS_DEFAULT } from "@atende/shared/contracts/http/session-hosts";

/**
 * The one validated configuration of the session host. Nothing else reads process.env.
 * AWS (Fargate task) sets these as environment variables; the local runner and tests pass them in-process.
 */
const configSchema = z.object({
  TABLE_NAME: z.string().min(1),
  /** set only for DynamoDB Local */
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  /** "sdk": the AWS SDK's DocumentClient instead of the lean transport (docs/adr/0054), the way back and the A/B */
  DYNAMODB_TRANSPORT: z.enum(["lean", "sdk"]).default("lean"),
  AWS_REGION: z.string().default("us-east-1"),
  SQS_ENDPOINT: z.string().url().optional(),
  QUEUE_URL_INBOUND: z.string().min(1),
  QUEUE_URL_OUTBOUND: z.string().min(1),
  /** media store: a local folder (one machine, tests) or an S3 bucket (AWS) */
  MEDIA_DIR: z.string().optional(),
  MEDIA_BUCKET: z.string().optional(),
  /** memory pressure: RSS (MiB) past which the host takes no more connections (85 % of the container's limit by default) */
  MEMORY_MAX_RSS_MB: z.coerce.number().int().positive().optional(),
  /** memory pressure: share of V8's heap limit past which the host takes no more connections */
  MEMORY_HEAP_RATIO: z.coerce.number().positive().max(1).default(0.85),
  /** media downloads and uploads running at once in this process (the rest wait) */
  MEDIA_TRANSFERS: z.coerce.number().int().positive().default(4),
  /** the Baileys upsert journal's folder (a subfolder per HOST_ID; the OS temp folder by default) */
  UPSERT_JOURNAL_DIR: z.string().optional(),
  /**
   * This host's identity in the lease and registry items: the ECS task ARN in AWS (main.ts reads it from the task
   * metadata endpoint), `host-<n>` locally (set by the local runner). A restarted host with the same id reclaims
   * its leases at once. `HOST_ID` is read as the former name.
   */
  SESSION_HOST_ID: z.string().min(1).default(() => `host-${Math.random().toString(36).slice(2, 10)}`),
  /**
   * Sessions this host takes at most (docs/adr/0070). A placeholder until the `session-fleet` bench measures a
   * host's memory and CPU per session and derives the default from it.
   */
  SESSION_HOST_CAPACITY: z.coerce.number().int().positive().default(SESSION_HOST_CAPACITY_DEFAULT),
  /** how often the host rewrites its registry item (its liveness, load and connections) */
  SESSION_HOST_HEARTBEAT_MS: z.coerce.number().int().positive().default(2_000),
  /**
   * A host whose registry item is older than this is dead: other hosts take its connections without waiting for
   * the leases to expire. The host itself stops publishing events and running commands for its connections once its
   * own last successful registry write is this old (less a safety margin), so the two never overlap.
   */
  SESSION_HOST_STALE_MS: z.coerce.number().int().positive().default(SESSION_HOST_STALE_MS_DEFAULT),
  /** SIGTERM: the most a drain may take before the process exits anyway (ECS stopTimeout is 30 s) */
  DRAIN_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
  /** which provider drives connections whose start command names no channel */
  DEFAULT_CHANNEL: z.enum(["simulator", "baileys"]).default("baileys"),
  /** lease: a host that misses heartbeats for this long loses its connections to another host */
  LEASE_TTL_MS: z.coerce.number().int().positive().default(30_000),
  LEASE_HEARTBEAT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * How often a host reads the registry (one small query; docs/adr/0093): a host newly dead (stale heartbeat) or
   * draining makes it list the leases and take its share at once, so a kill -9 or a drain's hand-over does not wait
   * for the next full scan.
   */
  FLEET_WATCH_MS: z.coerce.number().int().positive().default(1_000),
  /**
   * The full scan: how often a host lists the lease partition (the expensive read) even when the registry shows
   * nothing to take: unowned connections (a start received by a full host), leases expired without a stale host.
   */
  LEASE_SCAN_MS: z.coerce.number().int().positive().default(4_000),
  /** how long a received outbound command stays invisible to other hosts (a dead host's commands come back after it) */
  COMMAND_VISIBILITY_SECONDS: z.coerce.number().int().min(1).max(43_200).default(60),
  COMMAND_WAIT_SECONDS: z.coerce.number().int().min(0).max(20).default(10),
  /**
   * Concurrent receivers of outbound.fifo. Safe with SQS, which never hands out a message group while part of
   * it is in flight; the local stand-in (@atende/local-sqs) locks groups the same way.
   */
  COMMAND_POLLERS: z.coerce.number().int().min(1).max(32).default(4),
  /** how long a command waits for its session to finish connecting before it fails */
  SEND_WAIT_CONNECTED_MS: z.coerce.number().int().min(0).default(15_000),
  /**
   * simulator: the simulated WhatsApp network's wire (ws://127.0.0.1:<port>/wa, a local stand-in outside the
   * hosts: infra/local/src/stand-ins/whatsapp); unset (AWS): no simulator connections
   */
  SIMULATOR_NETWORK_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type HostConfig = z.infer<typeof configSchema>;

export const parseHostConfig = (env: Record<string, string | undefined>): HostConfig =>
  configSchema.parse({ ...env, SESSION_HOST_ID: env.SESSION_HOST_ID ?? env.HOST_ID });
