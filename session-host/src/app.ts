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
import { createSimulatorHttp } from "./providers/simulator/simulator.http";
import { createSimulatorNetwork, type SimulatorNetwork } from "./providers/simulator/simulator-network";
import { createSimulatorProvider } from "./providers/simulator/simulator.provider";
import { createTablePairingStore } from "./providers/simulator/table-pairing.store";
import { createSqsClient } from "./queues/sqs";

export type HostRuntimeOptions = {
  /** share one simulated network between hosts (tests with several hosts in one process) */
  network?: SimulatorNetwork;
  logger?: Logger;
  media?: MediaStore;
  sqs?: SQSClient;
  /** wrap the table client (tests: a table that pauses this host's requests, as a stalled process would) */
  wrapDb?: (db: Db) => Db;
  /** replace a provider (tests: a provider that is slow or fails on purpose) */
  providers?: Partial<Record<Channel, (network: SimulatorNetwork) => Provider>>;
};

/** Wires the session host once per process: table, queues, media store, providers, the simulator's network and page. */
export const createHostRuntime = async (config: HostConfig, opts: HostRuntimeOptions = {}) => {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL, { service: "session-host" });
  const base = createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT });
  const db = opts.wrapDb ? opts.wrapDb(base) : base;
  const sqs = opts.sqs ?? createSqsClient(config.AWS_REGION, config.SQS_ENDPOINT);
  const media =
    opts.media ??
    (config.MEDIA_BUCKET ? createS3MediaStore(config.MEDIA_BUCKET, config.AWS_REGION) : config.MEDIA_DIR ? createLocalMediaStore(config.MEDIA_DIR) : undefined);
  if (!media) throw new Error("MEDIA_BUCKET or MEDIA_DIR is required");

  let network = opts.network;
  if (!network) {
    network = createSimulatorNetwork({ pairing: createTablePairingStore(db), qrRefreshMs: config.SIMULATOR_QR_REFRESH_MS, ackDelayMs: config.SIMULATOR_ACK_DELAY_MS });
    await network.init();
  }
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
      simulator: opts.providers?.simulator?.(network) ?? createSimulatorProvider(network),
      baileys: opts.providers?.baileys?.(network) ?? createBaileysProvider({ logger, db, metrics, journalDir: join(config.UPSERT_JOURNAL_DIR ?? join(tmpdir(), "atende-upsert-journal"), config.SESSION_HOST_ID) }),
    },
  });
  const simulatorHttp = createSimulatorHttp(network, media);
  return { config, host, network, simulatorHttp, db, sqs, media, logger };
};
export type HostRuntime = Awaited<ReturnType<typeof createHostRuntime>>;
