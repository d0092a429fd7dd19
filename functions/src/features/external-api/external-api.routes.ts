import { Hono } from "hono";
import { externalMessageSchema } from "@atende/shared/domain/external-api/external-message";
import type { ExternalApiService } from "./external-api.service";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";
import { messageForm } from "../../platform/http/uploaded-file";

const MAX_FILES = 10;

/**
 * POST /api/messages/send with `Authorization: Bearer <connection token>` (a connection's token, not a user's
 * session): JSON {number, body} or multipart {number, body, medias}. Mounted before the inbox's /messages routes.
 * The token is checked before the body is read: a caller without a valid token learns nothing else.
 */
export const externalMessagesRoutes = (externalApi: ExternalApiService) => {
  const r = new Hono<AppEnv>();
  r.post("/send", async (c) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1]?.trim() ?? "";
    const whatsapp = await externalApi.authenticate(token);
    const multipart = (c.req.header("content-type") ?? "").startsWith("multipart/form-data");
    const { input, files } = multipart
      ? await messageForm(c, MAX_FILES).then(({ files, text }) => ({ input: externalMessageSchema.parse({ number: text("number"), body: text("body") }), files }))
      : { input: await parseJson(c, externalMessageSchema), files: [] };
    return c.json(await externalApi.send(whatsapp, input, files, c.req.header("idempotency-key")?.slice(0, 100)));
  });
  return r;
};
