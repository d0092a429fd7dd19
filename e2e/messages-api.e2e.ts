import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator, customerChat, type SimulatorSession } from "./support/simulator";

/**
 * The external messages API, as an integrator and as the admin trying it on /messages-api: a message sent with the
 * connection's token reaches the customer's phone and shows in the inbox.
 */
let browser: Browser;
let sim: SimulatorSession;
const customer = `55119${String(Date.now()).slice(-8)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  sim = await connectSimulator(baseUrl(), LOGINS.admin);
});

afterAll(async () => {
  await browser?.close();
});

describe("external messages API", () => {
  it("an integrator's call with the connection token reaches the customer's phone", async () => {
    const list = await httpJson<{ id: number; token: string }[]>(baseUrl(), "/api/whatsapp/", { token: sim.token });
    const token = list.data.find((w) => w.id === sim.whatsappId)!.token;
    const res = await fetch(`${baseUrl()}/api/messages/send`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ number: customer, body: "Pedido 123 confirmado" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ mensagem: "Mensagem enviada" });
    const chat = await poll(() => customerChat(baseUrl(), sim, customer), (m) => m.some((x) => x.body === "Pedido 123 confirmado"));
    expect(chat.filter((x) => !x.fromCustomer).map((x) => x.body)).toEqual(["Pedido 123 confirmado"]);
  });

  it("the admin sends a test message from /messages-api and finds it in the customer's ticket", { timeout: 120_000 }, async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/login");
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto("/messages-api");
    await page.getByRole("heading", { name: "Documentação para envio de mensagens" }).waitFor();
    await page.getByText(`POST ${baseUrl()}/api/messages/send`).waitFor();
    const form = page.getByTestId("text-form");
    await form.getByRole("combobox").click();
    await page.getByRole("option", { name: "Simulador" }).click();
    await form.getByTestId("text-number").fill(customer);
    await form.getByTestId("text-body").fill("Teste pela página da API");
    await form.getByRole("button", { name: "Enviar" }).click();
    await page.getByText("Mensagem enviada com sucesso").waitFor();
    const chat = await poll(() => customerChat(baseUrl(), sim, customer), (m) => m.some((x) => x.body === "Teste pela página da API"));
    expect(chat.filter((x) => !x.fromCustomer).map((x) => x.body)).toEqual(["Pedido 123 confirmado", "Teste pela página da API"]);
    // both messages are in the contact's ticket history
    await page.goto("/tickets");
    await page.getByRole("tab", { name: /aguardando/i }).click();
    await page.getByText(customer).first().click();
    await page.getByText("Teste pela página da API").last().waitFor();
    await screenshot(page, "messages-api");
    await context.close();
  });
});
