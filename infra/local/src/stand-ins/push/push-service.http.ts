import { Hono } from "hono";
import { TABS_BAR } from "../registry";

/** One push request as the push service got it (the encrypted body kept as bytes). */
export type ReceivedPush = { id: string; at: number; headers: Record<string, string>; body: Buffer };

/**
 * A push service (FCM, Mozilla autopush, Apple's...) stand-in, local only (docs/adr/0097): the endpoints of test
 * subscriptions point at `/simulator/push/send/<id>`; it keeps what arrives and answers 201, or the status a test
 * set for that endpoint (404/410 gone, 429, 5xx). It cannot decrypt: only the subscription's holder can (push-keys.ts).
 */
export const createPushServiceStandIn = () => {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number[]>();
  const waiters: (() => void)[] = [];
  const app = new Hono().basePath("/simulator/push");
  app.post("/send/:id", async (c) => {
    const id = c.req.param("id");
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((v, k) => (headers[k] = v));
    received.push({ id, at: Date.now(), headers, body: Buffer.from(await c.req.arrayBuffer()) });
    waiters.splice(0).forEach((w) => w());
    const status = statuses.get(id)?.shift() ?? 201;
    return c.body(null, status as 201);
  });
  /** what arrived (`?id=`: for one endpoint), the encrypted body in base64url: the subscription's holder decrypts it */
  app.get("/api/received", (c) => {
    const id = c.req.query("id");
    return c.json(received.filter((r) => !id || r.id === id).map((r) => ({ id: r.id, at: r.at, headers: r.headers, body: r.body.toString("base64url") })));
  });
  app.get("/", (c) =>
    c.html(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Serviço de push</title></head><body>${TABS_BAR}<h1>Serviço de push (simulado)</h1>
<p>Notificações push recebidas (criptografadas: só o navegador assinante as lê).</p><ul>${received
      .slice(-50)
      .map((r) => `<li>${new Date(r.at).toISOString()} — ${r.id} — ${r.headers.urgency ?? ""} — ${r.body.length} bytes</li>`)
      .join("")}</ul></body></html>`),
  );
  return {
    fetch: (req: Request) => app.fetch(req),
    received,
    /** the next answers for an endpoint id, in order (then 201 again) */
    answer(id: string, ...codes: number[]) {
      statuses.set(id, [...(statuses.get(id) ?? []), ...codes]);
    },
    /** resolves when `count` requests have arrived in all (or at once if they have) */
    async waitFor(count: number, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`push stand-in: ${received.length} of ${count} requests arrived`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
  };
};
export type PushServiceStandIn = ReturnType<typeof createPushServiceStandIn>;
