import { describe, expect, it } from "vitest";
import { AUDIT_SECRET_MASK } from "@atende/shared/domain/audit/audit";
import { auditActorOf, auditChanges } from "./audit-diff";

describe("auditChanges", () => {
  it("lists only the fields that changed, with both sides", () => {
    const before = { id: 3, name: "Vendas", color: "#ff0000", queueIds: [1, 2], updatedAt: "2026-01-01" };
    const after = { id: 3, name: "Vendas SP", color: "#ff0000", queueIds: [2, 1], updatedAt: "2026-02-01" };
    expect(auditChanges(before, after)).toEqual({ name: { from: "Vendas", to: "Vendas SP" }, queueIds: { from: [1, 2], to: [2, 1] } });
  });

  it("a create has every set field from null; a delete every field to null", () => {
    expect(auditChanges(null, { id: 1, name: "Ana" })).toEqual({ id: { from: null, to: 1 }, name: { from: null, to: "Ana" } });
    expect(auditChanges({ id: 1, name: "Ana" }, null)).toEqual({ id: { from: 1, to: null }, name: { from: "Ana", to: null } });
  });

  it("treats nested objects by value, key order ignored", () => {
    expect(auditChanges({ opts: { a: 1, b: 2 } }, { opts: { b: 2, a: 1 } })).toEqual({});
    expect(auditChanges({ opts: { a: 1 } }, { opts: { a: 2 } })).toEqual({ opts: { from: { a: 1 }, to: { a: 2 } } });
  });

  it("never carries a secret's value: passwords, tokens, API keys, sealed values", () => {
    const changes = auditChanges(
      { password: "", apiKey: "sk-old-1234567890", token: "abc", note: "v1:kms:AAAA", name: "x" },
      { password: "Nova1234", apiKey: "sk-new-0987654321", token: "abc", note: "v1:kms:BBBB", name: "x" },
    );
    expect(changes).toEqual({
      password: { from: null, to: AUDIT_SECRET_MASK },
      apiKey: { from: AUDIT_SECRET_MASK, to: AUDIT_SECRET_MASK },
      note: { from: AUDIT_SECRET_MASK, to: AUDIT_SECRET_MASK },
    });
    expect(JSON.stringify(changes)).not.toMatch(/Nova1234|sk-new|sk-old|BBBB/);
  });

  it("masks the fields the caller names as secret", () => {
    expect(auditChanges({ value: "old" }, { value: "new" }, { secrets: ["value"] })).toEqual({ value: { from: AUDIT_SECRET_MASK, to: AUDIT_SECRET_MASK } });
  });

  it("leaves out bookkeeping and the caller's ignored fields, and unset-to-empty moves", () => {
    expect(auditChanges({ a: null, b: 1, version: 1 }, { a: "", b: 1, version: 2 })).toEqual({});
    expect(auditChanges({ body: "x" }, { body: "y" }, { ignore: ["body"] })).toEqual({});
  });

  it("cuts long texts so an entry stays small", () => {
    const long = "a".repeat(5000);
    const change = auditChanges({ prompt: "" }, { prompt: long }).prompt!;
    expect(String(change.to).length).toBeLessThanOrEqual(1001);
  });
});

describe("auditActorOf", () => {
  it("keeps who, never more", () => {
    expect(auditActorOf({ id: 7, name: "Ana", profile: "admin", super: false, email: "a@x", companyId: 1 } as never)).toEqual({
      kind: "user",
      userId: 7,
      name: "Ana",
      profile: "admin",
      super: false,
    });
  });
});
