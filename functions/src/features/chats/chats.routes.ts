import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { chatInputSchema, chatMessageInputSchema } from "@atende/shared/domain/chats/chat";
import type { Guards } from "../../platform/modules/feature-module";
import type { ChatsService } from "./chats.service";

import type { AppEnv } from "../../platform/http/app-env";
import { parseJson, parseQuery } from "../../platform/http/parse";

const listQuery = searchPageQuerySchema;
const pageQuery = listQuery.pick({ pageNumber: true });

/** Internal chat (spec 3; plan flag useInternalChat). `:id` is the chat's id or its uuid. */
export const chatsRoutes = (chats: ChatsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.use("*", guards.plan("useInternalChat"));
  r.get("/", async (c) => c.json(await chats.list(c.get("auth"), parseQuery(c, listQuery))));
  r.post("/", async (c) => c.json(await chats.create(c.get("auth"), await parseJson(c, chatInputSchema))));
  r.get("/:id", async (c) => c.json(await chats.get(c.get("auth"), c.req.param("id"))));
  r.put("/:id", async (c) => c.json(await chats.update(c.get("auth"), c.req.param("id"), await parseJson(c, chatInputSchema))));
  r.delete("/:id", async (c) => {
    await chats.remove(c.get("auth"), c.req.param("id"));
    return c.json({ message: "Chat deleted" });
  });
  r.get("/:id/messages", async (c) => c.json(await chats.listMessages(c.get("auth"), c.req.param("id"), parseQuery(c, pageQuery).pageNumber)));
  r.post("/:id/messages", async (c) => {
    const id = c.req.param("id");
    return c.json(await chats.sendMessage(c.get("auth"), id, (await parseJson(c, chatMessageInputSchema)).message));
  });
  r.post("/:id/read", async (c) => c.json(await chats.markRead(c.get("auth"), c.req.param("id"))));
  return r;
};
