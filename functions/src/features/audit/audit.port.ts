import type { AuditAction, AuditActor, AuditChanges, AuditRecordKind } from "@atende/shared/domain/audit/audit";

/**
 * The one thing a feature needs to write the audit trail (docs/adr/0029-two-factor-and-audit-trail.md). Services
 * receive an `AuditRecorder` at construction and call it after a change has been stored, with the changed fields
 * computed by `auditChanges(before, after)` (audit-diff.ts: secrets masked). Recording is append-only: there is no
 * way to change or delete an entry through this port or the API; entries expire after the operator's retention.
 *
 * A failure to record never undoes the change it describes: the recorder logs it and returns (an audit outage must
 * not stop attendants working); see the ADR for why.
 */
export type AuditEntryInput = {
  /** the company the record belongs to; null only for a platform event with no company (unknown-email sign-in) */
  companyId: number | null;
  actor: AuditActor;
  /** the client address (platform/http/client-address.ts); "unknown" outside a request */
  ip: string;
  action: AuditAction;
  record: { kind: AuditRecordKind; id: string | number };
  /** the fields that changed, secrets masked (auditChanges); {} when nothing field-level applies (sign-ins, exports) */
  changes?: AuditChanges;
  /** when it happened; the recorder's clock when absent */
  at?: Date;
};

export type AuditRecorder = {
  record(entry: AuditEntryInput): Promise<void>;
};

/** For services built where no trail is wanted (unit tests of other features): records nothing. */
export const noAudit: AuditRecorder = { record: async () => {} };
