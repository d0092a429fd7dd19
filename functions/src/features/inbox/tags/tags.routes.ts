import { Hono } from "hono";
import { tagCreateSchema, tagListQuerySchema, tagSyncSchema, tagUpdateSchema } from "@atende/shared/domain/tags/tag";
import type { Guards } from "../../../platform/modules/feature-module";
import type { TicketsService } from "../tickets/tickets.service";
import type { TagsService } from "./tags.service";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../../platform/http/parse";

/**
 * /tags (spec 3 section 7): the tags page (GET /, GET/PUT/DELETE /{id}, POST /), the board's lanes (GET /kanban,
 * plan flag useKanban) and the ticket tag picker (GET /list, POST /sync).
 */
export const tagsRoutes = (tags: TagsService, tickets: Pick<TicketsService, "setTags">, guards: Guards) => {
  const svc = () => tags;
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/", async (c) => {
    const q = parseQuery(c, tagListQuerySchema);
    // `GET /tags?companyId=` (no page asked): every tag, for selects
    if (q.companyId !== undefined && q.pageNumber === undefined && !q.searchParam) return c.json(await svc().all(c.get("auth")));
    return c.json(await svc().page(c.get("auth"), { searchParam: q.searchParam, pageNumber: q.pageNumber ?? 1 }));
  });
  r.get("/list", async (c) => c.json(await svc().list(c.get("auth"))));
  r.get("/kanban", guards.plan("useKanban"), async (c) => c.json(await svc().kanban(c.get("auth"))));
  r.post("/sync", async (c) => {
    const input = await parseJson(c, tagSyncSchema);
    return c.json(await tickets.setTags(c.get("auth"), input.ticketId, input.tags.map((t) => t.id)));
  });
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, tagCreateSchema)), 201));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, tagUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Tag deleted" });
  });
  return r;
};
