import { beforeAll, describe, expect, it } from "vitest";
import type { SlaEventData, TicketView } from "@atende/shared/contracts/http/tickets";
import { runTick } from "../../app/tick";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";

/**
 * Issue 13 item 4: SLA clocks met, warned and breached through the minute tick with the test clock; the holidays
 * list; cross-tenant. Schedules off (the test's default): business time is around the clock minus holidays.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
const MIN = 60_000;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
  const put = await t.call("PUT", `/queue/${a.queues[0]!.id}`, { token: a.adminToken, body: { sla: { firstResponseMinutes: 10, resolutionMinutes: 30, nextResponseMinutes: "" } } });
  expect(put.status).toBe(200);
  expect(put.body.sla).toEqual({ firstResponseMinutes: 10, nextResponseMinutes: null, resolutionMinutes: 30 });
  await t.container.services.sockets.connect("sla-admin", a.adminToken);
  await t.container.services.sockets.connect("sla-user", a.userToken);
  await t.container.services.sockets.connect("sla-b-admin", b.adminToken);
});

/** A customer who chose queue 1 (Vendas, with the SLA policy): a pending ticket in that queue. */
const customerInQueue = async (tenant = a) => {
  const number = `55119${String(81000000 + ++n)}`;
  await deliver(t, customerMessage(tenant, { number, body: "oi" }));
  await deliver(t, customerMessage(tenant, { number, body: "1" }));
  return (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!;
};
const view = async (id: number, token = a.adminToken) => (await t.call("GET", `/tickets/${id}`, { token })).body as TicketView;
const slaFrames = (sock: string, mark: number) =>
  t.sender.frames
    .slice(mark)
    .filter((f) => f.connectionId === sock && (f.frame as { event: string }).event === "sla")
    .map((f) => (f.frame as { channel: string; data: SlaEventData }));

describe("SLA clocks through the minute tick", () => {
  it("a ticket nobody answers turns amber at 80 % (queue users and admins told) and is breached at its due time", async () => {
    const started = t.clock.now.getTime();
    const tk = await customerInQueue();
    const v = await view(tk.id);
    expect(v.sla?.firstResponse).toMatchObject({ targetMinutes: 10, metAt: null, warnedAt: null, breachedAt: null });
    expect(v.sla?.resolution).toMatchObject({ targetMinutes: 30 });
    const dueAt = v.sla!.firstResponse!.dueAt!;
    expect(new Date(dueAt).getTime() - started).toBeGreaterThanOrEqual(10 * MIN);
    expect(new Date(dueAt).getTime() - started).toBeLessThan(10 * MIN + 5_000);

    const mark = t.sender.frames.length;
    t.clock.advance(7 * MIN);
    await runTick(t.container, t.clock.now);
    expect((await view(tk.id)).sla?.firstResponse?.warnedAt).toBeNull(); // 70 %: nothing yet

    t.clock.advance(1.5 * MIN);
    await runTick(t.container, t.clock.now);
    const amber = await view(tk.id);
    expect(amber.sla?.firstResponse?.warnedAt).toBe(t.clock.now.toISOString());
    expect(amber.sla?.firstResponse?.breachedAt).toBeNull();
    // unassigned: the queue's users (the attendant is in Vendas) and the admins; another company hears nothing
    for (const sock of ["sla-admin", "sla-user"]) {
      const got = slaFrames(sock, mark);
      expect(got.map((f) => [f.channel, f.data.action, f.data.kind])).toEqual([[`company-${a.company.id}-sla`, "warning", "firstResponse"]]);
      expect(got[0]!.data.ticket.id).toBe(tk.id);
    }
    expect(slaFrames("sla-b-admin", mark)).toEqual([]);

    t.clock.advance(2 * MIN);
    await runTick(t.container, t.clock.now);
    const red = await view(tk.id);
    expect(red.sla?.firstResponse?.breachedAt).toBe(dueAt);
    expect(slaFrames("sla-admin", mark).map((f) => f.data.action)).toEqual(["warning", "breach"]);
    // recorded on the cycle the reports read
    const from = new Date(started - 3600_000).toISOString();
    const to = new Date(t.clock.now.getTime() + 3600_000).toISOString();
    const cycle = (await t.container.services.tickets.listCyclesBetween(a.company.id, from, to)).find((c) => c.ticketId === tk.id);
    expect(cycle?.sla?.firstResponse?.breachedAt).toBe(dueAt);
  });

  it("an answer in time meets first response: no warning, no breach, and only the owner is told about resolution", async () => {
    const tk = await customerInQueue();
    t.clock.advance(2 * MIN);
    expect((await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "open" } })).status).toBe(200);
    const answeredAt = t.clock.now.toISOString();
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "Olá! Como posso ajudar?" } })).status).toBe(201);
    const met = await view(tk.id);
    expect(met.sla?.firstResponse).toMatchObject({ metAt: answeredAt, breachedAt: null });
    // waiting on the customer: resolution paused
    expect(met.sla?.resolution).toMatchObject({ pausedSince: answeredAt, dueAt: null });
    const mark = t.sender.frames.length;
    t.clock.advance(12 * MIN);
    await runTick(t.container, t.clock.now);
    const later = await view(tk.id);
    expect(later.sla?.firstResponse).toMatchObject({ warnedAt: null, breachedAt: null });
    expect(later.sla?.resolution).toMatchObject({ warnedAt: null, breachedAt: null });
    // the customer answers: 2 minutes had counted, the 12 minutes waiting on them do not
    await deliver(t, customerMessage(a, { number: tk.contact.number, body: "Quero trocar um produto" }));
    const resumed = await view(tk.id);
    expect(resumed.sla?.resolution?.pausedSince).toBeNull();
    const left = new Date(resumed.sla!.resolution!.dueAt!).getTime() - t.clock.now.getTime();
    expect(left).toBeGreaterThan(27 * MIN);
    expect(left).toBeLessThanOrEqual(28 * MIN + 1_000);
    // 80 % of resolution: the owner is told, the admins are not (the ticket has an owner)
    t.clock.advance(left - 5 * MIN);
    await runTick(t.container, t.clock.now);
    expect((await view(tk.id)).sla?.resolution?.warnedAt).toBe(t.clock.now.toISOString());
    // (the first test's ticket, still unanswered, raises its own alerts meanwhile: only this ticket's are looked at)
    const mine = (sock: string) => slaFrames(sock, mark).filter((f) => f.data.ticket.id === tk.id);
    expect(mine("sla-user").map((f) => [f.data.action, f.data.kind])).toEqual([["warning", "resolution"]]);
    expect(mine("sla-admin")).toEqual([]);
    // closing meets resolution; the clocks stop
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "closed" } });
    t.clock.advance(10 * MIN);
    await runTick(t.container, t.clock.now);
    expect((await view(tk.id)).sla?.resolution).toMatchObject({ breachedAt: null, metAt: expect.any(String) });
  });

  it("refuses a target below one minute, keeping the queue's policy", async () => {
    const bad = await t.call("PUT", `/queue/${a.queues[0]!.id}`, { token: a.adminToken, body: { sla: { firstResponseMinutes: 0, resolutionMinutes: 30 } } });
    expect(bad.body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", `/queue/${a.queues[0]!.id}`, { token: a.adminToken })).body.sla).toEqual({ firstResponseMinutes: 10, nextResponseMinutes: null, resolutionMinutes: 30 });
  });

  it("a queue without a policy gives its tickets no clocks", async () => {
    const number = `55119${String(81000000 + ++n)}`;
    await deliver(t, customerMessage(a, { number, body: "oi" }));
    await deliver(t, customerMessage(a, { number, body: "2" }));
    const tk = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    expect(tk.queueId).toBe(a.queues[1]!.id);
    expect((await view(tk.id)).sla ?? null).toBeNull();
  });
});

describe("company holidays (/holidays)", () => {
  it("an admin adds, edits and removes the company's dates; the national ones come computed for the year", async () => {
    const made = await t.call("POST", "/holidays", { token: a.adminToken, body: { date: "2026-01-25", name: "Aniversário de São Paulo" } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ date: "2026-01-25", name: "Aniversário de São Paulo", companyId: a.company.id });
    const list = await t.call("GET", "/holidays?year=2026", { token: a.userToken });
    expect(list.body.holidays.map((h: { id: number }) => h.id)).toEqual([made.body.id]);
    expect(list.body.national).toEqual(expect.arrayContaining([{ date: "2026-02-16", name: "Carnaval (segunda-feira)", movable: true }]));
    const edited = await t.call("PUT", `/holidays/${made.body.id}`, { token: a.adminToken, body: { date: "2026-07-09", name: "Revolução Constitucionalista" } });
    expect(edited.body).toMatchObject({ date: "2026-07-09", name: "Revolução Constitucionalista" });
    expect((await t.call("DELETE", `/holidays/${made.body.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", "/holidays", { token: a.adminToken })).body.holidays).toEqual([]);
  });

  it("refuses bad dates, attendants' writes, and a bad year, storing nothing", async () => {
    expect((await t.call("POST", "/holidays", { token: a.adminToken, body: { date: "2026-02-30", name: "x" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/holidays", { token: a.adminToken, body: { date: "2026-03-01", name: "" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("POST", "/holidays", { token: a.userToken, body: { date: "2026-03-01", name: "Folga" } })).status).toBe(403);
    expect((await t.call("GET", "/holidays?year=abc", { token: a.adminToken })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/holidays", { token: a.adminToken })).body.holidays).toEqual([]);
  });

  it("cross-tenant: company B's admin neither reads, edits nor deletes company A's dates", async () => {
    const mine = (await t.call("POST", "/holidays", { token: a.adminToken, body: { date: "2026-11-20", name: "Consciência Negra (municipal)" } })).body;
    expect((await t.call("GET", "/holidays", { token: b.adminToken })).body.holidays).toEqual([]);
    expect((await t.call("PUT", `/holidays/${mine.id}`, { token: b.adminToken, body: { date: "2026-12-01", name: "x" } })).status).toBe(404);
    expect((await t.call("DELETE", `/holidays/${mine.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await t.call("GET", "/holidays", { token: a.adminToken })).body.holidays).toEqual([expect.objectContaining({ id: mine.id, date: "2026-11-20", name: "Consciência Negra (municipal)" })]);
    await t.call("DELETE", `/holidays/${mine.id}`, { token: a.adminToken });
  });

  it("a company holiday today stops the clocks: a ticket queued on it is due after the day ends", async () => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(t.clock.now);
    const h = (await t.call("POST", "/holidays", { token: a.adminToken, body: { date: today, name: "Fechado" } })).body;
    const tk = await customerInQueue();
    const dueAt = new Date((await view(tk.id)).sla!.firstResponse!.dueAt!);
    expect(new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(dueAt) > today).toBe(true);
    await t.call("DELETE", `/holidays/${h.id}`, { token: a.adminToken });
  });
});

describe("the company's time zone (PUT /companies/{id}/timezone)", () => {
  it("its admin sets it; bad zones, attendants and other companies are refused, changing nothing", async () => {
    const ok = await t.call("PUT", `/companies/${b.company.id}/timezone`, { token: b.adminToken, body: { timezone: "America/Manaus" } });
    expect(ok.status).toBe(200);
    expect(ok.body.timezone).toBe("America/Manaus");
    expect((await t.call("PUT", `/companies/${b.company.id}/timezone`, { token: b.adminToken, body: { timezone: "Mars/Olympus" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("PUT", `/companies/${b.company.id}/timezone`, { token: b.userToken, body: { timezone: "UTC" } })).status).toBe(403);
    // cross-tenant: company A's admin on company B
    const foreign = await t.call("PUT", `/companies/${b.company.id}/timezone`, { token: a.adminToken, body: { timezone: "UTC" } });
    expect(foreign.status).toBe(403);
    expect((await t.call("GET", `/companies/${b.company.id}`, { token: b.adminToken })).body.timezone).toBe("America/Manaus");
    expect((await t.call("GET", `/companies/${a.company.id}`, { token: a.adminToken })).body.timezone).toBe("America/Sao_Paulo");
  });
});
