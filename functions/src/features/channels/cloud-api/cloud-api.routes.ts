import { canSeeTicket, type TicketScope } from "@atende/shared/domain/tickets/visibility";
import { Hono } from "hono";
import * as z from "zod";
import type { Guards } from "../../../platform/modules/feature-module";
import { AppError } from "../../../platform/errors";
import { requireAdmin } from "../../../platform/http/middleware";
import type { AppEnv } from "../../../platform/http/app-env";
import type { ReplyWindow } from "@atende/shared/domain/cloud-api/reply-window";
import type { CloudApiService } from "./cloud-api.service";

/**
 * /cloud-api: what the web app needs beyond POST/PUT /whatsapp for Cloud API connections. Every route takes the
 * company from the caller's token: another company's connection or ticket ids answer 404, nothing is read.
 * - POST /cloud-api/{whatsappId}/test            (admins) reads the number from the Graph API
 * - GET  /cloud-api/{whatsappId}/templates       the synced templates (composer, campaign dialog)
 * - POST /cloud-api/{whatsappId}/templates/sync  (admins) syncs from the WABA now
 * - GET  /cloud-api/tickets/{ticketId}/window    the ticket's 24-hour window
 */
export const cloudApiRoutes = (deps: {
  service: CloudApiService;
  guards: Pick<Guards, "auth">;
  /** the ticket's connection and chat, when the ticket is the company's, with its visibility scope */
  ticketOf: (companyId: number, ticketId: number) => Promise<({ whatsappId: number | null; chatJid: string } & TicketScope) | null>;
  /** the connection's provider, when the connection is the company's */
  providerOf: (companyId: number, whatsappId: number) => Promise<string | null>;
  /** another channel's window in the same shape (Messenger / Instagram, docs/adr/0090), or null when not that channel */
  otherWindow?: (companyId: number, whatsappId: number, chatJid: string) => Promise<ReplyWindow | null>;
}) => {
  const { service } = deps;
  const app = new Hono<AppEnv>();
  app.use("*", deps.guards.auth);
  const idOf = (raw: string) => {
    const id = z.coerce.number().int().positive().safeParse(raw);
    if (!id.success) throw new AppError("ERR_NO_WAPP_FOUND");
    return id.data;
  };
  const cloudConnection = async (companyId: number, raw: string) => {
    const id = idOf(raw);
    if ((await deps.providerOf(companyId, id)) !== "cloudapi") throw new AppError("ERR_NO_WAPP_FOUND");
    return id;
  };
  app.post("/:whatsappId/test", requireAdmin, async (c) => {
    const companyId = c.get("auth").companyId;
    return c.json(await service.check(companyId, await cloudConnection(companyId, c.req.param("whatsappId"))));
  });
  app.get("/:whatsappId/templates", async (c) => {
    const companyId = c.get("auth").companyId;
    return c.json(await service.listTemplates(companyId, await cloudConnection(companyId, c.req.param("whatsappId"))));
  });
  app.post("/:whatsappId/templates/sync", requireAdmin, async (c) => {
    const companyId = c.get("auth").companyId;
    return c.json(await service.syncTemplates(companyId, await cloudConnection(companyId, c.req.param("whatsappId"))));
  });
  app.get("/tickets/:ticketId/window", async (c) => {
    const companyId = c.get("auth").companyId;
    const ticketId = z.coerce.number().int().positive().safeParse(c.req.param("ticketId"));
    const t = ticketId.success ? await deps.ticketOf(companyId, ticketId.data) : null;
    if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
    // who may read the ticket may read its window: an attendant outside its queue gets 403, as GET /tickets/{id}
    const { user } = c.get("auth");
    if (!canSeeTicket({ userId: user.id, profile: user.profile, queueIds: user.queueIds, allTicket: user.allTicket }, t)) throw new AppError("ERR_NO_PERMISSION");
    const other = t.whatsappId && deps.otherWindow ? await deps.otherWindow(companyId, t.whatsappId, t.chatJid) : null;
    if (other) return c.json(other);
    if (!t.whatsappId || (await deps.providerOf(companyId, t.whatsappId)) !== "cloudapi") return c.json({ kind: "none" });
    return c.json(await service.windowOf(companyId, t.whatsappId, t.chatJid));
  });
  return app;
};
