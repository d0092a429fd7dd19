import { Hono } from "hono";
import { externalMessagesRoutes } from "../features/external-api/external-api.routes";
import { authRoutes } from "../features/auth/auth.routes";
import { companiesRoutes } from "../features/companies/companies.routes";
import { helpsRoutes } from "../features/helps/helps.routes";
import { dashboardRoutes } from "../features/dashboard/dashboard.routes";
import { logosRoutes } from "../features/logos/logos.routes";
import { passwordResetRoutes } from "../features/password-reset/password-reset.routes";
import { plansRoutes } from "../features/plans/plans.routes";
import { queueOptionsRoutes } from "../features/queue-options/queue-options.routes";
import { queuesRoutes } from "../features/queues/queues.routes";
import { quickMessagesRoutes } from "../features/quick-messages/quick-messages.routes";
import { promptsRoutes } from "../features/prompts/prompts.routes";
import { queueIntegrationsRoutes } from "../features/queue-integrations/queue-integrations.routes";
import { announcementsRoutes } from "../features/announcements/announcements.routes";
import { fileListsRoutes } from "../features/files/file-lists.routes";
import { schedulesRoutes } from "../features/schedules/schedules.routes";
import { chatsRoutes } from "../features/chats/chats.routes";
import { campaignSettingsRoutes } from "../features/campaign-settings/campaign-settings.routes";
import { contactListItemsRoutes, contactListsRoutes } from "../features/contact-lists/contact-lists.routes";
import { campaignsRoutes } from "../features/campaigns/campaigns.routes";
import { invoicesRoutes } from "../features/invoices/invoices.routes";
import { subscriptionRoutes } from "../features/subscription/subscription.routes";
import { settingsRoutes } from "../features/settings/settings.routes";
import { signupRoutes } from "../features/signup/signup.routes";
import { usersRoutes } from "../features/users/users.routes";
import { whatsappRestartRoutes, whatsappSessionRoutes, whatsappsRoutes } from "../features/whatsapps/whatsapps.routes";
import type { Container } from "./container";
import { limitBody } from "../platform/http/body-limit";
import { sendError } from "../platform/http/error-handler";
import { healthRoutes } from "./health.routes";
import { timeRoute } from "../platform/http/route-timing";
import { METRIC } from "@atende/shared/contracts/metric-names";
import { requestId, requireOrigin } from "../platform/http/middleware";
import type { AppEnv } from "../features/auth/app-env";
import { securityHeaders } from "../platform/http/security-headers";

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
  api.onError((err, c) => sendError(c, err, container.logger));
  api.notFound((c) => c.json({ error: "ERR_NOT_FOUND" }, 404));

  api.get("/version", (c) => c.json({ version: container.config.APP_VERSION }));
  api.route("/health", healthRoutes(container));
  api.use("/tickets", timeRoute("GET", container.metrics, METRIC.ticketListLatency));
  api.route("/auth", authRoutes(container));
  api.route("/companies", signupRoutes(container)); // public POST /companies/cadastro, before the private ones
  api.route("/companies", companiesRoutes(container));
  api.route("/", logosRoutes(container)); // /settings/media-upload, /public/*
  api.route("/", passwordResetRoutes(container)); // public /forgetpassword, /resetpasswords
  api.route("/queue", queuesRoutes(container));
  api.route("/whatsapp", whatsappsRoutes(container));
  api.route("/whatsappsession", whatsappSessionRoutes(container));
  api.route("/whatsapp-restart", whatsappRestartRoutes(container));
  api.route("/queue-options", queueOptionsRoutes(container));
  api.route("/users", usersRoutes(container));
  api.route("/settings", settingsRoutes(container));
  api.route("/plans", plansRoutes(container));
  api.route("/helps", helpsRoutes(container));
  api.route("/dashboard", dashboardRoutes(container));
  // the inbox module's routes (docs/adr/0023-inbox-feature.md): /tickets, /ticket, /ticket-tags, /tags, /messages,
  // /message, /contacts, /ticket-notes, /media
  for (const route of container.modules.inbox.routes) {
    // POST /messages/send (connection token), before the inbox's /messages
    if (route.path === "/messages") api.route("/messages", externalMessagesRoutes(container));
    api.route(route.path, route.app);
  }
  api.route("/quick-messages", quickMessagesRoutes(container));
  api.route("/prompt", promptsRoutes(container));
  api.route("/queueIntegration", queueIntegrationsRoutes(container));
  api.route("/announcements", announcementsRoutes(container));
  api.route("/files", fileListsRoutes(container));
  api.route("/schedules", schedulesRoutes(container));
  api.route("/chats", chatsRoutes(container));
  api.route("/contact-lists", contactListsRoutes(container));
  api.route("/contact-list-items", contactListItemsRoutes(container));
  api.route("/campaign-settings", campaignSettingsRoutes(container));
  api.route("/campaigns", campaignsRoutes(container));
  api.route("/invoices", invoicesRoutes(container));
  api.route("/subscription", subscriptionRoutes(container)); // POST /subscription/webhook is public (shared secret + provider check)

  const root = new Hono({ strict: false });
  root.route("/api", api);
  return root;
};
