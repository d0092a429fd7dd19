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
