import { describe, expect, it } from "vitest";
import { SignJWT, errors, jwtVerify } from "jose";
import { createHmac } from "node:crypto";
import { createTokens, verifyHs256 } from "./tokens";

const key = new TextEncoder().encode("a-secret-of-the-access-tokens-0123456789");
const otherKey = new TextEncoder().encode("another-secret-0123456789");
const now = Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
/** A token signed by hand (headers and payloads jose would not make). */
const handMade = (header: unknown, payload: unknown, k: Uint8Array = key) => {
  const signing = `${b64(header)}.${b64(payload)}`;
  return `${signing}.${createHmac("sha256", k).update(signing).digest("base64url")}`;
};
const joseVerdict = async (token: string) => {
  try {
    await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] });
    return "ok";
  } catch (e) {
    return e instanceof errors.JWTExpired ? "expired" : "invalid";
  }
};
const ours = (token: string) => {
  const out = verifyHs256(token, key);
  return out.ok ? "ok" : out.reason;
};

describe("verifyHs256 (docs/adr/0046): the verdicts of jose's jwtVerify, synchronously", () => {
  it("agrees with jose on valid, expired, tampered, foreign and malformed tokens", async () => {
    const signed = (claims: Record<string, unknown>, k: Uint8Array = key, alg = "HS256") => new SignJWT(claims).setProtectedHeader({ alg }).sign(k);
    const valid = await signed({ sub: "5", cid: 1, tv: 2, exp: now + 60, iat: now });
    const [h, p, s] = valid.split(".") as [string, string, string];
    const cases: Record<string, string> = {
      valid,
      "expired a second ago": await signed({ sub: "5", exp: now - 1 }),
      "expires now": await signed({ sub: "5", exp: now }),
      "no exp": await signed({ sub: "5" }),
      "no sub": await signed({ exp: now + 60 }),
      "exp not a number": handMade({ alg: "HS256" }, { sub: "5", exp: String(now + 60) }),
      "iat not a number": handMade({ alg: "HS256" }, { sub: "5", exp: now + 60, iat: "x" }),
      "not yet valid (nbf)": await signed({ sub: "5", exp: now + 60, nbf: now + 30 }),
      "valid from now (nbf)": await signed({ sub: "5", exp: now + 60, nbf: now }),
      "another key": await signed({ sub: "5", exp: now + 60 }, otherKey),
      HS512: await signed({ sub: "5", exp: now + 60 }, key, "HS512"),
      "alg none": `${b64({ alg: "none" })}.${p}.`,
      "alg none, HS256 signature kept": `${b64({ alg: "none" })}.${p}.${s}`,
      "payload changed, signature kept": `${h}.${b64({ sub: "1", cid: 1, tv: 2, exp: now + 60 })}.${s}`,
      "signature cut": `${h}.${p}.${s.slice(0, -2)}`,
      "crit extension": handMade({ alg: "HS256", crit: ["x"], x: 1 }, { sub: "5", exp: now + 60 }),
      "payload an array": handMade({ alg: "HS256" }, [1, 2]),
      "payload not JSON": handMade({ alg: "HS256" }, "not json"),
      "header not JSON": `${b64("{")}.${p}.${s}`,
      "two parts": `${h}.${p}`,
      "four parts": `${valid}.x`,
      "not base64url": `${h}.${p}.${s}*`,
      empty: "",
    };
    const verdicts = Object.fromEntries(Object.keys(cases).map((name) => [name, ours(cases[name]!)]));
    const expected = Object.fromEntries(await Promise.all(Object.entries(cases).map(async ([name, token]) => [name, await joseVerdict(token)])));
    expect(verdicts).toEqual(expected);
    expect(verdicts.valid).toBe("ok");
    expect(verdicts["expired a second ago"]).toBe("expired");
    expect(verdicts["alg none"]).toBe("invalid");
    // one deliberate difference: jose reads a padded signature ("=", which no JWT library writes); this refuses it
    expect(await joseVerdict(`${valid}=`)).toBe("ok");
    expect(ours(`${valid}=`)).toBe("invalid");
  });

  it("createTokens: an access token it signs opens with its claims; a refresh token does not open as an access token", async () => {
    const tokens = createTokens({ accessSecret: "access-secret-0123456789", refreshSecret: "refresh-secret-0123456789", accessTtl: 60, refreshTtl: 600 });
    const access = await tokens.signAccess({ userId: 7, companyId: 3, profile: "admin", super: false, tokenVersion: 4 }, new Date());
    expect(await tokens.verifyAccess(access)).toEqual({ ok: true, claims: { userId: 7, companyId: 3, profile: "admin", super: false, tokenVersion: 4 } });
    const refresh = await tokens.signRefresh({ userId: 7, companyId: 3, tokenVersion: 4, jti: "j" }, new Date());
    expect(await tokens.verifyAccess(refresh)).toEqual({ ok: false, reason: "invalid" });
    expect((await tokens.verifyRefresh(refresh)).ok).toBe(true);
    const old = await tokens.signAccess({ userId: 7, companyId: 3, profile: "admin", super: false, tokenVersion: 4 }, new Date(Date.now() - 120_000));
    expect(await tokens.verifyAccess(old)).toEqual({ ok: false, reason: "expired" });
  });
});
