import { DecryptCommand, EncryptCommand, KMSClient } from "@aws-sdk/client-kms";
import type { SecretBox } from "./secret-box.port";
import { traced } from "../tracer";

/**
 * AWS: KMS Encrypt/Decrypt under the stack's customer managed key (secrets are small: far below KMS's 4 KB).
 * The encryption context binds a sealed value to this application. Opened values are cached for a few
 * minutes per warm Lambda, so a busy bot does not call KMS for every message. Format: v1:kms:<ciphertext b64>.
 */
export const createKmsSecretBox = (opts: { keyId: string; region: string; cacheMs?: number; client?: KMSClient }): SecretBox => {
  const client = opts.client ?? traced(new KMSClient({ region: opts.region }));
  const context = { app: "atende" };
  const cacheMs = opts.cacheMs ?? 5 * 60_000;
  const cache = new Map<string, { plain: string; until: number }>();
  return {
    seal: async (plain) => {
      const out = await client.send(new EncryptCommand({ KeyId: opts.keyId, Plaintext: Buffer.from(plain, "utf8"), EncryptionContext: context }));
      if (!out.CiphertextBlob) throw new Error("KMS returned no ciphertext");
      return `v1:kms:${Buffer.from(out.CiphertextBlob).toString("base64")}`;
    },
    open: async (sealed) => {
      const hit = cache.get(sealed);
      if (hit && hit.until > Date.now()) return hit.plain;
      if (!sealed.startsWith("v1:kms:")) throw new Error("not a KMS sealed secret");
      const out = await client.send(new DecryptCommand({ CiphertextBlob: Buffer.from(sealed.slice(7), "base64"), EncryptionContext: context }));
      if (!out.Plaintext) throw new Error("KMS returned no plaintext");
      const plain = Buffer.from(out.Plaintext).toString("utf8");
      cache.set(sealed, { plain, until: Date.now() + cacheMs });
      return plain;
    },
  };
};
