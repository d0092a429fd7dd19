import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { announcementSchema, announcementUpdateSchema } from "@atende/shared/domain/announcements/announcement";
import { mediaResponseHeaders } from "@atende/shared/domain/media/media-sniff";
import type { Container } from "../../app/container";
import { requireAuth, requireSuper } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = searchPageQuerySchema;

/** Announcements (spec 3): everyone logged in reads; only super users write. */
export const announcementsRoutes = (container: Container) => {
  const svc = () => container.services.announcements;
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container.services.auth.authenticate));
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id"))));
  r.get("/:id/media", async (c) => {
    const obj = await svc().media(c.get("auth"), idParam(c, "id"));
    return c.body(obj.body as Uint8Array<ArrayBuffer>, 200, { ...mediaResponseHeaders(obj.body, "anuncio"), "cache-control": "private, max-age=3600" });
  });
  // writes: refused before the body is read
  r.post("/", requireSuper, async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, announcementSchema))));
  r.put("/:id", requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, announcementUpdateSchema)));
  });
  r.delete("/:id", requireSuper, async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Announcement deleted" });
  });
  r.post("/:id/media-upload", requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await svc().uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  r.delete("/:id/media-upload", requireSuper, async (c) => c.json(await svc().removeMedia(c.get("auth"), idParam(c, "id"))));
  return r;
};
