import { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { loadConfig } from "../platform/config";
import { createDb } from "../platform/db/client";
import { createLogger } from "../platform/logger";
import { createMetrics } from "../platform/metrics";
import { sendError } from "../platform/http/error-handler";
import { createOutbound } from "../platform/net/outbound-fetch";
import { createSqsInboundQueue } from "../platform/queues/sqs-inbound.adapter";
import { createSecretBoxFromConfig } from "../platform/secrets/secret-box.factory";
import { createS3MediaStore } from "../platform/storage/s3-media-store.adapter";
import { createTelegramBotClient } from "../platform/channels/telegram/telegram-bot.client";
import { createTelegramRepository } from "../features/channels/telegram/telegram.repository";
import { createTelegramWebhookService } from "../features/channels/telegram/telegram-webhook.service";
import { telegramWebhookRoutes } from "../features/channels/telegram/telegram-webhook.routes";
import { TELEGRAM_WEBHOOK_PATH } from "../features/channels/telegram/telegram.service";

/**
 * The Telegram webhook Lambda (API Gateway route /api/channels/telegram/webhook/{hookId}, docs/adr/0088): it checks
 * the secret token, downloads a file the update carries (getFile, through the one outbound guard) into the media
 * bucket and enqueues on inbound.fifo. It builds only what that needs, not the whole container.
 */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { service: "telegram-webhook" });
const outbound = createOutbound({ on: config.OUTBOUND_GUARD === "on" });
const service = createTelegramWebhookService({
  repo: createTelegramRepository(createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT })),
  secrets: createSecretBoxFromConfig(config),
  inbound: createSqsInboundQueue({ queueUrl: config.QUEUE_URL_INBOUND ?? "", region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT }),
  media: createS3MediaStore(config.MEDIA_BUCKET ?? "", config.AWS_REGION),
  bot: (s) => createTelegramBotClient({ baseUrl: s.telegramApiUrl, botToken: s.botToken, fetch: outbound.fetch }),
  logger,
  metrics: createMetrics(),
});
const app = new Hono();
// an unexpected failure answers 500 and is logged; Telegram retries the delivery
app.onError((err, c) => sendError(c, err, logger));
app.route(TELEGRAM_WEBHOOK_PATH, telegramWebhookRoutes(service));
export const handler = handle(app);
