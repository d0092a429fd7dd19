import { beforeAll, describe, expect, it } from "vitest";
import { runTick } from "../../../app/tick";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
});

const closedAllDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: "00:00", endTime: "00:00" }));

/** A conversation with one customer: what they write and what the bot answered them. */
const customer = (tenant: Tenant) => {
  const number = `55119${String(60000000 + ++n)}`;
  const jid = `${number}@s.whatsapp.net`;
  const replies = () =>
    t.commands.sent.flatMap((c) => (c.type === "send" && c.companyId === tenant.company.id && c.chatJid === jid ? [c.body] : []));
  return {
    number,
    replies,
    async says(body: string) {
      const before = replies().length;
      await deliver(t, customerMessage(tenant, { number, body, pushName: "Carla Dias" }));
      return replies().slice(before);
    },
    ticket: async () => (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!,
  };
};

describe("queue chooser", () => {
  it("greets with the numbered queues, re-sends on an invalid answer, moves the ticket on a valid one, then stays quiet", async () => {
    const a = await createTenant(t);
    const c = customer(a);
    const [menu] = await c.says("oi");
    expect(menu).toContain("Olá! Escolha uma fila:");
    expect(menu).toContain("*[ 1 ]* - Vendas");
    expect(menu).toContain("*[ 2 ]* - Suporte");
    expect(await c.says("banana")).toEqual([menu]);
    const [greeting] = await c.says("2");
    expect(greeting).toBe("Fila Suporte");
    expect(await c.ticket()).toMatchObject({ status: "pending", queueId: a.queues[1]!.id });
    expect(await c.says("alguém aí?")).toEqual([]);
  });

  it("stops after maxUseBotQueues menus and leaves the ticket waiting", async () => {
    const a = await createTenant(t);
    const c = customer(a);
    await c.says("oi");
    await c.says("x");
    await c.says("y");
    expect(await c.says("z")).toEqual([]);
    expect(await c.says("1")).toEqual([]);
    expect(c.replies()).toHaveLength(3);
    expect((await c.ticket()).queueId).toBeNull();
  });

  it("never runs while an attendant owns the ticket", async () => {
    const a = await createTenant(t);
    const c = customer(a);
    await c.says("oi");
    const tk = await c.ticket();
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open" } });
    expect(await c.says("1")).toEqual([]);
  });

  it("skips automation for a company past its due date but still stores the message", async () => {
    const a = await createTenant(t);
    await t.container.repos.companies.update(a.company.id, { dueDate: new Date(t.clock.now.getTime() - 86_400_000).toISOString() }, t.clock.now);
    const c = customer(a);
    expect(await c.says("oi")).toEqual([]);
    expect((await c.ticket()).unreadMessages).toBe(1);
  });
});

describe("queue option tree", () => {
  it("walks options, goes back with 0, restarts with #, and leaves the ticket waiting at a leaf", async () => {
    const a = await createTenant(t);
    const opts = t.container.repos.queueOptions;
    const now = t.clock.now;
    const fin = await opts.create(a.company.id, { queueId: a.queues[0]!.id, parentId: null, title: "Financeiro", message: "Financeiro: escolha", option: "1", mediaPath: null, mediaName: null }, now);
    await opts.create(a.company.id, { queueId: a.queues[0]!.id, parentId: null, title: "Comercial", message: "Um vendedor já vem", option: "2", mediaPath: null, mediaName: null }, now);
    await opts.create(a.company.id, { queueId: a.queues[0]!.id, parentId: fin.id, title: "Boleto", message: "Segue o boleto", option: "1", mediaPath: null, mediaName: null }, now);
    const c = customer(a);
    await c.says("oi");
    const [root] = await c.says("1");
    expect(root).toContain("*[ 1 ]* - Financeiro");
    expect(root).toContain("*[ 2 ]* - Comercial");
    const [finMenu] = await c.says("1");
    expect(finMenu).toContain("Financeiro: escolha");
    expect(finMenu).toContain("*[ 1 ]* - Boleto");
    const [back] = await c.says("0");
    expect(back).toContain("*[ 2 ]* - Comercial");
    const [restart] = await c.says("#");
    expect(restart).toContain("*[ 2 ]* - Suporte");
    await c.says("1");
    await c.says("1");
    expect(await c.says("1")).toEqual(["Segue o boleto"]);
    expect(await c.says("obrigado")).toEqual([]);
    expect(await c.ticket()).toMatchObject({ status: "pending", queueId: a.queues[0]!.id, userId: null });
  });
});

describe("out of hours", () => {
  it("sends the out-of-hours message once per attention cycle and keeps the ticket pending", async () => {
    const a = await createTenant(t, { settings: { scheduleType: "company" } });
    await t.container.repos.companies.update(a.company.id, { schedules: closedAllDay }, t.clock.now);
    const c = customer(a);
    expect(await c.says("oi")).toEqual(["Fora do horário."]);
    expect(await c.says("oi?")).toEqual([]);
    expect((await c.ticket()).status).toBe("pending");
  });

  it("uses the chosen queue's hours with scheduleType queue", async () => {
    const a = await createTenant(t, { settings: { scheduleType: "queue" } });
    const q = a.queues[1]!;
    await t.container.repos.queues.replace(q, { ...q, schedules: closedAllDay, outOfHoursMessage: "Suporte fechado" });
    const c = customer(a);
    await c.says("oi");
    expect(await c.says("2")).toEqual(["Suporte fechado"]);
    expect(await c.says("alô")).toEqual([]);
  });
});

describe("rating", () => {
  it("asks for a rating on close, records 1..3 for the attendant with the completion message, never reopening", async () => {
    const a = await createTenant(t, { settings: { userRating: "enabled" } });
    const c = customer(a);
    await c.says("oi");
    await c.says("1");
    const tk = await c.ticket();
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "open" } });
    const before = c.replies().length;
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "closed" } });
    expect(c.replies().slice(before).join("\n")).toContain("*3* - Muito Satisfeito");
    expect(await c.says("3")).toEqual(["Atendimento encerrado."]);
    const from = new Date(t.clock.now.getTime() - 3600_000).toISOString();
    const to = new Date(t.clock.now.getTime() + 3600_000).toISOString();
    const cycle = (await t.container.services.tickets.listCyclesBetween(a.company.id, from, to)).find((x) => x.ticketId === tk.id);
    expect(cycle).toMatchObject({ rating: 3, userId: a.user.id, status: "closed" });
    expect((await adminTickets(t, a)).filter((x) => x.contact.number === c.number).map((x) => x.status)).toEqual(["closed"]);
    // the next message starts a new cycle normally
    await c.says("preciso de outra coisa");
    expect((await adminTickets(t, a)).filter((x) => x.contact.number === c.number && x.status === "pending")).toHaveLength(1);
  });

  it("treats an answer outside the scale as a new conversation", async () => {
    const a = await createTenant(t, { settings: { userRating: "enabled" } });
    const c = customer(a);
    await c.says("oi");
    const tk = await c.ticket();
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open" } });
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "closed" } });
    await c.says("5");
    const tickets = (await adminTickets(t, a)).filter((x) => x.contact.number === c.number);
    expect(tickets.map((x) => x.status).sort()).toEqual(["closed", "pending"]);
  });
});

describe("timers", () => {
  it("closes an open ticket whose last message was ours after expiresTicket minutes, with the inactivity message", async () => {
    const a = await createTenant(t);
    await t.container.repos.whatsapps.update(a.whatsapp, { expiresTicket: 5, expiresInactiveMessage: "Encerrado por inatividade" } as never, t.clock.now);
    const c = customer(a);
    await c.says("oi");
    const tk = await c.ticket();
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open" } });
    await t.call("POST", `/messages/${tk.id}`, { token: a.adminToken, body: { body: "Posso ajudar?" } });
    t.clock.advance(3 * 60_000);
    await runTick(t.container);
    expect((await c.ticket()).status).toBe("open");
    t.clock.advance(3 * 60_000);
    await runTick(t.container);
    expect((await c.ticket()).status).toBe("closed");
    expect(c.replies()).toContain("Encerrado por inatividade");
  });

  it("moves a pending queue-less ticket to transferQueueId after timeToTransfer minutes", async () => {
    const a = await createTenant(t);
    await t.container.repos.whatsapps.update(a.whatsapp, { timeToTransfer: 2, transferQueueId: a.queues[1]!.id } as never, t.clock.now);
    const c = customer(a);
    await c.says("oi");
    t.clock.advance(60_000);
    await runTick(t.container);
    expect((await c.ticket()).queueId).toBeNull();
    t.clock.advance(2 * 60_000);
    await runTick(t.container);
    expect((await c.ticket()).queueId).toBe(a.queues[1]!.id);
  });
});
