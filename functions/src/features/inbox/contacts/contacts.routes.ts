import { Hono } from "hono";
import * as z from "zod";
import { pageNumberParam, searchParamParam } from "@atende/shared/contracts/http/paging";
import { contactFormSchema, contactUpdateSchema } from "@atende/shared/domain/contacts/contact";
import { optionalId } from "@atende/shared/contracts/body-values";
import type { Guards } from "../../../platform/modules/feature-module";
import { requireAdmin } from "../../../platform/http/middleware";
import type { ContactsService } from "./contacts.service";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../../platform/http/parse";
import { uploadedFile } from "../../../platform/http/uploaded-file";

const listQuery = z.object({
  searchParam: searchParamParam,
  pageNumber: pageNumberParam,
  date: z.string().max(40).optional(),
  dateStart: z.string().max(40).optional(),
  dateEnd: z.string().max(40).optional(),
});

/** POST /contacts/import: an optional connection (the spec's client sends none; false/""/null mean none). */
const importBody = z.object({
  whatsappId: optionalId().transform((v) => v ?? undefined),
});

/** a background import's id as POST /contacts/import and POST /contacts/upload answer it; anything else is not found */
const importRequestId = z.string().max(120).regex(/^[\w:-]+$/).catch("");

export const contactsRoutes = (contacts: ContactsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  const svc = () => contacts;
  r.use("*", guards.auth);
  r.get("/", async (c) => c.json(await svc().list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/list", async (c) => c.json(await svc().listAll(c.get("auth"))));
  // before /:id
  r.post("/import", async (c) => {
    const raw = await c.req.text();
    const input = raw.trim() ? await parseJson(c, importBody) : { whatsappId: undefined };
    return c.json(await svc().importFromPhone(c.get("auth"), input));
  });
  r.get("/import/:requestId", async (c) => c.json(await svc().importState(c.get("auth"), importRequestId.parse(c.req.param("requestId")))));
  r.post("/upload", async (c) => c.json(await svc().importFile(c.get("auth"), await uploadedFile(c))));
  r.get("/:id", async (c) => c.json(await svc().get(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"))));
  r.post("/", async (c) => c.json(await svc().create(c.get("auth"), await parseJson(c, contactFormSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_CONTACT_FOUND");
    return c.json(await svc().update(c.get("auth"), id, await parseJson(c, contactUpdateSchema)));
  });
  r.delete("/:id", requireAdmin, async (c) => {
    await svc().remove(c.get("auth"), idParam(c, "id", "ERR_NO_CONTACT_FOUND"));
    return c.json({ message: "Contact deleted" });
  });
  return r;
};
