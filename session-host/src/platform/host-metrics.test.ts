import { expect, it, vi } from "vitest";
import type { PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { createHostMetrics } from "./host-metrics";
import { createLogger } from "./logger";

it("puts SessionLeaseRenewals (healthy rounds only) and the counters in the stage's namespace at most every 30 s", () => {
  vi.useFakeTimers({ now: 1_000_000 });
  const sent: PutMetricDataCommand[] = [];
  const client = { send: async (c: PutMetricDataCommand) => void sent.push(c) } as never;
  const m = createHostMetrics({ namespace: "Atende/prod", region: "us-east-1", logger: createLogger("silent"), client });
  m.onHeartbeat({ renewed: 2, failed: 0 });
  expect(sent).toHaveLength(1);
  expect(sent[0]!.input).toMatchObject({ Namespace: "Atende/prod", MetricData: [{ MetricName: "SessionLeaseRenewals", Value: 1, Dimensions: [{ Name: "service", Value: "atende" }] }] });
  m.onHeartbeat({ renewed: 1, failed: 1 });
  m.count("MessagesIn", { provider: "baileys" });
  m.count("MessagesIn", { provider: "baileys" });
  m.count("SendFailures", { code: "ERR_SENDING_WAPP_MSG" });
  m.gauge("SessionsPerHost", 12);
  m.gauge("SessionsPerHost", 14);
  vi.advanceTimersByTime(10_000);
  m.onHeartbeat({ renewed: 2, failed: 0 });
  expect(sent).toHaveLength(1);
  vi.advanceTimersByTime(30_000);
  m.onHeartbeat({ renewed: 0, failed: 0 });
  expect(sent).toHaveLength(2);
  const data = sent[1]!.input.MetricData!;
  expect(data.find((d) => d.MetricName === "SessionLeaseRenewals")?.Value).toBe(2);
  expect(data.find((d) => d.MetricName === "MessagesIn")).toMatchObject({ Value: 2, Dimensions: [{ Name: "service", Value: "atende" }, { Name: "provider", Value: "baileys" }] });
  expect(data.find((d) => d.MetricName === "SessionsPerHost")).toMatchObject({ Value: 14, Dimensions: [{ Name: "service", Value: "atende" }] });
  expect(data.find((d) => d.MetricName === "SendFailures")).toMatchObject({ Value: 1, Dimensions: [{ Name: "service", Value: "atende" }, { Name: "code", Value: "ERR_SENDING_WAPP_MSG" }] });
  vi.useRealTimers();
});

it("does nothing without a namespace (the local platform)", () => {
  const m = createHostMetrics({ region: "us-east-1", logger: createLogger("silent") });
  expect(() => {
    m.count("MessagesOut", { provider: "simulator" });
    m.onHeartbeat({ renewed: 1, failed: 0 });
  }).not.toThrow();
});
