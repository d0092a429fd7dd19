import { afterEach, describe, expect, it, vi } from "vitest";
import { METRIC } from "@atende/shared/contracts/metric-names";
import {
  createEmfMetrics,
  createMemoryMetrics,
  createMetrics,
  recordAssignment,
  recordBotAnswer,
  recordHandover,
  recordMessageIn,
  recordMessageOut,
  recordQueueAge,
  recordSendFailure,
} from "./metrics";

type Emf = { _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } } & Record<string, unknown>;

/** The EMF lines Powertools wrote (to stdout through its own Console). */
const capture = () => {
  const lines: Emf[] = [];
  const grab = (chunk: unknown) => {
    for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l) as Emf);
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(grab);
  vi.spyOn(process.stderr, "write").mockImplementation(grab);
  return lines;
};
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("metrics in Lambda (CloudWatch EMF through Powertools)", () => {
  it("writes one EMF line per call at once: namespace, the service and the call's dimensions, the value and its unit", () => {
    vi.stubEnv("POWERTOOLS_METRICS_NAMESPACE", "Atende/test");
    vi.stubEnv("POWERTOOLS_SERVICE_NAME", "atende");
    const lines = capture();
    const metrics = createEmfMetrics();
    recordMessageIn(metrics, "cloud-api");
    recordQueueAge(metrics, "inbound", 1234);
    expect(lines).toHaveLength(2);
    const [count, timing] = lines as [Emf, Emf];
    expect(count._aws.CloudWatchMetrics).toEqual([{ Namespace: "Atende/test", Dimensions: [["service", "provider"]], Metrics: [{ Name: METRIC.messagesIn, Unit: "Count" }] }]);
    expect(count).toMatchObject({ service: "atende", provider: "cloud-api", [METRIC.messagesIn]: 1 });
    expect(typeof count._aws.Timestamp).toBe("number");
    expect(timing._aws.CloudWatchMetrics[0]).toMatchObject({ Dimensions: [["service", "queue"]], Metrics: [{ Name: METRIC.queueAge, Unit: "Milliseconds" }] });
    expect(timing).toMatchObject({ queue: "inbound", [METRIC.queueAge]: 1234 });
  });

  it("keeps the dimensions of one call out of the next (single metrics, no shared state)", () => {
    vi.stubEnv("POWERTOOLS_METRICS_NAMESPACE", "Atende/test");
    const lines = capture();
    const metrics = createEmfMetrics();
    recordSendFailure(metrics, "131047");
    metrics.count(METRIC.webSocketDeliveryFailures);
    expect(lines[1]!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([["service"]]);
    expect(lines[1]).not.toHaveProperty("code");
    expect(lines[0]).toMatchObject({ code: "131047", [METRIC.sendFailures]: 1 });
  });

  it("records nothing outside Lambda (local runner, tests): no line is written", () => {
    const lines = capture();
    const metrics = createMetrics({ functionName: undefined, serviceName: undefined, metricsNamespace: "Atende/test", traceEnabled: true });
    recordAssignment(metrics, "automatic");
    metrics.timing(METRIC.ticketListLatency, 5);
    expect(lines).toEqual([]);
  });
});

describe("the product's counters", () => {
  it("name each event with its metric and a fixed dimension", () => {
    const { metrics, points } = createMemoryMetrics();
    recordMessageIn(metrics, "baileys");
    recordMessageOut(metrics, "cloud-api");
    recordSendFailure(metrics, "ERR_WAPP_NOT_INITIALIZED");
    recordBotAnswer(metrics, "typebot");
    recordHandover(metrics, "keyword");
    recordAssignment(metrics, "own-attendant");
    recordQueueAge(metrics, "inbound", -5);
    expect(points).toEqual([
      { name: "MessagesIn", value: 1, unit: "count", dimensions: { provider: "baileys" } },
      { name: "MessagesOut", value: 1, unit: "count", dimensions: { provider: "cloud-api" } },
      { name: "SendFailures", value: 1, unit: "count", dimensions: { code: "ERR_WAPP_NOT_INITIALIZED" } },
      { name: "BotAnswers", value: 1, unit: "count", dimensions: { kind: "typebot" } },
      { name: "Handovers", value: 1, unit: "count", dimensions: { reason: "keyword" } },
      { name: "Assignments", value: 1, unit: "count", dimensions: { mode: "own-attendant" } },
      // a clock skew between SQS and the Lambda never records a negative age
      { name: "QueueAgeAtConsumption", value: 0, unit: "ms", dimensions: { queue: "inbound" } },
    ]);
  });
});
