import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * Contacts brought in from outside, in the browser: the phone's address book through the session host (the
 * simulator's phone plays it), and a spreadsheet upload. Both land in the contacts list, merged by identity.
 */
let browser: Browser;
let companyId = 0;
let whatsappId = 0;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const tag = Date.now().toString(36).slice(-5);
const digits = String(Date.now()).slice(-7);

beforeAll(async () => {
  browser = await launchBrowser();
  ({ companyId, whatsappId } = await connectSimulator(baseUrl(), LOGINS.admin));
});

afterAll(async () => {
  await browser?.close();
});

describe("importing contacts", () => {
  it("imports the phone's address book through the session host and a CSV upload from the contacts page", { timeout: 180_000 }, async () => {
    const phoneBook = [
      { number: `5511${9}${digits}1`, name: `Agenda Telefone ${tag}` },
      { number: `5521${9}${digits}2`, name: `Vizinha Telefone ${tag}` },
    ];
    const set = await http(`/simulator/api/connections/${companyId}/${whatsappId}/contacts`, { method: "PUT", body: phoneBook });
    expect(set.status).toBe(200);

    const page = await (await newContext(browser)).newPage();
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto("/contacts");
    await page.getByRole("button", { name: "Importar do telefone" }).click();
    await page.getByText("Contatos do telefone importados.").waitFor({ timeout: 60_000 });
    await page.getByLabel("Pesquisar...").fill(`Agenda Telefone ${tag}`);
    await expect.poll(() => page.getByTestId("contact-row").allTextContents(), { timeout: 15_000 }).toEqual([expect.stringContaining(phoneBook[0]!.number)]);
    await screenshot(page, "contacts-imported-from-phone");

    const csv = `nome;numero;email\nPlanilha ${tag};+55 (31) 9${digits.slice(0, 4)}-${digits.slice(4)}3;planilha@exemplo.com.br\n`;
    await page.getByTestId("contacts-upload-input").setInputFiles({ name: "contatos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByText("Planilha importada: 1 novos, 0 completados, 0 já existentes, 0 ignorados.").waitFor({ timeout: 30_000 });
    await page.getByLabel("Pesquisar...").fill(`Planilha ${tag}`);
    await expect.poll(() => page.getByTestId("contact-row").allTextContents(), { timeout: 15_000 }).toEqual([expect.stringContaining("planilha@exemplo.com.br")]);
  });
});
