import { createHmac, hkdfSync } from "node:crypto";
import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";

/**
 * The keyed hash an erased person's number is remembered by (HMAC-SHA256 with a server secret): the same number
 * always gives the same hash, so an import can recognise it, while the stored value reveals nothing without the
 * secret (a bare SHA-256 of a phone number is reversed by trying every number). Numbers are canonicalised first
 * (digits only, Brazilian ninth digit added), so "(11) 9999-8888" and "5511999998888" match.
 */
export type NumberHasher = (number: string) => string;

export const createNumberHasher = (secret: string | Uint8Array): NumberHasher => {
  const key = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
  return (number) => createHmac("sha256", key).update(canonicalBrazilianNumber(number.replace(/\D+/g, ""))).digest("base64url");
};

/**
 * The secret: ERASURE_HASH_SECRET when configured; otherwise a key derived from the JWT secret with HKDF under
 * its own label (never the JWT key itself). Changing the source secret makes earlier hashes unrecognisable, so
 * production sets ERASURE_HASH_SECRET once and keeps it (docs/security.md).
 */
export const erasureHashKey = (config: { ERASURE_HASH_SECRET?: string; JWT_SECRET: string }): Uint8Array =>
  config.ERASURE_HASH_SECRET
    ? Buffer.from(config.ERASURE_HASH_SECRET, "utf8")
    : new Uint8Array(hkdfSync("sha256", config.JWT_SECRET, "atende", "lgpd-erasure-number-hash", 32));
