import type { FeatureModule, Guards } from "../../platform/modules/feature-module";
import type { Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import type { Logger } from "../../platform/logger";
import { createAuditRepository } from "./audit.repository";
import { auditRoutes } from "./audit.routes";
import { createAuditService, type AuditService } from "./audit.service";

/**
 * The audit trail (docs/adr/0029-two-factor-and-audit-trail.md). Built in two steps because almost every module
 * records into it, auth included, while its routes need the guards auth provides: `createAuditService` first (its
 * recorder goes to every module that changes something), then `createAuditModule` with the guards for the routes.
 */
export const createAudit = (deps: { db: Db; logger: Logger; clock: () => Date; retentionDays: () => Promise<number> }): AuditService =>
  createAuditService({ audit: createAuditRepository(deps.db), cursors: createPageCursors(deps.db), logger: deps.logger, clock: deps.clock, retentionDays: deps.retentionDays });

export const createAuditModule = (deps: { service: AuditService; guards: Pick<Guards, "auth"> }): FeatureModule<AuditService> => ({
  service: deps.service,
  routes: [{ path: "/audit-logs", app: auditRoutes(deps.service, deps.guards) }],
});
