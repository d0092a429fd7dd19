import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import "../../testing/provided-context";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { auditLogQuerySchema } from "@atende/shared/contracts/http/audit";
import { createTableInput } from "@atende/shared/table/table-definition";
import { createDb, type Db } from "../../platform/db/client";
import { createPageCursors } from "../../platform/db/page-cursors";
import { createLogger, type Logger } from "../../platform/logger";
import { auditChanges, auditEntry } from "./audit-diff";
import { createAuditRepository } from "./audit.repository";
import { auditCsvRow, createAuditService, type AuditService } from "./audit.service";

let db: Db;
let svc: AuditService;
const retention = 30;
const errors: string[] = [];
const now = new Date("2026-07-01T12:00:00Z");

const caller = (companyId: number, id: number, opts: Partial<AuthContext["user"]> = {}): AuthContext & { clientAddress: string } => ({
  companyId,
  clientAddress: `10.0.${companyId}.${id}`,
  user: { id, companyId, name: `U${companyId}-${id}`, email: `u${id}@c${companyId}`, profile: "admin", super: false, allTicket: "desabled", queueIds: [], whatsappId: null, ...opts },
});
const q = (query: Record<string, string> = {}) => auditLogQuerySchema.parse(query);

beforeAll(async () => {
  const endpoint = inject("dynamoEndpoint");
  const tableName = `t_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  client.destroy();
  db = createDb({ tableName, endpoint, region: "us-east-1" });
  const logger: Logger = { ...createLogger("silent"), error: (msg: string) => void errors.push(msg) };
  svc = createAuditService({ audit: createAuditRepository(db), cursors: createPageCursors(db), logger, clock: () => now, retentionDays: async () => retention });

  const a1 = caller(1, 1);
  const b1 = caller(2, 1);
  await svc.record(auditEntry(a1, "update", { kind: "queue", id: 3 }, auditChanges({ name: "Vendas" }, { name: "Vendas SP" })));
  await svc.record(auditEntry(a1, "delete", { kind: "ticket", id: "uuid-1" }));
  await svc.record(auditEntry(b1, "create", { kind: "user", id: 9 }, auditChanges(null, { name: "Bia", password: "Segredo123" })));
});

describe("audit service", () => {
  it("stores who, the company, the address, the action, the record and the masked changes, with the retention as TTL", async () => {
    const items = (await db.doc.send(new ScanCommand({ TableName: db.tableName }))).Items!.filter((i) => i.entity === "audit");
    const bia = items.find((i) => i.record.id === "9")!;
    expect(bia).toMatchObject({ companyId: 2, ip: "10.0.2.1", action: "create", actor: { kind: "user", userId: 1, name: "U2-1", profile: "admin", super: false } });
    expect(bia.changes.password).toEqual({ from: null, to: "••••••••" });
    expect(JSON.stringify(items)).not.toContain("Segredo123");
    expect(bia.ttl).toBe(Math.floor(now.getTime() / 1000) + 30 * 86_400);
  });

  it("an admin lists their own company only, whatever companyId they send (cross-tenant)", async () => {
    const own = await svc.list(caller(1, 1), q());
    // both were recorded at the same instant: their order between them is not defined
    expect(own.logs.map((e) => e.record.kind).sort()).toEqual(["queue", "ticket"]);
    const sneaky = await svc.list(caller(2, 1), q({ companyId: "1" }));
    expect(sneaky.logs.map((e) => e.companyId)).toEqual([2]);
  });

  it("the operator lists every company, or one", async () => {
    const op = caller(1, 99, { super: true });
    expect((await svc.list(op, q())).logs.map((e) => e.companyId).sort()).toEqual([1, 1, 2]);
    expect((await svc.list(op, q({ companyId: "2" }))).logs.map((e) => e.record.id)).toEqual(["9"]);
  });

  it("refuses attendants and supervisors", async () => {
    await expect(svc.list(caller(1, 2, { profile: "user" }), q())).rejects.toMatchObject({ code: "ERR_NO_PERMISSION" });
    await expect(svc.list(caller(1, 2, { profile: "supervisor" }), q())).rejects.toMatchObject({ code: "ERR_NO_PERMISSION" });
    await expect(svc.exportCsv(caller(1, 2, { profile: "user" }), q(), "1.1.1.1")).rejects.toMatchObject({ code: "ERR_NO_PERMISSION" });
  });

  it("exports the filtered trail as CSV and records the export", async () => {
    const csv = await svc.exportCsv(caller(1, 1), q({ action: "update" }), "10.0.1.1");
    const lines = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("at,companyId,userId,actor,role,ip,action,recordKind,recordId,changes");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"update","queue","3"');
    const after = await svc.list(caller(1, 1), q({ action: "export" }));
    expect(after.logs[0]).toMatchObject({ action: "export", record: { kind: "auditLog", id: "1" } });
  });

  it("keeps spreadsheet formulas out of CSV cells", () => {
    const row = auditCsvRow({
      id: "x",
      companyId: 1,
      actor: { kind: "user", userId: 1, name: '=HYPERLINK("http://x")', profile: "admin", super: false },
      ip: "1.1.1.1",
      action: "update",
      record: { kind: "contact", id: "1" },
      changes: {},
      at: now.toISOString(),
    });
    expect(row).toContain(`"'=HYPERLINK(""http://x"")"`);
  });

  it("never fails the change it describes: a store failure is logged", async () => {
    const broken = createAuditService({
      audit: { append: async () => Promise.reject(new Error("throttled")), page: async () => ({ items: [] }) },
      cursors: createPageCursors(db),
      logger: { ...createLogger("silent"), error: (msg: string) => void errors.push(msg) },
      clock: () => now,
      retentionDays: async () => 365,
    });
    await expect(broken.record(auditEntry(caller(1, 1), "update", { kind: "queue", id: 1 }))).resolves.toBeUndefined();
    expect(errors).toContain("audit entry not stored");
  });
});
