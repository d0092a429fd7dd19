import { Hono } from "hono";
import type { AppEnv } from "../../../platform/http/app-env";
import type { TelegramWebhookService } from "./telegram-webhook.service";

/**
 * Telegram's webhook for one connection: POST with the update; 200 once enqueued, 403 when the
 * X-Telegram-Bot-Api-Secret-Token is wrong or missing (nothing stored), 404 for an unknown connection. Public:
 * no session, the secret token is the authentication.
 */
export const telegramWebhookRoutes = (service: TelegramWebhookService) => {
  const app = new Hono<AppEnv>();
  app.post("/:hookId", async (c) => {
    const out = await service.receive(c.req.param("hookId"), await c.req.text(), c.req.header("x-telegram-bot-api-secret-token"));
    if (out.status === 200) return c.json({ ok: true });
    return c.json({ error: out.status === 404 ? "ERR_NO_WAPP_FOUND" : out.status === 403 ? "ERR_NO_PERMISSION" : "ERR_VALIDATION" }, out.status);
  });
  return app;
};
