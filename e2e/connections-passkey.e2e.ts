import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { hashPassword } from "../functions/src/features/auth/password";
import { parseConfig } from "../functions/src/platform/config";
import { type Container, createContainer } from "../functions/src/app/container";
import { launchBrowser, login, newContext, screenshot } from "./support/browser";

/**
 * WhatsApp's passkey gate (issue 29 item 6), end to end: an admin opens a new connection's QR, a passkey-walled phone
 * scans it on the simulator's page, and *Conexões* shows the connection as PASSKEY_REQUIRED with the explanation of
 * what the number's owner can do (the official Cloud API among it).
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
  const email = `passkey-${unique()}@e2e.test`;
  const company = await companies.create(
    { name: `Loja ${unique()}`, email, phone: "", planId: plan.id, status: true, dueDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), recurrence: "MENSAL", timezone: DEFAULT_TIME_ZONE, trialExpiration: null, document: "" },
    now,
  );
  await settings.putMany(company.id, { ...COMPANY_SETTING_DEFAULTS }, now);
  const password = "Senha1234";
  await users.create(
    company.id,
    { name: "Paula Admin", email, passwordHash: await hashPassword(password, 4), profile: "admin", super: false, whatsappId: null, allTicket: "enabled", queueIds: [] },
    now,
  );
  return { company, email, password };
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

describe("the passkey gate", () => {
  it("a passkey-walled phone scans the QR: Conexões shows PASSKEY_REQUIRED and what the owner can do", async () => {
    const { company, email, password } = await createCompanyWithAdmin();
    const page = await (await newContext(browser)).newPage();
    pages.push(page);
    await login(page, email, password);
    await page.getByTestId("side-menu").getByRole("link").first().waitFor();
    await page.goto("/connections");
    await page.getByTestId("add-connection").click();
    await page.getByTestId("whatsapp-dialog").getByTestId("field-name").fill("Loja Passkey");
    await page.getByTestId("whatsapp-dialog").getByTestId("save-whatsapp").click();
    const row = page.getByTestId("connection-row").filter({ hasText: "Loja Passkey" });
    await row.getByTestId("show-qr").waitFor({ timeout: 30_000 });
    await row.getByTestId("show-qr").click();
    const qr = page.getByTestId("qr-dialog");
    await qr.getByTestId("qr-image").waitFor();

    // the phone: the simulator's page in a second tab, a passkey-walled phone scans
    const whatsappId = (await container.repos.whatsapps.listByCompany(company.id)).find((w) => w.name === "Loja Passkey")?.id;
    const id = `${company.id}-${whatsappId}`;
    const phone = await page.context().newPage();
    await phone.goto("/simulator");
    await phone.getByTestId(`scan-${id}`).waitFor({ timeout: 15_000 });
    await phone.locator(`#num-${id}`).fill("5511966667777");
    await phone.getByTestId(`passkey-${id}`).check();
    await phone.getByTestId(`scan-${id}`).click();
    await expect.poll(() => phone.getByTestId(`status-${id}`).textContent(), { timeout: 15_000 }).toContain("PASSKEY_REQUIRED");

    // back on Conexões: the state and the explanation, never CONNECTED
    await expect.poll(() => row.getByTestId("connection-status").getAttribute("data-status"), { timeout: 20_000 }).toBe("PASSKEY_REQUIRED");
    const notice = page.getByTestId("passkey-required");
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain("Loja Passkey");
    expect(await notice.textContent()).toContain("chave de acesso");
    expect(await notice.textContent()).toContain("API oficial");
    await screenshot(page, "connections-passkey-required");
    expect((await container.repos.whatsapps.listByCompany(company.id)).find((w) => w.id === whatsappId)?.status).toBe("PASSKEY_REQUIRED");
  });
});
