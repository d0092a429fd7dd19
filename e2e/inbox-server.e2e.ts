import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";
import { httpJson, type Json, poll } from "./support/http";

/**
 * The inbox server end to end, without a browser: a customer (played through the WhatsApp simulator) writes,
 * gets the queue menu, picks Suporte; the attendant (Suporte) sees the ticket, accepts and replies through the
 * API; the customer receives the reply, and its ack moves forward on the attendant's side.
 */

const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: "Cliente Servidor E2E" };
let companyId = 0;
let whatsappId = 0;
let attendantToken = "";

const customerSays = (body: string) =>
  http(`/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: customer.name } });
type ChatEntry = { id: string; fromCustomer: boolean; type: string; body: string; ack: number };
const customerChat = async () =>
  (await http<{ messages: ChatEntry[] }>(`/simulator/api/customers/${customer.number}/messages?companyId=${companyId}&whatsappId=${whatsappId}`)).data.messages ?? [];
const login = async (who: { email: string; password: string }) => {
  const res = await http<{ token: string; user: { companyId: number } }>("/api/auth/login", { method: "POST", body: { email: who.email, password: who.password } });
  expect(res.status).toBe(200);
  return res.data;
};

beforeAll(async () => {
  ({ companyId, whatsappId } = await connectSimulator(baseUrl(), LOGINS.admin));
  attendantToken = (await login(LOGINS.attendant)).token;
});

describe("a customer conversation through the server", () => {
  let ticketId = 0;

  it("the customer writes and gets the numbered queue menu", async () => {
    expect((await customerSays("Olá, preciso de ajuda")).status).toBeLessThan(300);
    const chat = await poll(customerChat, (m) => m.some((x) => !x.fromCustomer && x.body.includes("[ 2 ]")));
    const menu = chat.find((x) => !x.fromCustomer && x.body.includes("[ 2 ]"));
    expect(menu?.body).toContain("Suporte");
  });

  it("picking Suporte puts the ticket in the attendant's pending list", async () => {
    await customerSays("2");
    const found = await poll(
      async () => (await http<{ tickets: { id: number; queue: { name: string } | null; contact: { number: string } }[] }>("/api/tickets?status=pending", { token: attendantToken })).data.tickets ?? [],
      (list) => list.some((x) => x.contact.number === customer.number && x.queue?.name === "Suporte"),
    );
    const ticket = found.find((x) => x.contact.number === customer.number);
    expect(ticket?.queue?.name).toBe("Suporte");
    ticketId = ticket!.id;
  });

  it("the attendant accepts and replies; the customer receives the reply and the ack moves forward", async () => {
    const accepted = await http<{ status: string }>(`/api/tickets/${ticketId}`, { method: "PUT", token: attendantToken, body: { status: "open" } });
    expect(accepted.data.status).toBe("open");
    const sent = await http<{ id: string; ack: number }>(`/api/messages/${ticketId}`, { method: "POST", token: attendantToken, body: { body: "Oi! Sou o Beto, do Suporte." } });
    expect(sent.status).toBe(201);
    const chat = await poll(customerChat, (m) => m.some((x) => !x.fromCustomer && x.body.includes("Sou o Beto")));
    expect(chat.some((x) => !x.fromCustomer && x.body.includes("Sou o Beto"))).toBe(true);
    const acked = await poll(
      async () => (await http<{ messages: { id: string; ack: number }[] }>(`/api/messages/${ticketId}`, { token: attendantToken })).data.messages ?? [],
      (list) => (list.find((m) => m.id === sent.data.id)?.ack ?? 0) >= 2,
    );
    expect(acked.find((m) => m.id === sent.data.id)?.ack).toBeGreaterThanOrEqual(2);
  });
});
