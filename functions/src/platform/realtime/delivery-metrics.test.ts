import { expect, it } from "vitest";
import { METRIC } from "@atende/shared/contracts/metric-names";
import { createLogger } from "../logger";
import { createMemoryMetrics } from "../metrics";
import { withDeliveryMetrics } from "./delivery-metrics";

it("counts a failed post (and rethrows it), not a delivered one nor a gone connection", async () => {
  const { metrics, sum } = createMemoryMetrics();
  const results: ("ok" | "gone" | Error)[] = ["ok", "gone", new Error("500 from the management API")];
  const sender = withDeliveryMetrics(
    {
      post: async () => {
        const next = results.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
      disconnect: async () => {},
    },
    metrics,
    createLogger("silent"),
  );
  await expect(sender.post("c1", {})).resolves.toBe("ok");
  await expect(sender.post("c2", {})).resolves.toBe("gone");
  expect(sum(METRIC.webSocketDeliveryFailures)).toBe(0);
  await expect(sender.post("c3", {})).rejects.toThrow("500");
  expect(sum(METRIC.webSocketDeliveryFailures)).toBe(1);
});
