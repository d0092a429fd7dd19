import { Hono } from "hono";
import { promptSchema, promptUpdateSchema } from "@atende/shared/domain/prompts/prompt";
import type { Container } from "../../app/container";
import { requireAdmin, requireAuth, requirePlan } from "../../platform/http/middleware";
import type { AppEnv } from "../auth/app-env";
import { idParam, parseJson } from "../../platform/http/parse";

/** AI prompts (spec 3): /prompt, admins only, plan flag useOpenAi on every call. */
export const promptsRoutes = (container: Container) => {
  const svc = () => container.services.prompts;
  const r = new Hono<AppEnv>();
  r.use("*", requireAuth(container.services.auth.authenticate), requireAdmin, requirePlan(container.services.companies.assertPlanAllows, "useOpenAi"));
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"))));
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id", "ERR_NO_PROMPT_FOUND"))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, promptSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_PROMPT_FOUND");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, promptUpdateSchema)));
  });
  r.delete("/:id", async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id", "ERR_NO_PROMPT_FOUND"));
    return c.json({ message: "Prompt deleted" });
  });
  return r;
};
