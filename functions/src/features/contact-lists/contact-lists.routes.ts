import { Hono } from "hono";
import * as z from "zod";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { contactListItemSchema, contactListSchema, newContactListItemSchema } from "@atende/shared/domain/contact-lists/contact-list";
import type { Guards } from "../../platform/modules/feature-module";
import type { ContactListsService } from "./contact-lists.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import { uploadedFile } from "../../platform/http/uploaded-file";

const listQuery = searchPageQuerySchema;
const itemsQuery = listQuery.extend({ contactListId: z.coerce.number().int().positive() });

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** /contact-lists (spec 3): company admins on a plan with campaigns. */
export const contactListsRoutes = (contactLists: ContactListsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useCampaigns"));
  r.get("/", async (c) => c.json(await contactLists.list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/list", async (c) => c.json(await contactLists.listAll(c.get("auth"))));
  // the "download sample spreadsheet" action (before /:id)
  r.get("/sample.xlsx", () => new Response(contactLists.sampleSpreadsheet(), { headers: { "content-type": XLSX_TYPE, "content-disposition": 'attachment; filename="planilha.xlsx"' } }));
  r.get("/:id", async (c) => c.json(await contactLists.get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await contactLists.create(c.get("auth"), (await parseJson(c, contactListSchema)).name)));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await contactLists.update(c.get("auth"), id, (await parseJson(c, contactListSchema)).name));
  });
  r.delete("/:id", async (c) => {
    await contactLists.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Contact list deleted" });
  });
  r.post("/:id/upload", async (c) => {
    const id = idParam(c, "id");
    return c.json(await contactLists.importFile(c.get("auth"), id, await uploadedFile(c)));
  });
  return r;
};

/** /contact-list-items (spec 3): the items of the company's lists. */
export const contactListItemsRoutes = (contactLists: ContactListsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin, guards.plan("useCampaigns"));
  r.get("/", async (c) => c.json(await contactLists.listItems(c.get("auth"), parseQuery(c, itemsQuery))));
  r.get("/:id", async (c) => c.json(await contactLists.getItem(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => {
    const { contactListId, ...input } = await parseJson(c, newContactListItemSchema);
    return c.json(await contactLists.createItem(c.get("auth"), contactListId, input));
  });
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await contactLists.updateItem(c.get("auth"), id, await parseJson(c, contactListItemSchema)));
  });
  r.delete("/:id", async (c) => {
    await contactLists.removeItem(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "Contact deleted" });
  });
  return r;
};
