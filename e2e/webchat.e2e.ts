import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { hashPassword } from "../functions/src/features/auth/password";
import { parseConfig } from "../functions/src/platform/config";
import { type Container, createContainer } from "../functions/src/app/container";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson } from "./support/http";

/**
 * The website chat end to end (issue 31 items 3–4, docs/adr/0092, 0096): a visitor on the demo shop page (its own
 * origin, its own browser context) chats with an attendant in the app (another context, the app's origin). The
 * reply reaches the widget over the visitor's socket without a reload; a reload keeps the conversation; what the
 * visitor writes is only ever text in the attendant's page.
 */
let browser: Browser;
let container: Container;
let agent: Page;
let visitor: Page;
let shopUrl: string;
let publicKey: string;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const http = <T = Record<string, unknown>>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);

beforeAll(async () => {
  container = createContainer(parseConfig(inject("platformEnv")));
  browser = await launchBrowser();
  const now = new Date();
  const { companies, plans, settings, users } = container.repos;
  const plan = await plans.create({ name: `Plano ${unique()}`, users: 5, connections: 3, queues: 2, value: 10, useCampaigns: false, useSchedules: false, useInternalChat: false, useExternalApi: false, useKanban: false, useOpenAi: false, useIntegrations: false, useInternal: true }, now);
  const email = `webchat-${unique()}@e2e.test`;
  const company = await companies.create(
    { name: `Loja ${unique()}`, email, phone: "", planId: plan.id, status: true, dueDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), recurrence: "MENSAL", timezone: DEFAULT_TIME_ZONE, trialExpiration: null, document: "" },
    now,
  );
  await settings.putMany(company.id, { ...COMPANY_SETTING_DEFAULTS }, now);
  await users.create(company.id, { name: "Carla Atende", email, passwordHash: await hashPassword("Senha1234", 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] }, now);
  // a second admin for the HTTP call (signing in again as the browser's user would end its session)
  const apiEmail = `webchat-api-${unique()}@e2e.test`;
  await users.create(company.id, { name: "API Admin", email: apiEmail, passwordHash: await hashPassword("Senha1234", 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] }, now);

  // the demo shop's address, from its tab on the simulator page
  const tab = await (await fetch(`${baseUrl()}/simulator/shop`)).text();
  shopUrl = /<code>(http:\/\/[^<]+)<\/code>/.exec(tab)![1]!;
  const token = (await http<{ token: string }>("/api/auth/login", { method: "POST", body: { email: apiEmail, password: "Senha1234" } })).data.token;
  const made = await http<{ id: number }>("/api/whatsapp", { method: "POST", token, body: { name: "Site da loja", provider: "webchat", allowedOrigins: [shopUrl], greeting: "Olá! Em que podemos ajudar?", askName: true } });
  expect(made.status).toBe(200);
  publicKey = (await http<{ channelSettings: { publicKey: string } }>(`/api/whatsapp/${made.data.id}`, { token })).data.channelSettings.publicKey;

  agent = await (await newContext(browser)).newPage();
  await login(agent, email, "Senha1234");
  await agent.getByTestId("side-menu").getByRole("link").first().waitFor();
  // the visitor: the shop's origin. The widget's shadow root is closed; opened here only so the test can look in
  const shop = await browser.newContext({ locale: "pt-BR", viewport: { width: 1100, height: 800 } });
  await shop.addInitScript(() => {
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) {
      return attach.call(this, { ...init, mode: "open" });
    };
  });
  visitor = await shop.newPage();
});
afterAll(async () => {
  await agent?.context().close();
  await visitor?.context().close();
  await browser?.close();
});

const widgetSays = (text: string) => visitor.locator(".msg", { hasText: text });

describe("the website chat", () => {
  it("a visitor on the shop chats with an attendant: the reply arrives without a reload, a reload keeps the conversation, a script is only text", async () => {
    await visitor.goto(`${shopUrl}/?key=${publicKey}`);
    await visitor.getByRole("button", { name: "Abrir o chat" }).click();
    await visitor.getByPlaceholder("Nome").fill("Paula Visitante");
    await visitor.getByRole("button", { name: "Começar" }).click();
    const input = visitor.getByPlaceholder("Escreva sua mensagem…");
    await input.fill("Vocês entregam em Campinas?");
    await input.press("Enter");
    await widgetSays("Vocês entregam em Campinas?").waitFor();

    // the attendant sees the ticket and answers
    await agent.goto("/tickets");
    await agent.getByTestId("subtab-pending").click();
    const card = agent.getByTestId("ticket-card").filter({ hasText: "Paula Visitante" });
    await card.first().waitFor({ timeout: 30_000 });
    await card.first().getByRole("button", { name: "Aceitar" }).click();
    await agent.getByTestId("ticket-view").waitFor();
    await agent.getByTestId("messages-list").getByText("Vocês entregam em Campinas?").waitFor();
    const composer = agent.getByTestId("composer-input");
    await composer.fill("Entregamos sim, em até 2 dias!");
    await composer.press("Enter");

    // on the visitor's socket: well under the 30 s fallback read, no reload
    await widgetSays("Entregamos sim, em até 2 dias!").waitFor({ timeout: 10_000 });
    await screenshot(visitor, "webchat-visitor");

    // a script-looking message is text in the attendant's page; nothing of it runs
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    await input.fill(hostile);
    await input.press("Enter");
    await agent.getByTestId("messages-list").getByText(hostile).waitFor({ timeout: 20_000 });
    expect(await agent.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await agent.getByTestId("messages-list").locator("img[src=x], script").count()).toBe(0);
    expect(await visitor.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await screenshot(agent, "webchat-agent");

    // a reload keeps the conversation (the token is in the shop origin's localStorage)
    await visitor.reload();
    await visitor.getByRole("button", { name: "Abrir o chat" }).click();
    await widgetSays("Vocês entregam em Campinas?").waitFor();
    await widgetSays("Entregamos sim, em até 2 dias!").waitFor();
    await widgetSays(hostile).waitFor();
    expect(await visitor.getByPlaceholder("Nome").count()).toBe(0);
  });
});
