import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

/**
 * The transition table through the API: refusals with their codes (nothing stored), return versus transfer, and
 * what one status change costs in DynamoDB calls (one read of the ticket per change, no company-wide list).
 * Every command the API sends is recorded with what it touched.
 */
let t: TestApp;
let a: Tenant;
let c: Tenant;
let recording: string[] | null = null;

const label = (name: string, input: Record<string, any>): string => {
  const prefix = (s: unknown) => String(s ?? "").split("#")[0];
  if (input.Key) return `${name}:${prefix(input.Key.sk)}`;
  if (input.ExpressionAttributeValues?.[":p"]) return `${name}:${prefix(input.ExpressionAttributeValues[":p"])}`;
  return name;
};

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" });
  a = await createTenant(t);
  c = await createTenant(t, { settings: { sendMsgTransfTicket: "enabled" } });
  t.container.db.doc.observe(({ operation, input }) => {
    recording?.push(label(operation, input as Record<string, any>));
  });
});
afterAll(() => {
  recording = null;
});

const measure = async (fn: () => Promise<unknown>) => {
  recording = [];
  await fn();
  const calls = recording;
  recording = null;
  return calls;
};
const count = (calls: string[], what: string) => calls.filter((c) => c === what).length;
/** The company-wide lists the old directory loaded on every click (queues, users, connections, tags, settings; and the company). */
const LIST_LOADS = ["Query:QUEUE", "Query:USER", "Query:WHATSAPP", "Query:TAG", "Query:SETTING"];

describe("DynamoDB calls per ticket status change", () => {
  it("reads the ticket once and loads at most the settings list for accept, return, accept, resolve and reopen", async () => {
    const number = "5511977776666";
    await deliver(t, customerMessage(a, { number, body: "oi" }));
    await deliver(t, customerMessage(a, { number, body: "1" }));
    const tk = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    const steps: [string, unknown][] = [
      ["accept", { status: "open" }],
      ["return", { status: "pending" }],
      ["accept", { status: "open" }],
      ["resolve", { status: "closed" }],
      ["reopen", { status: "open" }],
    ];
    const report: { name: string; ticketReads: number; listLoads: number; calls: string[] }[] = [];
    for (const [name, body] of steps) {
      let status = 0;
      const calls = await measure(async () => {
        status = (await t.call("PUT", `/tickets/${tk.id}`, { token: a.userToken, body })).status;
      });
      expect(status).toBe(200);
      const ticketReads = count(calls, "GetItem:TICKET");
      const listLoads = LIST_LOADS.reduce((n, l) => n + count(calls, l), 0) + count(calls, "GetItem:COMPANY");
      report.push({ name, ticketReads, listLoads, calls });
    }
    console.info(report.map((r) => `${r.name}: ${r.ticketReads} ticket reads, ${r.listLoads} list loads, ${r.calls.length} calls (${r.calls.join(", ")})`).join("\n"));
    for (const { name, ticketReads, calls } of report) {
      // one read per ticket write: the change itself (and, on resolve, the completion message the server sends)
      expect(ticketReads, `${name}: ${calls.join(", ")}`).toBe(count(calls, "TransactWriteItems"));
      expect(count(calls, "TransactWriteItems"), name).toBe(name === "resolve" ? 2 : 1);
      expect(count(calls, "Query:QUEUE") + count(calls, "Query:USER") + count(calls, "Query:WHATSAPP") + count(calls, "Query:TAG"), name).toBe(0);
      expect(count(calls, "Query:SETTING"), name).toBeLessThanOrEqual(1);
    }
  });
});

const put = (id: number, token: string, body: unknown) => t.call("PUT", `/tickets/${id}`, { token, body });
let seq = 0;
const ticketIn = async (tenant: Tenant) => {
  const number = `55119${String(60000000 + ++seq * 13).padStart(8, "0")}`;
  await deliver(t, customerMessage(tenant, { number, body: "oi" }));
  await deliver(t, customerMessage(tenant, { number, body: "1" }));
  return { ...(await adminTickets(t, tenant)).find((x) => x.contact.number === number)!, number };
};
const changesOf = (tenant: Tenant, id: number) => t.container.services.tickets.listChanges(tenant.company.id, id);

describe("refused and empty transitions through PUT /tickets/{id}", () => {
  it("a transfer to an unknown queue, user or connection is refused with its code and changes nothing", async () => {
    const tk = await ticketIn(a);
    await put(tk.id, a.userToken, { status: "open" });
    const before = (await changesOf(a, tk.id)).length;
    expect(await put(tk.id, a.userToken, { queueId: 999_999, userId: null })).toMatchObject({ status: 404, body: { error: "ERR_NOT_FOUND" } });
    expect(await put(tk.id, a.userToken, { userId: 999_999 })).toMatchObject({ status: 404, body: { error: "ERR_NO_USER_FOUND" } });
    expect(await put(tk.id, a.userToken, { whatsappId: 999_999 })).toMatchObject({ status: 404, body: { error: "ERR_NO_WAPP_FOUND" } });
    expect(await put(999_999, a.userToken, { status: "open" })).toMatchObject({ status: 404, body: { error: "ERR_NO_TICKET_FOUND" } });
    expect((await changesOf(a, tk.id)).length).toBe(before);
    expect((await t.call("GET", `/tickets/${tk.id}`, { token: a.userToken })).body).toMatchObject({ status: "open", userId: a.user.id, queueId: a.queues[0]!.id });
  });

  it("reopening while the contact has another open ticket on that connection answers ERR_OTHER_OPEN_TICKET with it", async () => {
    const tk = await ticketIn(a);
    await put(tk.id, a.userToken, { status: "open" });
    await put(tk.id, a.userToken, { status: "closed" });
    const other = await t.call("POST", "/tickets", { token: a.userToken, body: { contactId: tk.contact.id, queueId: a.queues[0]!.id, whatsappId: a.whatsapp.id, status: "open" } });
    expect(other.status).toBe(201);
    const refused = await put(tk.id, a.adminToken, { status: "open" });
    expect(refused).toMatchObject({ status: 409, body: { error: "ERR_OTHER_OPEN_TICKET", data: { id: other.body.id } } });
    expect((await t.call("GET", `/tickets/${tk.id}`, { token: a.adminToken })).body.status).toBe("closed");
  });

  it("asking for the status the ticket has (accept an open ticket, return a pending one) answers it unchanged and records nothing", async () => {
    const tk = await ticketIn(a);
    const pendingView = (await t.call("GET", `/tickets/${tk.id}`, { token: a.userToken })).body;
    const same = await put(tk.id, a.userToken, { status: "pending" });
    expect(same).toMatchObject({ status: 200, body: pendingView });
    await put(tk.id, a.userToken, { status: "open" });
    const before = await changesOf(a, tk.id);
    const openView = (await t.call("GET", `/tickets/${tk.id}`, { token: a.userToken })).body;
    expect(await put(tk.id, a.adminToken, { status: "open" })).toMatchObject({ status: 200, body: openView });
    expect(await changesOf(a, tk.id)).toHaveLength(before.length);
  });
});

describe("return versus transfer", () => {
  it("{status: pending} on an open ticket is a return (no notice); naming no user too is a transfer to no one (notice)", async () => {
    const tk = await ticketIn(c);
    await put(tk.id, c.userToken, { status: "open" });
    let mark = t.commands.sent.length;
    const returned = await put(tk.id, c.userToken, { status: "pending" });
    expect(returned.body).toMatchObject({ status: "pending", userId: null, queueId: c.queues[0]!.id });
    expect((await changesOf(c, tk.id)).at(-1)).toMatchObject({ action: "return", from: { status: "open" }, to: { status: "pending", userId: null } });
    expect(t.commands.sent.slice(mark).filter((x) => x.type === "send" && x.companyId === c.company.id)).toHaveLength(0);

    await put(tk.id, c.userToken, { status: "open" });
    mark = t.commands.sent.length;
    const transferred = await put(tk.id, c.userToken, { status: "pending", userId: null });
    expect(transferred.body).toMatchObject({ status: "pending", userId: null, queueId: c.queues[0]!.id });
    expect((await changesOf(c, tk.id)).at(-1)).toMatchObject({ action: "transfer" });
    const notice = t.commands.sent.slice(mark).find((x) => x.type === "send" && x.companyId === c.company.id);
    expect(notice && "body" in notice ? notice.body : "").toContain("Vendas");
  });
});
