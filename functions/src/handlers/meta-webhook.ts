import { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { loadConfig } from "../platform/config";
import { createDb } from "../platform/db/client";
import { createLogger } from "../platform/logger";
import { createMetrics } from "../platform/metrics";
import { sendError } from "../platform/http/error-handler";
import { createSqsInboundQueue } from "../platform/queues/sqs-inbound.adapter";
import { createSecretBoxFromConfig } from "../platform/secrets/secret-box.factory";
import { createMetaRepository } from "../features/channels/meta/meta.repository";
import { createMetaWebhookService } from "../features/channels/meta/meta-webhook.service";
import { META_WEBHOOK_PATH, metaWebhookRoutes } from "../features/channels/meta/meta-webhook.routes";

/**
 * The Messenger / Instagram webhook Lambda (route /api/channels/meta/webhook/{hookId}, docs/adr/0090): like the
 * Cloud API's, it only verifies the signature and enqueues on inbound.fifo, building only the table, the secret
 * box and the inbound queue.
 */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { service: "meta-webhook" });
const service = createMetaWebhookService({
  repo: createMetaRepository(createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT })),
  secrets: createSecretBoxFromConfig(config),
  inbound: createSqsInboundQueue({ queueUrl: config.QUEUE_URL_INBOUND ?? "", region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT }),
  logger,
  metrics: createMetrics(),
});
const app = new Hono();
app.onError((err, c) => sendError(c, err, logger));
app.route(META_WEBHOOK_PATH, metaWebhookRoutes(service));
export const handler = handle(app);
