import type { Context } from "hono";
import { AppError } from "../errors";
/** A file received in a multipart form. */
export type UploadedFile = { name: string; type: string; bytes: Uint8Array };

/** The first file of a multipart form (field `file`, or any other): ERR_VALIDATION when there is none. */
export const uploadedFile = async (c: Context): Promise<UploadedFile> => {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody({ all: false });
  } catch {
    throw new AppError("ERR_VALIDATION", { field: "file" });
  }
  const file = [body.file, ...Object.values(body)].find((v): v is File => v instanceof File);
  if (!file) throw new AppError("ERR_VALIDATION", { field: "file" });
  return { name: file.name || "file", type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
};

/** Max bytes of one file in a message form (`medias`). */
export const MAX_MESSAGE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A message form (multipart): its files under `medias` (one or many) and its text fields.
 * ERR_VALIDATION for an unreadable form, a file over `MAX_MESSAGE_FILE_BYTES`, or more than `maxFiles` files.
 */
export const messageForm = async (c: Context, maxFiles = Number.POSITIVE_INFINITY) => {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch {
    throw new AppError("ERR_VALIDATION");
  }
  const raw = form.medias;
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((f): f is File => f instanceof File);
  if (list.length > maxFiles) throw new AppError("ERR_VALIDATION", { field: "medias" });
  const files: UploadedFile[] = [];
  for (const f of list) {
    if (f.size > MAX_MESSAGE_FILE_BYTES) throw new AppError("ERR_VALIDATION", { field: "medias" });
    files.push({ name: f.name || "file", type: f.type, bytes: new Uint8Array(await f.arrayBuffer()) });
  }
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : undefined);
  return { files, text };
};
