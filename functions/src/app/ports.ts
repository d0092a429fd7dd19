import type { Config } from "../platform/config";
import type { Logger } from "../platform/logger";
import type { Metrics } from "../platform/metrics";
import type { JobQueue } from "../platform/queues/jobs.port";
import { createSqsJobQueue } from "../platform/queues/sqs-jobs.adapter";
import { createApiGatewaySender } from "../platform/realtime/apigateway-sender.adapter";
import { withDeliveryMetrics } from "../platform/realtime/delivery-metrics";
import type { SocketSender } from "../platform/realtime/sender.port";

/**
 * Ports more than one composition root builds the same way: the whole container (container.ts) and the
 * WebSocket Lambda's own small root (ws-root.ts). One definition, so the two cannot drift.
 */

/** Posts to browsers' connections (API Gateway management API, or nowhere without an endpoint), failures counted. */
export const createSocketSender = (config: Config, metrics: Metrics, logger: Logger, override?: SocketSender): SocketSender =>
  withDeliveryMetrics(
    override ??
      (config.WS_MANAGEMENT_ENDPOINT
        ? createApiGatewaySender(config.WS_MANAGEMENT_ENDPOINT, config.AWS_REGION, Boolean(config.DYNAMODB_ENDPOINT))
        : { post: async () => "gone" as const, disconnect: async () => {} }),
    metrics,
    logger,
  );

/** The `jobs` queue (SQS), or one that refuses when QUEUE_URL_JOBS is not configured. */
export const createJobQueue = (config: Config, override?: JobQueue): JobQueue =>
  override ??
  (config.QUEUE_URL_JOBS
    ? createSqsJobQueue({ queueUrl: config.QUEUE_URL_JOBS, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
    : {
        enqueue: async () => {
          throw new Error("QUEUE_URL_JOBS is not configured");
        },
      });
