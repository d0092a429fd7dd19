import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";

/**
 * Announcements and file lists, in the browser: the operator publishes a high-priority announcement that the
 * demo attendant sees in the top-bar popover (live, no reload); the demo admin creates a file list with one
 * uploaded file and finds it after a reload. Names are unique: other test files share the platform.
 */
let browser: Browser;
const pages: Page[] = [];
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const openPage = async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  pages.push(page);
  return page;
};
const signIn = async (page: Page, who: { email: string; password: string }) => {
  await login(page, who.email, who.password);
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
  await page.getByTestId("side-menu").getByRole("link").first().waitFor();
};

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const p of pages) await p.context().close().catch(() => undefined);
  await browser?.close();
});

describe("announcements", () => {
  it("the operator publishes a high-priority announcement; the attendant sees it in red without reloading", { timeout: 120_000 }, async () => {
    const attendant = await openPage();
    await signIn(attendant, LOGINS.attendant);
    // the attendant's popover is open, its list loaded, before the announcement exists
    await attendant.getByRole("button", { name: "Informativos" }).click();
    const popover = attendant.getByTestId("announcements-popover");
    await popover.getByText(/Nenhum informativo|./).first().waitFor();
    await attendant.waitForLoadState("networkidle");

    const operator = await openPage();
    await signIn(operator, LOGINS.operator);
    await operator.goto("/announcements");
    await operator.getByRole("heading", { name: "Informativos" }).waitFor();
    const title = `Manutenção ${unique()}`;
    expect(await popover.getByTestId("announcement-item").filter({ hasText: title }).count()).toBe(0);
    await operator.getByRole("button", { name: "Novo informativo" }).click();
    const dialog = operator.getByRole("dialog");
    await dialog.getByLabel(/Título/).fill(title);
    await dialog.getByLabel(/Texto/).fill("O sistema fica fora do ar sábado às 22h.");
    await dialog.getByRole("combobox").click();
    await operator.getByRole("option", { name: "Alta" }).click();
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    const row = operator.getByTestId("announcement-row").filter({ hasText: title });
    await row.waitFor();
    expect(await row.getByText("Alta").count()).toBe(1);

    // live: the realtime event refreshes the attendant's open popover (no click, no reload)
    const item = popover.getByTestId("announcement-item").filter({ hasText: title });
    await item.waitFor({ timeout: 30_000 });
    expect(await item.getAttribute("data-priority")).toBe("1");
    expect(await item.getByText(title).evaluate((el) => getComputedStyle(el).color)).toBe("rgb(211, 47, 47)");
    await item.click();
    await attendant.getByRole("dialog").getByText("O sistema fica fora do ar sábado às 22h.").waitFor();
    await screenshot(attendant, "announcement-popover");
  });
});

describe("file lists", () => {
  it("the admin creates a file list with one uploaded file and sees it after a reload", { timeout: 120_000 }, async () => {
    const admin = await openPage();
    await signIn(admin, LOGINS.admin);
    await admin.goto("/files");
    await admin.getByRole("heading", { name: "Lista de arquivos" }).waitFor();
    const name = `Catálogo ${unique()}`;
    await admin.getByRole("button", { name: "Adicionar lista" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel(/^Nome/).fill(name);
    await dialog.getByLabel(/Mensagem/).fill("Segue o nosso catálogo.");
    await dialog.getByRole("button", { name: "Adicionar arquivo" }).click();
    await dialog.getByLabel("Nome do arquivo").fill("Catálogo de verão");
    await dialog.getByTestId("file-option-input-0").setInputFiles({ name: "catalogo.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 catálogo") });
    await dialog.getByTestId("file-option-file").getByText("catalogo.pdf").waitFor();
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await dialog.waitFor({ state: "detached" });

    await admin.reload();
    await admin.getByPlaceholder("Pesquisar...").fill(name.toLowerCase());
    const row = admin.getByTestId("file-list-row").filter({ hasText: name });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByText("1 arquivo(s)").count()).toBe(1);
    await row.getByRole("button", { name: "Editar" }).click();
    await admin.getByRole("dialog").getByTestId("file-option-file").getByText("catalogo.pdf").waitFor();
    await screenshot(admin, "file-list-dialog");
    await admin.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
    await admin.getByRole("dialog").waitFor({ state: "detached" });
    await row.waitFor();
    await screenshot(admin, "file-lists");
  });
});
