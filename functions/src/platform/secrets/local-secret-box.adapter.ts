import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SecretBox } from "./secret-box.port";

/**
 * One machine: AES-256-GCM under a 32-byte key kept in a local file (created with mode 0600 on first use).
 * Format: v1:local:<iv b64>:<tag b64>:<ciphertext b64>.
 */
export const createLocalSecretBox = (keyFile: string): SecretBox => {
  const key = (() => {
    if (!existsSync(keyFile)) {
      mkdirSync(dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    }
    const k = Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64");
    if (k.length !== 32) throw new Error(`secret key file ${keyFile} must hold 32 bytes in base64`);
    return k;
  })();
  return {
    seal: async (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `v1:local:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${data.toString("base64")}`;
    },
    open: async (sealed) => {
      const [v, scheme, iv, tag, data] = sealed.split(":");
      if (v !== "v1" || scheme !== "local" || !iv || !tag || data === undefined) throw new Error("not a locally sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
    },
  };
};
