import { beforeAll, describe, expect, it } from "vitest";
import { createMemoryMetrics } from "../platform/metrics";
import { createTenant, type Tenant } from "../testing/factories";
import { createTestApp, type TestApp } from "../testing/test-app";
import { adminTickets, customerMessage, deliver, sqsEvent } from "../testing/inbox-fixtures";
import { consumeInbound } from "./inbound-consumer";

/**
 * Issue 16 item 1: the ticket list's latency (dashboard "Ticket list latency") is recorded for GET /api/tickets,
 * the list, and for nothing else; inbound events record their age at consumption.
 */
let t: TestApp;
let a: Tenant;
const recorded = createMemoryMetrics();

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0" }, { overrides: { metrics: recorded.metrics } });
  a = await createTenant(t);
});

describe("API metrics", () => {
  it("times GET /tickets (the list) once per call, in whole milliseconds", async () => {
    const before = recorded.points.length;
    expect((await t.call("GET", "/tickets?status=open", { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", "/tickets?status=pending&showAll=true", { token: a.adminToken })).status).toBe(200);
    const timed = recorded.points.slice(before).filter((p) => p.name === "TicketListLatency");
    expect(timed).toHaveLength(2);
    for (const p of timed) {
      expect(p.unit).toBe("ms");
      expect(Number.isInteger(p.value) && p.value >= 0).toBe(true);
    }
  });

  it("does not time other ticket routes or other methods", async () => {
    const before = recorded.points.length;
    await t.call("GET", "/tickets/999999", { token: a.adminToken });
    await t.call("POST", "/tickets", { token: a.adminToken, body: {} });
    await t.call("GET", "/contacts", { token: a.adminToken });
    expect(recorded.points.slice(before).filter((p) => p.name === "TicketListLatency")).toEqual([]);
  });

  it("records each inbound event's age at consumption (queue inbound): now minus SQS's SentTimestamp", async () => {
    const before = recorded.points.length;
    const event = sqsEvent([customerMessage(a, { body: "oi" })]);
    (event.Records[0]!.attributes as { SentTimestamp?: string }).SentTimestamp = String(t.clock.now.getTime() - 1500);
    expect((await consumeInbound(t.container, event)).batchItemFailures).toEqual([]);
    const ages = recorded.points.slice(before).filter((p) => p.name === "QueueAgeAtConsumption");
    expect(ages).toEqual([{ name: "QueueAgeAtConsumption", value: 1500, unit: "ms", dimensions: { queue: "inbound" } }]);
  });

  it("counts a person's assignments: an attendant accepting ('accepted'), a ticket handed to another ('transferred')", async () => {
    const number = "5511944443333";
    await deliver(t, customerMessage(a, { number, body: "oi" }));
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    const before = recorded.points.length;
    const accept = await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.admin.id } });
    expect(accept.status, JSON.stringify(accept.body)).toBe(200);
    const transfer = await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "open", userId: a.user.id, queueId: a.queues[0]!.id } });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
    const modes = recorded.points.slice(before).filter((p) => p.name === "Assignments").map((p) => p.dimensions?.mode);
    expect(modes).toEqual(["accepted", "transferred"]);
  });
});
