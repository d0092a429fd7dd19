import { Hono } from "hono";
import { contactMergeSchema } from "@atende/shared/contracts/http/contact-merge";
import type { Guards } from "../../../platform/modules/feature-module";
import { requireAdmin } from "../../../platform/http/middleware";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson } from "../../../platform/http/parse";
import type { ContactMergeService } from "./contact-merge.service";

/**
 * GET /contacts/duplicates, POST /contacts/{id}/merge (admins: a merge deletes a contact, as DELETE /contacts/{id}
 * does), and the website visitor's "same contact?" offer (any user: the server checks the match itself).
 * Mounted before the inbox's /contacts (its /:id would take "duplicates").
 */
export const contactMergeRoutes = (merge: ContactMergeService, guards: Guards) => {
  // mounted at /contacts beside the contacts routes: guards per route (a `use("*")` here would authenticate every
  // /contacts request a second time)
  const r = new Hono<AppEnv>();
  const admin = [guards.auth, requireAdmin] as const;
  const user = guards.auth;
  r.get("/duplicates", ...admin, async (c) => c.json(await merge.duplicates(c.get("auth"))));
  r.post("/:id/merge", ...admin, async (c) => {
    const id = idParam(c, "id", "ERR_NO_CONTACT_FOUND");
    return c.json(await merge.merge(c.get("auth"), id, await parseJson(c, contactMergeSchema)));
  });
  r.get("/:id/same-contact", user, async (c) => c.json(await merge.sameContact(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"))));
  r.post("/:id/same-contact/:otherId/confirm", user, async (c) =>
    c.json(await merge.confirmSameContact(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"), idParam(c, "otherId", "ERR_NO_CONTACT_FOUND"))),
  );
  r.post("/:id/same-contact/:otherId/dismiss", user, async (c) => {
    await merge.dismissSameContact(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"), idParam(c, "otherId", "ERR_NO_CONTACT_FOUND"));
    return c.json({ dismissed: true });
  });
  return r;
};
