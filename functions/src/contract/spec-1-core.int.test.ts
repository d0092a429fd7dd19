import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../testing/factories";
import { createTestApp, type TestApp } from "../testing/test-app";
import { customerMessage, deliver } from "../testing/inbox-fixtures";
import { expectKeys, formOf, pdfFile, startSpecServer, type SpecClient } from "../testing/spec-client";

/**
 * Contract: spec 1 (core: tickets and chat) section 7, "The calls it makes", replayed over HTTP with the values a
 * client of the spec sends, checking the answer fields the spec names. Realtime (the socket) is not here.
 */
let t: TestApp;
let api: SpecClient;
let a: Tenant;
let b: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  api = await startSpecServer(t);
  a = await createTenant(t);
  b = await createTenant(t);
});
afterAll(async () => api?.close());

/** A customer writes; `choice` picks a queue from the bot menu (null: still in the menu, no queue). */
const customer = async (tenant: Tenant, choice: 1 | 2 | null) => {
  const number = `55119${String(60000000 + ++seq * 13)}`;
  await deliver(t, customerMessage(tenant, { number, body: "oi", pushName: `Cliente ${seq}` }));
  if (choice) await deliver(t, customerMessage(tenant, { number, body: String(choice) }));
  const list = await api.ok("GET", "/tickets", { token: tenant.adminToken, query: { showAll: "true", pageNumber: 1, status: "pending", searchParam: number } });
  const ticket = list.tickets.find((x: { contact: { number: string } }) => x.contact.number === number);
  expect(ticket, `ticket of ${number}`).toBeTruthy();
  return ticket as { id: number; uuid: string; contactId: number; queueId: number | null; contact: { id: number; number: string } };
};

describe("spec 1 section 7: session", () => {
  it("POST /auth/login returns token and user with company and queues[].UserQueue; refresh, me, logout; GET /version", async () => {
    const login = await api.call("POST", "/auth/login", { json: { email: a.user.email, password: a.password } });
    expect(login.status).toBe(200);
    expect(login.body.token).toEqual(expect.any(String));
    expectKeys(login.body.user, ["id", "name", "email", "profile", "companyId", "queues", "company"], "login user");
    expect(login.body.user.company).toMatchObject({ id: a.company.id });
    expect(login.body.user.queues).toEqual([{ id: a.queues[0]!.id, name: a.queues[0]!.name, color: a.queues[0]!.color, UserQueue: { queueId: a.queues[0]!.id } }]);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;

    const refreshed = await api.ok("POST", "/auth/refresh_token", { cookie });
    expect(refreshed.token).toEqual(expect.any(String));
    expect(refreshed.user.queues[0].UserQueue).toEqual({ queueId: a.queues[0]!.id });

    const me = await api.ok("GET", "/auth/me", { token: refreshed.token });
    expect(me).toMatchObject({ id: a.user.id, companyId: a.company.id });
    expect(me.queues[0].UserQueue).toEqual({ queueId: a.queues[0]!.id });

    expect((await api.call("DELETE", "/auth/logout", { token: refreshed.token, cookie })).status).toBeLessThan(300);
    expect((await api.ok("GET", "/version")).version).toEqual(expect.any(String));
    // refuses what is really wrong
    expect((await api.call("POST", "/auth/login", { json: { email: a.user.email, password: "errada" } })).status).toBe(401);
    // the test tenant logs in again (a new login ended the factory's session)
    a = { ...a, userToken: (await a.login(a.user.email)).token };
  });
});

describe("spec 1 section 7: connections and plan", () => {
  it("GET /whatsapp/?session=0 (also with companyId), /companies/listPlan/{companyId}, /settings/", async () => {
    const conns = await api.ok("GET", "/whatsapp/", { token: a.adminToken, query: { session: 0 } });
    expect(Array.isArray(conns)).toBe(true);
    expectKeys(conns[0], ["id", "name", "status", "isDefault"], "connection");
    expect(await api.ok("GET", "/whatsapp/", { token: a.adminToken, query: { companyId: a.company.id, session: 0 } })).toHaveLength(conns.length);
    const plan = await api.ok("GET", `/companies/listPlan/${a.company.id}`, { token: a.userToken });
    expectKeys(plan.plan, ["useCampaigns", "useSchedules", "useInternalChat", "useExternalApi", "useKanban", "useOpenAi", "useIntegrations"], "plan");
    const settings = await api.ok("GET", "/settings/", { token: a.adminToken });
    expect(settings.find((s: { key: string }) => s.key === "sendGreetingAccepted")).toMatchObject({ value: expect.any(String) });
  });
});

describe("spec 1 section 7: tickets", () => {
  it("GET /tickets with every param as the client sends them; queueIds=[..] keeps queue-less pending for admins and allTicket users", async () => {
    const inMenu = await customer(a, null);
    const inSales = await customer(a, 1);
    const inSupport = await customer(a, 2);
    expect(inMenu.queueId).toBeNull();
    const query = (queueIds: number[], extra: Record<string, string | number> = {}) => ({
      searchParam: "",
      pageNumber: 1,
      tags: "[]",
      users: "[]",
      status: "pending",
      showAll: "false",
      queueIds: JSON.stringify(queueIds),
      withUnreadMessages: "false",
      ...extra,
    });
    const ids = (r: { tickets: { id: number }[] }) => r.tickets.map((x) => x.id);

    const admin = await api.ok("GET", "/tickets", { token: a.adminToken, query: query(a.queues.map((q) => q.id)) });
    expect(admin).toMatchObject({ tickets: expect.any(Array), hasMore: expect.any(Boolean) });
    expect(ids(admin)).toEqual(expect.arrayContaining([inMenu.id, inSales.id, inSupport.id]));
    // a filter on one queue: that queue and the queue-less, not the other queue
    const sales = ids(await api.ok("GET", "/tickets", { token: a.adminToken, query: query([a.queues[0]!.id]) }));
    expect(sales).toEqual(expect.arrayContaining([inMenu.id, inSales.id]));
    expect(sales).not.toContain(inSupport.id);
    // an attendant without allTicket never sees queue-less ones; with allTicket they do
    const attendant = ids(await api.ok("GET", "/tickets", { token: a.userToken, query: query([a.queues[0]!.id]) }));
    expect(attendant).toContain(inSales.id);
    expect(attendant).not.toContain(inMenu.id);
    expect(attendant).not.toContain(inSupport.id);
    await api.ok("PUT", `/users/${a.user.id}`, { token: a.adminToken, json: { allTicket: "enabled" } });
    const allTicket = ids(await api.ok("GET", "/tickets", { token: a.userToken, query: query([a.queues[0]!.id]) }));
    expect(allTicket).toEqual(expect.arrayContaining([inMenu.id, inSales.id]));
    await api.ok("PUT", `/users/${a.user.id}`, { token: a.adminToken, json: { allTicket: "desabled" } });

    // the other params: dates, unread, tags and users as JSON-array strings, showAll
    const today = t.clock.now.toISOString().slice(0, 10);
    const dated = await api.ok("GET", "/tickets", { token: a.adminToken, query: query([], { date: today, updatedAt: today, withUnreadMessages: "true", showAll: "true" }) });
    expect(ids(dated)).toContain(inSales.id);
    const byUser = await api.ok("GET", "/tickets", { token: a.adminToken, query: query([], { users: JSON.stringify([a.user.id]), status: "open" }) });
    expect(byUser.tickets.every((x: { userId: number }) => x.userId === a.user.id)).toBe(true);
    // another company's admin: none of these
    const other = ids(await api.ok("GET", "/tickets", { token: b.adminToken, query: query([]) }));
    expect(other).not.toContain(inSales.id);
    // what is really wrong is still refused
    expect((await api.call("GET", "/tickets", { token: a.adminToken, query: { queueIds: "[1," } })).status).toBe(400);
  });

  it("GET /tickets/{id} and /tickets/u/{uuid}; PUT /tickets/{id} with the client's resolve body; POST /tickets; closeAll; DELETE", async () => {
    const tk = await customer(a, 1);
    expect(await api.ok("GET", `/tickets/${tk.id}`, { token: a.userToken })).toMatchObject({ id: tk.id, uuid: tk.uuid, contact: { id: tk.contactId } });
    expect(await api.ok("GET", `/tickets/u/${tk.uuid}`, { token: a.userToken })).toMatchObject({ id: tk.id });

    // accept as the client sends it, then its Resolver button's exact body
    const accepted = await api.ok("PUT", `/tickets/${tk.id}`, { token: a.userToken, json: { status: "open", userId: a.user.id, queueId: a.queues[0]!.id } });
    expect(accepted).toMatchObject({ status: "open", userId: a.user.id });
    const resolved = await api.ok("PUT", `/tickets/${tk.id}`, {
      token: a.userToken,
      json: { status: "closed", userId: a.user.id, useIntegration: false, promptId: false, integrationId: false },
    });
    expect(resolved).toMatchObject({ id: tk.id, status: "closed", promptId: null, integrationId: null });
    // transfer with "" and null for none, as the transfer dialog sends them
    const reopened = await api.ok("PUT", `/tickets/${tk.id}`, { token: a.adminToken, json: { status: "open", userId: a.admin.id } });
    expect(reopened.status).toBe("open");
    const transferred = await api.ok("PUT", `/tickets/${tk.id}`, { token: a.adminToken, json: { userId: null, queueId: a.queues[1]!.id, whatsappId: "", status: "pending" } });
    expect(transferred).toMatchObject({ status: "pending", userId: null, queueId: a.queues[1]!.id });
    expect((await api.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, json: { status: "done" } })).status).toBe(400);
    expect((await api.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, json: { promptId: "abc" } })).status).toBe(400);

    // POST /tickets from the new-ticket dialog (numbers as it sends them; userId the caller)
    const contact = await api.ok("POST", "/contacts", { token: a.adminToken, json: { name: "Nova Pessoa", number: `5511977${String(++seq).padStart(6, "0")}`, email: "", extraInfo: [] } });
    const created = await api.call("POST", "/tickets", { token: a.userToken, json: { contactId: contact.id, queueId: a.queues[0]!.id, whatsappId: a.whatsapp.id, userId: a.user.id, status: "open" } });
    expect(created.status).toBeLessThan(300);
    expect(created.body).toMatchObject({ contactId: contact.id, status: "open", userId: a.user.id });

    // closeAll of a tab, selectedQueueIds as numbers
    const pending = await customer(a, 2);
    await api.ok("POST", "/tickets/closeAll", { token: a.adminToken, json: { status: "pending", selectedQueueIds: [a.queues[1]!.id] } });
    expect((await api.ok("GET", `/tickets/${pending.id}`, { token: a.adminToken })).status).toBe("closed");

    expect((await api.call("DELETE", `/tickets/${created.body.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect((await api.call("GET", `/tickets/${created.body.id}`, { token: a.adminToken })).status).toBe(404);
  });

  it("GET /queue, /users/ with searchParam, /users/list, /users/{id}; GET /tags/list, POST /tags {name}, POST /tags/sync {ticketId, tags}", async () => {
    const queues = await api.ok("GET", "/queue", { token: a.userToken });
    expectKeys(queues[0], ["id", "name", "color"], "queue");
    const users = await api.ok("GET", "/users/", { token: a.adminToken, query: { searchParam: "", pageNumber: 1 } });
    expect(users).toMatchObject({ users: expect.any(Array), hasMore: expect.any(Boolean) });
    const list = await api.ok("GET", "/users/list", { token: a.userToken });
    expectKeys(list[0], ["id", "name"], "users/list");
    expect(await api.ok("GET", `/users/${a.user.id}`, { token: a.adminToken })).toMatchObject({ id: a.user.id, name: a.user.name });

    const tag = await api.ok("POST", "/tags", { token: a.adminToken, json: { name: "Urgente" } });
    expect(tag).toMatchObject({ id: expect.any(Number), name: "Urgente" });
    expect((await api.ok("GET", "/tags/list", { token: a.userToken })).map((x: { id: number }) => x.id)).toContain(tag.id);
    const tk = await customer(a, 1);
    await api.ok("POST", "/tags/sync", { token: a.userToken, json: { ticketId: tk.id, tags: [{ id: tag.id, name: "Urgente" }] } });
    expect((await api.ok("GET", `/tickets/${tk.id}`, { token: a.userToken })).tags.map((x: { id: number }) => x.id)).toEqual([tag.id]);
    // the tags filter as a JSON-array string
    const tagged = await api.ok("GET", "/tickets", { token: a.adminToken, query: { tags: JSON.stringify([tag.id]), showAll: "true", pageNumber: 1 } });
    expect(tagged.tickets.map((x: { id: number }) => x.id)).toEqual([tk.id]);
  });
});

describe("spec 1 section 7: messages", () => {
  it("GET /messages/{ticketId}; POST with read: 1 (JSON) and multipart medias; edit, react, forward, delete; media as a blob", async () => {
    const tk = await customer(a, 1);
    await api.ok("PUT", `/tickets/${tk.id}`, { token: a.userToken, json: { status: "open", userId: a.user.id } });
    const page = await api.ok("GET", `/messages/${tk.id}`, { token: a.userToken, query: { pageNumber: 1 } });
    expect(page).toMatchObject({ messages: expect.any(Array), hasMore: expect.any(Boolean) });
    const customerMsg = page.messages[0];

    // the composer's exact body: read 1, fromMe 1, mediaUrl "", quotedMsg null
    const sent = await api.call("POST", `/messages/${tk.id}`, { token: a.userToken, json: { read: 1, fromMe: 1, mediaUrl: "", body: "Olá! Como posso ajudar?", quotedMsg: null } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ body: "Olá! Como posso ajudar?", fromMe: true });
    expect(t.commands.sent.some((c) => c.type === "send" && c.body === "Olá! Como posso ajudar?")).toBe(true);
    // replying to a message: quotedMsg as the client holds it
    const reply = await api.call("POST", `/messages/${tk.id}`, { token: a.userToken, json: { read: true, fromMe: true, mediaUrl: "", body: "respondendo", quotedMsg: customerMsg } });
    expect(reply.status).toBe(201);
    expect((await api.call("POST", `/messages/${tk.id}`, { token: a.userToken, json: { read: 2, body: "x" } })).status).toBe(400);

    // multipart: medias, body, fromMe as text
    const media = await api.call("POST", `/messages/${tk.id}`, { token: a.userToken, form: formOf({ medias: pdfFile("tabela.pdf"), body: "segue", fromMe: "true" }) });
    expect(media.status).toBe(201);
    expect(media.body).toMatchObject({ mediaType: "application", mediaUrl: expect.any(String) });
    const blob = await fetch(`${api.base.replace(/\/api$/, "")}${media.body.mediaUrl}`, { headers: { authorization: `Bearer ${a.userToken}` } });
    expect(blob.status).toBe(200);
    expect((await blob.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const edited = await api.ok("POST", `/messages/edit/${sent.body.id}`, { token: a.userToken, json: { read: 1, fromMe: 1, mediaUrl: "", body: "Olá! Em que posso ajudar?", quotedMsg: null } });
    expect(edited).toMatchObject({ body: "Olá! Em que posso ajudar?" });
    const reacted = await api.ok("POST", `/messages/${customerMsg.id}/reactions`, { token: a.userToken, json: { type: "👍" } });
    expect(reacted.reactions).toEqual([expect.objectContaining({ emoji: "👍" })]);
    const other = await api.ok("POST", "/contacts", { token: a.userToken, json: { name: "Outra Pessoa", number: `5511966${String(++seq).padStart(6, "0")}`, email: null, extraInfo: [] } });
    const forwarded = await api.call("POST", "/message/forward", { token: a.userToken, json: { messageId: sent.body.id, contactId: other.id, signMessage: 1 } });
    expect(forwarded.status).toBe(201);
    expect((await api.call("DELETE", `/messages/${sent.body.id}`, { token: a.userToken })).status).toBeLessThan(300);
    // company B reaches none of it
    expect((await api.call("GET", `/messages/${tk.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);
  });
});

describe("spec 1 section 7: contacts, notes, popovers, dashboard", () => {
  it("GET /contacts (searchParam, pageNumber, date, dateStart, dateEnd) returns contacts, hasMore, count; /contacts/{id}; /contacts/list; POST; PUT", async () => {
    const number = `5511955${String(++seq).padStart(6, "0")}`;
    const made = await api.ok("POST", "/contacts", { token: a.userToken, json: { name: "Carla Dias", number, email: "", extraInfo: [{ name: "CPF", value: "123" }] } });
    expect(made).toMatchObject({ id: expect.any(Number), name: "Carla Dias", number });
    const again = await api.ok("POST", "/contacts", { token: a.userToken, json: { name: "Carla Dias", number, email: null, extraInfo: [] } });
    expect(again.alreadyExists === true || again.existingContact !== undefined || again.id === made.id).toBe(true);
    const today = t.clock.now.toISOString().slice(0, 10);
    const list = await api.ok("GET", "/contacts", { token: a.userToken, query: { searchParam: "carla", pageNumber: 1, date: "", dateStart: today, dateEnd: today } });
    expect(list).toMatchObject({ contacts: expect.any(Array), hasMore: expect.any(Boolean), count: expect.any(Number) });
    expect(list.contacts.map((c: { id: number }) => c.id)).toContain(made.id);
    expect(await api.ok("GET", `/contacts/${made.id}`, { token: a.userToken })).toMatchObject({ id: made.id });
    expect((await api.ok("GET", "/contacts/list", { token: a.userToken, query: { companyId: a.company.id } })).map((c: { id: number }) => c.id)).toContain(made.id);
    expect(await api.ok("PUT", `/contacts/${made.id}`, { token: a.userToken, json: { name: "Carla D.", number, email: null, extraInfo: [] } })).toMatchObject({ name: "Carla D.", email: "" });
    expect((await api.call("GET", `/contacts/${made.id}`, { token: b.adminToken })).status).toBeGreaterThanOrEqual(400);

    // the contacts page's actions (issue 17 item 3): a CSV upload and the phone's address book through the session host
    const csvNumber = `5511944${String(++seq).padStart(6, "0")}`;
    const csv = new File([`nome,numero,email\nPlanilha Pessoa,${csvNumber},\n`], "contatos.csv", { type: "text/csv" });
    expect((await api.call("POST", "/contacts/upload", { token: a.adminToken, form: formOf({ file: csv }) })).status).toBe(200);
    const uploaded = await api.ok("GET", "/contacts", { token: a.adminToken, query: { searchParam: csvNumber, pageNumber: 1 } });
    expect(uploaded.contacts.map((c: { number: string }) => c.number)).toContain(csvNumber);
    expect(await api.ok("POST", "/contacts/import", { token: a.adminToken, json: { whatsappId: false } })).toMatchObject({ whatsappId: a.whatsapp.id });
  });

  it("POST /ticket-notes {note, ticketId, contactId}; GET /ticket-notes/list (ticketId, contactId); DELETE", async () => {
    const tk = await customer(a, 1);
    const note = await api.ok("POST", "/ticket-notes", { token: a.userToken, json: { note: "Cliente VIP", ticketId: tk.id, contactId: tk.contactId } });
    const notes = await api.ok("GET", "/ticket-notes/list", { token: a.userToken, query: { ticketId: tk.id, contactId: tk.contactId } });
    expect(notes.map((n: { id: number; note: string }) => n.note)).toContain("Cliente VIP");
    expect((await api.call("DELETE", `/ticket-notes/${note.id}`, { token: a.userToken })).status).toBeLessThan(300);
  });

  it("GET /chats/ (searchParam, pageNumber) returns records; GET /announcements/ returns records and hasMore", async () => {
    expect(await api.ok("GET", "/chats/", { token: a.userToken, query: { searchParam: "", pageNumber: 1 } })).toMatchObject({ records: expect.any(Array) });
    expect(await api.ok("GET", "/announcements/", { token: a.userToken, query: { searchParam: "", pageNumber: 1 } })).toMatchObject({ records: expect.any(Array), hasMore: expect.any(Boolean) });
  });

  it("GET /dashboard (days, date_from, date_to) returns counters and attendants; ticketsUsers { nome, quantidade } and ticketsDay { data | horario, total } with data and count", async () => {
    const tk = await customer(a, 1);
    await api.ok("PUT", `/tickets/${tk.id}`, { token: a.userToken, json: { status: "open", userId: a.user.id } });
    await api.ok("PUT", `/tickets/${tk.id}`, { token: a.userToken, json: { status: "closed", userId: a.user.id, useIntegration: false, promptId: false, integrationId: false } });
    const dash = await api.ok("GET", "/dashboard", { token: a.adminToken, query: { days: 7, date_from: "", date_to: "" } });
    expectKeys(dash.counters, ["supportHappening", "supportPending", "supportFinished", "avgSupportTime", "avgWaitTime"], "counters");
    expect(dash.attendants).toEqual(expect.arrayContaining([expect.objectContaining({ id: a.user.id, name: a.user.name })]));

    // the company's day (São Paulo), read alike on both calls
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(t.clock.now);
    const users = await api.ok("GET", "/dashboard/ticketsUsers", { token: a.adminToken, query: { initialDate: today, finalDate: today, companyId: a.company.id } });
    expect(users).toMatchObject({ data: expect.any(Array), count: expect.any(Number) });
    expect(users.data).toEqual(expect.arrayContaining([{ nome: a.user.name, quantidade: expect.any(Number) }]));
    const oneDay = await api.ok("GET", "/dashboard/ticketsDay", { token: a.adminToken, query: { initialDate: today, finalDate: today, companyId: a.company.id } });
    expect(oneDay.count).toBeGreaterThan(0);
    for (const item of oneDay.data) expect(item).toEqual({ horario: expect.stringMatching(/^([01]\d|2[0-3])$/), total: expect.any(Number) });
    const week = await api.ok("GET", "/dashboard/ticketsDay", { token: a.adminToken, query: { initialDate: "2020-01-01", finalDate: "2020-01-03", companyId: a.company.id } });
    expect(week).toEqual({ data: ["2020-01-01", "2020-01-02", "2020-01-03"].map((d) => ({ data: d, total: 0 })), count: 0 });
    expect(oneDay.data.reduce((s: number, d: { total: number }) => s + d.total, 0)).toBe(oneDay.count);
  });
});
