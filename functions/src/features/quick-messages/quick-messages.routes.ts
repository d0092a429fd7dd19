import { Hono } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { quickMessageSchema, quickMessageUpdateSchema } from "@atende/shared/domain/quick-messages/quick-message";
import type { Guards } from "../../platform/modules/feature-module";
import type { QuickMessagesService } from "./quick-messages.service";

import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = searchPageQuerySchema;

/** Quick messages (spec 3). `companyId`/`userId` query parameters of /list are ignored: the token decides. */
export const quickMessagesRoutes = (quickMessages: QuickMessagesService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/", async (c) => c.json(await quickMessages.list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/list", async (c) => c.json(await quickMessages.listUsable(c.get("auth"))));
  r.get("/:id", async (c) => c.json(await quickMessages.get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await quickMessages.create(c.get("auth"), await parseJson(c, quickMessageSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await quickMessages.update(c.get("auth"), id, await parseJson(c, quickMessageUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await quickMessages.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Quick message deleted" });
  });
  r.post("/:id/media-upload", async (c) => {
    const id = idParam(c, "id");
    return c.json(await quickMessages.uploadMedia(c.get("auth"), id, await uploadedFile(c)));
  });
  r.delete("/:id/media-upload", async (c) => c.json(await quickMessages.removeMedia(c.get("auth"), idParam(c, "id"))));
  return r;
};
