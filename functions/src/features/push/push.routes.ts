import { Hono } from "hono";
import { pushPreferencesSchema, pushSubscriptionInputSchema, pushUnsubscribeInputSchema } from "@atende/shared/contracts/http/push";
import type { Guards } from "../../platform/modules/feature-module";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";
import type { PushService } from "./push.service";

/** /push (docs/adr/0097): the VAPID public key, the caller's device subscriptions and their preferences. */
export const pushRoutes = (service: PushService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth);
  r.get("/public-key", (c) => c.json(service.publicKey()));
  r.post("/subscriptions", async (c) => c.json(await service.subscribe(c.get("auth"), await parseJson(c, pushSubscriptionInputSchema)), 201));
  r.delete("/subscriptions", async (c) => {
    await service.unsubscribe(c.get("auth"), (await parseJson(c, pushUnsubscribeInputSchema)).endpoint);
    return c.json({ message: "Subscription deleted" });
  });
  r.get("/preferences", async (c) => c.json(await service.getPreferences(c.get("auth"))));
  r.put("/preferences", async (c) => c.json(await service.setPreferences(c.get("auth"), await parseJson(c, pushPreferencesSchema))));
  return r;
};
