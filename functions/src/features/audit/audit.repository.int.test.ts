import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import "../../testing/provided-context";
import type { AuditEntry } from "@atende/shared/domain/audit/audit";
import { createTableInput } from "@atende/shared/table/table-definition";
import { createDb, type Db } from "../../platform/db/client";
import { createAuditRepository, monthsBetween, type AuditRepository } from "./audit.repository";

let db: Db;
let repo: AuditRepository;

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: randomUUID(),
  companyId: 1,
  actor: { kind: "user", userId: 1, name: "Ana", profile: "admin", super: false },
  ip: "10.0.0.1",
  action: "update",
  record: { kind: "queue", id: "1" },
  changes: {},
  at: "2026-03-10T12:00:00.000Z",
  ...over,
});

beforeAll(async () => {
  const endpoint = inject("dynamoEndpoint");
  const tableName = `t_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  client.destroy();
  db = createDb({ tableName, endpoint, region: "us-east-1" });
  repo = createAuditRepository(db);
});

const now = new Date("2026-06-01T00:00:00Z");

describe("audit repository", () => {
  it("has no way to change or delete an entry: append and read only", () => {
    expect(Object.keys(repo).sort()).toEqual(["append", "page"]);
  });

  it("refuses a second write of the same entry id at the same time (no overwrite)", async () => {
    const e = entry({ companyId: 50 });
    await repo.append(e, 1);
    await expect(repo.append({ ...e, action: "delete" }, 1)).rejects.toThrow();
    const page = await repo.page({ companyId: 50 }, { limit: 10, now });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.action).toBe("update");
  });

  it("lists a company's entries newest first, and never another company's", async () => {
    await repo.append(entry({ companyId: 2, at: "2026-03-01T10:00:00.000Z", record: { kind: "user", id: "5" } }), 1);
    await repo.append(entry({ companyId: 2, at: "2026-03-02T10:00:00.000Z", record: { kind: "queue", id: "7" } }), 1);
    await repo.append(entry({ companyId: 3, at: "2026-03-03T10:00:00.000Z" }), 1);
    const page = await repo.page({ companyId: 2 }, { limit: 10, now });
    expect(page.items.map((e) => e.at)).toEqual(["2026-03-02T10:00:00.000Z", "2026-03-01T10:00:00.000Z"]);
    expect(page.items.every((e) => e.companyId === 2)).toBe(true);
    expect(page.next).toBeUndefined();
    // the mapper answers the entry only: no keys, index attributes or ttl
    expect(Object.keys(page.items[0]!).sort()).toEqual(["action", "actor", "at", "changes", "companyId", "id", "ip", "record"]);
  });

  it("filters by period, user, action, record kind and record id", async () => {
    const c = 4;
    const ana = { kind: "user" as const, userId: 1, name: "Ana", profile: "admin" as const, super: false };
    const bia = { kind: "user" as const, userId: 2, name: "Bia", profile: "admin" as const, super: false };
    await repo.append(entry({ companyId: c, actor: ana, action: "create", record: { kind: "queue", id: "1" }, at: "2026-01-05T00:00:00.000Z" }), 1);
    await repo.append(entry({ companyId: c, actor: bia, action: "update", record: { kind: "queue", id: "1" }, at: "2026-02-05T00:00:00.000Z" }), 1);
    await repo.append(entry({ companyId: c, actor: bia, action: "delete", record: { kind: "ticket", id: "9" }, at: "2026-03-05T00:00:00.000Z" }), 1);
    await repo.append(entry({ companyId: c, actor: ana, action: "update", record: { kind: "queue", id: "2" }, at: "2026-04-05T00:00:00.000Z" }), 1);
    const ids = async (f: Parameters<AuditRepository["page"]>[0]) => (await repo.page(f, { limit: 10, now })).items.map((e) => e.at.slice(0, 7));
    expect(await ids({ companyId: c, from: "2026-02-01T00:00:00.000Z", to: "2026-03-31T23:59:59.999Z" })).toEqual(["2026-03", "2026-02"]);
    expect(await ids({ companyId: c, userId: 2 })).toEqual(["2026-03", "2026-02"]);
    expect(await ids({ companyId: c, action: "update" })).toEqual(["2026-04", "2026-02"]);
    expect(await ids({ companyId: c, recordKind: "queue" })).toEqual(["2026-04", "2026-02", "2026-01"]);
    expect(await ids({ companyId: c, recordKind: "queue", recordId: "1" })).toEqual(["2026-02", "2026-01"]);
    expect(await ids({ companyId: c, userId: 1, recordKind: "queue", action: "update" })).toEqual(["2026-04"]);
    expect(await ids({ companyId: c, userId: 3 })).toEqual([]);
  });

  it("pages with a cursor that continues where the last page stopped", async () => {
    const c = 5;
    for (let i = 0; i < 7; i++) await repo.append(entry({ companyId: c, at: `2026-05-0${i + 1}T00:00:00.000Z`, record: { kind: "user", id: String(i) } }), 1);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await repo.page({ companyId: c }, { limit: 3, cursor, now });
      seen.push(...page.items.map((e) => e.record.id));
      cursor = page.next;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(["6", "5", "4", "3", "2", "1", "0"]);
  });

  it("gives the operator every company by month, with the company-less entries too", async () => {
    const at = "2026-05-20T00:00:00.000Z";
    await repo.append(entry({ companyId: 6, at }), 1);
    await repo.append(entry({ companyId: 7, at: "2026-05-21T00:00:00.000Z" }), 1);
    await repo.append(entry({ companyId: null, actor: { kind: "anonymous", email: "x@y.z" }, action: "login_failed", record: { kind: "session", id: "x@y.z" }, at: "2026-05-22T00:00:00.000Z" }), 1);
    const page = await repo.page({ companyId: null, from: "2026-05-20T00:00:00.000Z", to: "2026-05-22T23:59:59.999Z" }, { limit: 10, now });
    expect(page.items.map((e) => e.companyId)).toEqual([null, 7, 6]);
    const failures = await repo.page({ companyId: null, action: "login_failed", from: "2026-05-01T00:00:00.000Z" }, { limit: 10, now });
    expect(failures.items.map((e) => e.actor)).toEqual([{ kind: "anonymous", email: "x@y.z" }]);
  });

  it("walks months newest first", () => {
    expect(monthsBetween("2025-11-15T00:00:00Z", "2026-02-01T00:00:00Z")).toEqual(["2026-02", "2026-01", "2025-12", "2025-11"]);
  });
});
