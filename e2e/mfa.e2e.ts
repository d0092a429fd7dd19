import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base32Decode, totp } from "../functions/src/features/mfa/totp";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson } from "./support/http";
import { LOGINS } from "./support/seed";

/**
 * Two-factor sign-in in the browser (issue 14): a user turns it on from the profile dialog with a code computed
 * from the secret the page shows, keeps the recovery codes, signs out, and signs in again with a code. The admin
 * then finds those sign-ins on the Auditoria page.
 */
let browser: Browser;
const pages: Page[] = [];
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const person = { name: `Dois Fatores ${unique()}`, email: `mfa-${unique()}@e2e.test`, password: "Senha1234" };

/** The code for the step after now: the step used to turn it on may be this one, and each step works once. */
const nextCode = (secret: string) => totp(base32Decode(secret), new Date(Date.now() + 30_000));

beforeAll(async () => {
  browser = await launchBrowser();
  // a user of their own, so the demo logins other files use stay without two-factor
  const admin = await httpJson<{ token: string }>(baseUrl(), "/api/auth/login", { method: "POST", body: { email: LOGINS.admin.email, password: LOGINS.admin.password } });
  const created = await httpJson(baseUrl(), "/api/users", { method: "POST", token: admin.data.token, body: { ...person, profile: "user", queueIds: [] } });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  for (const p of pages) await p.context().close().catch(() => undefined);
  await browser?.close();
});

const openPage = async () => {
  const page = await (await newContext(browser)).newPage();
  pages.push(page);
  return page;
};

describe("two-factor sign-in", () => {
  let secret = "";

  it("turns on in the profile dialog with a code from the shown secret, and shows ten recovery codes once", async () => {
    const page = await openPage();
    await login(page, person.email, person.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.getByTestId("profile-button").click();
    await page.getByRole("menuitem", { name: "Perfil" }).click();
    const section = page.getByTestId("mfa-section");
    await expect(section.getByTestId("mfa-state").textContent()).resolves.toBe("Desativada");
    await section.getByTestId("mfa-start").click();
    await section.getByTestId("mfa-qr").waitFor();
    secret = (await section.getByTestId("mfa-secret").textContent())!.replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await section.getByTestId("mfa-code").fill(totp(base32Decode(secret), new Date()));
    await section.getByTestId("mfa-enable").click();
    await section.getByTestId("mfa-recovery-codes").waitFor();
    await expect(section.getByTestId("mfa-recovery-code").count()).resolves.toBe(10);
    await screenshot(page, "mfa-recovery-codes");
    await section.getByTestId("mfa-done").click();
    await expect(section.getByTestId("mfa-state").textContent()).resolves.toBe("Ativada");
    await expect(section.getByTestId("mfa-recovery-codes").count()).resolves.toBe(0);

    // close the dialog with its own button (after "done" the focused button is gone, so Escape may reach nothing),
    // then sign out
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByTestId("profile-button").click();
    await page.getByRole("menuitem", { name: "Sair" }).click();
    await page.waitForURL(/\/login$/);
  });

  it("the password alone no longer signs in; the code step does", async () => {
    const page = await openPage();
    await login(page, person.email, person.password);
    const step = page.getByTestId("mfa-login-step");
    await step.waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await screenshot(page, "mfa-code-step");
    await step.getByTestId("mfa-code").fill(nextCode(secret) === "000000" ? "111111" : "000000");
    await step.getByTestId("mfa-verify").click();
    await page.getByText(/Código inválido/).first().waitFor();
    await step.getByTestId("mfa-code").fill(nextCode(secret));
    await step.getByTestId("mfa-verify").click();
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.getByTestId("side-menu").waitFor();
  });

  it("the admin sees these sign-ins and the two-factor events on the Auditoria page", async () => {
    const page = await openPage();
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
    await page.getByTestId("side-menu").getByRole("link", { name: "Auditoria", exact: true }).click();
    await page.waitForURL(/\/audit-logs$/);
    const rows = page.getByTestId("audit-row").filter({ hasText: person.name });
    await rows.first().waitFor();
    const text = (await rows.allTextContents()).join("\n");
    expect(text).toContain("2 etapas ativada");
    expect(text).toContain("Código de 2 etapas recusado");
    expect(text).toContain("Código de 2 etapas aceito");
    expect(text).toContain("Acesso");
    await screenshot(page, "mfa-audit");
  });
});
