import { type Context, Hono } from "hono";
import { whatsappFormSchema } from "@atende/shared/domain/whatsapps/whatsapp-form";
import type { Guards } from "../../platform/modules/feature-module";
import type { WhatsappsService } from "./whatsapps.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";

/** /whatsapp: connections (spec 2 section 7). Reads for every user of the company; writes for admins. */
export const whatsappsRoutes = (whatsapps: WhatsappsService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth);
  app.get("/", async (c) => c.json(await whatsapps.list(c.get("auth"))));
  // a Cloud API connection's webhook URL is built on the request's origin (config PUBLIC_BASE_URL wins)
  const origin = (c: Context) => new URL(c.req.url).origin;
  app.get("/:id", async (c) => c.json(await whatsapps.show(c.get("auth"), idParam(c, "id", "ERR_NO_WAPP_FOUND"), origin(c))));
  app.post("/", requireAdmin, async (c) => {
    const form = await parseJson(c, whatsappFormSchema);
    return c.json(await whatsapps.create(c.get("auth"), form, await c.req.json().catch(() => ({})), origin(c)), 200);
  });
  app.put("/:id", requireAdmin, async (c) => {
    const id = idParam(c, "id", "ERR_NO_WAPP_FOUND");
    const form = await parseJson(c, whatsappFormSchema);
    return c.json(await whatsapps.update(c.get("auth"), id, form, await c.req.json().catch(() => ({})), origin(c)));
  });
  app.delete("/:id", requireAdmin, async (c) => {
    await whatsapps.remove(c.get("auth"), idParam(c, "id", "ERR_NO_WAPP_FOUND"));
    return c.json({ message: "Whatsapp deleted." });
  });
  return app;
};

/** /whatsappsession/{id}: start (POST), new QR (PUT), disconnect (DELETE), pairing code (POST .../pairingcode). Admins only. */
export const whatsappSessionRoutes = (whatsapps: WhatsappsService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requireAdmin);
  app.post("/:id", async (c) => c.json(await whatsapps.startSession(c.get("auth"), idParam(c, "id", "ERR_NO_WAPP_FOUND"))));
  app.put("/:id", async (c) => c.json(await whatsapps.newQr(c.get("auth"), idParam(c, "id", "ERR_NO_WAPP_FOUND"))));
  /** link by phone number instead of scanning: { number }; the code arrives on the connection (pairingCode) */
  app.post("/:id/pairingcode", async (c) => {
    const id = idParam(c, "id", "ERR_NO_WAPP_FOUND");
    return c.json(await whatsapps.requestPairingCode(c.get("auth"), id, await c.req.json().catch(() => ({}))));
  });
  app.delete("/:id", async (c) => c.json(await whatsapps.disconnect(c.get("auth"), idParam(c, "id", "ERR_NO_WAPP_FOUND"))));
  return app;
};

/** /whatsapp-restart: every connection of the company reconnects. Admins only. */
export const whatsappRestartRoutes = (whatsapps: WhatsappsService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth, requireAdmin);
  app.post("/", async (c) => c.json(await whatsapps.restartAll(c.get("auth"))));
  return app;
};
