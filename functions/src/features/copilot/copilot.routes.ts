import { Hono, type Context } from "hono";
import * as z from "zod";
import { copilotSettingsSchema, copilotTestSchema, rewriteSchema } from "@atende/shared/contracts/http/copilot";
import type { Guards } from "../../platform/modules/feature-module";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson } from "../../platform/http/parse";
import type { CopilotService } from "./copilot.service";

/** The attendant's language for the answer (the web sends its own); absent: Portuguese. */
const askSchema = z.object({ language: z.string().trim().max(10).optional() });
/** A body is optional on the ticket routes: none reads as `{}`. */
const ask = async (c: Context): Promise<{ language?: string }> => {
  const length = Number(c.req.header("content-length") ?? "0");
  return length > 0 || c.req.header("content-type") ? parseJson(c, askSchema) : {};
};

/** /copilot: settings (admins), the *Testar* call, which buttons the inbox shows, and the rewrite. */
export const copilotRoutes = (copilot: CopilotService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/features", async (c) => c.json(await copilot.availability(c.get("auth"))));
  r.get("/settings", requireAdmin, async (c) => c.json(await copilot.getSettings(c.get("auth"))));
  r.put("/settings", requireAdmin, async (c) => c.json(await copilot.putSettings(c.get("auth"), await parseJson(c, copilotSettingsSchema))));
  r.post("/settings/test", requireAdmin, async (c) => c.json(await copilot.test(c.get("auth"), await parseJson(c, copilotTestSchema))));
  r.post("/rewrite", async (c) => c.json(await copilot.rewrite(c.get("auth"), await parseJson(c, rewriteSchema))));
  return r;
};

/** /tickets/{id}/copilot/*: for whoever may see the ticket (the visibility rules). */
export const copilotTicketRoutes = (copilot: CopilotService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("/:id/copilot/*", guards.auth);
  r.post("/:id/copilot/summary", async (c) => {
    const id = idParam(c, "id", "ERR_NO_TICKET_FOUND");
    return c.json(await copilot.summary(c.get("auth"), id, (await ask(c)).language));
  });
  r.post("/:id/copilot/suggestions", async (c) => {
    const id = idParam(c, "id", "ERR_NO_TICKET_FOUND");
    return c.json(await copilot.suggestions(c.get("auth"), id, (await ask(c)).language));
  });
  return r;
};
