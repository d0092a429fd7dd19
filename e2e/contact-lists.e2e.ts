import * as XLSX from "@e965/xlsx";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * Contact lists in the browser: the admin creates a list, imports a generated .xlsx with three rows (one a
 * simulator customer), sees the rows, and sees the customer's number become valid when the background check
 * through the simulator connection answers (a number ending in 00000 is "not on WhatsApp" in the simulator).
 * Then the campaign settings page: an interval and a variable saved and still there after a reload.
 */
let browser: Browser;
let page: Page;
const stamp = Date.now().toString(36).slice(-5);
const listName = `Lista E2E ${stamp}`;
const customer = { name: `Cliente Sim ${stamp}`, number: `55119${String(Date.now()).slice(-8)}` };
const absent = { name: `Sem Zap ${stamp}`, number: "5511955500000" };
const third = { name: `Terceiro ${stamp}`, number: `55219${String(Date.now() + 7).slice(-8)}` };

/** A real workbook, written to a temp file the page's file input can take. */
const spreadsheet = () => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ["Nome", "Número", "E-mail"],
      [customer.name, `+${customer.number}`, "cliente@exemplo.com"],
      [absent.name, absent.number, ""],
      [third.name, third.number, ""],
    ]),
    "Contatos",
  );
  const path = join(mkdtempSync(join(tmpdir(), "contact-lists-e2e-")), "contatos.xlsx");
  writeFileSync(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
  return path;
};

beforeAll(async () => {
  browser = await launchBrowser();
  await connectSimulator(baseUrl(), { email: LOGINS.admin.email, password: LOGINS.admin.password });
});

afterAll(async () => {
  await browser?.close();
});

describe("contact lists", () => {
  it("the admin creates a list, imports a spreadsheet and sees the simulator customer's number become valid", { timeout: 180_000 }, async () => {
    const context = await newContext(browser);
    page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));

    await page.goto("/contact-lists");
    await page.getByRole("button", { name: "Nova lista" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(/^Nome/).fill(listName);
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    const row = page.getByTestId("contact-list-row").filter({ hasText: listName });
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole("button", { name: "Ver contatos" }).click();
    await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
    await page.getByRole("heading", { name: `Contatos da lista: ${listName}` }).waitFor({ timeout: 30_000 });

    await page.getByTestId("import-input").setInputFiles(spreadsheet());
    const rows = page.getByTestId("contact-list-item-row");
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    const customerRow = rows.filter({ hasText: customer.name });
    expect(await customerRow.textContent()).toContain(customer.number);
    expect(await customerRow.textContent()).toContain("cliente@exemplo.com");

    // the background check answers through the simulator; the icons update live
    const validityOf = (name: string) => rows.filter({ hasText: name }).getByTestId("validity").getAttribute("data-validity");
    await expect.poll(() => validityOf(customer.name), { timeout: 60_000 }).toBe("valid");
    await expect.poll(() => validityOf(absent.name), { timeout: 60_000 }).toBe("invalid");
    await screenshot(page, "contact-lists-imported");

    await page.goto("/contact-lists");
    await expect.poll(() => page.getByTestId("contact-list-row").filter({ hasText: listName }).textContent(), { timeout: 30_000 }).toContain("3");
    await context.close();
  });

  it("the admin saves campaign settings and finds them after a reload", { timeout: 120_000 }, async () => {
    const context = await newContext(browser);
    page = await context.newPage();
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto("/campaigns-config");
    const interval = page.getByRole("combobox", { name: "Intervalo randômico de disparo" });
    await interval.waitFor({ timeout: 30_000 });
    await interval.click();
    await page.getByRole("option", { name: "10 segundos" }).click();
    const key = `cupom${stamp}`;
    await page.getByLabel("Atalho").fill(key);
    await page.getByLabel("Conteúdo").fill("NATAL10");
    await page.getByRole("button", { name: "Adicionar" }).click();
    await page.getByRole("button", { name: "Salvar configurações" }).click();
    await page.getByText("Configurações salvas").waitFor({ timeout: 30_000 });
    await screenshot(page, "campaign-settings-saved");

    await page.reload();
    await page.getByText(`{${key}}`).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("combobox", { name: "Intervalo randômico de disparo" }).textContent()).toContain("10 segundos");
    await context.close();
  });
});
