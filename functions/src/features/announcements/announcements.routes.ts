import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { announcementSchema, announcementUpdateSchema } from "@atende/shared/domain/announcements/announcement";
import { mediaResponseHeaders } from "@atende/shared/domain/media/media-sniff";
import type { Guards } from "../../platform/modules/feature-module";
import type { AnnouncementsService } from "./announcements.service";
import { requireSuper } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = searchPageQuerySchema;

/** Announcements (spec 3): everyone logged in reads; only super users write. */
export const announcementsRoutes = (announcements: AnnouncementsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/", async (c) => c.json(await announcements.list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/:id", async (c) => c.json(await announcements.get(c.get("auth"), idParam(c, "id"))));
  r.get("/:id/media", async (c) => {
    const obj = await announcements.media(c.get("auth"), idParam(c, "id"));
    return c.body(obj.body as Uint8Array<ArrayBuffer>, 200, { ...mediaResponseHeaders(obj.body, "anuncio"), "cache-control": "private, max-age=3600" });
  });
  // writes: refused before the body is read
  r.post("/", requireSuper, async (c) => c.json(await announcements.create(c.get("auth"), await parseJson(c, announcementSchema))));
  r.put("/:id", requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await announcements.update(c.get("auth"), id, await parseJson(c, announcementUpdateSchema)));
  });
  r.delete("/:id", requireSuper, async (c) => {
    await announcements.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Announcement deleted" });
  });
  r.post("/:id/media-upload", requireSuper, async (c) => {
    const id = idParam(c, "id");
    return c.json(await announcements.uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  r.delete("/:id/media-upload", requireSuper, async (c) => c.json(await announcements.removeMedia(c.get("auth"), idParam(c, "id"))));
  return r;
};
