import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";
import { httpJson, type Json, poll } from "./support/http";

/**
 * Issue 27 finding 5, through the whole local platform: a customer (the WhatsApp simulator) writes 8 messages within
 * one second; they travel simulator → session host (its per-chat `seq`) → inbound.fifo → consumers → table, and
 * `GET /api/messages/{ticketId}` answers them in the order written (docs/adr/0066). Before, a second's messages came
 * back ordered by their random ids. (The automatic answers' order: infra/local/src/stand-ins/ai/message-order.int.test.ts.)
 */
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: "Cliente Ordem E2E" };
let session: Awaited<ReturnType<typeof connectSimulator>>;

beforeAll(async () => {
  session = await connectSimulator(baseUrl(), LOGINS.admin);
});

describe("a customer's messages of one second, through the simulator and the session host", () => {
  it("come back from the API in the order written", { timeout: 120_000 }, async () => {
    const { companyId, whatsappId, token } = session;
    const texts = Array.from({ length: 8 }, (_, i) => `ordem ${i + 1}`);
    // start right after a second begins, so all eight carry the same WhatsApp second
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    const started = Date.now();
    for (const body of texts) {
      const res = await http(`/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: customer.name } });
      expect(res.status).toBeLessThan(300);
    }
    const sameSecond = Math.floor(started / 1000) === Math.floor(Date.now() / 1000);

    const ticket = await poll(
      async () => ((await http<{ tickets: { id: number; contact: { number: string } }[] }>("/api/tickets?showAll=true&status=pending", { token })).data.tickets ?? []).find((x) => x.contact.number === customer.number),
      (x) => x !== undefined,
    );
    expect(ticket).toBeDefined();
    type View = { body: string; fromMe: boolean; createdAt: string; seq?: number };
    const messages = await poll(
      async () => (await http<{ messages: View[] }>(`/api/messages/${ticket!.id}`, { token })).data.messages ?? [],
      (list) => list.filter((m) => !m.fromMe).length >= 8,
    );
    const theirs = messages.filter((m) => !m.fromMe);
    expect(theirs.map((m) => m.body)).toEqual(texts);
    expect(theirs.every((m) => typeof m.seq === "number")).toBe(true);
    if (sameSecond) expect(new Set(theirs.map((m) => m.createdAt)).size).toBe(1);
  });
});
