import { Hono } from "hono";
import { mediaResponseHeaders } from "@atende/shared/domain/media/media-sniff";
import type { Guards } from "../../platform/modules/feature-module";
import type { LogosService } from "./logos.service";
import { manifestLanguage } from "./app-manifest";
import { requireSuper } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { uploadedFile } from "../../platform/http/uploaded-file";

/** POST /settings/media-upload?ref= (operator) and the public GETs the login, sign-up and layout use. */
export const logosRoutes = (logos: LogosService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.post("/settings/media-upload", guards.auth, requireSuper, async (c) =>
    c.json(await logos.upload(c.req.query("ref") ?? "", await uploadedFile(c))),
  );
  app.get("/public/settings", async (c) => c.json(await logos.publicSettings()));
  // the installed app's manifest (issue 32): linked by index.html; no-cache so a new logo reaches the next launch
  app.get("/public/manifest.webmanifest", async (c) =>
    c.body(JSON.stringify(await logos.manifest(manifestLanguage(c.req.header("accept-language")))), 200, {
      "content-type": "application/manifest+json",
      "cache-control": "no-cache",
      vary: "Accept-Language",
    }),
  );
  app.get("/public/logos/:ref", async (c) => {
    const logo = await logos.current(c.req.param("ref"));
    if (!logo) return c.json({ error: "ERR_NOT_FOUND" }, 404);
    // typed from the bytes; an SVG (allowed for logos, spec 2) is shown inline but sandboxed: opened directly it runs nothing
    return c.body(logo.body as Uint8Array<ArrayBuffer>, 200, {
      ...mediaResponseHeaders(logo.body, `logo-${c.req.param("ref")}`, { inlineAlso: ["image/svg+xml", "image/x-icon"] }),
      "cache-control": "no-cache",
      "x-logo-source": logo.uploaded ? "uploaded" : "default",
    });
  });
  return app;
};
