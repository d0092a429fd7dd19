import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";
import { localClock } from "../automation/templates";
import { createProtocols } from "./protocols";

/** Issue 13 item 5 (protocol numbers) and the cycle's first response, as the API and the cycle items answer them. */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  b = await createTenant(t);
});

const cycleOf = async (tenant: Tenant, ticketId: number) => {
  const from = new Date(t.clock.now.getTime() - 86_400_000).toISOString();
  const to = new Date(t.clock.now.getTime() + 86_400_000).toISOString();
  return (await t.container.services.tickets.listCyclesBetween(tenant.company.id, from, to)).find((c) => c.ticketId === ticketId);
};
const today = () => localClock(t.clock.now, "America/Sao_Paulo").date;
const ticketOf = async (tenant: Tenant, number: string) => (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!;

describe("protocol numbers", () => {
  it("gives 50 concurrent new customers 50 distinct, sequential numbers of the company's local day", async () => {
    const numbers = Array.from({ length: 50 }, (_, i) => `55119${String(70000000 + i)}`);
    // one SQS batch: the consumer stores the 50 chats concurrently
    await deliver(t, ...numbers.map((number) => customerMessage(a, { number, body: "oi" })));
    const from = new Date(t.clock.now.getTime() - 86_400_000).toISOString();
    const to = new Date(t.clock.now.getTime() + 86_400_000).toISOString();
    const cycles = await t.container.services.tickets.listCyclesBetween(a.company.id, from, to);
    expect(cycles).toHaveLength(50);
    const protocols = cycles.map((c) => c.protocol as string);
    expect(new Set(protocols).size).toBe(50);
    expect(protocols.every((p) => p.length === 14 && p.startsWith(today()))).toBe(true);
    expect(protocols.map((p) => Number(p.slice(8))).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // every ticket answer carries its cycle's number
    const view = (await t.call("GET", `/tickets/${cycles[0]!.ticketId}`, { token: a.adminToken })).body;
    expect(view.protocol).toBe(cycles[0]!.protocol);
    // another company counts on its own
    await deliver(t, customerMessage(b, { number: "5511970009999", body: "oi" }));
    const other = (await t.call("GET", `/tickets/${(await ticketOf(b, "5511970009999")).id}`, { token: b.adminToken })).body;
    expect(other.protocol).toBe(`${today()}000001`);
  });

  it("keeps the number through changes and answers it on every ticket answer (list, PUT, realtime)", async () => {
    await deliver(t, customerMessage(a, { number: "5511970001001", body: "oi" }));
    const tk = await ticketOf(a, "5511970001001");
    const first = (await t.call("GET", `/tickets/${tk.id}`, { token: a.adminToken })).body.protocol;
    expect(first.startsWith(today())).toBe(true);
    const list = await t.call("GET", "/tickets?showAll=true", { token: a.adminToken });
    expect(list.body.tickets.find((x: { id: number }) => x.id === tk.id).protocol).toBe(first);
    const put = await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } });
    expect(put.body.protocol).toBe(first);
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "closed" } });
    expect((await t.call("GET", `/tickets/${tk.id}`, { token: a.adminToken })).body.protocol).toBe(first);
  });

  it("dates a number by the company's local day: 23:30 in São Paulo is still the day before in UTC terms", async () => {
    const protocols = createProtocols({ db: t.container.db, timeZoneOf: async () => "America/Sao_Paulo" });
    const companyId = 900_001; // a counter of its own
    expect(await protocols.next(companyId, new Date("2026-03-01T02:30:00.000Z"))).toBe("20260228000001");
    expect(await protocols.next(companyId, new Date("2026-03-01T02:59:00.000Z"))).toBe("20260228000002");
    expect(await protocols.next(companyId, new Date("2026-03-01T03:00:00.000Z"))).toBe("20260301000001");
    const utc = createProtocols({ db: t.container.db, timeZoneOf: async () => "UTC" });
    expect(await utc.next(900_002, new Date("2026-03-01T02:30:00.000Z"))).toBe("20260301000001");
  });

  it("finds a ticket by its protocol in the ticket search, never another company's", async () => {
    await deliver(t, customerMessage(a, { number: "5511970002001", pushName: "Bruna Protocolo", body: "oi" }));
    const tk = await ticketOf(a, "5511970002001");
    const protocol = (await t.call("GET", `/tickets/${tk.id}`, { token: a.adminToken })).body.protocol as string;
    const found = await t.call("GET", `/tickets?searchParam=${protocol}&showAll=true`, { token: a.adminToken });
    expect(found.body.tickets.map((x: { id: number }) => x.id)).toContain(tk.id);
    const foreign = await t.call("GET", `/tickets?searchParam=${protocol}&showAll=true`, { token: b.adminToken });
    expect(foreign.body.tickets.map((x: { id: number }) => x.id)).not.toContain(tk.id);
  });

  it("sends the number to the customer on opening only when the company's setting says so", async () => {
    const jid = (n: string) => `${n}@s.whatsapp.net`;
    const sentTo = (n: string) => t.commands.sent.filter((c) => c.type === "send" && c.chatJid === jid(n)).map((c) => (c as { body: string }).body);
    await deliver(t, customerMessage(a, { number: "5511970003001", body: "oi" }));
    expect(sentTo("5511970003001").some((x) => x.includes("protocolo"))).toBe(false);
    expect((await t.call("PUT", "/settings/sendProtocolOnOpen", { token: a.adminToken, body: { value: "enabled" } })).status).toBe(200);
    await deliver(t, customerMessage(a, { number: "5511970003002", body: "oi" }));
    const protocol = (await t.call("GET", `/tickets/${(await ticketOf(a, "5511970003002")).id}`, { token: a.adminToken })).body.protocol as string;
    expect(sentTo("5511970003002").filter((x) => x.includes(protocol))).toHaveLength(1);
    // a second message of the same cycle does not send it again
    await deliver(t, customerMessage(a, { number: "5511970003002", body: "1" }));
    expect(sentTo("5511970003002").filter((x) => x.includes(protocol))).toHaveLength(1);
    await t.call("PUT", "/settings/sendProtocolOnOpen", { token: a.adminToken, body: { value: "disabled" } });
  });
});

describe("first response of a cycle", () => {
  it("is the first message an attendant sent: not the bot's menu, not the greeting, not a later message", async () => {
    await t.call("PUT", "/settings/sendGreetingAccepted", { token: a.adminToken, body: { value: "enabled" } });
    await deliver(t, customerMessage(a, { number: "5511970004001", body: "oi" }));
    await deliver(t, customerMessage(a, { number: "5511970004001", body: "1" }));
    const tk = await ticketOf(a, "5511970004001");
    expect((await cycleOf(a, tk.id))?.firstResponseAt ?? null).toBeNull(); // the menu and the queue greeting were sent
    t.clock.advance(60_000);
    await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body: { status: "open" } });
    expect((await cycleOf(a, tk.id))?.firstResponseAt ?? null).toBeNull(); // the automatic greeting on accept
    t.clock.advance(60_000);
    const answeredAt = t.clock.now.toISOString();
    expect((await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "Posso ajudar?" } })).status).toBe(201);
    t.clock.advance(60_000);
    await t.call("POST", `/messages/${tk.id}`, { token: a.userToken, body: { body: "Mais alguma coisa?" } });
    expect((await cycleOf(a, tk.id))?.firstResponseAt).toBe(answeredAt);
    await t.call("PUT", "/settings/sendGreetingAccepted", { token: a.adminToken, body: { value: "disabled" } });
  });
});
