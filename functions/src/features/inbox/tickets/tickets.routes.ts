import { Hono } from "hono";
import * as z from "zod";
import { closeAllSchema, ticketCreateSchema, ticketListQuerySchema, ticketUpdateSchema } from "@atende/shared/domain/tickets/ticket";
import type { Guards } from "../../../platform/modules/feature-module";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../../platform/http/parse";
import { AppError } from "../../../platform/errors";
import type { TicketsService } from "./tickets.service";

export const ticketsRoutes = (tickets: TicketsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  const svc = () => tickets;
  r.use("*", guards.auth);
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"), parseQuery(c, ticketListQuerySchema))));
  r.get("/u/:uuid", async (c) => {
    const uuid = c.req.param("uuid");
    if (!/^[0-9a-f-]{36}$/i.test(uuid)) throw new AppError("ERR_NO_TICKET_FOUND");
    return c.json(await svc().getByUuid(c.get("auth"), uuid));
  });
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id", "ERR_NO_TICKET_FOUND"))));
  r.post("/closeAll", async (c) => c.json(await svc().closeAll(c.get("auth"), await parseJson(c, closeAllSchema))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, ticketCreateSchema)), 201));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_TICKET_FOUND");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, ticketUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id", "ERR_NO_TICKET_FOUND"));
    return c.json({ message: "ticket deleted" });
  });
  return r;
};

/** GET /ticket/kanban (plan flag useKanban). */
export const ticketKanbanRoutes = (tickets: TicketsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/kanban", guards.plan("useKanban"), async (c) => {
    const { queueIds } = parseQuery(c, z.object({ queueIds: ticketListQuerySchema.shape.queueIds }));
    return c.json(await tickets.kanban(c.get("auth"), queueIds));
  });
  return r;
};

/** DELETE /ticket-tags/{ticketId}; PUT /ticket-tags/{ticketId}/{tagId}. */
export const ticketTagsRoutes = (tickets: TicketsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.delete("/:ticketId", async (c) => c.json(await tickets.setTags(c.get("auth"), idParam(c, "ticketId", "ERR_NO_TICKET_FOUND"), [])));
  r.put("/:ticketId/:tagId", async (c) => {
    const ticketId = idParam(c, "ticketId", "ERR_NO_TICKET_FOUND");
    return c.json(await tickets.addTag(c.get("auth"), ticketId, idParam(c, "tagId")));
  });
  return r;
};
