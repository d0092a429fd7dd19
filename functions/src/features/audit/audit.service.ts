import { randomUUID } from "node:crypto";
import { AUDIT_EXPORT_MAX_ROWS, AUDIT_PAGE_SIZE, type AuditLogListResponse, type AuditLogQuery } from "@atende/shared/contracts/http/audit";
import { AUDIT_RETENTION_DEFAULT_DAYS, type AuditEntry } from "@atende/shared/domain/audit/audit";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { isAdmin } from "@atende/shared/domain/permissions/permissions";
import { hashQuery, pageByNumber, type PageCursors } from "../../platform/db/page-cursors";
import { AppError } from "../../platform/errors";
import type { Logger } from "../../platform/logger";
import type { AuditEntryInput, AuditRecorder } from "./audit.port";
import type { AuditFilter, AuditRepository } from "./audit.repository";

const RETENTION_CACHE_MS = 60_000;

/** A CSV cell: quoted, and never read as a formula by a spreadsheet (=, +, -, @ get a leading apostrophe). */
const cell = (v: unknown): string => {
  let s = v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
};

const actorName = (e: AuditEntry) => (e.actor.kind === "user" ? e.actor.name : e.actor.kind === "system" ? e.actor.name : e.actor.email);
const actorUserId = (e: AuditEntry) => (e.actor.kind === "user" ? e.actor.userId : "");
const actorRole = (e: AuditEntry) => (e.actor.kind === "user" ? (e.actor.super ? "super" : e.actor.profile) : e.actor.kind);

export const AUDIT_CSV_HEADER = ["at", "companyId", "userId", "actor", "role", "ip", "action", "recordKind", "recordId", "changes"];
export const auditCsvRow = (e: AuditEntry) =>
  [e.at, e.companyId, actorUserId(e), actorName(e), actorRole(e), e.ip, e.action, e.record.kind, e.record.id, e.changes].map(cell).join(",");

export const createAuditService = (deps: {
  audit: AuditRepository;
  cursors: PageCursors;
  logger: Logger;
  clock: () => Date;
  /** the operator's retention in days (global setting `auditRetentionDays`) */
  retentionDays: () => Promise<number>;
}) => {
  const { audit, cursors, logger, clock } = deps;
  let retention: { days: number; until: number } | undefined;

  const retentionDays = async () => {
    const now = Date.now();
    if (retention && retention.until > now) return retention.days;
    let days = AUDIT_RETENTION_DEFAULT_DAYS;
    try {
      const read = await deps.retentionDays();
      if (Number.isInteger(read) && read > 0) days = read;
    } catch (e) {
      logger.warn("audit retention unreadable, using the default", { error: String(e) });
    }
    retention = { days, until: now + RETENTION_CACHE_MS };
    return days;
  };

  /**
   * Which companies a caller's list reaches: admins their own (a `companyId` filter is ignored), the operator all
   * or the one they filter by. Without a `from`, the list starts where the retention ends (nothing older exists).
   */
  const scope = async (auth: AuthContext, q: AuditLogQuery): Promise<AuditFilter> => {
    if (!auth.user.super && !isAdmin(auth.user.profile)) throw new AppError("ERR_NO_PERMISSION");
    const companyId = auth.user.super ? (q.companyId ?? null) : auth.companyId;
    const from = q.from ?? new Date(clock().getTime() - ((await retentionDays()) + 1) * 86_400_000).toISOString();
    return { companyId, from, to: q.to, userId: q.userId, action: q.action, recordKind: q.recordKind, recordId: q.recordId };
  };

  const recorder: AuditRecorder = {
    async record(input: AuditEntryInput): Promise<void> {
      const at = input.at ?? clock();
      const entry: AuditEntry = {
        id: randomUUID(),
        companyId: input.companyId,
        actor: input.actor,
        ip: input.ip || "unknown",
        action: input.action,
        record: { kind: input.record.kind, id: String(input.record.id) },
        changes: input.changes ?? {},
        at: at.toISOString(),
      };
      try {
        const ttl = Math.floor(at.getTime() / 1000) + (await retentionDays()) * 86_400;
        await audit.append(entry, ttl);
      } catch (e) {
        // the change it describes is already stored: never undo or fail it because the trail could not be written
        logger.error("audit entry not stored", { companyId: input.companyId ?? undefined, action: input.action, kind: input.record.kind, error: String(e) });
      }
    },
  };

  return {
    ...recorder,

    /** GET /audit-logs */
    async list(auth: AuthContext, q: AuditLogQuery): Promise<AuditLogListResponse> {
      const filter = await scope(auth, q);
      const now = clock();
      const { pageNumber, ...rest } = q;
      const page = await pageByNumber({
        cursors,
        companyId: auth.companyId,
        viewerId: auth.user.id,
        queryHash: hashQuery(["audit", filter.companyId, rest]),
        page: pageNumber,
        now,
        fetch: (cursor) => audit.page(filter, { limit: AUDIT_PAGE_SIZE, cursor, now, maxReads: filter.companyId === null ? 30 : 10 }),
      });
      return { logs: page.items, hasMore: page.hasMore };
    },

    /** GET /audit-logs/export: the same filters as CSV (newest first, at most AUDIT_EXPORT_MAX_ROWS rows). */
    async exportCsv(auth: AuthContext, q: AuditLogQuery, clientAddress: string): Promise<string> {
      const filter = await scope(auth, q);
      const now = clock();
      const lines = [AUDIT_CSV_HEADER.join(",")];
      let cursor: string | undefined;
      let rows = 0;
      do {
        const page = await audit.page(filter, { limit: 500, cursor, now, maxReads: 40 });
        for (const e of page.items) {
          if (rows >= AUDIT_EXPORT_MAX_ROWS) break;
          lines.push(auditCsvRow(e));
          rows++;
        }
        cursor = page.next;
      } while (cursor && rows < AUDIT_EXPORT_MAX_ROWS);
      await recorder.record({
        companyId: filter.companyId ?? auth.companyId,
        actor: { kind: "user", userId: auth.user.id, name: auth.user.name, profile: auth.user.profile, super: auth.user.super },
        ip: clientAddress,
        action: "export",
        record: { kind: "auditLog", id: filter.companyId ?? "all" },
        changes: { filter: { from: null, to: { ...q, pageNumber: undefined } }, rows: { from: null, to: rows } },
      });
      return `\uFEFF${lines.join("\r\n")}\r\n`;
    },
  };
};
export type AuditService = ReturnType<typeof createAuditService>;
