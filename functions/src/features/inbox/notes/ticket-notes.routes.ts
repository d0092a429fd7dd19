import { Hono } from "hono";
import * as z from "zod";
import { ticketNoteSchema } from "@atende/shared/domain/messages/message";
import type { Guards } from "../../../platform/modules/feature-module";
import type { TicketNotesService } from "./ticket-notes.service";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../../platform/http/parse";

const listQuery = z.object({ ticketId: z.coerce.number().int().positive(), contactId: z.coerce.number().int().positive().optional() });

export const ticketNotesRoutes = (notes: TicketNotesService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  const svc = () => notes;
  r.use("*", guards.auth);
  r.get("/list", async (c) => {
    const q = parseQuery(c, listQuery);
    return c.json(await svc().list(c.get("auth"), q.ticketId, q.contactId));
  });
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, ticketNoteSchema)), 201));
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "note deleted" });
  });
  return r;
};
