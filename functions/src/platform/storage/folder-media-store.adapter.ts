import { mkdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { MediaStore } from "./media-store.port";

const BY_EXT: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  ogg: "audio/ogg",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  pdf: "application/pdf",
};
/** Files written by the session host have no sidecar: the extension tells the type. */
const guess = (key: string) => BY_EXT[key.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";

/** One machine and tests: files under MEDIA_DIR, the mimetype in a sidecar file. */
export const createFolderMediaStore = (dir: string): MediaStore => {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    const p = resolve(join(root, key));
    if (!p.startsWith(root + "/")) throw new Error("media key escapes the media folder");
    return p;
  };
  return {
    async put(key, body, mimetype) {
      const p = pathOf(key);
      await mkdir(dirname(p), { recursive: true });
      await writeFile(p, body);
      await writeFile(`${p}.mime`, mimetype);
    },
    async get(key) {
      const p = pathOf(key);
      try {
        const [body, mimetype] = await Promise.all([readFile(p), readFile(`${p}.mime`, "utf8").catch(() => guess(key))]);
        return { body: new Uint8Array(body), mimetype };
      } catch {
        return null;
      }
    },
    async delete(key) {
      const p = pathOf(key);
      await rm(p, { force: true });
      await rm(`${p}.mime`, { force: true });
      // the object's own folder (`<company>/<id>/`) goes too when it is left empty
      await rmdir(dirname(p)).catch(() => undefined);
    },
  };
};
