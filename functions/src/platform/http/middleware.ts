import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import type { AuthContext } from "../../features/auth/auth.service";
import type { Container } from "../container";
import { AppError } from "../errors";

export type AppEnv = { Variables: { requestId: string; auth: AuthContext } };

export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("requestId", c.req.header("x-request-id")?.slice(0, 64) || randomUUID());
  await next();
  c.header("x-request-id", c.get("requestId"));
};

const bearer = (c: Context) => {
  const header = c.req.header("authorization") ?? "";
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
};

/** Every private route: resolves the caller from the access token (401 missing/bad, 403 expired). */
export const requireAuth =
  (container: Container): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set("auth", await container.services.auth.authenticate(bearer(c)));
    await next();
  };

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("auth").user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
  await next();
};

export const requireSuper: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("auth").user.super) throw new AppError("ERR_NO_PERMISSION");
  await next();
};

/** Plan gating on the server: the feature's every call is refused when the company's plan lacks the flag. */
export const requirePlan =
  (container: Container, flag: PlanFlag): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await container.services.companies.assertPlanAllows(c.get("auth").companyId, flag);
    await next();
  };

/** The viewer's address: CloudFront's viewer header in AWS; the local runner sets x-forwarded-for from the socket. */
export const clientAddress = (c: Context): string =>
  c.req.header("cloudfront-viewer-address")?.replace(/:\d+$/, "") ?? c.req.header("x-forwarded-for")?.split(",")[0]?.trim() ?? "unknown";
