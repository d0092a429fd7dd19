import * as XLSX from "@e965/xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeOperator } from "../testing/operator";
import { runTick } from "../app/tick";
import { customerMessage, deliver } from "../testing/inbox-fixtures";
import { createTenant, type Tenant } from "../testing/factories";
import { createTestApp, type TestApp } from "../testing/test-app";
import { expectKeys, formOf, pdfFile, pngFile, startSpecServer, type SpecClient } from "../testing/spec-client";

/**
 * Contract: spec 3 (feature modules) section 7, the table of calls, replayed over HTTP with the values the spec's
 * client sends, checking the answer fields the table names.
 */
let t: TestApp;
let api: SpecClient;
let a: Tenant;
let b: Tenant;
let op: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  api = await startSpecServer(t);
  a = await createTenant(t);
  b = await createTenant(t);
  op = await makeOperator(t, await createTenant(t));
});
afterAll(async () => api?.close());

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const xlsx = (rows: unknown[][]) => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Planilha");
  return new File([new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer)], "contatos.xlsx", {
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  });
};

describe("spec 3 section 7: queues, tags, kanban", () => {
  it("GET /queue lists queues; tags: paged (tags, hasMore), by id, CRUD, kanban (lista), by companyId (tags)", async () => {
    expectKeys((await api.ok("GET", "/queue", { token: a.adminToken }))[0], ["id", "name", "color"], "queue");
    const tag = await api.ok("POST", "/tags", { token: a.adminToken, json: { name: "Em negociação", color: "#ff0000", kanban: 1 } });
    expect(tag).toMatchObject({ name: "Em negociação", kanban: 1 });
    const paged = await api.ok("GET", "/tags/", { token: a.adminToken, query: { searchParam: "negoc", pageNumber: 1 } });
    expect(paged).toMatchObject({ tags: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(ids(paged.tags)).toContain(tag.id);
    expect(await api.ok("GET", `/tags/${tag.id}`, { token: a.adminToken })).toMatchObject({ id: tag.id });
    expect(await api.ok("PUT", `/tags/${tag.id}`, { token: a.adminToken, json: { name: "Negociando", color: "#00ff00", kanban: true } })).toMatchObject({ name: "Negociando", kanban: 1 });
    expect(ids((await api.ok("GET", "/tags/kanban", { token: a.adminToken })).lista)).toContain(tag.id);
    expect(ids((await api.ok("GET", "/tags", { token: a.adminToken, query: { companyId: a.company.id } })).tags)).toContain(tag.id);
    expect((await api.call("PUT", `/tags/${tag.id}`, { token: b.adminToken, json: { name: "Invadida" } })).status).toBeGreaterThanOrEqual(400);

    // kanban cards: queueIds as JSON; ticket-tags add and remove
    const number = `55119${String(40000000 + ++seq)}`;
    await deliver(t, customerMessage(a, { number, body: "oi" }));
    await deliver(t, customerMessage(a, { number, body: "1" }));
    const kanban = await api.ok("GET", "/ticket/kanban", { token: a.adminToken, query: { queueIds: JSON.stringify(a.queues.map((q) => q.id)) } });
    expect(kanban).toMatchObject({ tickets: expect.any(Array) });
    const card = kanban.tickets.find((x: { contact: { number: string } }) => x.contact.number === number);
    expect(card).toBeTruthy();
    await api.ok("PUT", `/ticket-tags/${card.id}/${tag.id}`, { token: a.adminToken });
    expect(ids((await api.ok("GET", `/tickets/${card.id}`, { token: a.adminToken })).tags)).toEqual([tag.id]);
    await api.ok("DELETE", `/ticket-tags/${card.id}`, { token: a.adminToken });
    expect((await api.ok("GET", `/tickets/${card.id}`, { token: a.adminToken })).tags).toEqual([]);
    expect((await api.call("DELETE", `/tags/${tag.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 3 section 7: external API", () => {
  it("POST the messages-send endpoint with the connection's bearer token: JSON {number, body} and multipart {number, body, medias}", async () => {
    const headers = { authorization: `Bearer ${a.whatsapp.token}` };
    expect((await api.call("POST", "/messages/send", { headers, json: { number: "5511987650001", body: "Seu pedido saiu" } })).status).toBeLessThan(300);
    expect((await api.call("POST", "/messages/send", { headers, form: formOf({ number: "5511987650001", body: "Nota", medias: pdfFile() }) })).status).toBeLessThan(300);
    expect((await api.call("POST", "/messages/send", { headers, json: { number: "abc", body: "x" } })).status).toBe(400);
    expect((await api.call("POST", "/messages/send", { headers: { authorization: "Bearer errado" }, json: { number: "5511987650001", body: "x" } })).status).toBe(401);
  });
});

describe("spec 3 section 7: contact lists and items", () => {
  it("GET /contact-lists/ (records, hasMore), /list, /{id}, POST, PUT, upload; items (contacts, hasMore) CRUD; DELETE", async () => {
    const list = await api.ok("POST", "/contact-lists", { token: a.adminToken, json: { name: "Clientes VIP" } });
    expect(list).toMatchObject({ id: expect.any(Number), name: "Clientes VIP" });
    const paged = await api.ok("GET", "/contact-lists/", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } });
    expect(paged).toMatchObject({ records: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(ids(await api.ok("GET", "/contact-lists/list", { token: a.adminToken }))).toContain(list.id);
    expect(await api.ok("GET", `/contact-lists/${list.id}`, { token: a.adminToken })).toMatchObject({ id: list.id });
    expect(await api.ok("PUT", `/contact-lists/${list.id}`, { token: a.adminToken, json: { name: "Clientes Ouro" } })).toMatchObject({ name: "Clientes Ouro" });
    const upload = await api.call("POST", `/contact-lists/${list.id}/upload`, { token: a.adminToken, form: formOf({ file: xlsx([["nome", "numero"], ["Bia", "5511911112222"]]) }) });
    expect(upload.status).toBeLessThan(300);

    const item = await api.ok("POST", "/contact-list-items", { token: a.adminToken, json: { name: "Caio", number: "5511933334444", email: null, contactListId: String(list.id) } });
    expect(item).toMatchObject({ id: expect.any(Number), name: "Caio", email: "" });
    const items = await api.ok("GET", "/contact-list-items", { token: a.adminToken, query: { searchParam: "", pageNumber: 1, contactListId: list.id } });
    expect(items).toMatchObject({ contacts: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(ids(items.contacts)).toContain(item.id);
    expect(await api.ok("GET", `/contact-list-items/${item.id}`, { token: a.adminToken })).toMatchObject({ id: item.id });
    expect(await api.ok("PUT", `/contact-list-items/${item.id}`, { token: a.adminToken, json: { name: "Caio S.", number: "5511933334444", email: "" } })).toMatchObject({ name: "Caio S." });
    expect((await api.call("POST", "/contact-list-items", { token: a.adminToken, json: { name: "C", number: "1", contactListId: list.id } })).status).toBe(400);
    expect((await api.call("GET", `/contact-list-items/${item.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/contact-list-items/${item.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/contact-lists/${list.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 3 section 7: quick messages, schedules", () => {
  it("GET /quick-messages/list (companyId, userId); CRUD; media-upload (typeArch, file) and its removal", async () => {
    const qm = await api.ok("POST", "/quick-messages", { token: a.userToken, json: { shortcode: "pix", message: "Nossa chave Pix é...", geral: 0, status: 1, companyId: a.company.id, userId: a.user.id } });
    expect(qm).toMatchObject({ id: expect.any(Number), shortcode: "pix", geral: false });
    expect(ids(await api.ok("GET", "/quick-messages/list", { token: a.userToken, query: { companyId: a.company.id, userId: a.user.id } }))).toContain(qm.id);
    expect(await api.ok("GET", `/quick-messages/${qm.id}`, { token: a.userToken })).toMatchObject({ id: qm.id });
    expect(await api.ok("PUT", `/quick-messages/${qm.id}`, { token: a.userToken, json: { shortcode: "pix", message: null, geral: "false" } })).toMatchObject({ message: "" });
    expect((await api.call("POST", `/quick-messages/${qm.id}/media-upload`, { token: a.userToken, form: formOf({ typeArch: "quickMessage", file: pngFile("pix.png") }) })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/quick-messages/${qm.id}/media-upload`, { token: a.userToken })).status).toBeLessThan(300);
    expect((await api.call("GET", `/quick-messages/${qm.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/quick-messages/${qm.id}`, { token: a.userToken })).status).toBeLessThan(300);
  });

  it("GET /schedules/ (searchParam, pageNumber) returns schedules and hasMore; DELETE /schedules/{id}", async () => {
    const contact = await api.ok("POST", "/contacts", { token: a.adminToken, json: { name: "Agendado", number: `5511922${String(++seq).padStart(6, "0")}`, email: "" } });
    const sendAt = new Date(t.clock.now.getTime() + 3_600_000).toISOString();
    const made = await api.ok("POST", "/schedules", { token: a.adminToken, json: { body: "Lembrete", sendAt, contactId: String(contact.id), whatsappId: "", companyId: a.company.id } });
    expect(made).toMatchObject({ id: expect.any(Number), whatsappId: null });
    const page = await api.ok("GET", "/schedules/", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } });
    expect(page).toMatchObject({ schedules: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(ids(page.schedules)).toContain(made.id);
    // the schedule dialog's attachment (issue 17 item 3)
    expect((await api.call("POST", `/schedules/${made.id}/media-upload`, { token: a.adminToken, form: formOf({ file: pdfFile("boleto.pdf") }) })).status).toBe(200);
    expect((await api.call("DELETE", `/schedules/${made.id}/media-upload`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/schedules/${made.id}/media-upload`, { token: a.adminToken })).status).toBe(200);
    expect((await api.call("DELETE", `/schedules/${made.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/schedules/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 3 section 7: campaigns, campaign settings, file lists", () => {
  it("GET /campaigns/ (records, hasMore); POST with null variants; GET, PUT; cancel, restart; media-upload; DELETE", async () => {
    const contactList = await api.ok("POST", "/contact-lists", { token: a.adminToken, json: { name: "Para campanha" } });
    // the client turns every empty variant into null: nine fields
    const nulls = Object.fromEntries([...[2, 3, 4, 5].map((n) => `message${n}`), ...[1, 2, 3, 4, 5].map((n) => `confirmationMessage${n}`)].map((k) => [k, null]));
    const body = {
      name: "Natal",
      message1: "Feliz Natal, {nome}!",
      ...nulls,
      confirmation: false,
      scheduledAt: "",
      whatsappId: a.whatsapp.id,
      contactListId: contactList.id,
      tagListId: "Nenhuma",
      fileListId: "",
      status: "",
      companyId: a.company.id,
    };
    expect(Object.keys(nulls)).toHaveLength(9);
    const made = await api.ok("POST", "/campaigns", { token: a.adminToken, json: body });
    expect(made).toMatchObject({ id: expect.any(Number), status: "INATIVA", message2: "", confirmationMessage1: "", fileListId: null });
    const page = await api.ok("GET", "/campaigns/", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } });
    expect(page).toMatchObject({ records: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(ids(page.records)).toContain(made.id);
    expect(await api.ok("GET", `/campaigns/${made.id}`, { token: a.adminToken })).toMatchObject({ id: made.id });
    expect((await api.call("POST", `/campaigns/${made.id}/media-upload`, { token: a.adminToken, form: formOf({ file: pngFile("natal.png") }) })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/campaigns/${made.id}/media-upload`, { token: a.adminToken })).status).toBeLessThan(300);
    const scheduledAt = new Date(t.clock.now.getTime() + 2 * 60_000).toISOString();
    expect(await api.ok("PUT", `/campaigns/${made.id}`, { token: a.adminToken, json: { ...body, name: "Natal 2026", scheduledAt } })).toMatchObject({ status: "PROGRAMADA" });
    t.clock.advance(3 * 60_000);
    await runTick(t.container);
    expect((await api.ok("GET", `/campaigns/${made.id}`, { token: a.adminToken })).status).toBe("EM_ANDAMENTO");
    expect(await api.ok("POST", `/campaigns/${made.id}/cancel`, { token: a.adminToken })).toMatchObject({ status: "CANCELADA" });
    expect(await api.ok("POST", `/campaigns/${made.id}/restart`, { token: a.adminToken })).toMatchObject({ status: "EM_ANDAMENTO" });
    expect((await api.call("POST", "/campaigns", { token: a.adminToken, json: { ...body, name: "N" } })).status).toBe(400);
    expect((await api.call("GET", `/campaigns/${made.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/campaigns/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });

  it("GET /campaign-settings; POST /campaign-settings {settings}", async () => {
    await api.ok("POST", "/campaign-settings", { token: a.adminToken, json: { settings: { messageInterval: "5", longerIntervalAfter: 10, greaterInterval: "30", variables: [{ key: "loja", value: "Centro" }] } } });
    const settings = await api.ok("GET", "/campaign-settings", { token: a.adminToken });
    expect(JSON.stringify(settings)).toContain("loja");
  });

  it("GET /files/ (companyId or searchParam, pageNumber) returns files and hasMore; CRUD; POST /files/uploadList/{id} with and without files", async () => {
    const list = await api.ok("POST", "/files", { token: a.adminToken, json: { name: "Cardápio", message: "Escolha", options: [{ name: "Pizza" }, { id: null, name: "Massa" }] } });
    expect(list).toMatchObject({ id: expect.any(Number), options: [expect.objectContaining({ name: "Pizza" }), expect.objectContaining({ name: "Massa" })] });
    // the dialog always posts the upload form, with no file when none was picked: a success
    const none = await api.call("POST", `/files/uploadList/${list.id}`, { token: a.adminToken, form: formOf({ fileId: String(list.id), typeArch: "fileList", mediaType: "", name: "" }) });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ id: list.id });
    const one = await api.call("POST", `/files/uploadList/${list.id}`, {
      token: a.adminToken,
      form: formOf({ fileId: String(list.id), typeArch: "fileList", files: pdfFile("pizza.pdf"), mediaType: "document", name: "Pizza", id: String(list.options[0].id) }),
    });
    expect(one.status).toBe(200);
    expect(one.body.options[0].path).toEqual(expect.any(String));
    for (const query of [{ companyId: a.company.id }, { searchParam: "card", pageNumber: 1 }]) {
      const page = await api.ok("GET", "/files/", { token: a.adminToken, query });
      expect(page).toMatchObject({ files: expect.any(Array), hasMore: expect.any(Boolean) });
      expect(ids(page.files)).toContain(list.id);
    }
    expect(await api.ok("GET", `/files/${list.id}`, { token: a.adminToken })).toMatchObject({ id: list.id });
    expect(await api.ok("PUT", `/files/${list.id}`, { token: a.adminToken, json: { name: "Cardápio 2", message: "Escolha", options: list.options } })).toMatchObject({ name: "Cardápio 2" });
    expect((await api.call("GET", `/files/${list.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/files/${list.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});

describe("spec 3 section 7: connections, announcements, chats, prompts, integrations", () => {
  it("GET /whatsapp (companyId, session)", async () => {
    expect(ids(await api.ok("GET", "/whatsapp", { token: a.adminToken, query: { companyId: a.company.id, session: 0 } }))).toContain(a.whatsapp.id);
  });

  it("announcements: GET /announcements/ (records, hasMore); CRUD by the operator; media-upload", async () => {
    const made = await api.ok("POST", "/announcements", { token: op, json: { title: "Manutenção", text: "Domingo às 2h", priority: "1", status: 1 } });
    expect(made).toMatchObject({ id: expect.any(Number), priority: 1, status: true });
    expect(await api.ok("GET", "/announcements/", { token: op, query: { searchParam: "", pageNumber: 1 } })).toMatchObject({ records: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(await api.ok("GET", `/announcements/${made.id}`, { token: op })).toMatchObject({ id: made.id });
    expect(await api.ok("PUT", `/announcements/${made.id}`, { token: op, json: { title: "Manutenção", text: "Domingo às 3h", priority: 2, status: "true" } })).toMatchObject({ priority: 2 });
    expect((await api.call("POST", `/announcements/${made.id}/media-upload`, { token: op, form: formOf({ file: pngFile("aviso.png") }) })).status).toBeLessThan(300);
    expect((await api.call("DELETE", `/announcements/${made.id}/media-upload`, { token: op })).status).toBeLessThan(300);
    expect((await api.call("POST", "/announcements", { token: a.adminToken, json: { title: "x", text: "y" } })).status).toBe(403);
    expect((await api.call("DELETE", `/announcements/${made.id}`, { token: op })).status).toBeLessThan(300);
  });

  it("chats: GET /chats (records); POST {users, title}; PUT; messages (pageNumber: records, hasMore); POST message; read {userId}; DELETE", async () => {
    const chat = await api.ok("POST", "/chats", { token: a.adminToken, json: { users: [{ id: a.user.id, name: a.user.name }], title: "Plantão" } });
    expect(chat).toMatchObject({ id: expect.anything(), title: "Plantão" });
    expect((await api.ok("GET", "/chats", { token: a.userToken })).records.map((c: { id: unknown }) => c.id)).toContain(chat.id);
    expect(await api.ok("PUT", `/chats/${chat.id}`, { token: a.adminToken, json: { users: [a.user.id], title: "Plantão 2" } })).toMatchObject({ title: "Plantão 2" });
    await api.ok("POST", `/chats/${chat.id}/messages`, { token: a.userToken, json: { message: "Cheguei" } });
    const messages = await api.ok("GET", `/chats/${chat.id}/messages`, { token: a.adminToken, query: { pageNumber: 1 } });
    expect(messages).toMatchObject({ records: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(JSON.stringify(messages.records)).toContain("Cheguei");
    await api.ok("POST", `/chats/${chat.id}/read`, { token: a.adminToken, json: { userId: a.admin.id } });
    expect((await api.call("GET", `/chats/${chat.id}/messages`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/chats/${chat.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });

  it("prompts: GET /prompt (prompts), /prompt/{id}; POST; PUT; DELETE returns message", async () => {
    const made = await api.ok("POST", "/prompt", {
      token: a.adminToken,
      json: { name: "Vendedor", prompt: "Seja cordial", voice: "texto", voiceKey: null, voiceRegion: "", maxTokens: "100", temperature: "1", apiKey: "sk-teste", queueId: a.queues[0]!.id, maxMessages: "10", companyId: a.company.id },
    });
    expect(made).toMatchObject({ id: expect.any(Number), name: "Vendedor", maxTokens: 100 });
    expect(ids((await api.ok("GET", "/prompt", { token: a.adminToken })).prompts)).toContain(made.id);
    expect(await api.ok("GET", `/prompt/${made.id}`, { token: a.adminToken })).toMatchObject({ id: made.id });
    expect(await api.ok("PUT", `/prompt/${made.id}`, { token: a.adminToken, json: { name: "Vendedor 2", temperature: 0.5, maxTokens: "" } })).toMatchObject({ name: "Vendedor 2", temperature: 0.5, maxTokens: 100 });
    expect((await api.call("POST", "/prompt", { token: a.adminToken, json: { name: "x", prompt: "y", apiKey: "k", queueId: "" } })).body.issues?.[0]?.message).toBe("Informe o setor");
    const removed = await api.ok("DELETE", `/prompt/${made.id}`, { token: a.adminToken });
    expect(removed.message).toEqual(expect.any(String));
  });

  it("queue integrations: GET /queueIntegration/ (queueIntegrations, hasMore); /{id}; POST; PUT; DELETE; testSession refuses bad credentials", async () => {
    const made = await api.ok("POST", "/queueIntegration", {
      token: a.adminToken,
      json: { type: "n8n", name: "Fluxo n8n", projectName: "", jsonContent: "", language: "", urlN8N: "https://n8n.example.com/webhook/1", typebotSlug: "", typebotExpires: "", typebotDelayMessage: "", typebotKeywordFinish: null },
    });
    expect(made).toMatchObject({ id: expect.any(Number), type: "n8n", projectName: "Fluxo n8n" });
    const page = await api.ok("GET", "/queueIntegration/", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } });
    expect(page).toMatchObject({ queueIntegrations: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(await api.ok("GET", `/queueIntegration/${made.id}`, { token: a.adminToken })).toMatchObject({ id: made.id });
    expect(await api.ok("PUT", `/queueIntegration/${made.id}`, { token: a.adminToken, json: { type: "webhook", name: "Webhook", urlN8N: "https://hooks.example.com/x" } })).toMatchObject({ type: "webhook" });
    const test = await api.call("POST", "/queueIntegration/testSession", { token: a.adminToken, json: { projectName: "proj", jsonContent: "{}", language: "pt-BR" } });
    expect(test.status).toBeGreaterThanOrEqual(400);
    expect(test.body.error).toMatch(/^ERR_/);
    expect((await api.call("GET", `/queueIntegration/${made.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
    expect((await api.call("DELETE", `/queueIntegration/${made.id}`, { token: a.adminToken })).status).toBeLessThan(300);
  });
});
