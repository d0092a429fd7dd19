import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env";

/** What a Meta-style webhook service answers (the Cloud API's, Messenger's and Instagram's; docs/adr/0090). */
export type SignedWebhookService = {
  /** the challenge to echo for a right verify token, or null (403) */
  verify(hookId: string, query: Record<string, string | undefined>): Promise<string | null>;
  receive(hookId: string, rawBody: string, signature: string | null | undefined): Promise<{ status: 200 } | { status: 400 | 403 | 404 }>;
};

/**
 * Meta's webhook for one connection, the same for every Meta channel: GET answers the verification handshake
 * (`hub.mode=subscribe`, `hub.verify_token`: the challenge, or 403), POST hands the RAW body and
 * X-Hub-Signature-256 to the service, which verifies before reading (200; 403 bad or missing signature, storing
 * nothing; 404 unknown connection; 400 not JSON). Public: no session, the signature is the authentication.
 */
export const signedWebhookRoutes = (service: SignedWebhookService) => {
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
