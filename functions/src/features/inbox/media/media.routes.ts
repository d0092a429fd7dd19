import { Hono } from "hono";
import { mediaResponseHeaders } from "@atende/shared/domain/media/media-sniff";
import type { Guards } from "../../../platform/modules/feature-module";
import { AppError } from "../../../platform/errors";
import type { AppEnv } from "../../../platform/http/app-env";
import { companyOfMediaKey, type MediaStore } from "../../../platform/storage/media-store.port";

/**
 * GET /media/{key}: the bytes behind a message's mediaUrl, only for the company that owns the key.
 * Served by what the bytes are (sniffed now, whatever type was stored): raster images, audio and video inline, every
 * other file an attachment; always `nosniff` and a sandboxing CSP, so nothing a user or a customer sent can run on
 * the app's origin (docs/security.md "Media").
 */
export const mediaRoutes = (media: Pick<MediaStore, "get">, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/*", async (c) => {
    const key = decodeURIComponent(c.req.path.replace(/^.*?\/media\//, ""));
    if (!key || key.includes("..") || companyOfMediaKey(key) !== c.get("auth").companyId) throw new AppError("ERR_NOT_FOUND");
    const obj = await media.get(key);
    if (!obj) throw new AppError("ERR_NOT_FOUND");
    return new Response(obj.body as Uint8Array<ArrayBuffer>, { headers: { ...mediaResponseHeaders(obj.body, key), "cache-control": "private, max-age=3600" } });
  });
  return r;
};
