import { METRIC } from "@atende/shared/contracts/metric-names";
import type { Logger } from "../logger";
import type { Metrics } from "../metrics";
import type { SocketSender } from "./sender.port";

/** Counts posts to connections that failed (a gone connection is not a failure) and logs them with the connection id. */
export const withDeliveryMetrics = (sender: SocketSender, metrics: Metrics, logger: Logger): SocketSender => ({
  ...sender,
  async post(connectionId, frame) {
    try {
      return await sender.post(connectionId, frame);
    } catch (err) {
      metrics.count(METRIC.webSocketDeliveryFailures);
      logger.warn("websocket post failed", { connectionId, err });
      throw err;
    }
  },
});
