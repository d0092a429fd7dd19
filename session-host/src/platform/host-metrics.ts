import { CloudWatchClient, PutMetricDataCommand, type MetricDatum } from "@aws-sdk/client-cloudwatch";
import { METRIC, METRICS_SERVICE, type MetricName } from "@atende/shared/contracts/metric-names";
import type { Logger } from "./logger";

/** How often data points are sent at most (the alarms look at 1-minute periods). */
const FLUSH_MS = 30_000;

export type HostMetrics = {
  /** adds to a counter (messages in/out by provider, send failures by code), sent with the next flush */
  count(name: MetricName, dimensions?: Record<string, string>, value?: number): void;
  /** sets a gauge (its latest value is sent with every flush, statistic Average across hosts) */
  gauge(name: MetricName, value: number): void;
  /** after each heartbeat round; a round without failure counts as a SessionLeaseRenewals point; flushes every 30 s */
  onHeartbeat(round: { renewed: number; failed: number }): void;
};

/**
 * The session host's metrics. The task's awslogs driver does not extract EMF, so the host aggregates counters
 * and calls PutMetricData itself, at most every 30 s, from the lease heartbeat (alarm "SessionHostLeases": no
 * SessionLeaseRenewals for 2 minutes). Without a namespace (POWERTOOLS_METRICS_NAMESPACE; locally) it does nothing.
 */
export const createHostMetrics = (opts: { namespace?: string; region: string; logger: Logger; client?: Pick<CloudWatchClient, "send"> }): HostMetrics => {
  if (!opts.namespace) return { count: () => {}, gauge: () => {}, onHeartbeat: () => {} };
  const namespace = opts.namespace;
  const client = opts.client ?? new CloudWatchClient({ region: opts.region });
  const counters = new Map<string, { name: MetricName; dimensions: Record<string, string>; value: number }>();
  const gauges = new Map<MetricName, number>();
  let lastFlush = 0;
  const count: HostMetrics["count"] = (name, dimensions = {}, value = 1) => {
    const key = `${name}|${JSON.stringify(Object.entries(dimensions).sort())}`;
    const current = counters.get(key) ?? { name, dimensions, value: 0 };
    current.value += value;
    counters.set(key, current);
  };
  return {
    count,
    gauge: (name, value) => void gauges.set(name, value),
    onHeartbeat: ({ failed }) => {
      if (failed === 0) count(METRIC.sessionLeaseRenewals);
      const at = Date.now();
      if ((counters.size === 0 && gauges.size === 0) || at - lastFlush < FLUSH_MS) return;
      const data: MetricDatum[] = [
        ...[...counters.values()].map((c) => ({
          MetricName: c.name,
          Dimensions: [{ Name: "service", Value: METRICS_SERVICE }, ...Object.entries(c.dimensions).map(([Name, Value]) => ({ Name, Value }))],
          Value: c.value,
          Unit: "Count" as const,
          Timestamp: new Date(at),
        })),
        ...[...gauges].map(([name, value]) => ({ MetricName: name, Dimensions: [{ Name: "service", Value: METRICS_SERVICE }], Value: value, Unit: "Count" as const, Timestamp: new Date(at) })),
      ];
      counters.clear();
      lastFlush = at;
      for (let i = 0; i < data.length; i += 1000) {
        client.send(new PutMetricDataCommand({ Namespace: namespace, MetricData: data.slice(i, i + 1000) })).catch((err: unknown) => opts.logger.warn("metrics not sent", { err }));
      }
    },
  };
};
