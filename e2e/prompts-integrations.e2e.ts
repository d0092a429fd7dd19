import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";

/**
 * AI prompts and queue integrations, in the browser: the demo admin creates an integration and a prompt, then
 * finds both in a queue's pickers. Names are unique: other tests share the platform.
 */
let browser: Browser;
let page: Page;
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const integrationName = `Typebot ${unique}`;
const promptName = `Prompt ${unique}`;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await login(page, LOGINS.admin.email, LOGINS.admin.password);
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
  await page.getByTestId("side-menu").getByRole("link").first().waitFor();
});
afterAll(async () => {
  await page?.context().close().catch(() => undefined);
  await browser?.close();
});

describe("prompts and queue integrations", () => {
  it("the admin adds a Typebot integration", async () => {
    await page.goto("/queue-integration");
    await page.getByRole("button", { name: "Adicionar integração" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByRole("combobox", { name: /Tipo/ }).textContent()).toContain("Typebot");
    await dialog.getByLabel(/^Nome/).fill(integrationName);
    await dialog.getByLabel(/^URL/).fill("https://typebot.exemplo.com.br");
    await dialog.getByLabel(/Slug/).fill(`fluxo-${unique}`);
    await screenshot(page, "queue-integration-dialog");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("textbox", { name: "Pesquisar..." }).fill(unique.toUpperCase());
    const row = page.getByTestId("integration-row").filter({ hasText: integrationName });
    await row.waitFor();
    await expect.poll(() => page.getByTestId("integration-row").count()).toBe(1);
    expect(await row.getByRole("img", { name: "Typebot" }).count()).toBe(1);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Integrações (1)");
  });

  it("the admin adds a prompt bound to a queue; the API key is not shown back", async () => {
    await page.goto("/prompts");
    await page.getByRole("button", { name: "Adicionar prompt" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/^Nome/).fill(promptName);
    await dialog.getByLabel(/^Chave da API/).fill(`sk-e2e-${unique}-0000000000009876`);
    await dialog.getByLabel(/^Prompt/).fill("Você é o atendente virtual da padaria. Responda com educação e frases curtas.");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.getByText("Informe o setor").first().waitFor();
    await dialog.getByRole("combobox", { name: /Setor/ }).click();
    await page.getByRole("option").first().click();
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.waitFor({ state: "hidden" });
    const row = page.getByTestId("prompt-row").filter({ hasText: promptName });
    await row.waitFor();
    await row.getByRole("button", { name: "Editar" }).click();
    await expect.poll(() => page.getByRole("dialog").getByLabel(/^Chave da API/).inputValue()).toBe("");
    expect(await page.getByRole("dialog").getByText(/Chave salva: •+9876/).count()).toBe(1);
    expect(await page.content()).not.toContain(`sk-e2e-${unique}`);
    await screenshot(page, "prompt-dialog");
    await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
  });

  it("a queue's modal lists both in its pickers", async () => {
    await page.goto("/queues");
    await page.getByTestId("queue-row").first().getByRole("button", { name: "Editar" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("combobox", { name: "Prompt" }).click();
    await page.getByRole("option", { name: promptName }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.getByRole("combobox", { name: "Integração" }).click();
    await page.getByRole("option", { name: integrationName }).waitFor();
    await screenshot(page, "queue-dialog-pickers");
    await page.keyboard.press("Escape");
    await dialog.getByRole("button", { name: "Cancelar" }).click();
  });
});
