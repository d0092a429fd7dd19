import { randomUUID, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import { can, type Permission, type Profile } from "@atende/shared/domain/permissions/permissions";
import { AppError } from "../errors";
import { resolveClientAddress } from "./client-address";
import { addCorrelation, runWithCorrelation } from "../logger";
import { runUnitOfWork } from "../unit-of-work";

/**
 * What the guards below need of the caller; the feature side fixes the full principal type
 * (platform/http/app-env.ts: `AppEnv = HttpEnv<AuthContext>`, the principal from shared), so platform imports no feature.
 */
export type Principal = { user: { profile: string; super: boolean }; companyId: number; clientAddress?: string };
/** The company and user a verified access token names, before the caller's user item confirms them. */
export type TokenCaller = { companyId: number; userId: number };
/**
 * A read a route starts beside the caller's own (docs/adr/0059): a route's middleware sets it as the request's
 * `besideCaller` before `requireAuth`, which tells it the company and user of a verified token just before the caller's
 * user item is read, so the two reads cross the network together. What it starts is used only by that route's handler,
 * after the caller is known and allowed; a request without a valid token starts nothing.
 */
export type BesideCaller = (caller: TokenCaller) => void;
export type HttpEnv<A extends Principal = Principal> = { Variables: { requestId: string; auth: A; clientAddress: string; besideCaller: BesideCaller | undefined } };
type AnyEnv = HttpEnv<Principal>;

export const requestId: MiddlewareHandler<AnyEnv> = async (c, next) => {
  const id = c.req.header("x-request-id")?.slice(0, 64) || randomUUID();
  c.set("requestId", id);
  // every line logged while this request runs carries its id (and its company once the caller is known); the
  // request is one unit of work (its events share one read of the socket list, ADR 0039)
  await runWithCorrelation({ requestId: id }, () => runUnitOfWork(() => next()));
  c.header("x-request-id", c.get("requestId"));
};

/**
 * In AWS only CloudFront may call the API: it adds `x-origin-verify` (a generated secret). A request without it
 * came through the raw API URL, where the viewer address (login throttling) could be forged: refused.
 * Then resolves the client address the throttles use (client-address.ts): CloudFront's viewer header is
 * believed only on a request that carried the secret.
 */
export const requireOrigin =
  (secret: string | undefined): MiddlewareHandler<AnyEnv> =>
  async (c, next) => {
    if (secret && !safeEqual(c.req.header("x-origin-verify") ?? "", secret)) throw new AppError("ERR_NO_PERMISSION");
    c.set("clientAddress", resolveClientAddress(c, Boolean(secret)));
    await next();
  };

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const bearer = (c: Context) => {
  const header = c.req.header("authorization") ?? "";
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
};

/**
 * Every private route: resolves the caller from the access token (401 missing/bad, 403 expired), with the client
 * address it came from (the audit trail records it: docs/adr/0029).
 */
export const requireAuth =
  <A extends Principal>(authenticate: (token: string | undefined, beside?: BesideCaller) => Promise<A>): MiddlewareHandler<HttpEnv<A>> =>
  async (c, next) => {
    const auth = await authenticate(bearer(c), c.get("besideCaller"));
    c.set("auth", { ...auth, clientAddress: clientAddress(c) });
    addCorrelation({ companyId: auth.companyId });
    await next();
  };

export const requireAdmin: MiddlewareHandler<AnyEnv> = async (c, next) => {
  if (c.get("auth").user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
  await next();
};

/** A permission of the shared table (shared/src/domain/permissions): the supervisor's routes (docs/adr/0101). */
export const requirePermission =
  (permission: Permission): MiddlewareHandler<AnyEnv> =>
  async (c, next) => {
    if (!can(c.get("auth").user.profile as Profile, permission)) throw new AppError("ERR_NO_PERMISSION");
    await next();
  };

export const requireSuper: MiddlewareHandler<AnyEnv> = async (c, next) => {
  if (!c.get("auth").user.super) throw new AppError("ERR_NO_PERMISSION");
  await next();
};

/** Plan gating on the server: the feature's every call is refused when the company's plan lacks the flag. */
export const requirePlan =
  (assertPlanAllows: (companyId: number, flag: PlanFlag) => Promise<unknown>, flag: PlanFlag): MiddlewareHandler<AnyEnv> =>
  async (c, next) => {
    await assertPlanAllows(c.get("auth").companyId, flag);
    await next();
  };

/** The client's address as the edge saw it (set by requireOrigin; never x-forwarded-for): see client-address.ts. */
export const clientAddress = <A extends Principal>(c: Context<HttpEnv<A>>): string => c.get("clientAddress") ?? resolveClientAddress(c, false);
