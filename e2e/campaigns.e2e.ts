import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, type Json, poll } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator, customerChat, type SimulatorSession } from "./support/simulator";

/**
 * Campaigns in the browser: over the API the admin makes a contact list with one simulator customer (its number is
 * checked valid through the simulator) and sets messageInterval 0; in the browser the admin creates a campaign for
 * that list, scheduled the next minute through the simulator connection. The platform's tick starts it, the job
 * sends it, the customer's simulated phone receives the message once, and the report shows 100 %.
 * The schedule has minute precision, so this test waits up to about a minute and a half.
 */
let browser: Browser;
let page: Page;
let sim: SimulatorSession;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const stamp = Date.now().toString(36).slice(-5);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Campanha E2E ${stamp}` };
const campaignName = `Campanha ${stamp}`;

beforeAll(async () => {
  browser = await launchBrowser();
  sim = await connectSimulator(baseUrl(), LOGINS.admin);
});

afterAll(async () => {
  await browser?.close();
});

describe("campaigns", () => {
  it("the admin schedules a campaign a minute ahead; the customer's phone receives it and the report shows 100 %", { timeout: 300_000 }, async () => {
    const settings = await http("/api/campaign-settings", { method: "POST", token: sim.token, body: { settings: { messageInterval: 0 } } });
    expect(settings.status, JSON.stringify(settings.data)).toBe(200);
    const list = await http<{ id: number }>("/api/contact-lists", { method: "POST", token: sim.token, body: { name: `Lista ${stamp}` } });
    expect(list.status, JSON.stringify(list.data)).toBe(200);
    const listName = `Lista ${stamp}`;
    const item = await http("/api/contact-list-items", { method: "POST", token: sim.token, body: { contactListId: list.data.id, name: customer.name, number: customer.number } });
    expect(item.status, JSON.stringify(item.data)).toBe(200);
    const valid = await poll(
      async () => (await http<{ contacts: { number: string; isWhatsappValid: boolean }[] }>(`/api/contact-list-items?contactListId=${list.data.id}`, { token: sim.token })).data.contacts ?? [],
      (items) => items.some((i) => i.number === customer.number && i.isWhatsappValid),
      60_000,
    );
    expect(valid.some((i) => i.isWhatsappValid)).toBe(true);

    const context = await newContext(browser);
    page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto("/campaigns");

    await page.getByRole("button", { name: "Nova campanha" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/Nome/).fill(campaignName);
    await dialog.getByRole("combobox", { name: "Lista de contatos" }).click();
    await page.getByRole("option", { name: listName }).click();
    await dialog.getByRole("combobox", { name: "Conexão" }).click();
    await page.getByRole("option", { name: "Simulador" }).click();
    // the next whole minute (plus one when it is less than 30 s away): still in the future when saved
    const scheduledAt = await page.evaluate(() => {
      const next = Math.ceil(Date.now() / 60_000) * 60_000;
      const d = new Date(next - Date.now() > 30_000 ? next : next + 60_000);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await dialog.getByLabel("Agendamento").fill(scheduledAt);
    const body = `Olá ${customer.name}, oferta ${stamp}`;
    await dialog.getByLabel("Mensagem 1").fill(`Olá {nome}, oferta ${stamp}`);
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.waitFor({ state: "hidden" });

    const row = page.getByTestId("campaign-row").filter({ hasText: campaignName });
    await row.getByText("Programada").waitFor();
    await screenshot(page, "campaigns-01-scheduled");

    // the tick starts it and the job sends it: the customer's phone receives it once, placeholder filled
    const chat = await poll(() => customerChat(baseUrl(), sim, customer.number), (msgs) => msgs.some((m) => !m.fromCustomer && m.body === body), 200_000);
    expect(chat.filter((m) => !m.fromCustomer && m.body === body)).toHaveLength(1);
    await row.getByText("Finalizada").waitFor({ timeout: 30_000 });

    await row.getByRole("button", { name: "Relatório" }).click();
    await page.waitForURL((url) => /\/campaign\/\d+\/report$/.test(url.pathname));
    await expect.poll(() => page.getByTestId("campaign-progress").textContent(), { timeout: 30_000 }).toBe("100%");
    expect(await page.getByTestId("count-valid").textContent()).toBe("1");
    expect(await page.getByTestId("count-delivered").textContent()).toBe("1");
    await screenshot(page, "campaigns-02-report");
  });
});
