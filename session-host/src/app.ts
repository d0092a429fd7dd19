import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { HostConfig } from "./config";
import type { Channel } from "./leases/lease.repository";
import type { Provider } from "./providers/provider.port";
import { createSessionHost } from "./host/session-host";
import { createLocalMediaStore } from "./media/local-media.store";
import type { MediaStore } from "./media/media-store.port";
import { createS3MediaStore } from "./media/s3-media.store";
import { createDb, type Db } from "./platform/db";
import { createLogger, type Logger } from "./platform/logger";
import { createHostMetrics } from "./platform/host-metrics";
import { createMemoryGuard } from "./platform/memory-pressure";
import { configureMediaSlots } from "./media/media-slots";
import { createBaileysProvider } from "./providers/baileys/baileys.provider";
import { createSimulatorProvider } from "./providers/simulator/simulator.provider";
import { createSqsClient } from "./queues/sqs";

export type HostRuntimeOptions = {
  logger?: Logger;
  media?: MediaStore;
  sqs?: SQSClient;
  /** wrap the table client (tests: a table that pauses this host's requests, as a stalled process would) */
  wrapDb?: (db: Db) => Db;
  /** replace a provider (tests: a provider that is slow or fails on purpose) */
  providers?: Partial<Record<Channel, () => Provider>>;
};

/**
 * Wires the session host once per process: table, queues, media store, providers. The simulator provider dials
 * the simulated WhatsApp network at SIMULATOR_NETWORK_URL (a local stand-in outside the host, as WhatsApp is).
 */
export const createHostRuntime = async (config: HostConfig, opts: HostRuntimeOptions = {}) => {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, { service: "session-host" });
  const base = createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT });
  const db = opts.wrapDb ? opts.wrapDb(base) : base;
  const sqs = opts.sqs ?? createSqsClient(config.AWS_REGION, config.SQS_ENDPOINT);
  const media =
    opts.media ??
    (config.MEDIA_BUCKET ? createS3MediaStore(config.MEDIA_BUCKET, config.AWS_REGION) : config.MEDIA_DIR ? createLocalMediaStore(config.MEDIA_DIR) : undefined);
  if (!media) throw new Error("MEDIA_BUCKET or MEDIA_DIR is required");

  const simulator = opts.providers?.simulator?.() ?? (config.SIMULATOR_NETWORK_URL ? createSimulatorProvider({ url: config.SIMULATOR_NETWORK_URL }) : undefined);
  configureMediaSlots(config.MEDIA_TRANSFERS);
  const metrics = createHostMetrics({ namespace: process.env.POWERTOOLS_METRICS_NAMESPACE, region: config.AWS_REGION, logger });
  const host = createSessionHost({
    config,
    db,
    sqs,
    media,
    logger,
    metrics,
    canTakeConnections: createMemoryGuard({ maxRssBytes: config.MEMORY_MAX_RSS_MB ? config.MEMORY_MAX_RSS_MB * 2 ** 20 : undefined, heapRatio: config.MEMORY_HEAP_RATIO, logger })
      .canTakeConnections,
    providers: {
      ...(simulator ? { simulator } : {}),
      baileys: opts.providers?.baileys?.() ?? createBaileysProvider({ logger, db, metrics, journalDir: join(config.UPSERT_JOURNAL_DIR ?? join(tmpdir(), "atende-upsert-journal"), config.SESSION_HOST_ID) }),
    },
  });
  return { config, host, db, sqs, media, logger };
};
export type HostRuntime = Awaited<ReturnType<typeof createHostRuntime>>;
