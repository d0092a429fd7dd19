import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "./inbox.fixtures";

/**
 * What one ticket status change costs in DynamoDB calls (issue 10 item 3: one read of the ticket per change, no
 * company-wide list loaded for it). Every command the API sends is recorded with what it touched.
 */
let t: TestApp;
let a: Tenant;
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
  t.container.db.doc.middlewareStack.add(
    (next, context) => async (args) => {
      recording?.push(label(String(context.commandName).replace(/Command$/, ""), args.input as Record<string, any>));
      return next(args);
    },
    { step: "initialize", name: "countCalls" },
  );
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
      ["return", { status: "pending", userId: null }],
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
