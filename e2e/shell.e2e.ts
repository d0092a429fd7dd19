import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { formatDate } from "@atende/shared/domain/format/dates";
import { hashPassword } from "../functions/src/features/auth/password";
import { parseConfig } from "../functions/src/platform/config";
import { type Container, createContainer } from "../functions/src/app/container";
import { launchBrowser, login, newContext, screenshot } from "./support/browser";
import { LOGINS } from "./support/seed";

/**
 * The app shell: sign-in per profile and the menu each one gets, login errors, one session per user,
 * languages, the to-do page and a phone-sized screen.
 */
let browser: Browser;
let container: Container;
const pages: Page[] = [];

const ATTENDANT_MENU = ["Atendimentos", "Respostas rápidas", "Kanban", "Tarefas", "Contatos", "Agendamentos", "Tags", "Chat interno", "Ajuda"];
const ADMIN_ONLY = ["Dashboard", "Campanhas", "Listas de contatos", "Open.AI", "Integrações", "Conexões", "Lista de arquivos", "Filas & Chatbot", "Usuários", "API", "Financeiro", "Configurações"];

const openPage = async (opts: { viewport?: { width: number; height: number } } = {}) => {
  const context = await newContext(browser, opts);
  const page = await context.newPage();
  pages.push(page);
  return page;
};

const menuLabels = async (page: Page) => {
  const menu = page.getByTestId("side-menu");
  await menu.getByRole("link").first().waitFor();
  return menu.getByRole("link").allTextContents();
};

const signIn = async (page: Page, who: { email: string; password: string }) => {
  await login(page, who.email, who.password);
  await page.waitForURL(/\/tickets$/);
  await page.getByTestId("side-menu").getByRole("link").first().waitFor();
};

/** The page's scrollable width (the string runs in the browser; this file has no DOM types). */
const pageWidth = (page: Page) => page.evaluate<number>("document.documentElement.scrollWidth");

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A company of its own (so these tests never disturb the seeded users), due on `dueDate`, with one admin. */
const createCompanyWithAdmin = async (dueDate: Date) => {
  const now = new Date();
  const { companies, plans, settings, users } = container.repos;
  const plan = await plans.create(
    { name: `Plano ${unique()}`, users: 5, connections: 1, queues: 2, value: 10, useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true, useInternal: true },
    now,
  );
  const email = `shell-${unique()}@e2e.test`;
  const company = await companies.create(
    { name: `Empresa ${unique()}`, email, phone: "", planId: plan.id, status: true, dueDate: dueDate.toISOString(), recurrence: "MENSAL", timezone: DEFAULT_TIME_ZONE, trialExpiration: null, document: "" },
    now,
  );
  await settings.putMany(company.id, { ...COMPANY_SETTING_DEFAULTS }, now);
  const password = "Senha1234";
  await users.create(
    company.id,
    { name: "Clara Teste", email, passwordHash: await hashPassword(password, 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] },
    now,
  );
  return { company, email, password };
};

const days = (n: number) => new Date(Date.now() + n * 86_400_000);

beforeAll(async () => {
  container = createContainer(parseConfig(inject("platformEnv")));
  browser = await launchBrowser();
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.context().close()));
});

afterAll(async () => {
  await browser?.close();
});

describe("sign-in and the menu each profile gets", () => {
  it("the attendant sees only the shared entries, lands on /tickets and cannot open admin pages", async () => {
    const page = await openPage();
    await login(page, LOGINS.attendant.email, LOGINS.attendant.password);
    await page.getByText("Login efetuado com sucesso!").waitFor();
    await page.waitForURL(/\/tickets$/);
    await expect.poll(() => menuLabels(page)).toEqual(ATTENDANT_MENU);
    await expect.poll(() => page.getByTestId("greeting").textContent()).toContain("Beto Atendente");
    await screenshot(page, "shell-attendant-tickets");

    await page.goto("/");
    await page.waitForURL(/\/tickets$/);

    await page.goto("/connections");
    await page.getByText("Você não tem permissão para acessar este recurso.").waitFor({ timeout: 10_000 });
    await page.waitForURL(/\/tickets$/);
  });

  it("the admin sees the management entries but not announcements, the due date and the dashboard", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.admin);
    await expect.poll(() => menuLabels(page)).toEqual(expect.arrayContaining([...ATTENDANT_MENU, ...ADMIN_ONLY]));
    const labels = await menuLabels(page);
    expect(labels).not.toContain("Informativos");
    await expect.poll(() => page.getByTestId("greeting").textContent()).toMatch(/Ana Admin.*Demo Atendimento.*\d{2}\/\d{2}\/\d{4}/);
    await expect.poll(() => page.getByTestId("app-version").textContent()).toMatch(/Versão \S+/);

    // top bar settings are kept in this browser: theme, volume (0..1 by 0.1) and the menu's open/closed state
    const stored = (key: string) => page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(key)})`);
    const themeBefore = await page.evaluate<string>("getComputedStyle(document.body).backgroundColor");
    await page.getByTestId("theme-toggle").click();
    expect(await stored("themeMode")).toMatch(/^(light|dark)$/);
    expect(await page.evaluate<string>("getComputedStyle(document.body).backgroundColor")).not.toBe(themeBefore);
    await page.getByRole("button", { name: "Volume" }).click();
    await page.getByRole("slider", { name: "Volume" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => stored("volume")).toBe("0.9");
    await page.keyboard.press("Escape");
    await page.getByTestId("drawer-toggle").click();
    await expect.poll(() => page.getByTestId("side-menu").isVisible()).toBe(false);
    await page.reload();
    await page.getByTestId("greeting").waitFor();
    expect(await page.getByTestId("side-menu").isVisible()).toBe(false);
    expect(await stored("drawerOpen")).toBe("false");
    await page.getByTestId("drawer-toggle").click();
    await page.getByTestId("side-menu").waitFor({ state: "visible" });

    await page.getByTestId("side-menu").getByRole("link", { name: "Dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("main").waitFor();
    await screenshot(page, "shell-admin-dashboard");
    expect(new URL(page.url()).pathname).toBe("/"); // admins stay on the dashboard (attendants go to /tickets)

    // signed in, a public page sends the user into the app
    await page.goto("/login");
    await page.waitForURL((url) => url.pathname === "/");

    await page.getByTestId("logout").click();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate<string | null>("localStorage.getItem('token')")).toBeNull();
    await page.goto("/tickets");
    await page.waitForURL(/\/login$/);
  });

  it("every page of every profile's menu opens with its title and no error, logging nothing in the console", { timeout: 240_000 }, async () => {
    for (const who of [LOGINS.admin, LOGINS.operator, LOGINS.attendant]) {
      const page = await openPage();
      const crashes: string[] = [];
      // what a newcomer's browser would log: console errors, failed requests and error answers (e.g. a 404 logo)
      const logged: string[] = [];
      page.on("pageerror", (err) => crashes.push(`${page.url()}: ${err.message}`));
      // outside resources (a help video's YouTube thumbnail another file added) cannot load in this sandbox: only
      // our own origin's failures count
      const ours = (url: string | undefined) => !url || !/^https?:/.test(url) || new URL(url).origin === new URL(page.url()).origin;
      page.on("console", (m) => void (m.type() === "error" && ours(m.location().url) && logged.push(`${page.url()}: console: ${m.text()} ${JSON.stringify(m.location())}`)));
      page.on("requestfailed", (r) => void (!/ERR_ABORTED/.test(r.failure()?.errorText ?? "") && ours(r.url()) && logged.push(`${page.url()}: failed: ${r.url()} ${r.failure()?.errorText ?? ""}`)));
      page.on("response", (r) => void (r.status() >= 400 && logged.push(`${page.url()}: ${r.status()} ${r.request().method()} ${r.url()}`)));
      for (const open of ["/login", "/signup"]) {
        await page.goto(open);
        await page.getByRole("button").first().waitFor();
      }
      await signIn(page, who);
      const hrefs = await page.getByTestId("side-menu").getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
      expect(hrefs.length).toBeGreaterThan(who === LOGINS.attendant ? 5 : 10);
      for (const href of [...new Set(hrefs)].filter((h) => h.startsWith("/"))) {
        await page.goto(href);
        const titled = await page
          .getByRole("main")
          .getByRole("heading")
          .first()
          .waitFor({ timeout: 15_000 })
          .then(() => true)
          .catch(() => false);
        if (!titled) await screenshot(page, `shell-untitled${href.replaceAll("/", "-")}`);
        expect(titled, `${href} shows no title`).toBe(true);
        expect(new URL(page.url()).pathname, `${href} redirected`).toBe(href);
        expect(await page.getByRole("alert").filter({ hasText: /erro|error|não|permissão/i }).count(), `${href} shows an error`).toBe(0);
        await page.waitForLoadState("networkidle").catch(() => undefined);
      }
      expect(crashes).toEqual([]);
      expect(logged).toEqual([]);
    }
  });

  it("the simulator page speaks the app's language: Portuguese by default, English and Spanish when chosen", async () => {
    const page = await openPage();
    const logged: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && logged.push(m.text())));
    await page.goto("/simulator");
    await expect.poll(() => page.locator("header span").textContent()).toBe("Simulador WhatsApp — telefone e clientes");
    await page.getByTestId("language").selectOption("en");
    await expect.poll(() => page.locator("header span").textContent()).toBe("WhatsApp simulator — phone and customers");
    expect(await page.getByTestId("send-message").textContent()).toBe("Send");
    // the choice is the app's: its login page now speaks English too, and back on the simulator Spanish sticks
    await page.goto("/login");
    await page.getByRole("button", { name: /login|sign in/i }).waitFor();
    await page.evaluate("localStorage.setItem('language', 'es')");
    await page.goto("/simulator");
    await expect.poll(() => page.locator("header span").textContent()).toBe("Simulador de WhatsApp — teléfono y clientes");
    expect(await page.evaluate<string>("document.documentElement.lang")).toBe("es");
    expect(logged).toEqual([]);
  });

  it("only the super user sees Informativos", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.operator);
    await expect.poll(() => menuLabels(page)).toContain("Informativos");
    const labels = await menuLabels(page);
    expect(labels).toEqual(expect.arrayContaining(ADMIN_ONLY));
    await page.getByTestId("side-menu").getByRole("link", { name: "Informativos" }).click();
    await page.waitForURL(/\/announcements$/);
    await page.getByRole("main").waitFor();
    await screenshot(page, "shell-super-menu");
  });
});

describe("login errors and warnings", () => {
  it("a wrong password shows the translated credentials error and stays on /login", async () => {
    const page = await openPage();
    await login(page, LOGINS.attendant.email, "wrong-password");
    await page.getByText("Erro de autenticação. Verifique o e-mail e a senha.").waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/login");
    await screenshot(page, "shell-login-wrong-password");
    // keep the shared platform's login throttle clean for the other e2e files
    for (const key of [`signin:email#${LOGINS.attendant.email}`, "signin:ip#127.0.0.1", "signin:ip#::ffff:127.0.0.1", "signin:ip#::1"]) await container.repos.limiter.reset(key);
  });

  it("an expired company is refused with its due date and a call to contact support", async () => {
    const dueDate = days(-3);
    const { email, password } = await createCompanyWithAdmin(dueDate);
    const page = await openPage();
    await login(page, email, password);
    const alert = page.getByTestId("company-expired");
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`Opss! Sua assinatura venceu em ${formatDate(dueDate)}. Entre em contato com o suporte para mais informações.`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await screenshot(page, "shell-login-company-expired");
  });

  it("a company due tomorrow is warned with the singular 'dia'", async () => {
    const { email, password } = await createCompanyWithAdmin(days(1));
    const page = await openPage();
    await login(page, email, password);
    await page.getByText("Sua assinatura vence em 1 dia.").waitFor({ timeout: 10_000 });
    await page.waitForURL(/\/tickets$/);
  });
});

describe("one session per user", () => {
  it("a second login elsewhere ends the first: message, then back to /login", async () => {
    const { email, password } = await createCompanyWithAdmin(days(30));
    const first = await openPage();
    await signIn(first, { email, password });
    await first.locator('[data-testid="app-shell"][data-realtime="open"]').waitFor();

    // the message shows for the 1 s before the reload: start watching before the second login
    const told = first.getByText("Sua conta foi acessada em outro computador.").waitFor({ timeout: 20_000 });
    const second = await openPage();
    await signIn(second, { email, password });
    await told;
    await screenshot(first, "shell-other-session");
    await first.waitForURL(/\/login$/, { timeout: 10_000 });
    expect(await first.evaluate<string | null>("localStorage.getItem('token')")).toBeNull();
    expect(new URL(second.url()).pathname).toBe("/tickets");
  });
});

describe("languages", () => {
  it("switching to English and Spanish changes the menu labels, and the choice is kept", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.attendant);
    await page.getByTestId("language-button").click();
    await page.getByRole("menuitem", { name: "English" }).click();
    await expect.poll(() => menuLabels(page)).toEqual(["Tickets", "Quick replies", "Kanban", "Tasks", "Contacts", "Schedules", "Tags", "Internal chat", "Help"]);
    await screenshot(page, "shell-english");

    await page.getByTestId("language-button").click();
    await page.getByRole("menuitem", { name: "Español" }).click();
    await expect.poll(() => menuLabels(page)).toEqual(["Atenciones", "Respuestas rápidas", "Kanban", "Tareas", "Contactos", "Agendamientos", "Etiquetas", "Chat interno", "Ayuda"]);

    await page.reload();
    await expect.poll(() => menuLabels(page)).toContain("Atenciones");
  });
});

describe("to-do page", () => {
  it("adds, edits and deletes a task, kept across reloads", async () => {
    const page = await openPage();
    await signIn(page, LOGINS.attendant);
    await page.getByTestId("side-menu").getByRole("link", { name: "Tarefas" }).click();
    await page.waitForURL(/\/todolist$/);

    const input = page.getByLabel("Nova tarefa");
    await page.getByRole("button", { name: "Adicionar" }).click(); // blank: nothing
    expect(await page.getByText("Nenhuma tarefa ainda.").isVisible()).toBe(true);

    await input.fill("Retornar ligação da Maria");
    await page.getByRole("button", { name: "Adicionar" }).click();
    await page.getByText("Retornar ligação da Maria").waitFor();
    await page.reload();
    await page.getByText("Retornar ligação da Maria").waitFor();

    await page.getByRole("button", { name: "Editar tarefa Retornar ligação da Maria" }).click();
    await page.getByLabel("Nova tarefa").fill("Enviar orçamento para a Maria");
    await page.getByRole("button", { name: "Salvar" }).click();
    await page.getByText("Enviar orçamento para a Maria").waitFor();
    expect(await page.getByText("Retornar ligação da Maria").count()).toBe(0);
    const stored = await page.evaluate<{ text: string; createdAt: string; updatedAt: string }[]>("JSON.parse(localStorage.getItem('tasks') ?? '[]')");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ text: "Enviar orçamento para a Maria", createdAt: expect.any(String), updatedAt: expect.any(String) });
    await screenshot(page, "shell-todo");

    await page.getByRole("button", { name: "Excluir tarefa Enviar orçamento para a Maria" }).click();
    await page.getByText("Nenhuma tarefa ainda.").waitFor();
  });
});

describe("phone-sized screen (390 px)", () => {
  it("login and the app work without horizontal scrolling; the menu opens as an overlay", async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, "shell-mobile-login");

    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL(/\/tickets$/);
    await page.getByTestId("greeting").waitFor({ state: "attached" });
    await screenshot(page, "shell-mobile-tickets");
    const menu = page.getByTestId("side-menu");
    expect(await menu.isVisible()).toBe(false);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);

    await page.getByTestId("drawer-toggle").click();
    await menu.getByRole("link", { name: "Tarefas" }).waitFor({ state: "visible" });
    await screenshot(page, "shell-mobile-menu");
    await menu.getByRole("link", { name: "Tarefas" }).click();
    await page.waitForURL(/\/todolist$/);
    await expect.poll(() => menu.isVisible()).toBe(false);
    await page.getByLabel("Nova tarefa").waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, "shell-mobile-todo");
  });
});
