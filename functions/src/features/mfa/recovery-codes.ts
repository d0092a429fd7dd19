import { randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Recovery codes: ten per enablement, shown once, stored only as salted scrypt hashes. A code is 10 characters
 * from an alphabet without look-alikes (0/O, 1/I/L), shown as two groups of five ("7KQ4M-XH2PD"): 50 bits each,
 * and scrypt (N=4096) makes each offline guess of a stolen hash cost milliseconds: 2^50 of them is out of reach.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const LENGTH = 10;
const SCRYPT = { N: 1 << 12, r: 8, p: 1 } as const;

const scryptAsync = (secret: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) => scrypt(secret, salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))));

/** What people type, reduced to the stored form: upper case, no spaces or dashes. */
export const normalizeRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

/** True when the input is shaped like a recovery code (and so is not a 6-digit TOTP code). */
export const looksLikeRecoveryCode = (code: string) => new RegExp(`^[${ALPHABET}]{${LENGTH}}$`).test(normalizeRecoveryCode(code));

export const newRecoveryCodes = (count = RECOVERY_CODE_COUNT): string[] =>
  Array.from({ length: count }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });

/** "scrypt$<salt b64>$<hash b64>" */
export const hashRecoveryCode = async (code: string): Promise<string> => {
  const salt = randomBytes(16);
  const hash = await scryptAsync(normalizeRecoveryCode(code), salt);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
};

/** The stored hash the code matches, or null. Every hash is checked, so timing does not tell which one matched. */
export const findRecoveryCode = async (code: string, hashes: readonly string[]): Promise<string | null> => {
  const typed = normalizeRecoveryCode(code);
  let found: string | null = null;
  for (const stored of hashes) {
    const [scheme, salt, hash] = stored.split("$");
    if (scheme !== "scrypt" || !salt || !hash) continue;
    const expected = Buffer.from(hash, "base64");
    const actual = await scryptAsync(typed, Buffer.from(salt, "base64"));
    if (actual.length === expected.length && timingSafeEqual(actual, expected) && !found) found = stored;
  }
  return found;
};
