import { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { loadConfig } from "../platform/config";
import { createDb } from "../platform/db/client";
import { createLogger } from "../platform/logger";
import { createMetrics } from "../platform/metrics";
import { sendError } from "../platform/http/error-handler";
import { createSqsInboundQueue } from "../platform/queues/sqs-inbound.adapter";
import { createSecretBoxFromConfig } from "../platform/secrets/secret-box.factory";
import { createCloudApiRepository } from "../features/channels/cloud-api/cloud-api.repository";
import { createCloudApiWebhookService } from "../features/channels/cloud-api/cloud-api-webhook.service";
import { cloudApiWebhookRoutes } from "../features/channels/cloud-api/cloud-api-webhook.routes";
import { WEBHOOK_PATH } from "../features/channels/cloud-api/cloud-api.service";

/**
 * The Cloud API webhook Lambda (API Gateway route /api/channels/cloud-api/webhook/{hookId}): it only verifies
 * the signature and enqueues on inbound.fifo, so Meta gets its answer in milliseconds whatever the inbox is doing.
 * It builds only what that needs (table, secret box, inbound queue), not the whole container.
 */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { service: "cloud-api-webhook" });
const service = createCloudApiWebhookService({
  repo: createCloudApiRepository(createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT })),
  secrets: createSecretBoxFromConfig(config),
  inbound: createSqsInboundQueue({ queueUrl: config.QUEUE_URL_INBOUND ?? "", region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT }),
  logger,
  metrics: createMetrics(),
});
const app = new Hono();
// an unexpected failure (the table or the queue) answers 500 and is logged, as the API's are (Meta retries the delivery)
app.onError((err, c) => sendError(c, err, logger));
app.route(WEBHOOK_PATH, cloudApiWebhookRoutes(service));
export const handler = handle(app);
