import type { MiddlewareHandler } from "hono";
import type { MetricName } from "@atende/shared/contracts/metric-names";
import type { Metrics } from "../metrics";

/** Records how long the route took (milliseconds) for requests of this method; other methods pass untimed. */
export const timeRoute =
  (method: string, metrics: Metrics, name: MetricName): MiddlewareHandler =>
  async (c, next) => {
    if (c.req.method !== method) return next();
    const started = performance.now();
    await next();
    metrics.timing(name, Math.round(performance.now() - started));
  };
