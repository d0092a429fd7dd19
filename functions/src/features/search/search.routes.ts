import { Hono } from "hono";
import * as z from "zod";
import type { Guards } from "../../platform/modules/feature-module";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseQuery } from "../../platform/http/parse";
import type { SearchService } from "./search.service";

const searchQuerySchema = z.object({
  q: z.string({ error: "Required" }).trim().min(1, "Required").max(200, "Too Long!"),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
const ticketSearchSchema = z.object({ q: z.string({ error: "Required" }).trim().min(1, "Required").max(200, "Too Long!") });

/** GET /search?q=&limit= (tickets with a highlighted snippet), GET /search/tickets/{ticketId}?q= (a conversation's matches). */
export const searchRoutes = (search: SearchService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/", async (c) => {
    const { q, limit } = parseQuery(c, searchQuerySchema);
    return c.json(await search.search(c.get("auth"), q, limit));
  });
  r.get("/tickets/:ticketId", async (c) => {
    const ticketId = idParam(c, "ticketId", "ERR_NO_TICKET_FOUND");
    const { q } = parseQuery(c, ticketSearchSchema);
    return c.json(await search.inTicket(c.get("auth"), ticketId, q));
  });
  return r;
};
