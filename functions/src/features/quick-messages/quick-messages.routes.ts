import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { quickMessageSchema, quickMessageUpdateSchema } from "@atende/shared/domain/quick-messages/quick-message";
import type { Container } from "../../app/container";
import { requireAuth } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = searchPageQuerySchema;

/** Quick messages (spec 3). `companyId`/`userId` query parameters of /list are ignored: the token decides. */
export const quickMessagesRoutes = (container: Container) => {
  const svc = () => container.services.quickMessages;
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container.services.auth.authenticate));
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/list", async (c) => c.json(await svc().listUsable(c.get("auth"))));
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, quickMessageSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, quickMessageUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Quick message deleted" });
  });
  r.post("/:id/media-upload", async (c) => {
    const id = idParam(c, "id");
    return c.json(await svc().uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  r.delete("/:id/media-upload", async (c) => c.json(await svc().removeMedia(c.get("auth"), idParam(c, "id"))));
  return r;
};
