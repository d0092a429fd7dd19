import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";
import { httpJson, type Json, poll } from "./support/http";

/**
 * Full-text search in the browser (issue 15 item 1, docs/adr/0035): the customer wrote "boleto vencido" earlier in
 * the conversation (the simulator plays the phone), then other messages; the admin searches "boleto", sees the
 * ticket with the message highlighted in the snippet, opens it and the conversation shows that message highlighted.
 */
let browser: Browser;
let page: Page;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const customer = { number: `55119${String(Date.now() + 7).slice(-8)}`, name: `Busca E2E ${Date.now().toString(36).slice(-4)}` };
const BOLETO = "Bom dia! Meu boleto está vencido desde sexta, como faço para pagar?";
let companyId = 0;
let whatsappId = 0;
let adminToken = "";

const customerSays = (body: string) =>
  http(`/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: customer.name } });

beforeAll(async () => {
  browser = await launchBrowser();
  const session = await connectSimulator(baseUrl(), LOGINS.admin);
  ({ companyId, whatsappId, token: adminToken } = session);
  for (const body of [BOLETO, "1", "Também queria saber do meu cadastro", "Obrigado!"]) {
    const sent = await customerSays(body);
    expect(sent.status, JSON.stringify(sent.data)).toBeLessThan(300);
  }
  // the last message stored: the boleto message is an earlier one, not the ticket's last message
  await poll(
    () => http<{ tickets: { contact: { number: string }; lastMessage: string }[] }>(`/api/tickets?showAll=true&searchParam=${customer.number.slice(-8)}`, { token: adminToken }),
    (r) => r.data.tickets.some((t) => t.contact.number === customer.number && t.lastMessage !== BOLETO && t.lastMessage.length > 0),
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("search over the whole history", () => {
  it("the admin searches 'boleto' and sees the ticket with the message highlighted", async () => {
    const context = await newContext(browser);
    page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL(/\/tickets$/);
    await page.getByTestId("tab-search").click();
    await page.getByPlaceholder("Buscar atendimento e mensagens").fill("boleto");
    const result = page.getByTestId("search-result").filter({ hasText: customer.name }).first();
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getByTestId("search-match").first().textContent()).toBe("boleto");
    expect(await result.getByTestId("search-snippet").textContent()).toContain("boleto está vencido");
    await screenshot(page, "search-01-results");
  });

  it("opening the result scrolls the conversation to that message and highlights it", async () => {
    await page.getByTestId("search-result").filter({ hasText: customer.name }).first().click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}\?message=/);
    const focused = page.locator('[data-message-id][data-focused="true"]');
    await focused.waitFor({ timeout: 30_000 });
    expect(await focused.textContent()).toContain("boleto está vencido");
    expect(await focused.isVisible()).toBe(true);
    await screenshot(page, "search-02-opened");
  });

  it("the search box inside the conversation finds the message too", async () => {
    await page.goto(page.url().replace(/\?.*$/, ""));
    await page.getByTestId("conversation-search-open").click();
    await page.getByRole("textbox", { name: "Buscar mensagens" }).fill("vencido");
    await expect.poll(() => page.getByTestId("conversation-search-count").textContent(), { timeout: 20_000 }).toBe("1 de 1");
    const focused = page.locator('[data-message-id][data-focused="true"]');
    await focused.waitFor({ timeout: 20_000 });
    expect(await focused.textContent()).toContain("boleto está vencido");
    await screenshot(page, "search-03-in-conversation");
  });
});
