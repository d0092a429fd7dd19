import { Metrics as PowertoolsMetrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { lambdaRuntime } from "./config";
import { METRICS_SERVICE, type MetricName } from "@atende/shared/contracts/metric-names";

export type MetricDimensions = Record<string, string>;

/** The metrics port: counters and timings by name (shared/contracts/metric-names.ts), with optional dimensions. */
export type Metrics = {
  count(name: MetricName, value?: number, dimensions?: MetricDimensions): void;
  timing(name: MetricName, ms: number, dimensions?: MetricDimensions): void;
};

/** Nothing recorded: the local platform and tests that do not look at metrics. */
export const noMetrics: Metrics = { count: () => {}, timing: () => {} };

/**
 * CloudWatch EMF through Powertools Metrics: each call writes one EMF line at once (a single metric with its own
 * dimensions), so nothing waits for a flush at the end of an invocation and the handlers need no middleware.
 * Namespace and service from POWERTOOLS_METRICS_NAMESPACE / POWERTOOLS_SERVICE_NAME (set by infra/aws).
 */
export const createEmfMetrics = (): Metrics => {
  const metrics = new PowertoolsMetrics({ serviceName: lambdaRuntime().serviceName ?? METRICS_SERVICE });
  const put = (name: string, unit: (typeof MetricUnit)[keyof typeof MetricUnit], value: number, dimensions: MetricDimensions = {}) => {
    const single = metrics.singleMetric();
    for (const [k, v] of Object.entries(dimensions)) single.addDimension(k, v);
    single.addMetric(name, unit, value);
  };
  return {
    count: (name, value = 1, dimensions) => put(name, MetricUnit.Count, value, dimensions),
    timing: (name, ms, dimensions) => put(name, MetricUnit.Milliseconds, ms, dimensions),
  };
};

/** EMF in Lambda (AWS_LAMBDA_FUNCTION_NAME is set there), nothing elsewhere. */
export const createMetrics = (runtime = lambdaRuntime()): Metrics => (runtime.functionName && runtime.metricsNamespace ? createEmfMetrics() : noMetrics);

/** Tests: keeps every data point. */
export const createMemoryMetrics = () => {
  const points: { name: MetricName; value: number; unit: "count" | "ms"; dimensions: MetricDimensions }[] = [];
  const metrics: Metrics = {
    count: (name, value = 1, dimensions = {}) => void points.push({ name, value, unit: "count", dimensions }),
    timing: (name, ms, dimensions = {}) => void points.push({ name, value: ms, unit: "ms", dimensions }),
  };
  return { metrics, points, sum: (name: MetricName) => points.filter((p) => p.name === name).reduce((s, p) => s + p.value, 0) };
};
