import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../testing/factories";
import { adminTickets, customerMessage, deliver } from "../testing/inbox-fixtures";
import { createTestApp, type TestApp } from "../testing/test-app";

/** Issue 27 finding 6: a ticket's Cloud API window follows the ticket's visibility; odd query values never answer 500. */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

describe("GET /cloud-api/tickets/{id}/window", () => {
  it("an attendant is refused a ticket outside their queues exactly as GET /tickets/{id}; the admin reads it; another company gets 404", async () => {
    await deliver(t, customerMessage(a, { number: "5511900027061", body: "fora da fila" }));
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.number === "5511900027061")!;
    // no queue, nobody's, and the attendant does not see queue-less tickets (allTicket disabled)
    expect(ticket).toMatchObject({ queueId: null, userId: null });
    const direct = await t.call("GET", `/tickets/${ticket.id}`, { token: a.userToken });
    const window = await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.userToken });
    expect(direct).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect({ status: window.status, body: window.body }).toEqual({ status: direct.status, body: direct.body });
    expect(await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: a.adminToken })).toMatchObject({ status: 200, body: { kind: "none" } });
    expect(await t.call("GET", `/cloud-api/tickets/${ticket.id}/window`, { token: b.adminToken })).toMatchObject({ status: 404, body: { error: "ERR_NO_TICKET_FOUND" } });
  });
});

describe("GET /tickets?tags= with numbers past the safe range", () => {
  it.each(["9007199254740993", "1e308", "[9007199254740993]", "-1", "1.5"])("tags=%s answers 400 ERR_VALIDATION", async (tags) => {
    const res = await t.call("GET", `/tickets?tags=${encodeURIComponent(tags)}`, { token: a.adminToken });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
  });

  it("the largest safe id is a valid filter (no ticket has it)", async () => {
    const res = await t.call("GET", `/tickets?tags=9007199254740991&showAll=true`, { token: a.adminToken });
    expect(res).toMatchObject({ status: 200, body: { tickets: [] } });
  });
});

describe("GET /audit-logs?from=", () => {
  it.each(["2027-01-01", "2027-01-01T00:00:00Z", "2020-01-01"])("from=%s answers a page, never 500", async (from) => {
    const res = await t.call("GET", `/audit-logs?from=${encodeURIComponent(from)}`, { token: a.adminToken });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.logs)).toBe(true);
  });

  it("a from after to, or not a date, is 400", async () => {
    expect((await t.call("GET", `/audit-logs?from=2027-01-02&to=2027-01-01`, { token: a.adminToken })).body).toMatchObject({ error: "ERR_VALIDATION" });
    expect((await t.call("GET", `/audit-logs?from=amanha`, { token: a.adminToken })).body).toMatchObject({ error: "ERR_VALIDATION" });
  });
});
