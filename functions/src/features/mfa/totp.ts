import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP), as authenticator apps compute them: HMAC-SHA-1,
 * 6 digits, 30-second steps, base32 secrets (RFC 4648, unpadded). Only node:crypto; the clock is passed in.
 */

export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;
/** Steps accepted either side of now: a phone's clock a little off, a code typed as it rolls over. */
export const TOTP_WINDOW = 1;

export type TotpAlgorithm = "sha1" | "sha256" | "sha512";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export const base32Encode = (bytes: Uint8Array): string => {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
};

/** Decodes base32 leniently as apps do (case, spaces, dashes and padding ignored); throws on any other character. */
export const base32Decode = (text: string): Buffer => {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch);
    if (idx < 0) throw new Error("not base32");
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
};

/** RFC 4226: the HOTP value of a key and a counter, as a zero-padded string of `digits` digits. */
export const hotp = (key: Uint8Array, counter: number, digits = TOTP_DIGITS, algorithm: TotpAlgorithm = "sha1"): string => {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
};

/** The step number of a time (RFC 6238's T). */
export const totpStep = (at: Date, stepSeconds = TOTP_STEP_SECONDS) => Math.floor(at.getTime() / 1000 / stepSeconds);

/** RFC 6238: the code for a time. */
export const totp = (key: Uint8Array, at: Date, opts: { digits?: number; stepSeconds?: number; algorithm?: TotpAlgorithm } = {}): string =>
  hotp(key, totpStep(at, opts.stepSeconds), opts.digits ?? TOTP_DIGITS, opts.algorithm ?? "sha1");

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Checks a typed code against the steps now ± `window` and answers the step it matched (null: no match). Callers
 * store the matched step and refuse any step at or before it next time, so a code seen over a shoulder cannot be
 * replayed within its window (`afterStep`).
 */
export const verifyTotp = (
  key: Uint8Array,
  code: string,
  at: Date,
  opts: { window?: number; afterStep?: number; digits?: number; stepSeconds?: number } = {},
): number | null => {
  const digits = opts.digits ?? TOTP_DIGITS;
  const typed = code.replace(/\s/g, "");
  if (!new RegExp(`^\\d{${digits}}$`).test(typed)) return null;
  const now = totpStep(at, opts.stepSeconds);
  const window = opts.window ?? TOTP_WINDOW;
  let matched: number | null = null;
  // every candidate is computed (no early exit), so timing says nothing about which step matched
  for (let step = now - window; step <= now + window; step++) {
    if (sameCode(hotp(key, step, digits), typed) && step > (opts.afterStep ?? -1) && matched === null) matched = step;
  }
  return matched;
};

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** The otpauth:// URI authenticator apps read from a QR code (Key Uri Format). */
export const otpauthUrl = (opts: { secret: string; account: string; issuer: string }): string => {
  const label = `${encodeURIComponent(opts.issuer)}:${encodeURIComponent(opts.account)}`;
  const params = new URLSearchParams({
    secret: opts.secret,
    issuer: opts.issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
};
