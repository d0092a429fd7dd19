import { Hono, type Context } from "hono";
import { pageQuerySchema } from "@atende/shared/contracts/http/paging";
import { editMessageSchema, forwardSchema, reactionSchema, sendMessageSchema } from "@atende/shared/domain/messages/message";
import type { Guards } from "../../../platform/modules/feature-module";
import type { MessagesService, TicketReadAhead } from "./messages.service";
import { AppError } from "../../../platform/errors";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../../platform/http/parse";
import { messageForm } from "../../../platform/http/uploaded-file";

const messageId = (c: Context) => {
  const id = c.req.param("id") ?? "";
  if (!/^[\w\-.:]{1,200}$/.test(id)) throw new AppError("ERR_NOT_FOUND");
  return id;
};

/** multipart: `medias` (one or many files), `body`, `fromMe`, optional `idempotencyKey`. */
const parseMultipart = async (c: Context) => {
  const { files, text } = await messageForm(c);
  const input = sendMessageSchema.parse({ body: text("body") ?? "", read: text("read"), fromMe: text("fromMe"), idempotencyKey: text("idempotencyKey") });
  return { input, files };
};

export const messagesRoutes = (messages: MessagesService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  const svc = () => messages;
  // GET /messages/{ticketId}: the ticket is read beside the caller's user item (one batch read when that is not reused),
  // once the token is verified (docs/adr/0059); registered before the guard so it runs first. An id that is not a
  // ticket's starts nothing (the handler refuses it).
  const ahead = new WeakMap<Context, TicketReadAhead>();
  r.get("/:ticketId", async (c, next) => {
    const id = c.req.param("ticketId");
    if (!/^\d{1,12}$/.test(id)) return next();
    c.set("besideCaller", (caller) => void ahead.set(c, svc().readAhead(caller.companyId, Number(id))));
    await svc().readTogether(() => next());
  });
  r.use("*", guards.auth);
  r.get("/:ticketId", async (c) => {
    const { pageNumber } = parseQuery(c, pageQuerySchema);
    return c.json(await svc().list(c.get("auth"), idParam(c, "ticketId", "ERR_NO_TICKET_FOUND"), pageNumber, ahead.get(c)));
  });
  r.post("/edit/:id", async (c) => {
    const id = messageId(c);
    const input = await parseJson(c, editMessageSchema);
    return c.json(await svc().edit(c.get("auth"), id, input.body));
  });
  r.post("/:id/reactions", async (c) => {
    const id = messageId(c);
    const input = await parseJson(c, reactionSchema);
    return c.json(await svc().react(c.get("auth"), id, input.type));
  });
  r.post("/:ticketId", async (c) => {
    const ticketId = idParam(c, "ticketId", "ERR_NO_TICKET_FOUND");
    const key = c.req.header("idempotency-key")?.slice(0, 100);
    const multipart = (c.req.header("content-type") ?? "").startsWith("multipart/form-data");
    const { input, files } = multipart ? await parseMultipart(c) : { input: await parseJson(c, sendMessageSchema), files: [] };
    const sent = await svc().send(c.get("auth"), ticketId, input, files, key);
    return c.json(sent.length === 1 ? sent[0] : sent, 201);
  });
  r.delete("/:id", async (c) => c.json(await svc().remove(c.get("auth"), messageId(c))));
  return r;
};

/** POST /message/forward */
export const messageForwardRoutes = (messages: Pick<MessagesService, "forward">, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.post("/forward", async (c) => c.json(await messages.forward(c.get("auth"), await parseJson(c, forwardSchema)), 201));
  return r;
};
