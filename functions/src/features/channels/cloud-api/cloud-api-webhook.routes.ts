import { Hono } from "hono";
import type { AppEnv } from "../../../platform/http/app-env";
import type { CloudApiWebhookService } from "./cloud-api-webhook.service";

/**
 * Meta's webhook for one Cloud API connection: GET answers the verification handshake (the challenge, or 403),
 * POST verifies X-Hub-Signature-256 over the raw body and enqueues (200; 403 bad or missing signature, storing
 * nothing; 404 unknown connection). Public: no session, the signature is the authentication. Served by the API
 * locally and by its own small Lambda in AWS (handlers/cloud-api-webhook.ts).
 */
export const cloudApiWebhookRoutes = (service: CloudApiWebhookService) => {
  const app = new Hono<AppEnv>();
  app.get("/:hookId", async (c) => {
    const challenge = await service.verify(c.req.param("hookId"), c.req.query());
    return challenge === null ? c.json({ error: "ERR_NO_PERMISSION" }, 403) : c.text(challenge, 200);
  });
  app.post("/:hookId", async (c) => {
    const raw = await c.req.text();
    const out = await service.receive(c.req.param("hookId"), raw, c.req.header("x-hub-signature-256"));
    if (out.status === 200) return c.json({ ok: true });
    return c.json({ error: out.status === 404 ? "ERR_NO_WAPP_FOUND" : out.status === 403 ? "ERR_NO_PERMISSION" : "ERR_VALIDATION" }, out.status);
  });
  return app;
};
