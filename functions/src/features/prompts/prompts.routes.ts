import { Hono } from "hono";
import { promptSchema, promptUpdateSchema } from "@atende/shared/domain/prompts/prompt";
import type { Guards } from "../../platform/modules/feature-module";
import type { PromptsService } from "./prompts.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";

/** AI prompts (spec 3): /prompt, admins only, plan flag useOpenAi on every call. */
export const promptsRoutes = (prompts: PromptsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useOpenAi"));
  r.get("/", async (c) => c.json(await prompts.list(c.get("auth"))));
  r.get("/:id", async (c) => c.json(await prompts.get(c.get("auth"), idParam(c, "id", "ERR_NO_PROMPT_FOUND"))));
  r.post("/", async (c) => c.json(await prompts.create(c.get("auth"), await parseJson(c, promptSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_PROMPT_FOUND");
    return c.json(await prompts.update(c.get("auth"), id, await parseJson(c, promptUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await prompts.remove(c.get("auth"), idParam(c, "id", "ERR_NO_PROMPT_FOUND"));
    return c.json({ message: "Prompt deleted" });
  });
  return r;
};
