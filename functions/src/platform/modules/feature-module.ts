import type { Hono, MiddlewareHandler } from "hono";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import type { AppEnv } from "../http/app-env";
import type { HttpEnv } from "../http/middleware";

/**
 * The one registration style of a feature (docs/adr/0024-feature-modules.md).
 *
 * Each feature has ONE `<feature>.module.ts` exporting `create<Feature>Module(deps)`: `deps` are ports and other
 * features' *service* interfaces (never their repositories); it returns a `FeatureModule<S>`: its service (what
 * other modules may be given) and what it contributes to the composition root (functions/src/app/container.ts):
 * routes (mounted by http-app.ts in the order the root lists them), inbound handlers (inbound-consumer.ts),
 * jobs (jobs-consumer.ts) and minute-tick jobs (tick.ts). Handlers close over the module's own service: none of
 * them receives the container.
 *
 * Features import this file for its types only (`import type`): lint allows nothing else from app/.
 */
export type FeatureModule<S> = {
  service: S;
  /** Hono sub-apps, each mounted at `path` under /api (several may share a path: mounted in list order) */
  routes?: RouteMount[];
  inbound?: InboundHandlers;
  /** reads an inbound event's handlers will make, started with its first round trip (docs/adr/0058) */
  inboundEarly?: InboundEarlyReads;
  jobs?: JobHandlers;
  tick?: TickJob[];
};

export type RouteMount = { path: string; app: Hono<AppEnv> };

/**
 * The route guards, built once by the composition root and handed to every routes factory:
 * `auth` = requireAuth(auth service's authenticate), `plan(flag)` = requirePlan(companies' assertPlanAllows, flag).
 * (requireAdmin / requireSuper need nothing: routes import them from platform/http/middleware.ts.)
 */
export type Guards = {
  auth: MiddlewareHandler<AppEnv>;
  plan: (flag: PlanFlag) => MiddlewareHandler<HttpEnv>;
};

/** Inbound events (inbound.fifo) a feature owns, by event type. */
export type InboundHandlers = { [T in InboundEvent["type"]]?: (event: Extract<InboundEvent, { type: T }>) => Promise<void> };

/**
 * Reads of an inbound event that do not depend on what the handlers before them write (docs/adr/0058): started with
 * the event's first round trip through memoised loads (platform/unit-of-work.ts), so the handler's own read later in
 * the same unit of work gets the answer already read. A point read started here joins that round trip's BatchGetItem.
 * Must not throw nor write; a read it starts and nobody uses is a wasted call, so each says when its handler will read.
 */
export type InboundEarlyReads = { [T in InboundEvent["type"]]?: (event: Extract<InboundEvent, { type: T }>) => void };

/** Delayed jobs (the `jobs` queue): by message type, and the generic `feature` jobs by name. */
export type JobHandlers = {
  typed?: { [T in Exclude<JobMessage["type"], "feature">]?: (job: Extract<JobMessage, { type: T }>) => Promise<void> };
  named?: Record<string, (companyId: number, payload: Record<string, unknown>) => Promise<void>>;
};

/** A job of the minute tick; a failing job is logged and does not stop the others. */
export type TickJob = { name: string; run: (now: Date) => Promise<void> };
