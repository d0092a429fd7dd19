import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator as connectDemoSimulator } from "./support/simulator";
import { httpJson, type Json, poll } from "./support/http";

/**
 * Scheduled messages in the browser: the admin opens /schedules?contactId= for a simulator customer, schedules a
 * message about a minute ahead through the simulator connection, sees it in the calendar; the platform's minute tick
 * sends it, the customer's simulated phone receives it, and the page shows it sent (live).
 * The send time has minute precision, so this test waits up to about a minute and a half.
 */
let browser: Browser;
let page: Page;
let adminToken = "";
let companyId = 0;
let whatsappId = 0;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Agenda E2E ${Date.now().toString(36).slice(-4)}` };
const body = `Lembrete agendado ${Date.now().toString(36)}`;

type ChatEntry = { fromCustomer: boolean; body: string };
const customerChat = async () =>
  (await http<{ messages: ChatEntry[] }>(`/simulator/api/customers/${customer.number}/messages?companyId=${companyId}&whatsappId=${whatsappId}`)).data.messages ?? [];

/** Signs the admin in over HTTP and makes sure the demo company's simulator connection is connected. */
const connectSimulator = async () => {
  ({ token: adminToken, companyId, whatsappId } = await connectDemoSimulator(baseUrl(), LOGINS.admin));
};

beforeAll(async () => {
  browser = await launchBrowser();
  await connectSimulator();
});

afterAll(async () => {
  await browser?.close();
});

describe("scheduled messages", () => {
  it("the admin schedules a message for a customer a minute ahead; the tick sends it to the customer's phone and the page shows it sent", { timeout: 300_000 }, async () => {
    const made = await http<{ id: number }>("/api/contacts", { method: "POST", token: adminToken, body: { name: customer.name, number: customer.number } });
    expect(made.status, JSON.stringify(made.data)).toBe(200);

    const context = await newContext(browser);
    page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto(`/schedules?contactId=${made.data.id}`);

    // the add dialog opens with the customer chosen
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Novo agendamento" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => dialog.getByLabel("Contato").inputValue()).toContain(customer.name);
    await dialog.getByLabel(/Mensagem/).fill(body);
    // the next whole minute (plus one when it is less than 30 s away): still in the future when saved; the e2e
    // platform ticks every 5 s, so it goes out within seconds of that time
    const sendAt = await page.evaluate(() => {
      const next = Math.ceil(Date.now() / 60_000) * 60_000;
      const d = new Date(next - Date.now() > 30_000 ? next : next + 60_000);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await dialog.getByLabel(/Data e hora do envio/).fill(sendAt);
    await dialog.getByRole("combobox", { name: "Conexão" }).click();
    await page.getByRole("option", { name: "Simulador" }).click();
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.waitFor({ state: "hidden" });

    // in the calendar by the customer's name, and pending in the month's list
    await page.getByTestId("calendar-event").filter({ hasText: customer.name }).waitFor();
    const row = page.getByTestId("schedule-row").filter({ hasText: customer.name });
    await expect.poll(() => row.getByTestId("schedule-status").textContent()).toBe("Pendente");
    await screenshot(page, "schedules-01-pending");
    expect((await customerChat()).some((m) => m.body === body)).toBe(false);

    // the minute tick sends it: the customer's phone receives it once
    const chat = await poll(customerChat, (msgs) => msgs.some((m) => !m.fromCustomer && m.body === body), 200_000);
    expect(chat.filter((m) => !m.fromCustomer && m.body === body)).toHaveLength(1);
    await expect.poll(() => row.getByTestId("schedule-status").textContent(), { timeout: 30_000 }).toBe("Enviada");
    await screenshot(page, "schedules-02-sent");

    // and it is in the customer's ticket history (a fresh login: the browser's sign-in replaced the first session)
    await connectSimulator();
    const list = await http<{ schedules: { body: string; status: string; ticketId: number | null }[] }>(`/api/schedules/?searchParam=${encodeURIComponent(customer.name.toLowerCase())}`, { token: adminToken });
    const sent = list.data.schedules.find((s) => s.body === body);
    expect(sent).toMatchObject({ status: "ENVIADA" });
    const history = await http<{ messages: { body: string; fromMe: boolean }[] }>(`/api/messages/${sent!.ticketId}`, { token: adminToken });
    expect(history.data.messages.filter((m) => m.body === body && m.fromMe)).toHaveLength(1);
  });
});
