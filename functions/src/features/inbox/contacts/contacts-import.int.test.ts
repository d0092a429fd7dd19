import * as XLSX from "@e965/xlsx";
import { beforeAll, describe, expect, it } from "vitest";
import type { ContactUploadResponse } from "@atende/shared/contracts/http/contacts";
import type { OutboundCommand, PhoneContact } from "@atende/shared/contracts/queue-messages";
import { INLINE_IMPORT_ROWS } from "@atende/shared/domain/contact-lists/contact-list";
import { consumeInbound } from "../../../app/inbound-consumer";
import { runJob } from "../../../app/jobs-consumer";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const xlsx = (rows: unknown[][]) => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Contatos");
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
};
const upload = async (token: string, bytes: Uint8Array, name: string) => {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  const res = await t.app.request("/api/contacts/upload", { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as ContactUploadResponse & { error?: string } };
};
const search = async (tenant: Tenant, term: string) =>
  (await t.call("GET", `/contacts?searchParam=${encodeURIComponent(term)}`, { token: tenant.adminToken })).body.contacts as { id: number; name: string; number: string; email: string; lid: string | null }[];

type ListCommand = Extract<OutboundCommand, { type: "listContacts" }>;
/** The session host's answer: contacts.listed parts, as the inbound queue delivers them. */
const answer = (cmd: ListCommand, parts: { contacts: PhoneContact[]; error?: string }[]) =>
  consumeInbound(t.container, {
    Records: parts.map((p, part) => ({
      messageId: `${cmd.requestId}:${part}`,
      receiptHandle: "",
      body: JSON.stringify({
        eventId: `contacts:${cmd.requestId}:${part}`,
        type: "contacts.listed",
        companyId: cmd.companyId,
        whatsappId: cmd.whatsappId,
        requestId: cmd.requestId,
        part,
        last: part === parts.length - 1,
        contacts: p.contacts,
        ...(p.error ? { error: p.error } : {}),
      }),
      attributes: { MessageGroupId: `${cmd.companyId}:${cmd.whatsappId}` } as never,
      messageAttributes: {},
      md5OfBody: "",
      eventSource: "",
      eventSourceARN: "",
      awsRegion: "",
    })),
  });

describe("POST /contacts/upload", () => {
  it("merges a spreadsheet's rows into the contacts: headers in any accepted spelling, digits only, ninth digit, no duplicates", async () => {
    const c = await createTenant(t);
    const known = await t.call("POST", "/contacts", { token: c.adminToken, body: { name: "Carla Existente", number: "5511987650001" } });
    const unnamed = await t.call("POST", "/contacts", { token: c.adminToken, body: { name: "5511987650002", number: "5511987650002" } });
    const res = await upload(
      c.userToken,
      xlsx([
        ["Nome", "Número", "E-mail"],
        ["Nova Pessoa", "+55 (11) 98765-0003", "nova@ex.com"],
        ["Carla Outro Nome", "55 11 8765-0001", "carla@ex.com"], // the same person without the ninth digit
        ["Dona Sem Nome", "5511987650002", ""],
        ["Repetida", "5511987650003", ""],
        ["Curto", "1234", ""],
      ]),
      "contatos.xlsx",
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1, updated: 2, unchanged: 0, invalid: 1, duplicates: 1, truncated: false });
    expect(res.body.contacts).toHaveLength(3);
    // the known contact keeps its name and gains the e-mail it lacked; the one named by its number gets a name
    expect((await t.call("GET", `/contacts/${known.body.id}`, { token: c.adminToken })).body).toMatchObject({ name: "Carla Existente", email: "carla@ex.com" });
    expect((await t.call("GET", `/contacts/${unnamed.body.id}`, { token: c.adminToken })).body).toMatchObject({ name: "Dona Sem Nome" });
    expect(await search(c, "Nova Pessoa")).toMatchObject([{ number: "5511987650003", email: "nova@ex.com" }]);
    const all = await t.call("GET", "/contacts", { token: c.adminToken });
    expect(all.body.count).toBe(3);

    // the same file again changes nothing
    const again = await upload(c.userToken, xlsx([["nome", "numero"], ["Nova Pessoa", "5511987650003"]]), "contatos.xlsx");
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(3);
  });

  it("reads a CSV with comma or semicolon separators, keeping numbers as text", async () => {
    const c = await createTenant(t);
    const semi = await upload(c.adminToken, new TextEncoder().encode("\uFEFFnome;numero;email\nJoão Ponto;5521977770001;joao@ex.com\nAna Ponto;5521977770002;\n"), "lista.csv");
    expect(semi.body).toMatchObject({ created: 2, invalid: 0 });
    const comma = await upload(c.adminToken, new TextEncoder().encode("Nome,Numero\nBia Vírgula,005531977770003\n"), "lista.CSV");
    expect(comma.body).toMatchObject({ created: 1 });
    expect(await search(c, "João Ponto")).toMatchObject([{ number: "5521977770001", email: "joao@ex.com" }]);
    expect(await search(c, "Bia")).toMatchObject([{ number: "005531977770003" }]);
  });

  it("refuses other files, an empty form and binary content posing as CSV, storing nothing", async () => {
    const c = await createTenant(t);
    expect((await upload(c.adminToken, new TextEncoder().encode("nome,numero\nX Y,5511900000001\n"), "contatos.txt")).body.error).toBe("ERR_INVALID_IMPORT_FILE");
    expect((await upload(c.adminToken, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), "contatos.csv")).body.error).toBe("ERR_INVALID_IMPORT_FILE");
    expect((await upload(c.adminToken, new TextEncoder().encode("not a workbook"), "contatos.xlsx")).body.error).toBe("ERR_INVALID_IMPORT_FILE");
    const none = await t.app.request("/api/contacts/upload", { method: "POST", body: new FormData(), headers: { authorization: `Bearer ${c.adminToken}` } });
    expect(none.status).toBe(400);
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(0);
  });

  it("writes into the caller's company only: another company's identical number stays its own", async () => {
    const inB = await t.call("POST", "/contacts", { token: b.adminToken, body: { name: "Cliente de B", number: "5511912340000" } });
    const res = await upload(a.adminToken, xlsx([["nome", "numero", "email"], ["Cliente de A", "5511912340000", "a@ex.com"]]), "a.xlsx");
    expect(res.body).toMatchObject({ created: 1 });
    expect(res.body.contacts[0]?.companyId).toBe(a.company.id);
    expect((await t.call("GET", `/contacts/${inB.body.id}`, { token: b.adminToken })).body).toMatchObject({ name: "Cliente de B", email: "" });
    expect(await search(b, "Cliente de A")).toHaveLength(0);
  });
});

describe("POST /contacts/upload of a large file", () => {
  it("merges more than INLINE_IMPORT_ROWS rows in a background job that reports its progress, in the uploader's company only", async () => {
    const c = await createTenant(t);
    await t.container.services.sockets.connect("upload-big", c.adminToken);
    const mark = t.sender.frames.length;
    const queued = t.jobs.pending.length;
    const total = INLINE_IMPORT_ROWS + 1;
    const rows = [["Nome", "Número"], ...Array.from({ length: total }, (_, i) => [`Pessoa Grande ${i}`, String(5521980000000 + i)])];
    const res = await upload(c.adminToken, xlsx(rows), "grande.xlsx");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 0, unchanged: 0, queued: total, contacts: [] });
    expect(res.body.requestId).toEqual(expect.any(String));
    // nothing merged inside the request
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(0);
    const jobs = t.jobs.pending.slice(queued).map((p) => p.job);
    expect(jobs).toHaveLength(1);
    // another company naming this upload's stored rows merges nothing
    await runJob(t.container, { ...jobs[0]!, companyId: b.company.id });
    expect(await search(b, "Pessoa Grande")).toHaveLength(0);
    await runJob(t.container, jobs[0]!);
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(total);
    expect(await search(c, "Pessoa Grande 500")).toMatchObject([{ number: String(5521980000000 + 500) }]);
    const reloads = t.sender.frames
      .slice(mark)
      .filter((f) => f.connectionId === "upload-big" && (f.frame as { event: string }).event === "contact")
      .map((f) => (f.frame as { data: unknown }).data);
    expect(reloads.at(-1)).toEqual({ action: "reload", import: { requestId: res.body.requestId, done: true, progress: { merged: total, total } } });
    expect(t.jobs.pending.length).toBe(queued + 1); // the last run enqueues nothing more
  });
});

describe("POST /contacts/import", () => {
  it("asks the connection's session host for the phone's contacts and merges every part by identity", async () => {
    const c = await createTenant(t);
    const known = await t.call("POST", "/contacts", { token: c.adminToken, body: { name: "5531988880001", number: "5531988880001" } });
    await t.container.services.sockets.connect("import-user", c.userToken);
    const mark = t.sender.frames.length;
    const res = await t.call("POST", "/contacts/import", { token: c.userToken, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ whatsappId: c.whatsapp.id });
    const cmd = t.commands.sent.find((x): x is ListCommand => x.type === "listContacts" && x.requestId === res.body.requestId);
    expect(cmd).toMatchObject({ companyId: c.company.id, whatsappId: c.whatsapp.id });

    await answer(cmd!, [
      {
        contacts: [
          { jid: "5531988880001@s.whatsapp.net", number: "5531988880001", name: "Seu Jorge" },
          { jid: "553188880002@s.whatsapp.net", number: "553188880002", name: "Dona Lurdes" }, // no ninth digit
          { jid: "120363000000000000@g.us", name: "Grupo da Família" },
        ],
      },
      {
        contacts: [
          { jid: "5531988880002@s.whatsapp.net", number: "5531988880002", lid: "98765432101234", name: "Lurdes" }, // the same person again, with a LID
          { jid: "11122233344455@lid", lid: "11122233344455", name: "Só LID" },
        ],
      },
    ]);
    expect((await t.call("GET", `/contacts/${known.body.id}`, { token: c.adminToken })).body.name).toBe("Seu Jorge");
    expect(await search(c, "Dona Lu")).toMatchObject([{ name: "Dona Lurdes", number: "5531988880002", lid: "98765432101234" }]);
    expect(await search(c, "Só LID")).toMatchObject([{ number: "", lid: "11122233344455" }]);
    expect(await search(c, "Grupo")).toHaveLength(0);
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(3);

    const events = t.sender.frames.slice(mark).filter((f) => f.connectionId === "import-user" && (f.frame as { event: string }).event === "contact");
    const reloads = events.map((f) => (f.frame as { data: { action: string; import?: { requestId: string; done: boolean } } }).data);
    expect(reloads.at(-1)).toEqual({ action: "reload", import: { requestId: res.body.requestId, done: true } });

    // a redelivered part changes nothing
    await answer(cmd!, [{ contacts: [{ jid: "5531988880002@s.whatsapp.net", number: "5531988880002", name: "Outro Nome" }] }]);
    expect((await t.call("GET", "/contacts", { token: c.adminToken })).body.count).toBe(3);
    expect(await search(c, "Dona Lu")).toMatchObject([{ name: "Dona Lurdes" }]);
  });

  it("accepts the spec client's empty body or whatsappId false, reports a phone that could not list, and refuses a disconnected connection", async () => {
    const c = await createTenant(t);
    const empty = await t.app.request("/api/contacts/import", { method: "POST", headers: { authorization: `Bearer ${c.adminToken}` } });
    expect(empty.status).toBe(200);
    const viaFalse = await t.call("POST", "/contacts/import", { token: c.adminToken, body: { whatsappId: false } });
    expect(viaFalse.status).toBe(200);
    const cmd = t.commands.sent.find((x): x is ListCommand => x.type === "listContacts" && x.requestId === viaFalse.body.requestId)!;
    await t.container.services.sockets.connect("import-fail", c.adminToken);
    const mark = t.sender.frames.length;
    await answer(cmd, [{ contacts: [], error: "ERR_WAPP_NOT_INITIALIZED" }]);
    const last = t.sender.frames.slice(mark).filter((f) => f.connectionId === "import-fail" && (f.frame as { event: string }).event === "contact").at(-1);
    expect((last?.frame as { data: unknown }).data).toEqual({ action: "reload", import: { requestId: viaFalse.body.requestId, done: true, error: "ERR_WAPP_NOT_INITIALIZED" } });

    await t.container.repos.whatsapps.setSession(c.company.id, c.whatsapp.id, { status: "DISCONNECTED", qrcode: "", retries: 0 }, t.clock.now);
    const before = t.commands.sent.length;
    const refused = await t.call("POST", "/contacts/import", { token: c.adminToken, body: {} });
    expect(refused).toMatchObject({ status: 400, body: { error: "ERR_WAPP_NOT_INITIALIZED" } });
    expect(t.commands.sent.length).toBe(before);
    expect((await t.call("POST", "/contacts/import", { token: c.adminToken, body: { whatsappId: "abc" } })).status).toBe(400);
  });

  it("never reaches another company's connection, and an answer names the company it belongs to", async () => {
    // connection ids are the company's own: B naming A's id reaches B's connection of that id, or nothing
    const before = t.commands.sent.length;
    const missing = await t.call("POST", "/contacts/import", { token: b.adminToken, body: { whatsappId: 999_999 } });
    expect(missing).toMatchObject({ status: 404, body: { error: "ERR_NO_WAPP_FOUND" } });
    expect(t.commands.sent.length).toBe(before);
    const named = await t.call("POST", "/contacts/import", { token: b.adminToken, body: { whatsappId: a.whatsapp.id } });
    const sent = t.commands.sent.filter((x) => x.type === "listContacts" && x.requestId === named.body.requestId);
    expect(sent.map((x) => x.companyId)).toEqual([b.company.id]);

    // B's import is answered for B only: A's contacts are untouched even when the phone lists A's numbers
    const mine = await t.call("POST", "/contacts/import", { token: b.adminToken, body: {} });
    const inA = await t.call("POST", "/contacts", { token: a.adminToken, body: { name: "5521966660000", number: "5521966660000" } });
    const cmd = t.commands.sent.find((x): x is ListCommand => x.type === "listContacts" && x.requestId === mine.body.requestId)!;
    expect(cmd.companyId).toBe(b.company.id);
    await answer(cmd, [{ contacts: [{ jid: "5521966660000@s.whatsapp.net", number: "5521966660000", name: "Nome de B" }] }]);
    expect((await t.call("GET", `/contacts/${inA.body.id}`, { token: a.adminToken })).body.name).toBe("5521966660000");
    expect(await search(b, "Nome de B")).toMatchObject([{ companyId: b.company.id, number: "5521966660000" }]);
  });
});

describe("GET /contacts/import/{requestId}", () => {
  const state = (tenant: Tenant, requestId: string) => t.call("GET", `/contacts/import/${encodeURIComponent(requestId)}`, { token: tenant.userToken });

  it("answers a phone import's state from its start to its end (what a page whose socket missed the end asks)", async () => {
    const c = await createTenant(t);
    const res = await t.call("POST", "/contacts/import", { token: c.adminToken, body: {} });
    const requestId = res.body.requestId as string;
    expect(await state(c, requestId)).toMatchObject({ status: 200, body: { requestId, done: false } });
    const cmd = t.commands.sent.find((x): x is ListCommand => x.type === "listContacts" && x.requestId === requestId)!;
    await answer(cmd, [{ contacts: [{ jid: "5531977770001@s.whatsapp.net", number: "5531977770001", name: "Ana" }] }, { contacts: [] }]);
    expect(await state(c, requestId)).toEqual(expect.objectContaining({ status: 200, body: { requestId, done: true } }));

    const failed = await t.call("POST", "/contacts/import", { token: c.adminToken, body: {} });
    const failedCmd = t.commands.sent.find((x): x is ListCommand => x.type === "listContacts" && x.requestId === failed.body.requestId)!;
    await answer(failedCmd, [{ contacts: [], error: "ERR_WAPP_NOT_INITIALIZED" }]);
    expect((await state(c, failed.body.requestId)).body).toEqual({ requestId: failed.body.requestId, done: true, error: "ERR_WAPP_NOT_INITIALIZED" });
  });

  it("answers a large upload's progress and end", async () => {
    const c = await createTenant(t);
    const queued = t.jobs.pending.length;
    const total = INLINE_IMPORT_ROWS + 1;
    const rows = [["Nome", "Número"], ...Array.from({ length: total }, (_, i) => [`Estado ${i}`, String(5521970000000 + i)])];
    const res = await upload(c.adminToken, xlsx(rows), "estado.xlsx");
    const requestId = res.body.requestId!;
    expect((await state(c, requestId)).body).toEqual({ requestId, done: false, progress: { merged: 0, total } });
    for (const p of t.jobs.pending.slice(queued)) await runJob(t.container, p.job);
    expect((await state(c, requestId)).body).toEqual({ requestId, done: true, progress: { merged: total, total } });
  });

  it("is the caller's company's only, and refuses an unknown or malformed id", async () => {
    const c = await createTenant(t);
    const res = await t.call("POST", "/contacts/import", { token: c.adminToken, body: {} });
    const other = await state(b, res.body.requestId);
    expect(other).toMatchObject({ status: 404, body: { error: "ERR_NO_IMPORT_FOUND" } });
    expect(await state(c, "imp:1:nao-existe")).toMatchObject({ status: 404, body: { error: "ERR_NO_IMPORT_FOUND" } });
    expect(await state(c, "x".repeat(200))).toMatchObject({ status: 404, body: { error: "ERR_NO_IMPORT_FOUND" } });
    expect(await state(c, "a b")).toMatchObject({ status: 404, body: { error: "ERR_NO_IMPORT_FOUND" } });
  });
});
