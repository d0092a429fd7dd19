import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";

/**
 * Administration, in the browser: sign-up to first login, the password reset through the email the platform
 * wrote, queues with a chatbot option, users, settings with company hours, and the operator's plans, helps
 * and dashboard.
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
const signIn = async (page: Page, email: string, password: string) => {
  await login(page, email, password);
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
  await page.getByTestId("side-menu").getByRole("link").first().waitFor();
};
const goMenu = async (page: Page, label: string, path: RegExp) => {
  await page.getByTestId("side-menu").getByRole("link", { name: label, exact: true }).click();
  await page.waitForURL(path);
};

/** The newest .eml the platform wrote to `to`, decoded enough to read the text body. */
const latestMailTo = async (to: string): Promise<string> => {
  const dir = inject("platformEnv").MAIL_DIR!;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort().reverse();
  for (const f of files) {
    const text = await readFile(join(dir, f), "utf8");
    if (text.includes(`To: ${to}`)) return text;
  }
  return "";
};

// the company signed up in the first test, used by the ones after it
const owner = { company: `Padaria ${unique()}`, email: `dono-${unique()}@e2e.test`, password: "Senha123" };

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const p of pages) await p.context().close().catch(() => undefined);
  await browser?.close();
});

describe("sign-up and password reset", () => {
  it("a prospect signs up for a trial and logs in", async () => {
    const page = await openPage();
    await page.goto("/login");
    await page.getByRole("link", { name: /criar conta|cadastre|sign ?up/i }).first().click();
    await page.waitForURL(/\/signup$/);
    await page.getByLabel("Nome da empresa").fill(owner.company);
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByLabel("Telefone").pressSequentially("11988887777");
    expect(await page.getByLabel("Telefone").inputValue()).toBe("(11) 98888-7777");
    await page.getByLabel("Senha").fill(owner.password);
    await page.getByLabel("Plano").click();
    await page.getByRole("option").first().click();
    await screenshot(page, "admin-signup");
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await page.getByText("Usuário criado com sucesso! Faça seu login!").waitFor({ timeout: 10_000 });
    await page.waitForURL(/\/login$/);
    await signIn(page, owner.email, owner.password);
    // a trial of 3 days: the login warns the subscription is due soon
    await page.getByText(/Sua assinatura vence em 3 dias/).waitFor({ timeout: 10_000 });
  });

  it("a forgotten password is reset with the code from the email", async () => {
    const page = await openPage();
    await page.goto("/forgetpsw");
    await page.getByRole("heading", { name: "Redefinir senha" }).waitFor({ timeout: 30_000 });
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByRole("button", { name: "Enviar Email" }).click();
    await page.getByText("Email enviado com sucesso!").waitFor({ timeout: 10_000 });
    let mail = "";
    await expect.poll(async () => (mail = await latestMailTo(owner.email)), { timeout: 10_000 }).toContain("código");
    const code = /código de verificação é: (\d{6})/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel("Código de verificação").fill(code!);
    await page.getByLabel("Nova senha").fill("fraca");
    await page.getByLabel("Confirme a senha").fill("outra");
    await page.getByRole("button", { name: "Redefinir Senha" }).click();
    await page.getByText("As senhas não correspondem").waitFor();
    await page.getByLabel("Nova senha").fill("NovaSenha9");
    await page.getByLabel("Confirme a senha").fill("NovaSenha9");
    await screenshot(page, "admin-reset-step2");
    await page.getByRole("button", { name: "Redefinir Senha" }).click();
    await page.getByText("Senha redefinida com sucesso.").waitFor({ timeout: 10_000 });
    await page.waitForURL(/\/login$/);
    owner.password = "NovaSenha9";
    await signIn(page, owner.email, owner.password);
  });

  it("an unknown email is told 'Email não encontrado' and still moves to step 2", async () => {
    const page = await openPage();
    await page.goto("/forgetpsw");
    await page.getByRole("heading", { name: "Redefinir senha" }).waitFor({ timeout: 30_000 });
    await page.getByLabel("E-mail").fill(`ninguem-${unique()}@e2e.test`);
    await page.getByRole("button", { name: "Enviar Email" }).click();
    await page.getByText("Email não encontrado").waitFor({ timeout: 10_000 });
    await page.getByLabel("Código de verificação").waitFor();
  });
});

describe("a company admin configures the tenant", () => {
  it("adds a queue with a colour and a chatbot option", async () => {
    const page = await openPage();
    await signIn(page, owner.email, owner.password);
    await goMenu(page, "Filas & Chatbot", /\/queues$/);
    await page.getByRole("button", { name: "Adicionar fila" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Nome").fill("Financeiro");
    await dialog.getByRole("radio", { name: "#1273DE" }).click();
    await dialog.getByLabel("Mensagem de saudação").fill("Olá! Financeiro aqui.");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await page.getByText("Queue saved successfully").first().waitFor({ timeout: 10_000 });
    await dialog.getByRole("button", { name: "Adicionar opção" }).click();
    await dialog.getByTestId("queue-option").first().waitFor();
    await dialog.getByLabel("Título").first().fill("Segunda via de boleto");
    await dialog.getByRole("button", { name: "Salvar opção" }).first().click();
    await page.getByText("Opção salva").waitFor({ timeout: 10_000 });
    await screenshot(page, "admin-queue-dialog");
    await dialog.getByRole("button", { name: "Salvar" }).last().click();
    await page.getByTestId("queue-row").filter({ hasText: "Financeiro" }).waitFor();
  });

  it("adds a user who shows up in the list", async () => {
    const page = await openPage();
    await signIn(page, owner.email, owner.password);
    await goMenu(page, "Usuários", /\/users$/);
    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Nome").fill("Carla Atendente");
    await dialog.getByLabel("Senha").fill("carla123");
    await dialog.getByLabel("E-mail").fill(`carla-${unique()}@e2e.test`);
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await page.getByText("Usuário salvo com sucesso!").waitFor({ timeout: 10_000 });
    await page.getByTestId("user-row").filter({ hasText: "Carla Atendente" }).waitFor();
    await page.getByLabel("Pesquisar...").fill("carla");
    await expect.poll(() => page.getByTestId("user-row").count()).toBe(1);
    await screenshot(page, "admin-users");
  });

  it("switches the schedule type to 'company' and saves the company hours", async () => {
    const page = await openPage();
    await signIn(page, owner.email, owner.password);
    await goMenu(page, "Configurações", /\/settings$/);
    await page.getByTestId("setting-scheduleType").click();
    await page.getByRole("option", { name: "Empresa" }).click();
    await page.getByText("Operação atualizada com sucesso.").waitFor({ timeout: 10_000 });
    await page.getByRole("tab", { name: "Horários" }).click();
    const monday = page.getByLabel("Segunda-feira Início");
    await monday.fill("");
    await monday.pressSequentially("0730");
    expect(await monday.inputValue()).toBe("07:30");
    await page.getByRole("button", { name: "Salvar" }).click();
    await page.getByText("Horários atualizados com sucesso.").waitFor({ timeout: 10_000 });
    await screenshot(page, "admin-settings-hours");
  });
});

describe("the operator", () => {
  it("adds a plan and a help video; the help grid plays it and Escape closes", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.operator.email, LOGINS.operator.password);
    await goMenu(page, "Configurações", /\/settings$/);
    for (const tab of ["Logo", "Empresas", "Cadastrar Empresa", "Planos", "Ajuda"]) await page.getByRole("tab", { name: tab, exact: true }).waitFor();

    await page.getByRole("tab", { name: "Planos" }).click();
    const planName = `Plano ${unique()}`;
    await page.getByTestId("plan-form").getByLabel("Nome").fill(planName);
    await page.getByTestId("plan-form").getByLabel("Valor").fill("59.9");
    await page.getByRole("button", { name: "Salvar" }).click();
    await page.getByText("Operação realizada com sucesso!").first().waitFor({ timeout: 10_000 });
    await page.getByTestId("plan-row").filter({ hasText: planName }).waitFor();
    expect((await page.getByTestId("plan-row").filter({ hasText: planName }).textContent())?.replace(/\s/g, " ")).toContain("R$ 59,90");

    await page.getByRole("tab", { name: "Empresas" }).click();
    await page.getByTestId("company-row").filter({ hasText: owner.company }).click();
    expect(await page.getByTestId("company-form").getByLabel("Nome").inputValue()).toBe(owner.company);
    await screenshot(page, "admin-companies");

    await page.getByRole("tab", { name: "Ajuda" }).click();
    const title = `Conectar o WhatsApp ${unique()}`;
    await page.getByTestId("help-form").getByLabel("Título").fill(title);
    await page.getByTestId("help-form").getByLabel("Código do vídeo").fill("dQw4w9WgXcQ");
    await page.getByRole("button", { name: "Salvar" }).click();
    await page.getByTestId("help-row").filter({ hasText: title }).waitFor({ timeout: 10_000 });

    await goMenu(page, "Ajuda", /\/helps$/);
    await page.getByTestId("help-card").filter({ hasText: title }).click();
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
  });

  it("uploads a login logo that the login page then shows; other formats are refused", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.operator.email, LOGINS.operator.password);
    await goMenu(page, "Configurações", /\/settings$/);
    await page.getByRole("tab", { name: "Logo", exact: true }).click();
    await page.getByTestId("logo-file").setInputFiles({ name: "logo.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
    await page.getByTestId("logo-destination").click();
    await page.getByRole("option", { name: "Login" }).click();
    await page.getByRole("button", { name: "Enviar" }).click();
    await page.getByText("Use somente arquivos em formato PNG, ICO ou SVG!").waitFor();
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
    await page.getByTestId("logo-file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
    await page.getByRole("button", { name: "Enviar" }).click();
    await page.getByText("Arquivo enviado com sucesso!").waitFor({ timeout: 10_000 });

    const visitor = await openPage();
    await visitor.goto("/login");
    const logo = visitor.getByTestId("logo-login");
    await logo.waitFor();
    const naturalWidth = (): Promise<number> => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth);
    await expect.poll(naturalWidth).toBe(1);
  });

  it("sees the dashboard with the platform cards; an empty filter asks for one", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.operator.email, LOGINS.operator.password);
    await goMenu(page, "Dashboard", /\/$/);
    await page.getByTestId("card-companies").waitFor();
    await expect.poll(async () => Number(await page.getByTestId("card-companies").locator("h4").textContent()), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await page.getByTestId("chart-ticketsDay").waitFor({ timeout: 15_000 });
    await page.getByTestId("period-select").click();
    await page.getByRole("option", { name: "Nenhum selecionado" }).click();
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.getByText("Parametrize o filtro").waitFor();
    await screenshot(page, "admin-dashboard");
  });
});
