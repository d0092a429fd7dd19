import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { connectSimulator } from "./support/simulator";
import { httpJson, poll, type Json } from "./support/http";

/**
 * Automatic distribution end to end (issue 13, docs/adr/0032). A company of its own (signed up here, so the demo
 * company's queues stay as other files expect): one queue on "least busy", two attendants who switch themselves
 * online in the top bar; customers write through the WhatsApp simulator and the tickets land on the attendants
 * on their own, shown in their Atendendo list; one attendant pauses (lunch) in the top bar and gets no more.
 */
let browser: Browser;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const unique = Date.now().toString(36).slice(-6);
const password = "Distrib1234";
const admin = { email: `dist-admin-${unique}@teste.com.br`, password };
const people = [
  { name: `Ana Dist ${unique}`, email: `dist-ana-${unique}@teste.com.br`, password },
  { name: `Bia Dist ${unique}`, email: `dist-bia-${unique}@teste.com.br`, password },
];
let token = "";
let companyId = 0;
let whatsappId = 0;
let queueId = 0;
let lunchId = 0;
const userIds: number[] = [];
const pages: Page[] = [];
let n = 0;
const newCustomer = () => ({ number: `55117${String(Date.now() + ++n * 7919).slice(-8)}`, name: `Cliente Dist ${unique} ${n}` });

const says = (c: { number: string; name: string }, body: string) =>
  http(`/simulator/api/customers/${c.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: c.name } });
type Row = { id: number; status: string; userId: number | null; contact: { number: string } };
const ticketOf = async (number: string) => (await http<{ tickets: Row[] }>("/api/tickets?showAll=true", { token })).data.tickets?.find((t) => t.contact.number === number);

beforeAll(async () => {
  const plans = await http<{ id: number; name: string }[]>("/api/plans/list");
  const planId = plans.data.find((p) => p.name === "Completo")?.id ?? plans.data[0]!.id;
  const signup = await http("/api/companies/cadastro", { method: "POST", body: { name: `Distribuição ${unique}`, email: admin.email, phone: "11987654321", password, planId } });
  expect(signup.status, JSON.stringify(signup.data)).toBeLessThan(300);
  const auth = await http<{ token: string; user: { companyId: number } }>("/api/auth/login", { method: "POST", body: admin });
  token = auth.data.token;
  companyId = auth.data.user.companyId;
  const q = await http<{ id: number }>("/api/queue", { method: "POST", token, body: { name: "Vendas", color: "#0a7d32", orderQueue: 1, greetingMessage: "Já vamos te atender." } });
  expect(q.status, JSON.stringify(q.data)).toBeLessThan(300);
  queueId = q.data.id;
  const conn = await http<{ id: number }>("/api/whatsapp", { method: "POST", token, body: { name: "Simulador", greetingMessage: "Olá!", queueIds: [queueId], isDefault: true } });
  expect(conn.status, JSON.stringify(conn.data)).toBeLessThan(300);
  ({ whatsappId, token } = await connectSimulator(baseUrl(), admin, "Simulador"));
  for (const p of people) {
    const made = await http<{ id: number }>("/api/users", { method: "POST", token, body: { name: p.name, email: p.email, password: p.password, profile: "user", queueIds: [queueId], allTicket: "desabled" } });
    expect(made.status, JSON.stringify(made.data)).toBeLessThan(300);
    userIds.push(made.data.id);
  }
  lunchId = (await http<{ id: number }>("/api/pause-reasons", { method: "POST", token, body: { name: "Almoço" } })).data.id;
  const dist = await http("/api/distribution/queues/" + queueId, { method: "PUT", token, body: { mode: "leastBusy", ownAttendant: false, ownAttendantMinutes: 0 } });
  expect(dist.status).toBe(200);
  browser = await launchBrowser();
  for (const p of people) {
    const page = await (await newContext(browser)).newPage();
    await login(page, p.email, p.password);
    await page.waitForURL(/\/tickets$/, { timeout: 30_000 });
    pages.push(page);
  }
}, 180_000);

afterAll(async () => {
  for (const p of pages) await p.context().close().catch(() => undefined);
  await browser?.close();
});

const setStatus = async (page: Page, item: string) => {
  await page.getByTestId("agent-status").click();
  await page.getByTestId(item).click();
};

describe("automatic distribution", () => {
  it("two attendants switch online in the top bar; customers' tickets land on them on their own", async () => {
    for (const page of pages) {
      await expect.poll(() => page.getByTestId("agent-status").getAttribute("data-status"), { timeout: 20_000 }).toBe("offline");
      await setStatus(page, "agent-status-online");
      await expect.poll(() => page.getByTestId("agent-status").getAttribute("data-status"), { timeout: 20_000 }).toBe("online");
    }
    const customers = [newCustomer(), newCustomer()];
    for (const c of customers) await says(c, "Olá, quero comprar");
    const owners = [];
    for (const c of customers) {
      const t = await poll(() => ticketOf(c.number), (x) => !!x && x.status === "open" && x.userId !== null, 60_000);
      expect(t).toMatchObject({ status: "open" });
      owners.push(t!.userId);
    }
    // least busy: one each
    expect(owners.sort()).toEqual([...userIds].sort());
    // each attendant sees their customer in Atendendo without touching anything
    for (const [i, page] of pages.entries()) {
      const mine = customers[owners.indexOf(userIds[i]!)]!;
      await page.getByTestId("ticket-card").filter({ hasText: mine.name }).first().waitFor({ timeout: 30_000 });
    }
    await screenshot(pages[0]!, "distribution-assigned");
  });

  it("an attendant who pauses gets no more tickets; the other takes them", async () => {
    await setStatus(pages[0]!, `agent-status-pause-${lunchId}`);
    await expect.poll(() => pages[0]!.getByTestId("agent-status").getAttribute("data-status"), { timeout: 20_000 }).toBe("paused");
    await expect.poll(() => pages[0]!.getByTestId("agent-status").textContent(), { timeout: 20_000 }).toContain("Almoço");
    const later = [newCustomer(), newCustomer(), newCustomer()];
    for (const c of later) await says(c, "Oi, ainda tem estoque?");
    for (const c of later) {
      const t = await poll(() => ticketOf(c.number), (x) => !!x && x.status === "open", 60_000);
      expect(t?.userId).toBe(userIds[1]);
    }
    const panel = await http<{ userId: number; status: string; openTickets: number }[]>("/api/agents", { token });
    expect(panel.data.find((a) => a.userId === userIds[0])).toMatchObject({ status: "paused", openTickets: 1 });
    expect(panel.data.find((a) => a.userId === userIds[1])).toMatchObject({ status: "online", openTickets: 4 });
  });

  it("an attendant who closes the browser shows offline on the admin's agents view; signing in again soon brings them back (ADR 0044)", async () => {
    const adminPage = await (await newContext(browser)).newPage();
    pages.push(adminPage);
    await login(adminPage, admin.email, admin.password);
    await adminPage.waitForURL(/\/tickets$/, { timeout: 30_000 });
    await adminPage.goto("/"); // the dashboard, where admins see the agents
    await adminPage.getByTestId("agents-panel").waitFor({ timeout: 30_000 });
    const row = adminPage.getByTestId(`agent-row-${userIds[1]}`);
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 20_000 }).toBe("online");

    await pages[1]!.context().close();
    // the grace (AGENT_OFFLINE_GRACE_SECONDS, short on the test platform), then the status event reaches the view
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 60_000 }).toBe("offline");
    await screenshot(adminPage, "agent-offline-after-close");

    const back = await (await newContext(browser)).newPage();
    pages.push(back);
    await login(back, people[1]!.email, people[1]!.password);
    await back.waitForURL(/\/tickets$/, { timeout: 30_000 });
    await expect.poll(() => row.getAttribute("data-status"), { timeout: 30_000 }).toBe("online");
    await expect.poll(() => back.getByTestId("agent-status").getAttribute("data-status"), { timeout: 20_000 }).toBe("online");
  });
});
