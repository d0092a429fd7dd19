import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { Hono } from "hono";
import { TABLE_KEYS } from "@atende/shared/table/table-definition";
import type { Container } from "./container";
import { traced } from "../platform/tracer";
import type { AppEnv } from "../platform/http/app-env";

export type CheckState = "ok" | "error" | "not-configured";
export type HealthBody = { status: "ok" | "degraded"; version: string; checks: Record<string, CheckState> };

const CHECK_TIMEOUT_MS = 2000;
/** A fixed key no item uses: the GetItem only proves the table answers (and the role may read it). */
const PROBE_KEY = { [TABLE_KEYS.partitionKey]: "HEALTH", [TABLE_KEYS.sortKey]: "PROBE" };

const within = <T>(work: Promise<T>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("health check timed out")), CHECK_TIMEOUT_MS).unref())]);

/**
 * GET /api/health (public, no tenant data): one GetItem on a fixed key of the table and GetQueueAttributes on each
 * configured queue, in parallel, each bounded to 2 s. 200 `{ status: "ok" }` when all answer, 503 `{ status: "degraded" }`
 * naming the failed checks otherwise. The web app polls it and shows a banner while degraded.
 */
export const healthRoutes = (container: Container) => {
  const { config, db, logger } = container;
  const queueUrls = { inbound: config.QUEUE_URL_INBOUND, outbound: config.QUEUE_URL_OUTBOUND, jobs: config.QUEUE_URL_JOBS };
  let sqs: SQSClient | undefined;
  const sqsClient = () =>
    (sqs ??= traced(
      new SQSClient({
        region: config.AWS_REGION,
        ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT, credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
      }),
    ));

  const check = async (name: string, work: () => Promise<unknown>): Promise<[string, CheckState]> => {
    try {
      await within(work());
      return [name, "ok"];
    } catch (err) {
      logger.warn("health check failed", { check: name, err });
      return [name, "error"];
    }
  };

  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    const results = await Promise.all([
      check("table", () => db.doc.send(new GetCommand({ TableName: db.tableName, Key: PROBE_KEY }))),
      ...Object.entries(queueUrls).map(([name, url]): Promise<[string, CheckState]> =>
        url ? check(`queue:${name}`, () => sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] }))) : Promise.resolve([`queue:${name}`, "not-configured"]),
      ),
    ]);
    const checks = Object.fromEntries(results);
    const degraded = results.some(([, state]) => state === "error");
    const body: HealthBody = { status: degraded ? "degraded" : "ok", version: config.APP_VERSION, checks };
    c.header("cache-control", "no-store");
    return c.json(body, degraded ? 503 : 200);
  });
  return app;
};
