import { CloudWatchClient, PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { METRIC, METRICS_SERVICE } from "@atende/shared/contracts/metric-names";
import type { Logger } from "./logger";

/** How often the heartbeat's data point is sent at most (the alarm looks at 1-minute periods). */
const FLUSH_MS = 30_000;

/**
 * The SessionLeaseRenewals metric (alarm "SessionHostLeases": none for 2 minutes). The task's awslogs driver
 * does not extract EMF, so the host calls PutMetricData itself, at most every 30 s: a data point of 1 per
 * healthy heartbeat round since the last one. Without POWERTOOLS_METRICS_NAMESPACE (locally) it does nothing.
 */
export const createLeaseMetrics = (opts: { namespace?: string; region: string; logger: Logger; client?: Pick<CloudWatchClient, "send"> }) => {
  if (!opts.namespace) return { onHeartbeat: () => {} };
  const namespace = opts.namespace;
  const client = opts.client ?? new CloudWatchClient({ region: opts.region });
  let healthyRounds = 0;
  let lastFlush = 0;
  return {
    onHeartbeat: ({ failed }: { renewed: number; failed: number }) => {
      if (failed === 0) healthyRounds++;
      const at = Date.now();
      if (healthyRounds === 0 || at - lastFlush < FLUSH_MS) return;
      const value = healthyRounds;
      healthyRounds = 0;
      lastFlush = at;
      client
        .send(
          new PutMetricDataCommand({
            Namespace: namespace,
            MetricData: [{ MetricName: METRIC.sessionLeaseRenewals, Dimensions: [{ Name: "service", Value: METRICS_SERVICE }], Value: value, Unit: "Count", Timestamp: new Date(at) }],
          }),
        )
        .catch((err: unknown) => opts.logger.warn("lease metric not sent", { err }));
    },
  };
};
