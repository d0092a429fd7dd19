import { expect, it, vi } from "vitest";
import type { PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { createLeaseMetrics } from "./lease-metrics";
import { createLogger } from "./logger";

it("puts SessionLeaseRenewals in the stage's namespace at most every 30 s, counting healthy rounds only", () => {
  vi.useFakeTimers({ now: 1_000_000 });
  const sent: PutMetricDataCommand[] = [];
  const client = { send: async (c: PutMetricDataCommand) => void sent.push(c) } as never;
  const m = createLeaseMetrics({ namespace: "Atende/prod", region: "us-east-1", logger: createLogger("silent"), client });
  m.onHeartbeat({ renewed: 2, failed: 0 });
  m.onHeartbeat({ renewed: 1, failed: 1 });
  vi.advanceTimersByTime(10_000);
  m.onHeartbeat({ renewed: 2, failed: 0 });
  expect(sent).toHaveLength(1);
  vi.advanceTimersByTime(30_000);
  m.onHeartbeat({ renewed: 0, failed: 0 });
  expect(sent).toHaveLength(2);
  expect(sent[0]!.input).toMatchObject({ Namespace: "Atende/prod", MetricData: [{ MetricName: "SessionLeaseRenewals", Value: 1, Dimensions: [{ Name: "service", Value: "atende" }] }] });
  expect(sent[1]!.input.MetricData![0]!.Value).toBe(2);
  vi.useRealTimers();
});

it("does nothing without a namespace (the local platform)", () => {
  expect(() => createLeaseMetrics({ region: "us-east-1", logger: createLogger("silent") }).onHeartbeat({ renewed: 1, failed: 0 })).not.toThrow();
});
