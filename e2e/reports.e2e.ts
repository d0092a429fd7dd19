import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * Relatórios in the browser (issue 13 item 6): a simulator customer writes, the admin accepts and closes the ticket
 * (API), then opens Relatórios from the menu, filters the month, finds the customer's row with its figures, exports
 * the month as CSV and the downloaded file holds that row (UTF-8 with BOM, `;`-separated).
 */
let browser: Browser;
let page: Page;
let companyId = 0;
let whatsappId = 0;
let token = "";
const stamp = Date.now().toString(36).slice(-5);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Cliente Relatório ${stamp}` };
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, { token, ...init });
const customerSays = (body: string) =>
  httpJson(baseUrl(), `/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: customer.name } });
type TicketRow = { id: number; status: string; contact: { number: string } | null };
const ticketOfCustomer = async () => (await http<{ tickets: TicketRow[] }>("/api/tickets?showAll=true")).data.tickets.find((x) => x.contact?.number === customer.number);

beforeAll(async () => {
  browser = await launchBrowser();
  ({ companyId, whatsappId, token } = await connectSimulator(baseUrl(), LOGINS.admin));
});

afterAll(async () => {
  await browser?.close();
});

describe("Relatórios", () => {
  it("the admin filters the month, reads the customer's cycle and exports it as CSV", { timeout: 240_000 }, async () => {
    await customerSays("Olá, preciso de ajuda");
    const ticket = await poll(ticketOfCustomer, (x) => Boolean(x));
    expect(ticket).toBeDefined();
    expect((await http(`/api/tickets/${ticket!.id}`, { method: "PUT", body: { status: "open" } })).status).toBe(200);
    expect((await http(`/api/messages/${ticket!.id}`, { method: "POST", body: { body: "Claro, como posso ajudar?" } })).status).toBe(201);
    expect((await http(`/api/tickets/${ticket!.id}`, { method: "PUT", body: { status: "closed" } })).status).toBe(200);

    const context = await newContext(browser, {});
    page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.getByTestId("side-menu").getByRole("link", { name: "Relatórios", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/reports");

    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, "0");
    const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
    const lastDay = new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate();
    await page.getByTestId("report-date-from").fill(`${month}-01`);
    await page.getByTestId("report-date-to").fill(`${month}-${pad(lastDay)}`);
    await page.getByTestId("report-search").fill(customer.name);
    const row = page.getByTestId("report-row").filter({ hasText: customer.name });
    await row.waitFor({ timeout: 30_000 });
    // the search applies after its debounce: other files' cycles of the month show until then
    await expect.poll(() => page.getByTestId("report-row").count(), { timeout: 15_000 }).toBe(1);
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("Finalizado");
    expect(text).toMatch(/\d{8}\d+/); // the protocol number
    expect(await page.getByTestId("report-definitions").textContent()).toContain("Primeira resposta");
    await screenshot(page, "reports-01-month");

    // the whole month (search cleared) as CSV: small, so written at once; the link downloads the file
    await page.getByTestId("report-search").fill("");
    await page.getByTestId("report-export-csv").click();
    const link = page.getByTestId("report-export-download");
    await link.waitFor({ timeout: 60_000 });
    const downloading = page.waitForEvent("download");
    await link.click();
    const download = await downloading;
    const bytes = new Uint8Array(readFileSync((await download.path())!));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1).split("\r\n");
    expect(lines[0]).toContain("Protocolo;Ticket;Contato;Número");
    const mine = lines.filter((l) => l.includes(customer.number));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain(customer.name);
    expect(mine[0]).toContain(";Finalizado;");
    expect(lines.length - 2).toBe(Number((await link.textContent())?.match(/\d+/)?.[0]));
    await screenshot(page, "reports-02-exported");
  });
});
