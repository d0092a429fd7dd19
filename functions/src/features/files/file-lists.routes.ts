import { Hono, type Context } from "hono";
import { searchPageQuerySchema } from "@atende/shared/contracts/http/paging";
import { fileListSchema } from "@atende/shared/domain/files/file-list";
import type { Guards } from "../../platform/modules/feature-module";
import type { FileListsService } from "./file-lists.service";
import { AppError } from "../../platform/errors";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";
import type { OptionUpload } from "./file-lists.service";

const listQuery = searchPageQuerySchema;

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The multipart form of POST /files/uploadList/{id}: `files` and `id` (the option) repeat in pairs, in order;
 * `fileId`, `typeArch`, `mediaType` and `name` are sent by the client too and ignored (the server knows them).
 * No files at all is a save with nothing to attach: the list is answered as it is (the spec's dialog always posts).
 */
const optionUploads = async (c: Context): Promise<OptionUpload[]> => {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody({ all: true });
  } catch {
    throw new AppError("ERR_VALIDATION", { field: "files" });
  }
  // a file input left empty arrives as a nameless, empty part: that is no file
  const files = asArray(body.files).filter((f): f is File => f instanceof File && (f.size > 0 || f.name !== ""));
  if (files.length === 0) return [];
  const ids = asArray(body.id).map((v) => (typeof v === "string" && /^\d{1,9}$/.test(v) ? Number(v) : NaN));
  if (files.length !== ids.length || ids.some((n) => !n)) throw new AppError("ERR_VALIDATION", { field: "files" });
  return Promise.all(files.map(async (f, i) => ({ optionId: ids[i]!, file: { name: f.name || "file", type: f.type, bytes: new Uint8Array(await f.arrayBuffer()) } })));
};

/** File lists (spec 3): company admins only. `companyId` in the query is ignored: the token decides. */
export const fileListsRoutes = (fileLists: FileListsService, guards: Guards) => {
  const r = new Hono<AppEnv>();
  r.use("*", guards.auth, requireAdmin);
  r.get("/", async (c) => c.json(await fileLists.list(c.get("auth"), parseQuery(c, listQuery))));
  r.get("/:id", async (c) => c.json(await fileLists.get(c.get("auth"), idParam(c, "id"))));
  r.post("/", async (c) => c.json(await fileLists.create(c.get("auth"), await parseJson(c, fileListSchema))));
  r.put("/:id", async (c) => {
    const id = idParam(c, "id");
    return c.json(await fileLists.update(c.get("auth"), id, await parseJson(c, fileListSchema)));
  });
  r.delete("/:id", async (c) => {
    await fileLists.remove(c.get("auth"), idParam(c, "id"));
    return c.json({ message: "File List deleted" });
  });
  r.post("/uploadList/:id", async (c) => {
    const id = idParam(c, "id");
    const uploads = await optionUploads(c);
    return c.json(uploads.length === 0 ? await fileLists.get(c.get("auth"), id) : await fileLists.uploadOptionFiles(c.get("auth"), id, uploads));
  });
  return r;
};
