import { METRIC } from "@atende/shared/contracts/metric-names";
import { type Context, Hono } from "hono";
import { subscriptionSchema } from "@atende/shared/domain/invoices/invoices";
import type { Metrics } from "../../platform/metrics";
import type { Guards } from "../../platform/modules/feature-module";
import type { SubscriptionService } from "./subscription.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";

/** Header the payment provider (or the local fake bank) sends with our shared secret. */
export const WEBHOOK_SECRET_HEADER = "x-webhook-secret";

/** /subscription: checkout (admins) and the provider's public payment webhook. */
export const subscriptionRoutes = (subscription: SubscriptionService, guards: Guards, metrics: Pick<Metrics, "count">) => {
  const app = new Hono<AppEnv>();
  // Efí posts to the registered URL + "/pix", and cannot add headers: its "skip-mTLS" mode carries the secret as ?hmac=
  const webhook = async (c: Context) => {
    // a body that is not JSON fails validation, after the secret is checked
    const body: unknown = await c.req.json().catch(() => undefined);
    try {
      return c.json(await subscription.handleWebhook(c.req.header(WEBHOOK_SECRET_HEADER) ?? c.req.query("hmac"), body));
    } catch (err) {
      // refused (bad secret, unknown charge) or failed: the PaymentWebhookFailures alarm (docs/operations.md)
      metrics.count(METRIC.paymentWebhookFailures);
      throw err;
    }
  };
  app.post("/webhook", webhook);
  app.post("/webhook/pix", webhook);
  app.post("/", guards.auth, requireAdmin, async (c) => c.json(await subscription.subscribe(c.get("auth"), await parseJson(c, subscriptionSchema))));
  return app;
};
