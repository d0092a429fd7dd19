import { Hono } from "hono";
import type { Container } from "../../platform/container";
import { type AppEnv, requireAuth, requireSuper } from "../../platform/http/middleware";
import { uploadedFile } from "../../platform/http/uploaded-file";

/** POST /settings/media-upload?ref= (operator) and the public GETs the login, sign-up and layout use. */
export const logosRoutes = (container: Container) => {
  const { logos } = container.services;
  const app = new Hono<AppEnv>();
  app.post("/settings/media-upload", requireAuth(container), requireSuper, async (c) =>
    c.json(await logos.upload(c.req.query("ref") ?? "", await uploadedFile(c))),
  );
  app.get("/public/settings", async (c) => c.json(await logos.publicSettings()));
  app.get("/public/logos/:ref", async (c) => {
    const logo = await logos.current(c.req.param("ref"));
    if (!logo) return c.json({ error: "ERR_NOT_FOUND" }, 404);
    return c.body(logo.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": logo.mimetype,
      "cache-control": "no-cache",
      "x-logo-source": logo.uploaded ? "uploaded" : "default",
      "x-content-type-options": "nosniff",
      // an SVG opened directly must not run scripts
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
  return app;
};
