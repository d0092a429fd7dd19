import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_LOGINS } from "../functions/src/features/seed/seed.service";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator, customerChat, type SimulatorSession } from "./support/simulator";
import { httpJson, poll, type Json } from "./support/http";

/**
 * Issue 34 in Chromium: the demo supervisor whispers to the demo attendant inside the attendant's conversation (two
 * browser contexts); the attendant sees it set apart and is told; the customer's simulated phone never gets it (a
 * later message does); the cockpit lists the demo's queues and attendants and a click filters the ticket list.
 * The admin works over HTTP only (the browsers sign in the supervisor and the attendant).
 */
const supervisor = DEMO_LOGINS.find((l) => l.role === "supervisor")!;
let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: SimulatorSession;
let ticket: { id: number; uuid: string; queueId: number };
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const tag = Date.now().toString(36).slice(-5);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Sussurro E2E ${tag}` };
const WHISPER = `Ofereça o plano anual ${tag}`;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await connectSimulator(baseUrl(), LOGINS.admin);
  // an open ticket of the demo attendant (Beto, queue Suporte), made by the admin over HTTP
  const users = await http<{ users: { id: number; email: string }[] }>("/api/users?searchParam=atendente", { token: admin.token });
  const beto = users.data.users.find((u) => u.email === LOGINS.attendant.email)!;
  const queues = await http<{ id: number; name: string }[]>("/api/queue", { token: admin.token });
  const support = queues.data.find((q) => q.name === "Suporte")!;
  const contact = await http<{ id: number }>("/api/contacts", { method: "POST", token: admin.token, body: { name: customer.name, number: customer.number } });
  expect(contact.status, JSON.stringify(contact.data)).toBe(200);
  const made = await http<{ id: number; uuid: string }>("/api/tickets", { method: "POST", token: admin.token, body: { contactId: contact.data.id, queueId: support.id, whatsappId: admin.whatsappId, status: "open" } });
  expect(made.status, JSON.stringify(made.data)).toBe(201);
  const moved = await http(`/api/tickets/${made.data.id}`, { method: "PUT", token: admin.token, body: { userId: beto.id, queueId: support.id, status: "open" } });
  expect(moved.status, JSON.stringify(moved.data)).toBe(200);
  ticket = { id: made.data.id, uuid: made.data.uuid, queueId: support.id };
});

afterAll(async () => {
  if (ticket) await http(`/api/tickets/${ticket.id}`, { method: "PUT", token: admin.token, body: { status: "closed" } });
  for (const c of contexts) await c.close();
  await browser?.close();
});

const signedIn = async (who: { email: string; password: string }) => {
  const context = await newContext(browser);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
  await login(page, who.email, who.password);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return page;
};

describe("supervisors", () => {
  it("a supervisor whispers to the attendant, who sees it; the customer never gets it", { timeout: 180_000 }, async () => {
    const attendant = await signedIn(LOGINS.attendant);
    await attendant.goto(`/tickets/${ticket.uuid}`);
    await attendant.getByTestId("ticket-view").waitFor({ timeout: 30_000 });
    // the attendant's own conversation has no whisper box
    expect(await attendant.getByTestId("whisper-input").count()).toBe(0);

    const sup = await signedIn(supervisor);
    await sup.goto(`/tickets/${ticket.uuid}`);
    await sup.getByTestId("monitoring-note").waitFor({ timeout: 30_000 });
    await sup.getByTestId("whisper-text").fill(WHISPER);
    await sup.getByTestId("whisper-send").click();
    await sup.getByTestId("whisper").filter({ hasText: WHISPER }).waitFor({ timeout: 15_000 });
    await screenshot(sup, "supervisor-01-whisper-sent");

    // the attendant: the bubble, set apart, and the toast naming who whispered
    await attendant.getByTestId("whisper").filter({ hasText: WHISPER }).waitFor({ timeout: 15_000 });
    await attendant.getByText(/Sussurro de Carla Supervisora/).first().waitFor({ timeout: 15_000 });
    await screenshot(attendant, "supervisor-02-attendant-sees-whisper");

    // the customer: a message sent after the whisper arrives, the whisper never does
    const after = `Mensagem ao cliente ${tag}`;
    const sent = await http(`/api/messages/${ticket.id}`, { method: "POST", token: admin.token, body: { body: after } });
    expect(sent.status, JSON.stringify(sent.data)).toBe(201);
    const chat = await poll(() => customerChat(baseUrl(), admin, customer.number), (entries) => entries.some((e) => e.body.includes(after)));
    expect(chat.some((e) => e.body.includes(after))).toBe(true);
    expect(chat.filter((e) => e.body.includes(WHISPER))).toEqual([]);
  });

  it("the cockpit lists the queues and attendants; a click on a queue filters the ticket list", { timeout: 120_000 }, async () => {
    const sup = await signedIn(supervisor);
    await sup.getByTestId("side-menu").getByRole("link", { name: "Supervisão" }).click();
    await sup.getByTestId("cockpit-queues").waitFor({ timeout: 30_000 });
    const row = sup.getByTestId(`cockpit-queue-${ticket.queueId}`);
    await expect.poll(async () => (await row.textContent()) ?? "").toContain("Suporte");
    await expect.poll(async () => (await sup.getByTestId("cockpit-agents").textContent()) ?? "").toContain("Beto Atendente");
    await screenshot(sup, "supervisor-03-cockpit");
    await row.click();
    await sup.waitForURL((url) => url.pathname === "/tickets" && url.searchParams.get("queue") === String(ticket.queueId));
    await sup.getByTestId("cockpit-filter").waitFor({ timeout: 15_000 });
  });
});
