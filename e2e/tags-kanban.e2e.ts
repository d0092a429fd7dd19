import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator as connectDemoSimulator } from "./support/simulator";
import { httpJson, type Json } from "./support/http";

/**
 * Tags and the kanban board in the browser: the admin creates a kanban tag on /tags, a customer writes in through
 * the WhatsApp simulator, the ticket shows in the first lane of /kanban, the admin moves it to the tag's lane,
 * and it is still there after a reload. Names are unique: other e2e files share the platform.
 */
let browser: Browser;
let page: Page;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const unique = Date.now().toString(36).slice(-5);
const tagName = `Lane E2E ${unique}`;
const customer = { number: `55119${String(Date.now() + 7_777).slice(-8)}`, name: `Cliente Kanban ${unique}` };
let companyId = 0;
let whatsappId = 0;

const customerSays = (body: string) =>
  http(`/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: customer.name } });

/** Connects the demo company's simulator connection when no other test did (start session, scan the QR). */
const connectSimulator = async () => {
  ({ companyId, whatsappId } = await connectDemoSimulator(baseUrl(), LOGINS.admin));
};

const lane = (name: string) => page.getByRole("region", { name, exact: true });
const card = () => page.getByTestId("kanban-card").filter({ hasText: customer.name });

beforeAll(async () => {
  browser = await launchBrowser();
  await connectSimulator();
  const context = await newContext(browser);
  page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
  await login(page, LOGINS.admin.email, LOGINS.admin.password);
  await page.waitForURL(/\/tickets$/);
});

afterAll(async () => {
  await browser?.close();
});

describe("tags and the kanban board", () => {
  it("the admin creates a kanban tag on /tags", async () => {
    await page.goto("/tags");
    await page.getByRole("button", { name: "Adicionar tag" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.getByText("Obrigatório").waitFor();
    await dialog.getByLabel(/Nome/).fill(tagName);
    await dialog.getByLabel("Kanban").check();
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await page.getByText("Tag salva com sucesso!").waitFor();
    await page.getByLabel("Pesquisar...").fill(unique.toUpperCase());
    await page.getByTestId("tag-row").filter({ hasText: tagName }).waitFor();
    await expect.poll(() => page.getByTestId("tag-row").count()).toBe(1);
    await screenshot(page, "tags-01-list");
  });

  it("a customer's new ticket shows in the first lane of /kanban", async () => {
    await page.goto("/kanban");
    await lane(tagName).waitFor({ timeout: 20_000 });
    await customerSays("Olá, quero acompanhar meu pedido");
    // the connection's chatbot may ask for a queue first: choose option 1 (Vendas)
    await new Promise((r) => setTimeout(r, 1500));
    await customerSays("1");
    await lane("Em aberto").getByTestId("kanban-card").filter({ hasText: customer.name }).waitFor({ timeout: 30_000 });
    await screenshot(page, "kanban-01-first-lane");
  });

  it("the admin moves the card to the tag's lane and it stays there after a reload", async () => {
    await card().getByRole("button", { name: `Mover ${customer.name} para outra coluna` }).click();
    await page.getByRole("menuitem", { name: tagName }).click();
    await page.getByText("Ticket Tag Adicionado com Sucesso!").waitFor();
    await lane(tagName).getByTestId("kanban-card").filter({ hasText: customer.name }).waitFor();
    await page.reload();
    await lane(tagName).getByTestId("kanban-card").filter({ hasText: customer.name }).waitFor({ timeout: 20_000 });
    expect(await lane("Em aberto").getByTestId("kanban-card").filter({ hasText: customer.name }).count()).toBe(0);
    await screenshot(page, "kanban-02-moved");

    // the tags page counts the ticket
    await page.goto("/tags");
    await page.getByLabel("Pesquisar...").fill(unique);
    const row = page.getByTestId("tag-row").filter({ hasText: tagName });
    await expect.poll(() => row.getByRole("cell").nth(1).textContent()).toBe("1");
  });
});
