import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson } from "./support/http";
import { LOGINS } from "./support/seed";

/**
 * Internal chat between two people of the demo company, each in their own browser: the admin starts a chat
 * with the attendant and writes; the attendant sees the menu dot live, opens the chat, reads and answers; the
 * admin sees the answer without reloading.
 */
let browser: Browser;
const pages: Page[] = [];

const openPage = async (viewport?: { width: number; height: number }) => {
  const context = await newContext(browser, { viewport });
  const page = await context.newPage();
  pages.push(page);
  return page;
};

const signIn = async (page: Page, who: { email: string; password: string }) => {
  await login(page, who.email, who.password);
  await page.waitForURL(/\/tickets$/);
  await page.locator('[data-testid="app-shell"][data-realtime="open"]').waitFor();
};

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.context().close()));
});
afterAll(async () => {
  await browser?.close();
});

describe("internal chat", () => {
  it("admin and attendant talk live; the attendant's menu shows the unread dot", async () => {
    const title = `Plantão ${Date.now().toString(36)}`;
    const admin = await openPage();
    const attendant = await openPage();
    await signIn(attendant, LOGINS.attendant);
    await signIn(admin, LOGINS.admin);
    await expect(attendant.getByTestId("chats-unread").count()).resolves.toBe(0);

    // the admin opens the chat page, creates a chat with the attendant and writes
    await admin.getByTestId("side-menu").getByRole("link", { name: "Chat interno" }).click();
    await admin.waitForURL(/\/chats$/);
    await admin.getByRole("button", { name: "Nova conversa" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Título").fill(title);
    await dialog.getByLabel("Usuários").click();
    await admin.getByRole("option", { name: "Beto Atendente", exact: true }).click();
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await admin.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    await expect(admin.getByTestId("chat-title-bar").textContent()).resolves.toBe(title);
    await admin.getByLabel("Digite uma mensagem").fill("Oi Beto, pode cobrir o plantão?");
    await admin.getByLabel("Digite uma mensagem").press("Enter");
    await admin.getByTestId("chat-message").filter({ hasText: "Oi Beto, pode cobrir o plantão?" }).waitFor();

    // the attendant, without reloading: the dot in the menu and the count in the top bar
    await attendant.getByTestId("chats-unread").waitFor();
    await attendant.getByTestId("internal-chats-button").click();
    await attendant.getByTestId("internal-chats-popover").getByText(title).click();
    await attendant.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    await attendant.getByTestId("chat-message").filter({ hasText: "Oi Beto, pode cobrir o plantão?" }).waitFor();
    // reading the chat clears the dot
    await attendant.getByTestId("chats-unread").waitFor({ state: "detached" });
    await screenshot(attendant, "chats-attendant");

    await attendant.getByLabel("Digite uma mensagem").fill("Posso sim!");
    await attendant.getByRole("button", { name: "Enviar" }).click();

    // the admin sees the answer at once, in the open chat
    await admin.getByTestId("chat-message").filter({ hasText: "Posso sim!" }).waitFor();
    await screenshot(admin, "chats-admin");
    // the admin has the chat open: the answer is read at once and no dot stays
    await admin.getByTestId("chats-unread").waitFor({ state: "detached" });
    await expect(admin.getByTestId("chat-message").allTextContents()).resolves.toEqual([
      expect.stringContaining("Oi Beto, pode cobrir o plantão?"),
      expect.stringContaining("Posso sim!"),
    ]);
  });

  it("on a phone the panes are the tabs Chats and Mensagens", async () => {
    const title = `Celular ${Date.now().toString(36)}`;
    // the admin writes through the API (as the web app would)
    const auth = await httpJson<{ token: string; user: { id: number } }>(baseUrl(), "/api/auth/login", { method: "POST", body: { email: LOGINS.admin.email, password: LOGINS.admin.password } });
    const users = await httpJson<{ id: number; email: string }[]>(baseUrl(), "/api/users/list", { token: auth.data.token });
    const beto = users.data.find((u) => u.email === LOGINS.attendant.email)!;
    const chat = await httpJson<{ id: number; uuid: string }>(baseUrl(), "/api/chats", { method: "POST", token: auth.data.token, body: { title, users: [beto.id] } });
    expect(chat.status).toBe(200);
    await httpJson(baseUrl(), `/api/chats/${chat.data.id}/messages`, { method: "POST", token: auth.data.token, body: { message: "Mensagem para o celular" } });

    const phone = await openPage({ width: 390, height: 844 });
    await signIn(phone, LOGINS.attendant);
    await phone.goto("/chats");
    await expect(phone.getByRole("tab", { name: "Chats" }).getAttribute("aria-selected")).resolves.toBe("true");
    await phone.getByTestId("chat-item").filter({ hasText: title }).click();
    await expect(phone.getByRole("tab", { name: "Mensagens" }).getAttribute("aria-selected")).resolves.toBe("true");
    await phone.getByTestId("chat-message").filter({ hasText: "Mensagem para o celular" }).waitFor();
    await screenshot(phone, "chats-phone");
    const width = await phone.evaluate<number>("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
  });
});
