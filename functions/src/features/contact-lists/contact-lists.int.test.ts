import * as XLSX from "@e965/xlsx";
import { beforeAll, describe, expect, it } from "vitest";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { consumeInbound } from "../../app/inbound-consumer";
import { runJob } from "../../app/jobs-consumer";
import { INLINE_IMPORT_ROWS } from "@atende/shared/domain/contact-lists/contact-list";
import { CHECK_BATCH, CHECK_PAUSE_SECONDS } from "./contact-lists.service";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

/** A real .xlsx workbook whose first sheet holds these rows (first row = headers). */
const workbook = (rows: unknown[][], bookType: "xlsx" | "xls" = "xlsx") => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Planilha");
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["nome", "numero"], ["Outra aba", "5511900000001"]]), "Segunda");
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType }) as Buffer);
};
const upload = async (listId: number, token: string, bytes: Uint8Array, name = "contatos.xlsx") => {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  const res = await t.app.request(`/api/contact-lists/${listId}/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { error?: string; added: number; duplicates: number; invalid: number; contactList: { contactsCount: number } } };
};
const newList = async (tenant: Tenant, name: string) => {
  const res = await t.call("POST", "/contact-lists", { token: tenant.adminToken, body: { name } });
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string; contactsCount: number };
};
const items = async (tenant: Tenant, listId: number, q = "") =>
  t.call("GET", `/contact-list-items?contactListId=${listId}&pageNumber=1&searchParam=${encodeURIComponent(q)}`, { token: tenant.adminToken });
const countOf = async (tenant: Tenant, listId: number) => (await t.call("GET", `/contact-lists/${listId}`, { token: tenant.adminToken })).body.contactsCount as number;
/** Runs the feature jobs waiting on the memory queue (and those they enqueue). */
const runPendingJobs = async () => {
  while (t.jobs.pending.length) {
    const next = t.jobs.pending.shift()!;
    if (next.job.type === "feature" && next.job.name.startsWith("contactLists.")) await runJob(t.container, next.job);
  }
};
type CheckCommand = { companyId: number; whatsappId: number; requestId: string; number: string };
type ChecksCommand = Extract<OutboundCommand, { type: "checkNumbers" }>;
const checkCommands = (from = 0) => t.commands.sent.slice(from).filter((c): c is ChecksCommand => c.type === "checkNumbers");
/** every number asked for, with the connection it was asked on (several numbers ride one checkNumbers command) */
const checksFor = (number: string): CheckCommand[] =>
  checkCommands().flatMap((c) => c.checks.filter((x) => x.number === number).map((x) => ({ ...x, companyId: c.companyId, whatsappId: c.whatsappId })));
const answer = (check: CheckCommand, exists: boolean) =>
  consumeInbound(t.container, {
    Records: [
      {
        messageId: String(Math.random()),
        receiptHandle: "",
        body: JSON.stringify({ eventId: `checked:${check.requestId}`, type: "number.checked", companyId: check.companyId, whatsappId: check.whatsappId, requestId: check.requestId, number: check.number, exists }),
        attributes: { MessageGroupId: "g" } as never, // only the body is read
        messageAttributes: {},
        md5OfBody: "",
        eventSource: "",
        eventSourceARN: "",
        awsRegion: "",
      },
    ],
  });

describe("contact lists", () => {
  it("an admin creates, renames, searches, pages and deletes lists; admins see it live", async () => {
    await t.container.services.sockets.connect("cl-admin", a.adminToken);
    const mark = t.sender.frames.length;
    const made = await newList(a, "Clientes VIP");
    expect(made).toMatchObject({ name: "Clientes VIP", contactsCount: 0 });
    const renamed = await t.call("PUT", `/contact-lists/${made.id}`, { token: a.adminToken, body: { name: "Clientes Ouro" } });
    expect(renamed.body).toMatchObject({ id: made.id, name: "Clientes Ouro" });
    for (let i = 0; i < 21; i++) await newList(a, `Lote ${String(i).padStart(2, "0")}`);
    const page1 = await t.call("GET", "/contact-lists/?pageNumber=1&searchParam=lote", { token: a.adminToken });
    expect(page1.body.records).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await t.call("GET", "/contact-lists/?pageNumber=2&searchParam=LOTE", { token: a.adminToken });
    expect(page2.body).toMatchObject({ records: [{ name: "Lote 20" }], hasMore: false });
    const found = await t.call("GET", "/contact-lists/?pageNumber=1&searchParam=ouro", { token: a.adminToken });
    expect(found.body.records.map((r: { id: number }) => r.id)).toEqual([made.id]);
    const all = await t.call("GET", "/contact-lists/list", { token: a.adminToken });
    expect(all.body).toHaveLength(22);

    expect((await t.call("DELETE", `/contact-lists/${made.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/contact-lists/${made.id}`, { token: a.adminToken })).status).toBe(404);
    const events = t.sender.frames.slice(mark).filter((f) => f.connectionId === "cl-admin").map((f) => f.frame as { channel: string; data: { action: string } });
    expect(events[0]).toMatchObject({ channel: `company-${a.company.id}-ContactList`, data: { action: "create" } });
    expect(events.map((e) => e.data.action)).toContain("delete");
  });

  it("refuses a bad name with a clear code and stores nothing", async () => {
    for (const name of ["", "A", "x".repeat(51)]) {
      const res = await t.call("POST", "/contact-lists", { token: a.adminToken, body: { name } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    const res = await t.call("POST", "/contact-lists", { token: a.adminToken, body: {} });
    expect(res.body.error).toBe("ERR_VALIDATION");
    const search = await t.call("GET", "/contact-lists/?pageNumber=1&searchParam=xxxxx", { token: a.adminToken });
    expect(search.body.records).toEqual([]);
  });

  it("is for admins on a plan with campaigns only", async () => {
    expect((await t.call("GET", "/contact-lists/", { token: a.userToken })).status).toBe(403);
    expect((await t.call("POST", "/contact-lists", { token: a.userToken, body: { name: "Minha" } })).status).toBe(403);
    expect((await t.call("GET", "/contact-lists/")).status).toBe(401);
    const noCampaigns = await createTenant(t, { plan: { useCampaigns: false } });
    const refused = await t.call("POST", "/contact-lists", { token: noCampaigns.adminToken, body: { name: "Nope" } });
    expect(refused).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect((await t.call("GET", "/contact-list-items?contactListId=1", { token: noCampaigns.adminToken })).body.error).toBe("ERR_NO_PERMISSION");
    expect((await t.call("GET", "/contact-lists/list", { token: noCampaigns.adminToken })).body.error).toBe("ERR_NO_PERMISSION");
  });
});

describe("contact list items", () => {
  it("adds, edits, searches and deletes items; the count follows; numbers are digits and unique per list", async () => {
    const list = await newList(a, "Manual");
    const made = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, name: "Maria", number: "+55 (11) 98888-1111", email: "maria@x.com" } });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "Maria", number: "5511988881111", email: "maria@x.com", isWhatsappValid: false, checkedAt: null, contactListId: list.id, companyId: a.company.id });
    const dup = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, name: "Outra", number: "5511988881111" } });
    expect(dup).toMatchObject({ status: 409, body: { error: "ERR_DUPLICATED_CONTACT" } });
    const joao = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, name: "João", number: "5511988882222" } });
    expect(await countOf(a, list.id)).toBe(2);

    const edited = await t.call("PUT", `/contact-list-items/${joao.body.id}`, { token: a.adminToken, body: { name: "João Paulo", number: "5511988883333", email: "" } });
    expect(edited.body).toMatchObject({ id: joao.body.id, name: "João Paulo", number: "5511988883333" });
    expect((await t.call("GET", `/contact-list-items/${joao.body.id}`, { token: a.adminToken })).body.number).toBe("5511988883333");
    const clash = await t.call("PUT", `/contact-list-items/${joao.body.id}`, { token: a.adminToken, body: { name: "João", number: "5511988881111" } });
    expect(clash.body.error).toBe("ERR_DUPLICATED_CONTACT");

    expect((await items(a, list.id, "PAULO")).body.contacts.map((c: { id: number }) => c.id)).toEqual([joao.body.id]);
    expect((await items(a, list.id, "1111")).body.contacts.map((c: { name: string }) => c.name)).toEqual(["Maria"]);
    expect((await items(a, list.id)).body).toMatchObject({ hasMore: false });
    // the screen lists by name (A-Z), whatever the numbers
    expect((await items(a, list.id)).body.contacts.map((c: { name: string }) => c.name)).toEqual(["João Paulo", "Maria"]);

    expect((await t.call("DELETE", `/contact-list-items/${made.body.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/contact-list-items/${made.body.id}`, { token: a.adminToken })).status).toBe(404);
    expect(await countOf(a, list.id)).toBe(1);
  });

  it("refuses bad items with clear codes and stores nothing", async () => {
    const list = await newList(a, "Validação");
    const bad = [
      { name: "", number: "5511988884444" },
      { name: "A", number: "5511988884444" },
      { name: "x".repeat(51), number: "5511988884444" },
      { name: "Ana", number: "1234567" },
      { name: "Ana", number: "9".repeat(51) },
      { name: "Ana", number: "5511988884444", email: "não-é-email" },
    ];
    for (const body of bad) {
      const res = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { name: "Ana", number: "5511988884444" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: 999999, name: "Ana", number: "5511988884444" } })).status).toBe(404);
    expect((await items(a, list.id)).body.contacts).toEqual([]);
    expect(await countOf(a, list.id)).toBe(0);
  });

  it("checks a new number with WhatsApp and shows the answer live", async () => {
    await t.container.services.sockets.connect("cli-admin", a.adminToken);
    const list = await newList(a, "Validade");
    const valid = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, name: "Válido", number: "5511977770001" } });
    const invalid = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, name: "Inválido", number: "5511977770002" } });
    const [c1] = checksFor("5511977770001");
    const [c2] = checksFor("5511977770002");
    expect(c1).toMatchObject({ companyId: a.company.id, whatsappId: a.whatsapp.id });
    const mark = t.sender.frames.length;
    await answer(c1!, true);
    await answer(c2!, false);
    expect((await t.call("GET", `/contact-list-items/${valid.body.id}`, { token: a.adminToken })).body).toMatchObject({ isWhatsappValid: true, checkedAt: expect.any(String) });
    expect((await t.call("GET", `/contact-list-items/${invalid.body.id}`, { token: a.adminToken })).body).toMatchObject({ isWhatsappValid: false, checkedAt: expect.any(String) });
    const live = t.sender.frames.slice(mark).filter((f) => f.connectionId === "cli-admin").map((f) => f.frame as { channel: string; data: { action: string; record: { id: number; isWhatsappValid: boolean } } });
    expect(live).toContainEqual(expect.objectContaining({ channel: `company-${a.company.id}-ContactListItem`, data: expect.objectContaining({ action: "update", record: expect.objectContaining({ id: valid.body.id, isWhatsappValid: true }) }) }));
    // a renumbered item loses its validity until checked again
    const renumbered = await t.call("PUT", `/contact-list-items/${valid.body.id}`, { token: a.adminToken, body: { name: "Válido", number: "5511977770003" } });
    expect(renumbered.body).toMatchObject({ isWhatsappValid: false, checkedAt: null });
    // a late answer for the old number changes nothing
    await answer(c1!, true);
    expect((await t.call("GET", `/contact-list-items/${valid.body.id}`, { token: a.adminToken })).body.isWhatsappValid).toBe(false);
    expect(checksFor("5511977770003")).toHaveLength(1);
  });
});

describe("import", () => {
  it("reads the first sheet in every accepted header spelling, collapses duplicate numbers and counts", async () => {
    const spellings: [string, string, string][] = [
      ["nome", "numero", "email"],
      ["Nome", "número", "e-mail"],
      ["Nome", "Numero", "Email"],
      ["nome", "Número", "E-mail"],
    ];
    for (const [i, [n, num, em]] of spellings.entries()) {
      const list = await newList(a, `Importada ${i}`);
      const res = await upload(
        list.id,
        a.adminToken,
        workbook([
          [n, num, em],
          ["Ana", "+55 11 96666-0001", "ana@x.com"],
          ["Bia", 5511966660002, ""],
          ["Ana de novo", "5511966660001", ""],
          ["Sem número", "", ""],
        ]),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ added: 2, duplicates: 1, invalid: 1, contactList: { contactsCount: 2 } });
      const listed = (await items(a, list.id)).body.contacts as { name: string; number: string; email: string }[];
      expect(listed.map((c) => [c.name, c.number, c.email])).toEqual([
        ["Ana", "5511966660001", "ana@x.com"],
        ["Bia", "5511966660002", ""],
      ]);
    }
  });

  it("adds only new numbers on a second import, and counts stay right after deletes", async () => {
    const list = await newList(a, "Duas vezes");
    const rows = [["nome", "numero"], ...Array.from({ length: 60 }, (_, i) => [`Pessoa ${i}`, `55119555${String(i).padStart(5, "0")}`])];
    expect((await upload(list.id, a.adminToken, workbook(rows))).body).toMatchObject({ added: 60, contactList: { contactsCount: 60 } });
    const again = await upload(list.id, a.adminToken, workbook([...rows, ["Nova", "5511955599999"]], "xls"), "contatos.xls");
    expect(again.body).toMatchObject({ added: 1, duplicates: 60, contactList: { contactsCount: 61 } });
    const page1 = await items(a, list.id);
    expect(page1.body.contacts).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    const page4 = await t.call("GET", `/contact-list-items?contactListId=${list.id}&pageNumber=4`, { token: a.adminToken });
    expect(page4.body).toMatchObject({ hasMore: false });
    expect(page4.body.contacts).toHaveLength(1);
    await t.call("DELETE", `/contact-list-items/${page1.body.contacts[0].id}`, { token: a.adminToken });
    expect(await countOf(a, list.id)).toBe(60);
  });

  it("answers at once and checks the imported numbers in the background", async () => {
    const list = await newList(a, "Em segundo plano");
    t.jobs.pending.length = 0;
    await upload(list.id, a.adminToken, workbook([["Nome", "Numero"], ["Cli", "5511944440001"], ["Ente", "5511944440002"]]));
    expect(checksFor("5511944440001")).toHaveLength(0);
    await runPendingJobs();
    const [c] = checksFor("5511944440001");
    expect(checksFor("5511944440002")).toHaveLength(1);
    await answer(c!, true);
    const listed = (await items(a, list.id)).body.contacts as { number: string; isWhatsappValid: boolean }[];
    expect(listed.map((x) => [x.number, x.isWhatsappValid])).toEqual([
      ["5511944440001", true],
      ["5511944440002", false],
    ]);
  });

  it("checks numbers a batch at a time, pausing between batches (bulk checks are a ban trigger)", async () => {
    const list = await newList(a, "Ritmo");
    const numbers = Array.from({ length: CHECK_BATCH * 2 + 5 }, (_, i) => String(5511922000000 + i));
    t.jobs.pending.length = 0;
    await upload(list.id, a.adminToken, workbook([["Nome", "Numero"], ...numbers.map((n) => [`R ${n}`, n])]));
    const before = t.commands.sent.length;
    const first = t.jobs.pending.shift()!;
    await runJob(t.container, first.job);
    // one WhatsApp query for the whole batch, not one per number
    expect(t.commands.sent.length - before).toBe(1);
    expect(checkCommands(before).map((c) => c.checks.length)).toEqual([CHECK_BATCH]);
    expect(t.jobs.pending).toHaveLength(1);
    expect(t.jobs.pending[0]!.delaySeconds).toBeGreaterThanOrEqual(CHECK_PAUSE_SECONDS);
    await runPendingJobs();
    expect(checkCommands(before).map((c) => c.checks.length)).toEqual([CHECK_BATCH, CHECK_BATCH, 5]);
    expect(t.commands.sent.length - before).toBe(3);
    expect(new Set(checkCommands(before).flatMap((c) => c.checks.map((x) => x.number)))).toEqual(new Set(numbers));
  });

  it("writes a large file in the background: the request answers at once, rows land as the jobs run", async () => {
    const list = await newList(a, "Grande");
    const rows = [["Nome", "Número"], ...Array.from({ length: INLINE_IMPORT_ROWS + 100 }, (_, i) => [`Grande ${i}`, String(5511911000000 + i)])];
    t.jobs.pending.length = 0;
    const res = await upload(list.id, a.adminToken, workbook(rows));
    expect(res.body).toMatchObject({ added: 0, queued: INLINE_IMPORT_ROWS + 100 });
    expect(await countOf(a, list.id)).toBe(0);
    await runPendingJobs();
    expect(await countOf(a, list.id)).toBe(INLINE_IMPORT_ROWS + 100);
    expect(checksFor(String(5511911000000 + INLINE_IMPORT_ROWS + 99))).toHaveLength(1);
  });

  it("refuses files that are not .xls/.xlsx spreadsheets and stores nothing", async () => {
    const list = await newList(a, "Arquivos ruins");
    const csv = new TextEncoder().encode("nome,numero\nAna,5511966660001\n");
    expect((await upload(list.id, a.adminToken, csv, "contatos.csv")).body.error).toBe("ERR_INVALID_IMPORT_FILE");
    expect((await upload(list.id, a.adminToken, csv, "contatos.xlsx")).body.error).toBe("ERR_INVALID_IMPORT_FILE");
    expect((await upload(list.id, a.adminToken, workbook([["nome", "numero"], ["Ana", "5511966660001"]]), "foto.png")).body.error).toBe("ERR_INVALID_IMPORT_FILE");
    const noFile = await t.app.request(`/api/contact-lists/${list.id}/upload`, { method: "POST", body: new FormData(), headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(noFile.status).toBe(400);
    expect(await countOf(a, list.id)).toBe(0);
    expect((await items(a, list.id)).body.contacts).toEqual([]);
  });

  it("serves a sample spreadsheet that imports", async () => {
    const res = await t.app.request("/api/contact-lists/sample.xlsx", { headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const list = await newList(a, "Exemplo");
    expect((await upload(list.id, a.adminToken, bytes)).body).toMatchObject({ added: 2 });
  });
});

describe("deleting a list", () => {
  it("removes its items in the background", async () => {
    const list = await newList(a, "Apagar");
    await upload(list.id, a.adminToken, workbook([["nome", "numero"], ["Ana", "5511933330001"]]));
    const [item] = (await items(a, list.id)).body.contacts as { id: number }[];
    t.jobs.pending.length = 0;
    await t.call("DELETE", `/contact-lists/${list.id}`, { token: a.adminToken });
    expect((await t.call("GET", `/contact-list-items/${item!.id}`, { token: a.adminToken })).status).toBe(404);
    await runPendingJobs();
    expect(await t.container.services.contactLists.pageItems(a.company.id, list.id)).toEqual({ items: [], next: undefined });
  });
});

describe("cross-tenant", () => {
  it("company B cannot read, alter, import into or delete A's lists and items", async () => {
    const list = await newList(a, "Só de A");
    const item = await t.call("POST", "/contact-list-items", { token: a.adminToken, body: { contactListId: list.id, name: "Cliente A", number: "5511922220001" } });
    const B = b.adminToken;
    expect((await t.call("GET", `/contact-lists/${list.id}`, { token: B })).status).toBe(404);
    expect((await t.call("PUT", `/contact-lists/${list.id}`, { token: B, body: { name: "Roubada" } })).status).toBe(404);
    expect((await t.call("DELETE", `/contact-lists/${list.id}`, { token: B })).status).toBe(404);
    expect((await upload(list.id, B, workbook([["nome", "numero"], ["Intruso", "5511922220009"]]))).status).toBe(404);
    expect((await t.call("GET", `/contact-list-items?contactListId=${list.id}`, { token: B })).status).toBe(404);
    expect((await t.call("GET", `/contact-list-items/${item.body.id}`, { token: B })).status).toBe(404);
    expect((await t.call("PUT", `/contact-list-items/${item.body.id}`, { token: B, body: { name: "Mudado", number: "5511922220002" } })).status).toBe(404);
    expect((await t.call("DELETE", `/contact-list-items/${item.body.id}`, { token: B })).status).toBe(404);
    expect((await t.call("POST", "/contact-list-items", { token: B, body: { contactListId: list.id, name: "Intruso", number: "5511922220003" } })).status).toBe(404);
    expect((await t.call("GET", "/contact-lists/list", { token: B })).body.map((l: { id: number }) => l.id)).not.toContain(list.id);
    // a check answer arriving for company B does not touch A's item
    const [check] = checksFor("5511922220001");
    await answer({ ...check!, companyId: b.company.id, whatsappId: b.whatsapp.id }, true);

    expect((await t.call("GET", `/contact-lists/${list.id}`, { token: a.adminToken })).body).toMatchObject({ name: "Só de A", contactsCount: 1 });
    expect((await t.call("GET", `/contact-list-items/${item.body.id}`, { token: a.adminToken })).body).toMatchObject({ name: "Cliente A", number: "5511922220001", isWhatsappValid: false });
  });
});
