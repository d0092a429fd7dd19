import * as z from "zod";
import { optionalId, optionalText } from "../../contracts/body-values";

/** Upper bounds that keep one file list a single small item. */
export const MAX_FILE_LIST_OPTIONS = 50;

/** The kind of an uploaded option file, as WhatsApp sends it. */
export const FILE_MEDIA_TYPES = ["image", "audio", "video", "document"] as const;
export type FileMediaType = (typeof FILE_MEDIA_TYPES)[number];

/** Extensions an option file may have (anything else is refused on upload), by media type. */
export const FILE_EXTENSIONS: Record<FileMediaType, readonly string[]> = {
  image: ["png", "jpg", "jpeg", "gif", "webp"],
  audio: ["mp3", "ogg", "opus", "m4a", "wav", "aac"],
  video: ["mp4", "3gp", "mov", "webm"],
  document: ["pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "txt", "csv", "zip"],
};
/** The media type of a file name, or null when its extension is not allowed. */
export const fileMediaTypeOf = (name: string): FileMediaType | null => {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  return FILE_MEDIA_TYPES.find((t) => FILE_EXTENSIONS[t].includes(ext)) ?? null;
};

/** One option of a list: a label; its file is attached afterwards with POST /files/uploadList/{id}. */
export const fileListOptionSchema = z.object({
  /** present for an option that already exists (keeps its uploaded file) */
  id: optionalId()
    .transform((v) => v ?? undefined)
    .optional(),
  name: optionalText(z.string().trim().max(200, "Too Long!")).default(""),
});

/** POST /files and PUT /files/{id} body (spec 3 section 5: name min 3 "nome muito curto", message required). */
export const fileListSchema = z.object({
  name: z.string().trim().min(3, "nome muito curto").max(100, "Too Long!"),
  message: z.string().trim().min(1, "Required").max(10_000, "Too Long!"),
  options: z.array(fileListOptionSchema).max(MAX_FILE_LIST_OPTIONS).optional(),
});
export type FileListInput = z.infer<typeof fileListSchema>;
