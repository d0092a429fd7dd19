import { Hono } from "hono";
import type { Container } from "../../platform/container";
import { AppError } from "../../platform/errors";
import { type AppEnv, requireAuth } from "../../platform/http/middleware";
import { companyOfMediaKey } from "../../platform/storage/media-store.port";

/** GET /media/{key}: the bytes behind a message's mediaUrl, only for the company that owns the key. */
export const mediaRoutes = (container: Container) => {
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container));
  r.get("/*", async (c) => {
    const key = decodeURIComponent(c.req.path.replace(/^.*?\/media\//, ""));
    if (!key || key.includes("..") || companyOfMediaKey(key) !== c.get("auth").companyId) throw new AppError("ERR_NOT_FOUND");
    const obj = await container.media.get(key);
    if (!obj) throw new AppError("ERR_NOT_FOUND");
    return new Response(obj.body, { headers: { "content-type": obj.mimetype, "cache-control": "private, max-age=3600" } });
  });
  return r;
};
