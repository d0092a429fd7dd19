import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { dirname, join, resolve } from "node:path";
import type { MediaStore } from "./media-store.port";

/** The media store on one machine: files under MEDIA_DIR, by key. */
export const createLocalMediaStore = (dir: string): MediaStore => {
  const root = resolve(dir);
  const path = (key: string) => {
    const file = resolve(join(root, key));
    if (!file.startsWith(root + "/")) throw new Error("invalid media key");
    return file;
  };
  return {
    async put(key, bytes) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
    },
    async putStream(key, body) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      // written aside and moved in place once whole: a reader never sees half a file, a failure leaves none
      const partial = `${file}.${process.pid}.partial`;
      try {
        await pipeline(body, createWriteStream(partial));
        await rename(partial, file);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    get: (key) => readFile(path(key)),
    size: async (key) => (await stat(path(key))).size,
    stream: async (key) => {
      await stat(path(key)); // a missing file fails here, not later inside the upload
      return createReadStream(path(key));
    },
  };
};
