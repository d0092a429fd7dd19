import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { MediaStore } from "./media-store.port";

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
        const [body, mimetype] = await Promise.all([readFile(p), readFile(`${p}.mime`, "utf8").catch(() => "application/octet-stream")]);
        return { body: new Uint8Array(body), mimetype };
      } catch {
        return null;
      }
    },
  };
};
