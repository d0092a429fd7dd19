import { createECDH, hkdfSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The VAPID key pair (RFC 8292), both base64url: the public key is the uncompressed P-256 point (65 bytes). */
export type VapidKeys = { publicKey: string; privateKey: string };

// the order of P-256's base point: a private key must be in [1, n - 1]
const P256_ORDER = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

const pairOf = (privateKey: Buffer): VapidKeys => {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: privateKey.toString("base64url") };
};

/**
 * The key pair derived from a secret (AWS: a value Secrets Manager generated once, VAPID_SECRET; tests: the JWT
 * secret): HKDF-SHA256 with its own label, so the pair is the same on every Lambda and every deploy. A derived value
 * outside [1, n - 1] (about 1 in 2^32) takes the next counter.
 */
export const vapidKeysFromSecret = (secret: string): VapidKeys => {
  for (let i = 0; ; i++) {
    const key = Buffer.from(hkdfSync("sha256", secret, "atende", `vapid-key-${i}`, 32));
    const n = BigInt(`0x${key.toString("hex")}`);
    if (n > 0n && n < P256_ORDER) return pairOf(key);
  }
};

/** One machine: the pair kept in `.data` (a file written once with a fresh random key, then read on every start). */
export const vapidKeysFromFile = (file: string, generate: () => VapidKeys): VapidKeys => {
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as VapidKeys;
    if (saved.publicKey && saved.privateKey) return saved;
  }
  const keys = generate();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
};
