import { Hono } from "hono";
import type { Container } from "./container";
import type { FeatureModule } from "../platform/modules/feature-module";
import { limitBody } from "../platform/http/body-limit";
import { sendError } from "../platform/http/error-handler";
import { healthRoutes } from "./health.routes";
import { timeRoute } from "../platform/http/route-timing";
import { METRIC } from "@atende/shared/contracts/metric-names";
import { requestId, requireOrigin } from "../platform/http/middleware";
import type { AppEnv } from "../platform/http/app-env";
import { securityHeaders } from "../platform/http/security-headers";
import { withCorrelation } from "../platform/logger";

/**
 * The HTTP API: one Hono app, served by the api Lambda in AWS and by the local runner on this machine.
 * Every route lives under /api (CloudFront routes /api/* to the HTTP API).
 */
export const createHttpApp = (container: Container) => {
  // strict: false: the spec calls some paths with a trailing slash (GET /users/, /settings/, /whatsapp/)
  const api = new Hono<AppEnv>({ strict: false });
  api.use("*", requestId);
  api.use("*", securityHeaders);
  api.use("*", requireOrigin(container.config.ORIGIN_VERIFY_SECRET));
  api.use("*", limitBody());
  // the error log line carries the request id (the one the answer carries in x-request-id)
  api.onError((err, c) => sendError(c, err, withCorrelation(container.logger, { requestId: c.get("requestId") })));
  api.notFound((c) => c.json({ error: "ERR_NOT_FOUND" }, 404));

  api.get("/version", (c) => c.json({ version: container.config.APP_VERSION }));
  api.route("/health", healthRoutes(container));
  api.use("/tickets", timeRoute("GET", container.metrics, METRIC.ticketListLatency));
  const mount = (modules: readonly Pick<FeatureModule<unknown>, "routes">[]) => {
    for (const m of modules) for (const r of m.routes ?? []) api.route(r.path, r.app);
  };
  // /auth, /companies (public sign-up first), /, /queue, /whatsapp..., /users, /settings, /plans, /helps, /dashboard
  mount(container.modules.beforeInbox);
  // the inbox module's routes (docs/adr/0023-inbox-feature.md): /tickets, /ticket, /ticket-tags, /tags, /messages,
  // /message, /contacts, /ticket-notes, /media
  for (const route of container.modules.inbox.flatMap((m) => m.routes)) {
    if (route.path === "/messages") mount(container.modules.inboxPrefix); // POST /messages/send (connection token), before the inbox's /messages
    api.route(route.path, route.app);
  }
  // /quick-messages, /prompt, /queueIntegration, /announcements, /files, /chats, /schedules, /contact-lists,
  // /contact-list-items, /campaign-settings, /campaigns, /invoices, /subscription (its webhook is public)
  mount(container.modules.afterInbox);

  const root = new Hono({ strict: false });
  root.route("/api", api);
  return root;
};
