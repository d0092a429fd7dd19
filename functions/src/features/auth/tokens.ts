import { createHmac, timingSafeEqual } from "node:crypto";
import { SignJWT } from "jose";
import type { Profile } from "@atende/shared/domain/permissions/permissions";

export type AccessClaims = { userId: number; companyId: number; profile: Profile; super: boolean; tokenVersion: number };
export type RefreshClaims = { userId: number; companyId: number; tokenVersion: number; jti: string };

export type TokenVerification<T> = { ok: true; claims: T } | { ok: false; reason: "expired" | "invalid" };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const decodeJson = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
};

/**
 * An HS256 JWS (compact JWT) checked with node:crypto's HMAC, synchronously: jose verifies through WebCrypto, a
 * thread-pool job per request (~4× the CPU and a thread hop on every list request, docs/adr/0046). The checks are
 * jose's `jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["exp", "sub"] })`: the header's `alg`
 * must be HS256 (no `crit` extensions), the signature must match in constant time, the payload must be a JSON
 * object with `exp` and `sub`; `exp`, `nbf` and `iat` must be numbers when present; `exp` at or before now is
 * "expired", an `nbf` after now or anything else wrong "invalid" (and, stricter than jose, a padded signature).
 * `tokens.test.ts` holds it to jose's verdicts.
 */
export const verifyHs256 = (token: string, key: Uint8Array, nowSeconds = Math.floor(Date.now() / 1000)): TokenVerification<Record<string, unknown>> => {
  const invalid = { ok: false, reason: "invalid" } as const;
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return invalid;
  const [header, payload, signature] = parts as [string, string, string];
  const protectedHeader = decodeJson(header);
  if (!isObject(protectedHeader) || protectedHeader.alg !== "HS256" || "crit" in protectedHeader) return invalid;
  const expected = createHmac("sha256", key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  const claims = decodeJson(payload);
  if (!isObject(claims) || claims.exp === undefined || claims.sub === undefined) return invalid;
  for (const name of ["exp", "nbf", "iat"]) if (claims[name] !== undefined && (typeof claims[name] !== "number" || !Number.isFinite(claims[name]))) return invalid;
  if (typeof claims.nbf === "number" && claims.nbf > nowSeconds) return invalid;
  if ((claims.exp as number) <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, claims };
};

export const createTokens = (opts: { accessSecret: string; refreshSecret: string; accessTtl: number; refreshTtl: number }) => {
  const accessKey = new TextEncoder().encode(opts.accessSecret);
  const refreshKey = new TextEncoder().encode(opts.refreshSecret);

  const verify = async <T>(token: string, key: Uint8Array, map: (p: Record<string, unknown>) => T | null): Promise<TokenVerification<T>> => {
    // `exp` is required: a validly signed token that never expires is refused, whoever made it.
    const out = verifyHs256(token, key);
    if (!out.ok) return out;
    const claims = map(out.claims);
    return claims ? { ok: true, claims } : { ok: false, reason: "invalid" };
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
      verify<AccessClaims>(token, accessKey, (p) =>
        typeof p.sub === "string" && typeof p.cid === "number" && typeof p.tv === "number"
          ? { userId: Number(p.sub), companyId: p.cid, profile: p.p as Profile, super: p.s === true, tokenVersion: p.tv }
          : null,
      ),
    verifyRefresh: (token: string) =>
      verify<RefreshClaims>(token, refreshKey, (p) =>
        typeof p.sub === "string" && typeof p.cid === "number" && typeof p.tv === "number" && typeof p.jti === "string"
          ? { userId: Number(p.sub), companyId: p.cid, tokenVersion: p.tv, jti: p.jti }
          : null,
      ),
  };
};
export type Tokens = ReturnType<typeof createTokens>;
