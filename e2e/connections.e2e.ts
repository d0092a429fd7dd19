import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { hashPassword } from "../functions/src/features/auth/password";
import { parseConfig } from "../functions/src/platform/config";
import { type Container, createContainer } from "../functions/src/app/container";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";

/**
 * Connections end to end: an admin adds a connection, opens its QR, "scans" it on the WhatsApp simulator's
 * page in a second tab, sees it connected, and a simulated customer's message becomes a ticket.
 */
let browser: Browser;
let container: Container;
const pages: Page[] = [];
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const createCompanyWithAdmin = async () => {
  const now = new Date();
  const { companies, plans, settings, users } = container.repos;
  const plan = await plans.create(
    { name: `Plano ${unique()}`, users: 5, connections: 2, queues: 2, value: 10, useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true, useInternal: true },
    now,
  );
  const email = `conn-${unique()}@e2e.test`;
  const company = await companies.create(
    { name: `Loja ${unique()}`, email, phone: "", planId: plan.id, status: true, dueDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), recurrence: "MENSAL", timezone: DEFAULT_TIME_ZONE, trialExpiration: null, document: "" },
    now,
  );
  await settings.putMany(company.id, { ...COMPANY_SETTING_DEFAULTS }, now);
  const password = "Senha1234";
  await users.create(
    company.id,
    { name: "Carla Admin", email, passwordHash: await hashPassword(password, 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] },
    now,
  );
  return { company, email, password };
};

const openPage = async () => {
  const page = await (await newContext(browser)).newPage();
  pages.push(page);
  return page;
};

beforeAll(async () => {
  container = createContainer(parseConfig(inject("platformEnv")));
  browser = await launchBrowser();
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((p) => p.context().close()));
});
afterAll(async () => {
  await browser?.close();
});

describe("connections", () => {
  it("add a connection, scan its QR on the simulator, see it connected, receive a customer's message", async () => {
    const { company, email, password } = await createCompanyWithAdmin();
    const page = await openPage();
    await login(page, email, password);
    await page.getByTestId("side-menu").getByRole("link").first().waitFor();
    await page.goto("/connections");

    // add
    await page.getByTestId("add-connection").click();
    const dialog = page.getByTestId("whatsapp-dialog");
    await dialog.getByTestId("field-name").fill("Loja Centro");
    await dialog.getByTestId("save-whatsapp").click();
    const row = page.getByTestId("connection-row").filter({ hasText: "Loja Centro" });
    await row.waitFor();
    await expect.poll(() => row.getByTestId("default-flag").count()).toBe(1);

    // the session host shows a QR (through the queue and the realtime socket)
    const qrButton = row.getByTestId("show-qr");
    await qrButton.waitFor({ timeout: 30_000 });
    await qrButton.click();
    const qr = page.getByTestId("qr-dialog");
    await expect.poll(() => qr.getByTestId("qr-step").count()).toBe(4);
    await qr.getByTestId("qr-image").waitFor();
    await screenshot(page, "connections-qr");
    const whatsappId = (await container.repos.whatsapps.listByCompany(company.id)).find((w) => w.name === "Loja Centro")?.id;
    expect(whatsappId).toBeTruthy();

    // the phone: the simulator's page in a second tab
    const phone = await page.context().newPage();
    await phone.goto("/simulator");
    const id = `${company.id}-${whatsappId}`;
    await phone.getByTestId(`scan-${id}`).waitFor({ timeout: 15_000 });
    await screenshot(phone, "simulator-qr");
    await phone.locator(`#num-${id}`).fill("5511944443333");
    await phone.getByTestId(`scan-${id}`).click();
    await expect.poll(() => phone.getByTestId(`status-${id}`).textContent(), { timeout: 15_000 }).toContain("CONNECTED");

    // back on the platform: the QR modal closed, the row is connected with the phone's number
    await qr.waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => row.getByTestId("connection-status").getAttribute("data-status"), { timeout: 15_000 }).toBe("CONNECTED");
    await expect.poll(() => row.getByTestId("connection-number").textContent()).toBe("+55 (11) 94444-3333");
    await screenshot(page, "connections-connected");

    // a customer writes: the message reaches the platform as a ticket
    const sent = await fetch(`${baseUrl()}/simulator/api/customers/5511977776666/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ companyId: company.id, whatsappId, type: "text", body: "Olá, vocês abrem domingo?", name: "Rita Cliente" }),
    });
    expect(sent.status).toBe(201);
    const token = (await (await fetch(`${baseUrl()}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) })).json()) as { token: string };
    await expect
      .poll(
        async () => {
          const res = await fetch(`${baseUrl()}/api/tickets?status=pending&showAll=true`, { headers: { authorization: `Bearer ${token.token}` } });
          const body = (await res.json()) as { tickets?: { contact?: { name: string }; lastMessage?: string }[] };
          return (body.tickets ?? []).map((t) => `${t.contact?.name}: ${t.lastMessage}`);
        },
        { timeout: 20_000 },
      )
      .toContain("Rita Cliente: Olá, vocês abrem domingo?");

    // the company answers through the platform: the reply reaches the customer's phone and is delivered and read
    const auth = { authorization: `Bearer ${token.token}`, "content-type": "application/json" };
    const list = (await (await fetch(`${baseUrl()}/api/tickets?status=pending&showAll=true`, { headers: auth })).json()) as { tickets: { id: number; contact?: { name: string } }[] };
    const ticket = list.tickets.find((t) => t.contact?.name === "Rita Cliente");
    expect(ticket).toBeTruthy();
    const reply = await fetch(`${baseUrl()}/api/messages/${ticket?.id}`, { method: "POST", headers: auth, body: JSON.stringify({ body: "Abrimos sim, das 9h às 13h!", fromMe: true, read: true }) });
    expect(reply.status).toBe(201);
    await expect
      .poll(
        async () => {
          const chat = (await (await fetch(`${baseUrl()}/simulator/api/customers/5511977776666/messages?companyId=${company.id}&whatsappId=${whatsappId}`)).json()) as {
            messages: { fromCustomer: boolean; body: string; ack: number }[];
          };
          return chat.messages.filter((m) => !m.fromCustomer && m.body.includes("Abrimos sim")).map((m) => m.ack);
        },
        { timeout: 20_000 },
      )
      .toEqual([4]);
  });

  it("links by phone number: the admin asks for a code, the simulated phone enters it, the connection becomes CONNECTED", async () => {
    const { company, email, password } = await createCompanyWithAdmin();
    const page = await openPage();
    await login(page, email, password);
    await page.getByTestId("side-menu").getByRole("link").first().waitFor();
    await page.goto("/connections");
    await page.getByTestId("add-connection").click();
    await page.getByTestId("whatsapp-dialog").getByTestId("field-name").fill("Por código");
    await page.getByTestId("whatsapp-dialog").getByTestId("save-whatsapp").click();
    const row = page.getByTestId("connection-row").filter({ hasText: "Por código" });
    await row.getByTestId("show-qr").waitFor({ timeout: 30_000 });
    await row.getByTestId("show-qr").click();
    const dialog = page.getByTestId("qr-dialog");
    await dialog.getByTestId("pairing-number").fill("(11) 95555-1212");
    await dialog.getByTestId("request-pairing-code").click();
    const shown = dialog.getByTestId("pairing-code");
    await shown.waitFor({ timeout: 20_000 });
    const code = (await shown.getAttribute("data-code")) ?? "";
    expect(code).toMatch(/^[0-9A-Z]{8}$/);
    expect(await shown.textContent()).toBe(`${code.slice(0, 4)}-${code.slice(4)}`);
    await screenshot(page, "connections-pairing-code");

    // the phone of that number enters the code on the simulator's page
    const whatsappId = (await container.repos.whatsapps.listByCompany(company.id)).find((w) => w.name === "Por código")?.id;
    const id = `${company.id}-${whatsappId}`;
    const phone = await page.context().newPage();
    await phone.goto("/simulator");
    await phone.getByTestId(`enter-code-${id}`).waitFor({ timeout: 15_000 });
    await phone.getByTestId(`pairing-number-${id}`).fill("5511955551212");
    await phone.getByTestId(`pairing-code-${id}`).fill(code);
    await phone.getByTestId(`enter-code-${id}`).click();
    await expect.poll(() => phone.getByTestId(`status-${id}`).textContent(), { timeout: 15_000 }).toContain("CONNECTED");

    await dialog.waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => row.getByTestId("connection-status").getAttribute("data-status"), { timeout: 15_000 }).toBe("CONNECTED");
    await expect.poll(() => row.getByTestId("connection-number").textContent()).toBe("+55 (11) 95555-1212");
  });

  it("the red badge on Conexões shows while a connection waits for its QR", async () => {
    const { email, password } = await createCompanyWithAdmin();
    const page = await openPage();
    await login(page, email, password);
    await page.getByTestId("side-menu").getByRole("link").first().waitFor();
    await page.goto("/connections");
    await page.getByTestId("add-connection").click();
    await page.getByTestId("whatsapp-dialog").getByTestId("field-name").fill("Com alerta");
    await page.getByTestId("whatsapp-dialog").getByTestId("save-whatsapp").click();
    await page.getByTestId("connection-row").filter({ hasText: "Com alerta" }).getByTestId("show-qr").waitFor({ timeout: 30_000 });
    await page.getByTestId("side-menu").getByTestId("connections-alert").waitFor({ timeout: 10_000 });
  });
});
