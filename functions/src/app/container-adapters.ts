import type { Config } from "../platform/config";
import { createSecretBoxFromConfig } from "../platform/secrets/secret-box.factory";
import { createFileMailer } from "../platform/mail/file-mail.adapter";
import type { Mailer } from "../platform/mail/mail.port";
import { createSesMailer } from "../platform/mail/ses-mail.adapter";
import { createFolderMediaStore } from "../platform/storage/folder-media-store.adapter";
import type { MediaStore } from "../platform/storage/media-store.port";
import { createS3MediaStore } from "../platform/storage/s3-media-store.adapter";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GraphFetch } from "../platform/channels/cloud-api/graph-api.client";
import { createOutbound, type Outbound } from "../platform/net/outbound-fetch";
import type { InboundQueue } from "../platform/queues/inbound-queue.port";
import { createSqsInboundQueue } from "../platform/queues/sqs-inbound.adapter";
import type { SecretBox } from "../platform/secrets/secret-box.port";
import type { PromptEngineFactory } from "../features/bots/bot-engines";
import type { CopilotProviderFactory } from "../features/copilot/copilot-provider.port";
import { createJobQueue, createSocketSender } from "./ports";
import { spreadsheetsUnavailable, type SpreadsheetCodec } from "../platform/spreadsheets/spreadsheet.port";
import { createDb, type Db } from "../platform/db/client";
import { createLogger, type Logger } from "../platform/logger";
import { createMetrics, type Metrics } from "../platform/metrics";
import type { CommandQueue } from "../platform/queues/commands.port";
import { createSqsCommandQueue } from "../platform/queues/sqs-commands.adapter";
import type { JobQueue } from "../platform/queues/jobs.port";
import type { SocketSender } from "../platform/realtime/sender.port";


/** Ports a caller may replace (tests use in-memory adapters). */
export type Overrides = {
  sender?: SocketSender;
  clock?: () => Date;
  logger?: Logger;
  db?: Db;
  commands?: CommandQueue;
  jobs?: JobQueue;
  mailer?: Mailer;
  media?: MediaStore;
  metrics?: Metrics;
  /** inbound.fifo from the functions side (Cloud API webhook and sender) */
  inbound?: InboundQueue;
  secrets?: SecretBox;
  /** the Graph API's transport (tests: a stand-in) */
  graphFetch?: GraphFetch;
  /** the Telegram Bot API's fetch (tests: a recording fake; otherwise the outbound guard's) */
  telegramFetch?: GraphFetch;
  /** the outbound guard (tests: one whose resolver and address policy play public and private on loopback) */
  outbound?: Outbound;
  /** the AI prompt bot engine (`openai`): only where bot turns run (the jobs Lambda; lambda-roles.ts, ADR 0038) */
  promptEngine?: PromptEngineFactory;
  /** the copilot's provider (`openai`): the api and jobs Lambdas (lambda-roles.ts, ADR 0038; issue 33) */
  copilotProvider?: CopilotProviderFactory;
  /** SheetJS: only the Lambdas that read or write spreadsheets get it (handlers, lambda-roles.ts; ADR 0038) */
  spreadsheets?: SpreadsheetCodec;
};

/** Stage 1 of the composition: the adapters behind the ports (a caller's overrides first), once per process. */
export const createAdapters = (config: Config, overrides: Overrides) => {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? (() => new Date());
  const metrics = overrides.metrics ?? createMetrics();
  const db = overrides.db ?? createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT });
  const sender = createSocketSender(config, metrics, logger, overrides.sender);

  const commands: CommandQueue =
    overrides.commands ??
    (config.QUEUE_URL_OUTBOUND
      ? createSqsCommandQueue({ queueUrl: config.QUEUE_URL_OUTBOUND, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          send: async () => {
            throw new Error("QUEUE_URL_OUTBOUND is not configured");
          },
        });

  const jobs: JobQueue = createJobQueue(config, overrides.jobs);

  const inboundQueue: InboundQueue =
    overrides.inbound ??
    (config.QUEUE_URL_INBOUND
      ? createSqsInboundQueue({ queueUrl: config.QUEUE_URL_INBOUND, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          put: async () => {
            throw new Error("QUEUE_URL_INBOUND is not configured");
          },
        });
  // company secrets (prompt API keys, Cloud API tokens ...) are sealed before storage: KMS in AWS, a key file on one machine
  const secrets: SecretBox = overrides.secrets ?? createSecretBoxFromConfig(config);

  const mailer: Mailer =
    overrides.mailer ??
    (config.MAIL_DIR
      ? createFileMailer({ dir: config.MAIL_DIR, from: config.MAIL_FROM, logger, clock })
      : createSesMailer({ from: config.MAIL_FROM, region: config.AWS_REGION }));
  const media: MediaStore =
    overrides.media ??
    (config.MEDIA_BUCKET ? createS3MediaStore(config.MEDIA_BUCKET, config.AWS_REGION) : createFolderMediaStore(config.MEDIA_DIR ?? join(tmpdir(), "atende-media")));

  const spreadsheets = overrides.spreadsheets ?? spreadsheetsUnavailable;
  // THE outbound guard (docs/adr/0062): every call to a URL a company typed or a provider answered goes through it
  const outbound = overrides.outbound ?? createOutbound({ on: config.OUTBOUND_GUARD === "on" });
  return { logger, clock, metrics, db, sender, commands, jobs, inboundQueue, secrets, mailer, media, spreadsheets, outbound };
};
export type Adapters = ReturnType<typeof createAdapters>;
/** What every later stage starts from: the configuration, the caller's overrides and the adapters. */
export type Base = Adapters & { config: Config; overrides: Overrides };
