import { Hono, type Context } from "hono";
import * as z from "zod";
import type { AppEnv } from "../../../platform/http/app-env";
import { clientAddress } from "../../../platform/http/middleware";
import { parseJson } from "../../../platform/http/parse";
import { AppError } from "../../../platform/errors";
import { uploadedFile } from "../../../platform/http/uploaded-file";
import type { WebchatService } from "./webchat.service";

const sessionSchema = z.object({
  name: z.string().trim().max(120).optional(),
  email: z.string().trim().email().max(200).optional(),
  phone: z.string().trim().regex(/^\+?[\d ()-]{6,24}$/).optional(),
});
const messageSchema = z.object({ body: z.string().max(4096) });

const bearer = (c: Context) => /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];

/**
 * The visitor API of the website chat (docs/adr/0092), public under `/api/webchat/{publicKey}/`: only the
 * connection's `allowedOrigins` may call it. CORS answers name the caller's origin only when it is allowed; any
 * other origin (or none) gets 403 ERR_ORIGIN_NOT_ALLOWED on every route, preflight included, before anything else.
 */
export const webchatRoutes = (service: WebchatService) => {
  const app = new Hono<AppEnv>();
  app.use("/:publicKey/*", async (c, next) => {
    const origin = c.req.header("origin");
    await service.connection(c.req.param("publicKey"), origin);
    c.header("Access-Control-Allow-Origin", origin!);
    c.header("Vary", "Origin");
    if (c.req.method === "OPTIONS") {
      c.header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      c.header("Access-Control-Allow-Headers", "Authorization, Content-Type");
      c.header("Access-Control-Max-Age", "600");
      return c.body(null, 204);
    }
    await next();
  });
  app.get("/:publicKey/config", async (c) => c.json(await service.widgetConfig(c.req.param("publicKey"), c.req.header("origin"))));
  app.post("/:publicKey/sessions", async (c) => {
    const who = await parseJson(c, sessionSchema);
    return c.json(await service.createSession(c.req.param("publicKey"), c.req.header("origin"), clientAddress(c), who), 201);
  });
  app.post("/:publicKey/messages", async (c) => {
    const type = c.req.header("content-type") ?? "";
    const key = c.req.param("publicKey");
    const origin = c.req.header("origin");
    // the token is checked before the body is read (an unknown caller never gets a file parsed)
    await service.visitor(key, origin, bearer(c));
    let input: { body?: string; file?: Awaited<ReturnType<typeof uploadedFile>> };
    if (type.startsWith("multipart/form-data")) {
      const file = await uploadedFile(c);
      input = { file, body: "" };
    } else if (type.startsWith("application/json")) input = await parseJson(c, messageSchema);
    else throw new AppError("ERR_UNSUPPORTED_CONTENT_TYPE");
    return c.json(await service.send(key, origin, bearer(c), clientAddress(c), input), 201);
  });
  app.get("/:publicKey/messages", async (c) => c.json({ messages: await service.messages(c.req.param("publicKey"), c.req.header("origin"), bearer(c)) }));
  return app;
};
