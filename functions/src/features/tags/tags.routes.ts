import { Hono } from "hono";
import { tagCreateSchema, tagSyncSchema } from "@atende/shared/domain/tags/tag";
import type { Container } from "../../platform/container";
import { type AppEnv, requireAuth } from "../../platform/http/middleware";
import { parseJson } from "../../platform/http/parse";

/** GET /tags/list, POST /tags, POST /tags/sync (the rest of /tags belongs to the tags admin page). */
export const tagsInboxRoutes = (container: Container) => {
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container));
  r.get("/list", async (c) => c.json(await container.services.tags.list(c.get("auth"))));
  r.post("/sync", async (c) => {
    const input = await parseJson(c, tagSyncSchema);
    return c.json(await container.services.tickets.setTags(c.get("auth"), input.ticketId, input.tags.map((t) => t.id)));
  });
  r.post("/", async (c) => c.json(await container.services.tags.create(c.get("auth"), await parseJson(c, tagCreateSchema)), 201));
  return r;
};
