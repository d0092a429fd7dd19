import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, newTotpSecret, otpauthUrl, totp, verifyTotp } from "./totp";

const ascii = (s: string) => Buffer.from(s, "ascii");
const SHA1_KEY = ascii("12345678901234567890");
const SHA256_KEY = ascii("12345678901234567890123456789012");
const SHA512_KEY = ascii("1234567890123456789012345678901234567890123456789012345678901234");
const at = (seconds: number) => new Date(seconds * 1000);

describe("HOTP (RFC 4226 appendix D)", () => {
  it("gives the published values for counters 0..9", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    expect(expected.map((_, counter) => hotp(SHA1_KEY, counter))).toEqual(expected);
  });
});

describe("TOTP (RFC 6238 appendix B, 8 digits)", () => {
  const vectors: [number, string, string, string][] = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"],
  ];
  it.each(vectors)("at %i s", (seconds, sha1, sha256, sha512) => {
    expect(totp(SHA1_KEY, at(seconds), { digits: 8 })).toBe(sha1);
    expect(totp(SHA256_KEY, at(seconds), { digits: 8, algorithm: "sha256" })).toBe(sha256);
    expect(totp(SHA512_KEY, at(seconds), { digits: 8, algorithm: "sha512" })).toBe(sha512);
  });

  it("gives the last six digits with the apps' default (SHA-1, 6 digits)", () => {
    expect(totp(SHA1_KEY, at(59))).toBe("287082");
    expect(totp(SHA1_KEY, at(1111111109))).toBe("081804");
    expect(totp(SHA1_KEY, at(2000000000))).toBe("279037");
  });
});

describe("verifyTotp with a fixed clock", () => {
  const now = at(1111111111); // step 37037037, code 050471
  const step = Math.floor(1111111111 / 30);

  it("accepts the current code and one step either side, and answers the matched step", () => {
    expect(verifyTotp(SHA1_KEY, totp(SHA1_KEY, now), now)).toBe(step);
    expect(verifyTotp(SHA1_KEY, totp(SHA1_KEY, at(1111111111 - 30)), now)).toBe(step - 1);
    expect(verifyTotp(SHA1_KEY, totp(SHA1_KEY, at(1111111111 + 30)), now)).toBe(step + 1);
  });

  it("refuses codes two steps away, wrong codes and malformed input", () => {
    expect(verifyTotp(SHA1_KEY, totp(SHA1_KEY, at(1111111111 - 60)), now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, totp(SHA1_KEY, at(1111111111 + 60)), now)).toBeNull();
    const right = totp(SHA1_KEY, now);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    expect(verifyTotp(SHA1_KEY, wrong, now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, "", now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, "12345", now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, "1234567", now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, "abcdef", now)).toBeNull();
  });

  it("accepts spaces inside a typed code", () => {
    const code = totp(SHA1_KEY, now);
    expect(verifyTotp(SHA1_KEY, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(step);
  });

  it("refuses a step at or before the last one used (no replay within the window)", () => {
    const code = totp(SHA1_KEY, now);
    expect(verifyTotp(SHA1_KEY, code, now, { afterStep: step })).toBeNull();
    expect(verifyTotp(SHA1_KEY, code, now, { afterStep: step - 1 })).toBe(step);
  });
});

describe("base32 and secrets", () => {
  it("encodes RFC 4648's vectors and the RFC 6238 key", () => {
    expect(base32Encode(ascii("f"))).toBe("MY");
    expect(base32Encode(ascii("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Encode(SHA1_KEY)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });

  it("decodes what it encodes, leniently (case, spaces, padding)", () => {
    expect(base32Decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq").equals(SHA1_KEY)).toBe(true);
    expect(base32Decode("MZXW6YTBOI======").toString("ascii")).toBe("foobar");
    expect(() => base32Decode("MZXW1")).toThrow();
  });

  it("makes 160-bit secrets, different every time", () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(a)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(a);
  });

  it("builds the otpauth URI apps read", () => {
    const url = new URL(otpauthUrl({ secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", account: "ana@demo.com.br", issuer: "Atende" }));
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(decodeURIComponent(url.pathname)).toBe("/Atende:ana@demo.com.br");
    expect(url.searchParams.get("secret")).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(url.searchParams.get("issuer")).toBe("Atende");
    expect(url.searchParams.get("digits")).toBe("6");
    expect(url.searchParams.get("period")).toBe("30");
  });
});
