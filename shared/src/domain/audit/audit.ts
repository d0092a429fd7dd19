import type { Profile } from "../permissions/permissions";

/**
 * The audit trail (issue 14 item 2, docs/adr/0029-two-factor-and-audit-trail.md): who did what, when, from which
 * address, to which record, and which fields changed (secrets masked). Entries are append-only and expire after the
 * operator's retention (DynamoDB TTL).
 */

/** What happened. Changes made through the API are create/update/delete; the rest name their event. */
export const AUDIT_ACTIONS = [
  "create",
  "update",
  "delete",
  "login",
  "login_failed",
  "mfa_verified",
  "mfa_failed",
  "mfa_recovery_used",
  "mfa_enabled",
  "mfa_disabled",
  "mfa_reset",
  "transfer",
  "export",
  "erase",
  "copilot",
  "merge",
  // issue 34: a supervisor or admin watched a conversation that is not theirs; a whisper to its attendant
  "view",
  "whisper",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Which kind of record an entry is about. */
export const AUDIT_RECORD_KINDS = [
  "user",
  "queue",
  "connection",
  "setting",
  "plan",
  "company",
  "prompt",
  "integration",
  "campaign",
  "ticket",
  "contact",
  "message",
  "optOut",
  "session",
  "auditLog",
] as const;
export type AuditRecordKind = (typeof AUDIT_RECORD_KINDS)[number];

/**
 * Who did it: a signed-in user (the operator is a user with `super`), or the platform itself (jobs, the tick, a
 * customer's own request such as an opt-out). A failed sign-in with an unknown email names only the email tried.
 */
export type AuditActor =
  | { kind: "user"; userId: number; name: string; profile: Profile; super: boolean }
  | { kind: "system"; name: string }
  | { kind: "anonymous"; email: string };

/** One changed field. Secret fields never carry their value: both sides are `AUDIT_SECRET_MASK` (or null when unset). */
export type AuditFieldChange = { from: unknown; to: unknown };
export type AuditChanges = Record<string, AuditFieldChange>;

/** The operator's retention (global setting `auditRetentionDays`): 30 days to 10 years, 365 by default. */
export const AUDIT_RETENTION_MIN_DAYS = 30;
export const AUDIT_RETENTION_MAX_DAYS = 3650;
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;

/** What a secret field shows in an entry, whatever its value. */
export const AUDIT_SECRET_MASK = "••••••••";

/** A stored entry, as `GET /audit-logs` answers it. */
export type AuditEntry = {
  id: string;
  /** null: a platform-level event with no company (a failed sign-in with an unknown email); the operator sees these */
  companyId: number | null;
  actor: AuditActor;
  /** the client address the edge saw (platform/http/client-address.ts); "unknown" when there was no request */
  ip: string;
  action: AuditAction;
  record: { kind: AuditRecordKind; id: string };
  changes: AuditChanges;
  /** ISO time */
  at: string;
};
