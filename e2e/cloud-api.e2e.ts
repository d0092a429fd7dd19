import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { hashPassword } from "../functions/src/features/auth/password";
import { parseConfig } from "../functions/src/platform/config";
import { type Container, createContainer } from "../functions/src/app/container";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll } from "./support/http";

/**
 * The official WhatsApp Cloud API end to end (issue 12): an admin configures a Cloud API connection in the browser
 * with the simulator's number, subscribes the webhook on the simulator (Meta's handshake), tests it; a customer
 * writes through the Cloud API simulator, the attendant replies and the ticks turn blue when the customer reads;
 * a customer whose last message is 25 hours old can only get a template; QR and Cloud API tickets side by side.
 */
let browser: Browser;
let container: Container;
let page: Page;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const http = <T = Record<string, unknown>>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
type SimNumber = { phoneNumberId: string; wabaId: string; accessToken: string; appSecret: string; verifiedName: string; displayPhoneNumber: string };
type SimChat = { waId: string; messages: { id: string; direction: string; text: string; status: string; type: string }[] };
const simChat = async (waId: string) => (await http<{ chats: SimChat[] }>("/simulator/cloudapi/api/state")).data.chats.find((c) => c.waId === waId);

let admin: { email: string; password: string; companyId: number; apiEmail: string };
let num: SimNumber;

beforeAll(async () => {
  container = createContainer(parseConfig(inject("platformEnv")));
  browser = await launchBrowser();
  const now = new Date();
  const { companies, plans, settings, users } = container.repos;
  const plan = await plans.create(
    { name: `Plano ${unique()}`, users: 5, connections: 3, queues: 2, value: 10, useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true, useInternal: true },
    now,
  );
  const email = `cloud-${unique()}@e2e.test`;
  const company = await companies.create(
    { name: `Loja ${unique()}`, email, phone: "", planId: plan.id, status: true, dueDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), recurrence: "MENSAL", timezone: DEFAULT_TIME_ZONE, trialExpiration: null, document: "" },
    now,
  );
  await settings.putMany(company.id, { ...COMPANY_SETTING_DEFAULTS }, now);
  await users.create(company.id, { name: "Carla Admin", email, passwordHash: await hashPassword("Senha1234", 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] }, now);
  // a second admin for the HTTP calls: signing in again as the browser's user would end its session
  const apiEmail = `cloud-api-${unique()}@e2e.test`;
  await users.create(company.id, { name: "API Admin", email: apiEmail, passwordHash: await hashPassword("Senha1234", 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] }, now);
  admin = { email, password: "Senha1234", companyId: company.id, apiEmail };
  // Meta's side: a number of its own for this test
  num = (await http<SimNumber>("/simulator/cloudapi/api/numbers", { method: "POST", body: { verifiedName: "Loja Oficial" } })).data;
  page = await (await newContext(browser)).newPage();
  await login(page, email, admin.password);
  await page.getByTestId("side-menu").getByRole("link").first().waitFor();
});
afterAll(async () => {
  await page?.context().close();
  await browser?.close();
});

describe("Cloud API connections", () => {
  it("configure a Cloud API connection in the browser, subscribe its webhook on the simulator and test it", async () => {
    await page.goto("/connections");
    await page.getByTestId("add-connection").click();
    const dialog = page.getByTestId("whatsapp-dialog");
    await dialog.getByTestId("field-name").fill("Oficial");
    await dialog.getByTestId("field-provider").click();
    await page.getByRole("option", { name: /Cloud API/ }).click();
    await dialog.getByTestId("cloudapi-phoneNumberId").fill(num.phoneNumberId);
    await dialog.getByTestId("cloudapi-wabaId").fill(num.wabaId);
    await dialog.getByTestId("cloudapi-accessToken").fill(num.accessToken);
    await dialog.getByTestId("cloudapi-appSecret").fill(num.appSecret);
    await dialog.getByTestId("cloudapi-graphApiUrl").fill(`${baseUrl()}/simulator/cloudapi/graph/v23.0`);
    await dialog.getByTestId("save-whatsapp").click();
    const row = page.getByTestId("connection-row").filter({ hasText: "Oficial" });
    await row.waitFor();

    // saved, the dialog shows the webhook URL and verify token to copy into Meta's app, and the test
    await dialog.getByTestId("cloudapi-webhook-url").waitFor();
    const webhookUrl = await dialog.getByTestId("cloudapi-webhook-url").inputValue();
    const verifyToken = await dialog.getByTestId("cloudapi-verify-token").inputValue();
    expect(webhookUrl).toMatch(/\/api\/channels\/cloud-api\/webhook\/[\w-]+$/);
    expect(await dialog.getByTestId("cloudapi-accessToken").inputValue()).not.toContain(num.accessToken);
    await dialog.getByTestId("cloudapi-test").click();
    await expect.poll(() => dialog.getByTestId("cloudapi-verified-name").textContent(), { timeout: 15_000 }).toBe("Loja Oficial");
    await screenshot(page, "cloud-api-connection");
    await page.keyboard.press("Escape");
    await expect.poll(() => row.getByTestId("connection-status").getAttribute("data-status"), { timeout: 15_000 }).toBe("CONNECTED");

    // Meta's app settings: the simulator's page, in a second tab (the handshake runs against our URL)
    const meta = await page.context().newPage();
    await meta.goto("/simulator/cloudapi");
    await meta.getByTestId(`callback-${num.phoneNumberId}`).fill(webhookUrl);
    await meta.getByTestId(`verify-token-${num.phoneNumberId}`).fill(verifyToken);
    await meta.getByTestId(`verify-${num.phoneNumberId}`).click();
    await expect.poll(() => meta.getByTestId(`webhook-state-${num.phoneNumberId}`).textContent(), { timeout: 15_000 }).toBe("verificado");
    // one simulator for every company: it lists no number's token or app secret, only their last characters (issue 27)
    const listed = (await meta.getByTestId(`number-${num.phoneNumberId}`).textContent()) ?? "";
    expect(listed).not.toContain(num.accessToken);
    expect(listed).not.toContain(num.appSecret);
    expect(listed).toContain(num.accessToken.slice(-4));
    await screenshot(meta, "cloud-api-simulator");
    await meta.close();
  });

  it("a customer writes through the simulator, the attendant replies and sees the ticks turn blue", async () => {
    const customer = "5511955554444";
    await http("/simulator/cloudapi/api/messages", { method: "POST", body: { phoneNumberId: num.phoneNumberId, from: customer, name: "Rita Oficial", type: "text", text: "Olá, pela API oficial!" } });
    await page.goto("/tickets");
    await page.getByTestId("subtab-pending").click();
    const card = page.getByTestId("ticket-card").filter({ hasText: "Rita Oficial" });
    await card.first().waitFor({ timeout: 30_000 });
    await card.first().getByRole("button", { name: "Aceitar" }).click();
    await page.getByTestId("ticket-view").waitFor();
    await page.getByTestId("messages-list").getByText("pela API oficial").waitFor();
    await page.getByTestId("reply-window").waitFor();
    expect(await page.getByTestId("reply-window").getAttribute("data-state")).toBe("open");
    const input = page.getByTestId("composer-input");
    await input.fill("Oi Rita, como posso ajudar?");
    await input.press("Enter");
    const chat = await poll(() => simChat(customer), (c) => Boolean(c?.messages.some((m) => m.direction === "out" && m.text.includes("como posso ajudar"))));
    expect(chat?.messages.at(-1)?.status).not.toBe("failed");
    await http("/simulator/cloudapi/api/read", { method: "POST", body: { phoneNumberId: num.phoneNumberId, waId: customer } });
    await page.getByTestId("message").filter({ hasText: "como posso ajudar" }).getByTestId("ack-read").waitFor({ timeout: 20_000 });
    await screenshot(page, "cloud-api-ticks");
    // templates are offered while the window is open too: the composer's template button, beside free text
    await page.getByTestId("composer-template-button").click();
    await page.getByTestId("template-sync").click();
    await page.getByTestId("template-retomar_conversa").click();
    await page.getByTestId("template-var-body-1").fill("Rita");
    await page.getByTestId("template-send").click();
    await poll(() => simChat(customer), (c) => Boolean(c?.messages.some((m) => m.direction === "out" && m.type === "template" && m.text.includes("Olá Rita"))));
    expect(await page.getByTestId("composer-input").count()).toBe(1);
  });

  it("once the window has closed only a template can be sent", async () => {
    const customer = "5511933332222";
    // a message the customer sent 25 hours ago (delivered late, with its own time): the window is already closed
    await http("/simulator/cloudapi/api/messages", {
      method: "POST",
      body: { phoneNumberId: num.phoneNumberId, from: customer, name: "Bruno Antigo", type: "text", text: "Mensagem de ontem", timestamp: Math.floor(Date.now() / 1000) - 25 * 3600 },
    });
    await page.goto("/tickets");
    await page.getByTestId("subtab-pending").click();
    const card = page.getByTestId("ticket-card").filter({ hasText: "Bruno Antigo" });
    await card.first().waitFor({ timeout: 30_000 });
    await card.first().getByRole("button", { name: "Aceitar" }).click();
    await page.getByTestId("ticket-view").waitFor();
    const ticketId = Number(await page.getByTestId("ticket-view").getAttribute("data-ticket-id"));
    await page.getByTestId("reply-window").waitFor();
    expect(await page.getByTestId("reply-window").getAttribute("data-state")).toBe("closed");
    expect(await page.getByTestId("composer-input").count()).toBe(0);
    await page.getByTestId("composer-templates").click();
    await page.getByTestId("template-sync").click();
    await page.getByTestId("template-retomar_conversa").click();
    await page.getByTestId("template-var-body-1").fill("Bruno");
    await page.getByTestId("template-send").click();
    await poll(() => simChat(customer), (c) => Boolean(c?.messages.some((m) => m.direction === "out" && m.type === "template" && m.text.includes("Olá Bruno"))));
    await page.getByTestId("messages-list").getByText("podemos continuar", { exact: false }).waitFor();
    // the API refuses free text with the catalogue code
    const token = (await http<{ token: string }>("/api/auth/login", { method: "POST", body: { email: admin.apiEmail, password: admin.password } })).data.token;
    await screenshot(page, "cloud-api-after-template");
    const refused = await http(`/api/messages/${ticketId}`, { method: "POST", token, body: { body: "texto livre", fromMe: true, read: true } });
    expect([refused.status, refused.data]).toEqual([409, { error: "ERR_WINDOW_CLOSED" }]);
    await screenshot(page, "cloud-api-window-closed");
  });

  // Was skipped as a whole-suite-only failure: under load the QR connection's first message came within the inbox's
  // 2 s reuse of the company's lookups read just before the connection existed, and was dropped as coming from an
  // unknown connection (fixed in inbound.service.ts, int test in inbound.int.test.ts). Each wait now says what failed.
  it("QR and Cloud API tickets side by side in one list", async () => {
    const token = (await http<{ token: string }>("/api/auth/login", { method: "POST", body: { email: admin.apiEmail, password: admin.password } })).data.token;
    const qr = await http<{ id: number }>("/api/whatsapp", { method: "POST", token, body: { name: "QR Loja", isDefault: false } });
    expect(qr.status).toBe(200);
    const status = async () => (await http<{ companyId: number; whatsappId: number; status: string }[]>("/simulator/api/connections")).data.find((c) => c.companyId === admin.companyId && c.whatsappId === qr.data.id)?.status;
    expect(await poll(status, (s) => s === "qrcode"), "the new QR connection shows a QR on the simulator").toBe("qrcode");
    await http(`/simulator/api/connections/${admin.companyId}/${qr.data.id}/scan`, { method: "POST", body: { number: "5511900009999" } });
    expect(await poll(async () => (await http<{ status: string }>(`/api/whatsapp/${qr.data.id}`, { token })).data.status, (s) => s === "CONNECTED"), "the platform sees it connected").toBe("CONNECTED");
    const sent = await http("/simulator/api/customers/5511922221111/messages", { method: "POST", body: { companyId: admin.companyId, whatsappId: qr.data.id, type: "text", body: "Oi pelo QR", name: "Quésia QR" } });
    expect(sent.status).toBe(201);
    // the QR message travels session host → inbound.fifo → inbox: wait for its ticket before looking at the list
    const listed = await poll(
      async () => (await http<{ tickets: { contact?: { name: string } }[] }>("/api/tickets?status=pending&showAll=true", { token })).data.tickets?.map((x) => x.contact?.name) ?? [],
      (names) => names.includes("Quésia QR"),
      60_000,
    );
    expect(listed, "the QR customer's ticket is pending").toContain("Quésia QR");
    await page.goto("/tickets");
    await page.getByTestId("tab-open").click();
    await page.getByTestId("subtab-pending").click();
    const qrCard = page.getByTestId("ticket-card").filter({ hasText: "Quésia QR" }).first();
    await qrCard.waitFor({ timeout: 30_000 });
    await qrCard.getByRole("button", { name: "Aceitar" }).click();
    await page.getByTestId("ticket-view").waitFor();
    await page.goto("/tickets");
    await page.getByTestId("tab-open").click();
    const cloudCard = page.getByTestId("ticket-card").filter({ hasText: "Bruno Antigo" }).first();
    await qrCard.waitFor({ timeout: 30_000 });
    await cloudCard.waitFor();
    expect(await qrCard.textContent()).toContain("QR Loja");
    expect(await cloudCard.textContent()).toContain("Oficial");
    await screenshot(page, "cloud-api-side-by-side");
  });

  it("an attendant schedules a template for a customer who never wrote; at its time the simulator receives the template", { timeout: 300_000 }, async () => {
    const customer = "5511944441111";
    const token = (await http<{ token: string }>("/api/auth/login", { method: "POST", body: { email: admin.apiEmail, password: admin.password } })).data.token;
    const made = await http<{ id: number }>("/api/contacts", { method: "POST", token, body: { name: "Sara Agendada", number: customer } });
    expect(made.status, JSON.stringify(made.data)).toBe(200);
    await page.goto(`/schedules?contactId=${made.data.id}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Novo agendamento" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => dialog.getByLabel("Contato").inputValue()).toContain("Sara Agendada");
    await dialog.getByRole("combobox", { name: "Conexão" }).click();
    await page.getByRole("option", { name: "Oficial" }).click();
    // a Cloud API connection: an approved template by default, chosen in the picker with its preview
    expect(await dialog.getByRole("button", { name: "Modelo aprovado" }).getAttribute("aria-pressed")).toBe("true");
    await dialog.getByTestId("schedule-template-choose").click();
    await page.getByTestId("template-retomar_conversa").click();
    await page.getByTestId("template-from-contact-body-1").getByRole("combobox").click();
    await page.getByRole("option", { name: "Nome" }).click();
    await expect.poll(() => page.getByTestId("template-preview").textContent()).toContain("Olá Sara Agendada, podemos continuar o seu atendimento?");
    await page.getByTestId("template-send").click();
    await expect.poll(() => dialog.getByTestId("schedule-template-preview").textContent()).toContain("Olá Sara Agendada");
    // the next whole minute (plus one when it is less than 30 s away); the e2e platform ticks every 5 s
    const sendAt = await page.evaluate(() => {
      const next = Math.ceil(Date.now() / 60_000) * 60_000;
      const d = new Date(next - Date.now() > 30_000 ? next : next + 60_000);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await dialog.getByLabel(/Data e hora do envio/).fill(sendAt);
    await screenshot(page, "cloud-api-schedule-template");
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.waitFor({ state: "hidden" });
    const row = page.getByTestId("schedule-row").filter({ hasText: "Sara Agendada" });
    await expect.poll(() => row.getByTestId("schedule-status").textContent()).toBe("Pendente");
    expect(await row.getByTestId("schedule-template-chip").count()).toBe(1);

    // the window is closed (the customer never wrote), yet the template goes out at its time
    const chat = await poll(() => simChat(customer), (c) => Boolean(c?.messages.some((m) => m.direction === "out" && m.type === "template")), 200_000);
    expect(chat?.messages.filter((m) => m.direction === "out").map((m) => [m.type, m.text])).toEqual([["template", expect.stringContaining("Olá Sara Agendada, podemos continuar o seu atendimento?")]]);
    await expect.poll(() => row.getByTestId("schedule-status").textContent(), { timeout: 30_000 }).toBe("Enviada");
    await screenshot(page, "cloud-api-schedule-template-sent");
  });
});
