/** Object storage for media (S3 in AWS, a folder on one machine and in tests). Items hold keys, never bytes. */
export type MediaObject = { body: Uint8Array; mimetype: string };
export type MediaStore = {
  put(key: string, body: Uint8Array, mimetype: string): Promise<void>;
  get(key: string): Promise<MediaObject | null>;
  /** Removes the object (no error when it is already gone): LGPD erasure, media retention, expired exports. */
  delete(key: string): Promise<void>;
};

/** Keys are tenant-prefixed so a key can be checked against the caller's company before serving. */
export const mediaKeyFor = (companyId: number, id: string, filename: string) =>
  `${companyId}/${id}/${filename.replace(/[^\w.\-]+/g, "_").slice(-120) || "file"}`;
export const companyOfMediaKey = (key: string): number | null => {
  const n = Number(key.split("/")[0]);
  return Number.isInteger(n) && n > 0 ? n : null;
};
