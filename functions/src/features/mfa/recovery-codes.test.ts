import { describe, expect, it } from "vitest";
import { findRecoveryCode, hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from "./recovery-codes";

describe("recovery codes", () => {
  it("makes ten distinct codes shaped XXXXX-XXXXX, never a six-digit TOTP shape", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) {
      expect(c).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
      expect(looksLikeRecoveryCode(c)).toBe(true);
    }
    expect(looksLikeRecoveryCode("123456")).toBe(false);
  });

  it("stores a salted hash, never the code, and finds which hash a typed code matches (case and dashes ignored)", async () => {
    const [a, b] = newRecoveryCodes(2) as [string, string];
    const hashes = [await hashRecoveryCode(a), await hashRecoveryCode(b)];
    expect(hashes.join()).not.toContain(a.replace("-", ""));
    expect(await hashRecoveryCode(a)).not.toBe(hashes[0]);
    expect(await findRecoveryCode(b.toLowerCase().replace("-", " "), hashes)).toBe(hashes[1]);
    expect(await findRecoveryCode(a, hashes)).toBe(hashes[0]);
    expect(await findRecoveryCode("ZZZZZ-ZZZZZ", hashes)).toBeNull();
    expect(await findRecoveryCode(a, [])).toBeNull();
  });
});
