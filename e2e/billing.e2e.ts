import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { formatDate, addMonths } from "@atende/shared/domain/format/dates";
import { billingPeriodOf } from "@atende/shared/domain/invoices/invoices";
import { createCompaniesRepository, type Company } from "../functions/src/features/companies/companies.repository";
import { createInvoicesRepository, type Invoice } from "../functions/src/features/invoices/invoices.repository";
import { createPlansRepository } from "../functions/src/features/plans/plans.repository";
import { createDb } from "../functions/src/platform/db/client";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson } from "./support/http";
import { LOGINS } from "./support/seed";

/**
 * Billing in the browser: the demo admin pays an invoice with Pix on /financeiro, the fake bank (the local
 * runner's stand-in for a PSP) is paid by the test, its webhook renews the licence: PAGO and a later due date.
 */
let browser: Browser;
let page: Page;
const db = () => createDb({ tableName: inject("tableName"), endpoint: inject("dynamoEndpoint"), region: "us-east-1" });

/** The demo company and a fresh invoice of its current period (what the minute tick issues 10 days ahead). */
const invoiceForDemo = async (): Promise<{ company: Company; invoice: Invoice }> => {
  const companies = createCompaniesRepository(db());
  let company: Company | undefined;
  let cursor: string | undefined;
  do {
    const listed = await companies.listPage(100, cursor);
    company = listed.items.find((c) => c.name === LOGINS.admin.company) ?? company;
    cursor = listed.cursor;
  } while (cursor && !company);
  if (!company?.dueDate || !company.planId) throw new Error("demo company not seeded");
  const plan = await createPlansRepository(db()).findById(company.planId);
  const invoices = createInvoicesRepository(db());
  const base = { companyId: company.id, detail: `E2E ${Date.now().toString(36)}`, value: plan?.value ?? 100, dueDate: company.dueDate };
  // a platform reused between runs may already hold this period's invoice: then a period of its own
  const invoice =
    (await invoices.createForPeriod({ ...base, period: billingPeriodOf(company.dueDate) }, new Date())) ??
    (await invoices.createForPeriod({ ...base, period: `${billingPeriodOf(company.dueDate)}-e2e-${Date.now()}` }, new Date()));
  if (!invoice) throw new Error("invoice not created");
  return { company, invoice };
};

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
});
afterAll(async () => {
  await page?.context().close().catch(() => undefined);
  await browser?.close();
});

describe("billing", () => {
  it("the admin pays an invoice with Pix; once the bank confirms, the invoice is PAGO and the licence moved", async () => {
    const { company, invoice } = await invoiceForDemo();
    const due = company.dueDate ?? "";
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await expect.poll(() => page.getByTestId("greeting").textContent()).toContain(formatDate(due));

    await page.goto("/financeiro");
    const row = page.getByTestId("invoice-row").filter({ hasText: invoice.detail });
    await row.getByRole("button", { name: "PAGAR" }).click();
    const dialog = page.getByRole("dialog", { name: "Falta pouco!" });
    await dialog.getByTestId("checkout-plan").waitFor();
    await dialog.getByRole("button", { name: "Próximo" }).click();
    await dialog.getByTestId("checkout-review").waitFor();
    await dialog.getByRole("button", { name: "PAGAR" }).click();
    const codeField = dialog.getByTestId("pix-code");
    await codeField.waitFor();
    const code = await codeField.inputValue();
    expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
    await expect.poll(() => page.getByText("Assinatura realizada com sucesso!, aguardando a realização do pagamento").count()).toBeGreaterThan(0);
    await screenshot(page, "billing-pix");

    // the payer's bank: pay by the copy-paste code; the fake bank then calls our webhook like a PSP
    const paid = await httpJson<{ webhookStatus: number }>(baseUrl(), "/simulator/bank/api/pay", { method: "POST", body: { code } });
    expect(paid.status).toBe(200);
    expect(paid.data.webhookStatus).toBe(200);

    const newDue = formatDate(addMonths(due, 1));
    await expect.poll(() => dialog.getByTestId("checkout-renewed").textContent().catch(() => ""), { timeout: 15_000 }).toContain(newDue);

    await page.goto("/financeiro");
    await page.reload();
    const paidRow = page.getByTestId("invoice-row").filter({ hasText: invoice.detail });
    await expect.poll(() => paidRow.getByTestId("invoice-paid").textContent(), { timeout: 15_000 }).toBe("PAGO");
    await expect.poll(() => page.getByTestId("greeting").textContent()).toContain(newDue);
    await screenshot(page, "billing-paid");
  });
});
