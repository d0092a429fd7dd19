import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { chatInputSchema, chatMessageInputSchema } from "@atende/shared/domain/chats/chat";
import type { Container } from "../../app/container";
import { requireAuth, requirePlan } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { parseJson, parseQuery } from "../../platform/http/parse";

const listQuery = searchPageQuerySchema;
const pageQuery = listQuery.pick({ pageNumber: true });

/** Internal chat (spec 3; plan flag useInternalChat). `:id` is the chat's id or its uuid. */
export const chatsRoutes = (container: Container) => {
  const svc = () => container.services.chats;
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container.services.auth.authenticate));
  r.use("*", requirePlan(container.services.companies.assertPlanAllows, "useInternalChat"));
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"), parseQuery(c, listQuery))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, chatInputSchema))));
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), c.req.param("id"))));
  r.put("/:id", async (c) => c.json(await svc().update(c.get("auth"), c.req.param("id"), await parseJson(c, chatInputSchema))));
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), c.req.param("id"));
    return c.json({ message: "Chat deleted" });
  });
  r.get("/:id/messages", async (c) => c.json(await svc().listMessages(c.get("auth"), c.req.param("id"), parseQuery(c, pageQuery).pageNumber)));
  r.post("/:id/messages", async (c) => {
    const id = c.req.param("id");
    return c.json(await svc().sendMessage(c.get("auth"), id, (await parseJson(c, chatMessageInputSchema)).message));
  });
  r.post("/:id/read", async (c) => c.json(await svc().markRead(c.get("auth"), c.req.param("id"))));
  return r;
};
