import { AUDIT_SECRET_MASK, type AuditAction, type AuditActor, type AuditChanges, type AuditRecordKind } from "@atende/shared/domain/audit/audit";
import type { Principal } from "@atende/shared/domain/auth/principal";
import { isSealed } from "../../platform/secrets/secret-box.port";
import type { AuditEntryInput } from "./audit.port";

/**
 * Field names whose values never enter the trail: passwords and their hashes, tokens, API and voice keys, webhook and
 * app secrets, TOTP seeds and recovery codes. Matched case-insensitively anywhere in the name.
 */
const SECRET_NAME = /pass(word)?|secret|token|api_?key|voice_?key|private_?key|credential|totp|mfa_?secret|recovery|hash|signature/i;

/** Bookkeeping that changes on every write and says nothing a reader needs. */
const IGNORED = new Set(["updatedAt", "createdAt", "version", "tokenVersion"]);

/** Long texts (prompts, greetings) are cut so one entry stays far below DynamoDB's 400 KB item limit. */
const MAX_TEXT = 1000;

export type AuditDiffOptions = {
  /** more field names to mask, beyond the name rule (e.g. a setting whose key is a secret) */
  secrets?: readonly string[];
  /** more field names to leave out */
  ignore?: readonly string[];
};

type Fields = Record<string, unknown> | null | undefined;

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : x,
  ) ?? "undefined";

const clip = (v: unknown): unknown => {
  if (typeof v === "string") return v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v;
  if (v === undefined) return null;
  const text = stable(v);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : v;
};

const isEmpty = (v: unknown) => v === undefined || v === null || v === "";

/** True when a field's value must be masked: its name says secret, the caller says so, or the value is sealed. */
export const isSecretField = (name: string, value: unknown, extra: readonly string[] = []) =>
  SECRET_NAME.test(name) || extra.includes(name) || (typeof value === "string" && isSealed(value));

/**
 * The changed fields between two versions of a record: `before` null for a create, `after` null for a delete.
 * Only fields whose value differs appear; secret fields show `AUDIT_SECRET_MASK` on each side that has a value
 * (null when unset), so a reader sees that a key changed but never the key.
 */
export const auditChanges = (before: Fields, after: Fields, opts: AuditDiffOptions = {}): AuditChanges => {
  const a = before ?? {};
  const b = after ?? {};
  const ignore = new Set([...IGNORED, ...(opts.ignore ?? [])]);
  const out: AuditChanges = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (ignore.has(name)) continue;
    const from = a[name];
    const to = b[name];
    if (stable(from) === stable(to)) continue;
    if (before && after && isEmpty(from) && isEmpty(to)) continue;
    if (isSecretField(name, from, opts.secrets) || isSecretField(name, to, opts.secrets)) {
      out[name] = { from: isEmpty(from) ? null : AUDIT_SECRET_MASK, to: isEmpty(to) ? null : AUDIT_SECRET_MASK };
    } else {
      out[name] = { from: clip(from), to: clip(to) };
    }
  }
  return out;
};

/** The actor of a signed-in caller (the operator is a user with `super`). */
export const auditActorOf = (user: Pick<Principal, "id" | "name" | "profile" | "super">): AuditActor => ({
  kind: "user",
  userId: user.id,
  name: user.name,
  profile: user.profile,
  super: user.super,
});

/** The platform itself (the minute tick, queue consumers, a customer's own request). */
export const systemActor = (name: string): AuditActor => ({ kind: "system", name });

/** A signed-in caller as the audit trail needs them: who, their company, and the address the request came from. */
export type AuditCaller = { user: Pick<Principal, "id" | "name" | "profile" | "super">; companyId: number; clientAddress?: string };

/**
 * The entry for a change a signed-in caller made. The record's company is the caller's unless given: the operator
 * editing another company (or its users) records it under that company, so its admins see it too; `null` for
 * platform records (plans, global settings), seen by the operator only.
 */
export const auditEntry = (
  auth: AuditCaller,
  action: AuditAction,
  record: { kind: AuditRecordKind; id: string | number },
  changes: AuditChanges = {},
  companyId: number | null = auth.companyId,
): AuditEntryInput => ({ companyId, actor: auditActorOf(auth.user), ip: auth.clientAddress ?? "unknown", action, record, changes });
