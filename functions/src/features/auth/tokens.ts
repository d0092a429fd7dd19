import { SignJWT, errors, jwtVerify } from "jose";
import type { Profile } from "@atende/shared/domain/permissions/permissions";

export type AccessClaims = { userId: number; companyId: number; profile: Profile; super: boolean; tokenVersion: number };
export type RefreshClaims = { userId: number; companyId: number; tokenVersion: number; jti: string };

export type TokenVerification<T> = { ok: true; claims: T } | { ok: false; reason: "expired" | "invalid" };

export const createTokens = (opts: { accessSecret: string; refreshSecret: string; accessTtl: number; refreshTtl: number }) => {
  const accessKey = new TextEncoder().encode(opts.accessSecret);
  const refreshKey = new TextEncoder().encode(opts.refreshSecret);
  /**
   * The verifying keys imported once (every request verifies its token; jose imports a raw key on each call
   * otherwise: ~2× the CPU of the verification itself, docs/adr/0046).
   */
  const verifyKey = (raw: Uint8Array) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const accessVerifyKey = verifyKey(accessKey);
  const refreshVerifyKey = verifyKey(refreshKey);

  const verify = async <T>(token: string, key: ReturnType<typeof verifyKey>, map: (p: Record<string, unknown>) => T | null): Promise<TokenVerification<T>> => {
    try {
      // `exp` is required: a validly signed token that never expires is refused, whoever made it.
      const { payload } = await jwtVerify(token, await key, { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] });
      const claims = map(payload as Record<string, unknown>);
      return claims ? { ok: true, claims } : { ok: false, reason: "invalid" };
    } catch (e) {
      return { ok: false, reason: e instanceof errors.JWTExpired ? "expired" : "invalid" };
    }
  };

  return {
    signAccess: (c: AccessClaims, now: Date) =>
      new SignJWT({ cid: c.companyId, p: c.profile, s: c.super, tv: c.tokenVersion })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(c.userId))
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(now.getTime() / 1000) + opts.accessTtl)
        .sign(accessKey),
    signRefresh: (c: RefreshClaims, now: Date) =>
      new SignJWT({ cid: c.companyId, tv: c.tokenVersion })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(c.userId))
        .setJti(c.jti)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(now.getTime() / 1000) + opts.refreshTtl)
        .sign(refreshKey),
    verifyAccess: (token: string) =>
      verify<AccessClaims>(token, accessVerifyKey, (p) =>
        typeof p.sub === "string" && typeof p.cid === "number" && typeof p.tv === "number"
          ? { userId: Number(p.sub), companyId: p.cid, profile: p.p as Profile, super: p.s === true, tokenVersion: p.tv }
          : null,
      ),
    verifyRefresh: (token: string) =>
      verify<RefreshClaims>(token, refreshVerifyKey, (p) =>
        typeof p.sub === "string" && typeof p.cid === "number" && typeof p.tv === "number" && typeof p.jti === "string"
          ? { userId: Number(p.sub), companyId: p.cid, tokenVersion: p.tv, jti: p.jti }
          : null,
      ),
  };
};
export type Tokens = ReturnType<typeof createTokens>;
