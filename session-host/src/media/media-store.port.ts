import type { Readable } from "node:stream";
import { randomBytes } from "node:crypto";

/** Object storage for media: S3 in AWS (MEDIA_BUCKET), a folder on one machine (MEDIA_DIR). Items hold keys only. */
export type MediaStore = {
  put(key: string, bytes: Buffer, mimetype: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** size in bytes without reading the object (outbound media is checked against the limit first) */
  size?(key: string): Promise<number>;
  /** the object as a stream, so large media is never held whole in memory */
  stream?(key: string): Promise<Readable>;
  /**
   * Stores a stream as it arrives (inbound media decrypted straight into the store: a multipart upload in
   * S3, a file locally), never holding it whole. A failed stream leaves nothing behind.
   */
  putStream?(key: string, body: Readable, mimetype: string): Promise<void>;
};

const safeName = (filename: string) => filename.normalize("NFKD").replace(/[^\w.-]+/g, "_").replace(/^\.+/, "").slice(-80) || "file";

/** `${companyId}/${yyyy}/${mm}/${random}-${filename}`: the same layout the functions use. */
export const mediaKey = (companyId: number, filename: string, now = new Date()) =>
  `${companyId}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${randomBytes(8).toString("hex")}-${safeName(filename)}`;

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/mp4": "m4a",
  "video/mp4": "mp4",
  "application/pdf": "pdf",
};

/** A file name for media that came without one (images, audio, video). */
export const defaultFilename = (mimetype: string, base = "media") => `${base}.${EXT[mimetype.split(";")[0]?.trim() ?? ""] ?? "bin"}`;
