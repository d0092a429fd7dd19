import { Metrics as PowertoolsMetrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { lambdaRuntime } from "./config";
import { METRIC, METRICS_SERVICE, type MetricName } from "@atende/shared/contracts/metric-names";

export type MetricDimensions = Record<string, string>;

/** The metrics port: counters and timings by name (shared/contracts/metric-names.ts), with optional dimensions. */
export type Metrics = {
  count(name: MetricName, value?: number, dimensions?: MetricDimensions): void;
  timing(name: MetricName, ms: number, dimensions?: MetricDimensions): void;
};

/**
 * The product's counters by what happened, so call sites name the event and the dimensions stay few and fixed
 * (CloudWatch bills each combination as a metric). The dashboard (infra/aws/constructs/monitoring.ts) graphs them
 * by these dimensions.
 */
export type ProviderKind = "baileys" | "simulator" | "cloud-api" | "telegram" | "messenger" | "instagram" | "webchat";
/** how a ticket got its attendant: picked by distribution, the customer's own attendant, taken or given by a person */
export type AssignmentMode = "automatic" | "own-attendant" | "accepted" | "transferred";
/** why a bot stopped and handed the ticket to a person (the runner's stop reasons) */
export type HandoverReason = "keyword" | "model" | "silent" | "timeout" | "failed" | "cap" | "refused";

/** a customer's message received from a provider */
export const recordMessageIn = (metrics: Metrics, provider: ProviderKind) => metrics.count(METRIC.messagesIn, 1, { provider });
/** a message the provider accepted from us (agents, bots, campaigns) */
export const recordMessageOut = (metrics: Metrics, provider: ProviderKind) => metrics.count(METRIC.messagesOut, 1, { provider });
/**
 * a send the provider refused or that failed for good: our error code or Meta's numeric code; with the channel, also
 * counted by provider (ChannelSendFailures: one alarm per channel, infra/aws/constructs/monitoring.ts)
 */
export const recordSendFailure = (metrics: Metrics, code: string, provider?: ProviderKind) => {
  metrics.count(METRIC.sendFailures, 1, { code });
  if (provider) metrics.count(METRIC.channelSendFailures, 1, { provider });
};
/** a bot turn that sent at least one message, by bot kind (prompt, typebot, webhook, n8n, dialogflow) */
export const recordBotAnswer = (metrics: Metrics, kind: string) => metrics.count(METRIC.botAnswers, 1, { kind });
/** a bot handed its ticket to a person */
export const recordHandover = (metrics: Metrics, reason: HandoverReason) => metrics.count(METRIC.handovers, 1, { reason });
/**
 * A ticket got an attendant. Call it once where the assignment is stored (distribution: `automatic` or
 * `own-attendant`; an agent accepting a pending ticket: `accepted`; a transfer to a person: `transferred`).
 */
export const recordAssignment = (metrics: Metrics, mode: AssignmentMode) => metrics.count(METRIC.assignments, 1, { mode });
/**
 * milliseconds between a queue message's first send and its consumption. inbound.fifo only: the jobs queue's
 * messages are delayed on purpose (timers, retries), so their age says nothing about a backlog.
 */
export const recordQueueAge = (metrics: Metrics, queue: "inbound", ms: number) => metrics.timing(METRIC.queueAge, Math.max(0, ms), { queue });

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
