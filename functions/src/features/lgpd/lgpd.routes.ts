import { Hono, type Context, type MiddlewareHandler } from "hono";
import * as z from "zod";
import { optOutListQuerySchema } from "@atende/shared/contracts/http/lgpd";
import { lgpdSettingsUpdateSchema } from "@atende/shared/domain/lgpd/lgpd-settings";
import { clientAddress, requireAdmin } from "../../platform/http/middleware";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { AppError } from "../../platform/errors";
import type { AppEnv } from "../../platform/http/app-env";
import type { LgpdService } from "./lgpd.service";
import type { OptOutsService } from "./opt-outs.service";

const jobIdParam = z.string().uuid();
const attachment = (filename: string) => `attachment; filename="${filename.replace(/[^\w.\-]+/g, "_")}"`;

/**
 * The customer's rights and consent (docs/adr/0030), every route for admins of the caller's company:
 * - GET /contacts/:id/export: the ZIP (200, application/zip) or a background job (202 { job })
 * - DELETE /contacts/:id?erase=true: the erasure (200 with counts, or 202 { job }); without `erase` it is the inbox's delete
 * - GET/DELETE /contacts/:id/opt-out: the drawer's state; clearing it
 * - GET /opt-outs (paged), GET /opt-outs/export (CSV)
 * - GET /lgpd/jobs/:id, GET /lgpd/jobs/:id/download; GET/PUT /lgpd/settings
 */
export const lgpdRoutes = (deps: { lgpd: LgpdService; optOuts: OptOutsService; auth: MiddlewareHandler<AppEnv> }) => {
  const { lgpd, optOuts } = deps;
  // mounted at /contacts beside the inbox's contacts routes: guards per route (a `use("*")` here would run for
  // every /contacts request, the attendants' list included)
  const contacts = new Hono<AppEnv>();
  const admin = [deps.auth, requireAdmin] as const;
  contacts.get("/:id/export", ...admin, async (c) => {
    const answer = await lgpd.exportContact(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"), clientAddress(c));
    if (answer.kind === "job") return c.json({ job: answer.job }, 202);
    return new Response(answer.stream, { status: 200, headers: { "content-type": "application/zip", "content-disposition": attachment(answer.filename), "cache-control": "no-store" } });
  });
  contacts.get("/:id/opt-out", ...admin, async (c) => c.json(await optOuts.contactState(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"))));
  contacts.delete("/:id/opt-out", ...admin, async (c) => c.json(await optOuts.clearForContact(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"), clientAddress(c))));
  // DELETE /contacts/:id?erase=true: the LGPD erasure; without `erase=true` the request goes on to the inbox's delete
  contacts.delete("/:id", async (c, next) => {
    if (c.req.query("erase") !== "true") return next();
    let answer: Response | undefined;
    await deps.auth(c, async () => {
      if (c.get("auth").user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION"); // requireAdmin's rule
      answer = await eraseContactResponse(lgpd, c);
    });
    return answer;
  });

  const optOutList = new Hono<AppEnv>();
  optOutList.use("*", deps.auth, requireAdmin);
  optOutList.get("/", async (c) => c.json(await optOuts.list(c.get("auth"), parseQuery(c, optOutListQuerySchema))));
  optOutList.get("/export", async (c) => {
    const csv = await optOuts.exportCsv(c.get("auth"), clientAddress(c));
    return c.body(csv, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": attachment("opt-outs.csv"), "cache-control": "no-store" });
  });

  const jobs = new Hono<AppEnv>();
  jobs.use("*", deps.auth, requireAdmin);
  const jobId = (id: string | undefined) => {
    const parsed = jobIdParam.safeParse(id);
    if (!parsed.success) throw new AppError("ERR_NOT_FOUND");
    return parsed.data;
  };
  jobs.get("/jobs/:id", async (c) => c.json(await lgpd.getJob(c.get("auth"), jobId(c.req.param("id")))));
  jobs.get("/jobs/:id/download", async (c) => {
    const file = await lgpd.download(c.get("auth"), jobId(c.req.param("id")));
    return new Response(file.body, { status: 200, headers: { "content-type": "application/zip", "content-disposition": attachment(file.filename), "cache-control": "no-store" } });
  });
  jobs.get("/settings", async (c) => c.json(await optOuts.getSettings(c.get("auth"))));
  jobs.put("/settings", async (c) => c.json(await optOuts.updateSettings(c.get("auth"), await parseJson(c, lgpdSettingsUpdateSchema), clientAddress(c))));

  return { contacts, optOuts: optOutList, lgpd: jobs };
};

/** DELETE /contacts/:id?erase=true: 200 when done, 202 with a job. */
const eraseContactResponse = async (lgpd: LgpdService, c: Context<AppEnv>) => {
  const answer = await lgpd.eraseContact(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"), clientAddress(c));
  return answer.kind === "job" ? c.json({ job: answer.job }, 202) : c.json(answer.result);
};
