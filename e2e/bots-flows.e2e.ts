import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * Queue integrations running in the conversation (issue 11 items 4, 5, 9), in Chromium with the customer played
 * through the WhatsApp simulator and the outside services played by the local stand-ins (/simulator/typebot,
 * /simulator/webhooks):
 * - the admin adds a Typebot integration in the browser; a customer who picks its queue runs the three-step demo
 *   flow (greeting with a picture and a question, a choice, the closing words) and the end of the flow hands the
 *   ticket to the queue's attendants with an internal note;
 * - the admin adds a webhook integration: its signing secret is shown once; the receiver gets each customer message
 *   signed, and its answer (a message and a transfer to Vendas) moves the ticket.
 * The test uses its own connection and queues, so the demo connection's menu and other tests are untouched.
 */
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const connectionName = `Bots ${unique}`;
const hook = `e2e-${unique}`;
/** queue colours are unique per company: random ones, so reruns against one platform do not collide */
const color = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, "0")}`;
let browser: Browser;
let page: Page;
let token = "";
let companyId = 0;
let whatsappId = 0;
let typebotQueueId = 0;
let webhookQueueId = 0;
let vendasId = 0;

type ChatEntry = { id: string; fromCustomer: boolean; type?: string; body: string };
const says = (number: string, body: string, name: string) =>
  http(`/simulator/api/customers/${number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name } });
const chatOf = async (number: string) => (await http<{ messages?: ChatEntry[] }>(`/simulator/api/customers/${number}/messages?companyId=${companyId}&whatsappId=${whatsappId}`)).data.messages ?? [];
const botSaid = async (number: string, text: string) => {
  const chat = await poll(() => chatOf(number), (m) => m.some((x) => !x.fromCustomer && x.body.includes(text)), 45_000);
  expect(chat.filter((x) => !x.fromCustomer).map((x) => x.body), `waiting for "${text}"`).toEqual(expect.arrayContaining([expect.stringContaining(text)]));
  return chat;
};
type TicketRow = { id: number; uuid: string; status: string; queueId: number | null; queue: { name: string } | null; contact: { number: string } };
const ticketOf = async (number: string) => {
  const all = [
    ...((await http<{ tickets: TicketRow[] }>("/api/tickets?status=pending&showAll=true", { token })).data.tickets ?? []),
    ...((await http<{ tickets: TicketRow[] }>("/api/tickets?status=open&showAll=true", { token })).data.tickets ?? []),
  ];
  return all.find((t) => t.contact.number === number) ?? null;
};
const addIntegration = async (fill: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>) => {
  await page.goto("/queue-integration");
  await page.getByRole("button", { name: "Adicionar integração" }).click();
  const dialog = page.getByRole("dialog");
  await fill(dialog);
  return dialog;
};

/** the API side of the test signs in as its own admin: one session per user, so the demo admin stays in the browser */
const apiAdmin = { email: `bots-${unique}@demo.com.br`, password: "BotsE2e1234" };

beforeAll(async () => {
  const first = await http<{ token: string; user: { companyId: number } }>("/api/auth/login", { method: "POST", body: LOGINS.admin });
  const made = await http("/api/users", { method: "POST", token: first.data.token, body: { name: `Bots E2E ${unique}`, ...apiAdmin, profile: "admin", allTicket: "enabled" } });
  expect(made.status).toBeLessThan(300);
  const auth = await http<{ token: string; user: { companyId: number } }>("/api/auth/login", { method: "POST", body: apiAdmin });
  token = auth.data.token;
  companyId = auth.data.user.companyId;
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  await login(page, LOGINS.admin.email, LOGINS.admin.password);
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
  const queues = (await http<{ id: number; name: string }[]>("/api/queue", { token })).data;
  vendasId = queues.find((q) => q.name === "Vendas")!.id;
});
afterAll(async () => {
  await page?.context().close().catch(() => undefined);
  await browser?.close();
});

describe("bots: Typebot and webhook flows in the conversation", () => {
  it("the admin adds a Typebot integration on the local stand-in; a new connection's queues use it", async () => {
    const dialog = await addIntegration(async (d) => {
      await d.getByLabel(/^Nome/).fill(`Typebot ${unique}`);
      await d.getByLabel(/^URL/).fill(`${baseUrl()}/simulator/typebot`);
      await d.getByLabel(/Slug/).fill("atende-demo");
      await d.getByLabel(/Mensagem de opção inválida/).fill("Opção inválida, responda com o número.");
      await d.getByLabel(/Palavra para finalizar/).fill("sair");
    });
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    await dialog.waitFor({ state: "hidden" });
    const list = await http<{ queueIntegrations: { id: number; name: string }[] }>(`/api/queueIntegration/?searchParam=${unique}`, { token });
    const typebotId = list.data.queueIntegrations.find((i) => i.name === `Typebot ${unique}`)!.id;

    const q = await http<{ id: number }>("/api/queue", { method: "POST", token, body: { name: `Fluxo ${unique}`, color: color(), orderQueue: 1, greetingMessage: "Você está no autoatendimento.", integrationId: typebotId } });
    expect(q.status, JSON.stringify(q.data)).toBeLessThan(300);
    typebotQueueId = q.data.id;
    const w = await http<{ id: number }>("/api/queue", { method: "POST", token, body: { name: `Webhook ${unique}`, color: color(), orderQueue: 2, greetingMessage: "Você está no atendimento por webhook." } });
    webhookQueueId = w.data.id;
    const conn = await http<{ id: number }>("/api/whatsapp", {
      method: "POST",
      token,
      body: { name: connectionName, greetingMessage: "Olá! Escolha uma opção:", queueIds: [typebotQueueId, webhookQueueId] },
    });
    expect(conn.status, JSON.stringify(conn.data)).toBeLessThan(300);
    // it signs the API admin in again: its token replaces ours (one session per user)
    ({ whatsappId, token } = await connectSimulator(baseUrl(), apiAdmin, connectionName));
    expect(whatsappId).toBe(conn.data.id);
  });

  it("a customer runs the three-step Typebot flow; its end hands the ticket to the queue's attendants with a note", async () => {
    const customer = { number: `55118${String(Date.now()).slice(-8)}`, name: "Maria Typebot" };
    await says(customer.number, "Olá", customer.name);
    await botSaid(customer.number, `Fluxo ${unique}`);
    await says(customer.number, "1", customer.name);
    // the choice gets the queue's greeting; the customer's next message is the flow's (the bot runner's rule)
    await botSaid(customer.number, "Você está no autoatendimento.");
    await says(customer.number, "Olá, quero ajuda", customer.name);
    // step 1: greeting, the picture, the question
    const first = await botSaid(customer.number, "qual é o seu nome?");
    expect(first.some((x) => !x.fromCustomer && x.type === "image")).toBe(true);
    expect(first.some((x) => !x.fromCustomer && x.body.includes("*assistente virtual*"))).toBe(true);
    // step 2: the name, then the options
    await says(customer.number, "Maria", customer.name);
    await botSaid(customer.number, "*2* - Financeiro");
    // an answer the flow cannot take
    await says(customer.number, "pizza", customer.name);
    await botSaid(customer.number, "Opção inválida, responda com o número.");
    // step 3: the choice by number, the closing words, the end of the flow
    await says(customer.number, "2", customer.name);
    await botSaid(customer.number, "Anotado: Financeiro.");

    const ticket = await poll(() => ticketOf(customer.number), (t) => !!t && t.status === "pending" && t.queueId === typebotQueueId);
    expect(ticket).toMatchObject({ status: "pending", queueId: typebotQueueId });
    const notes = await poll(
      async () => (await http<{ note: string }[]>(`/api/ticket-notes/list?ticketId=${ticket!.id}`, { token })).data ?? [],
      (n) => Array.isArray(n) && n.some((x) => x.note.includes("o fluxo do Typebot chegou ao fim")),
    );
    expect(notes.some((x) => x.note.includes("o fluxo do Typebot chegou ao fim"))).toBe(true);
    // the bot stopped: a later message gets no Typebot answer
    const before = (await chatOf(customer.number)).filter((x) => !x.fromCustomer).length;
    await says(customer.number, "Olá de novo", customer.name);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await chatOf(customer.number)).filter((x) => !x.fromCustomer).length).toBe(before);

    // the admin sees the flow's messages in the conversation
    await page.goto(`/tickets/${ticket!.uuid}`);
    await page.getByText("Anotado: Financeiro.").first().waitFor({ timeout: 15_000 });
    await page.getByText("Prazer, Maria!").first().waitFor();
    await screenshot(page, "bots-typebot-conversation");
  });

  let secret = "";
  it("the admin adds a webhook integration: its signing secret is shown once, then only whether it is set", async () => {
    const dialog = await addIntegration(async (d) => {
      await d.getByRole("combobox", { name: /Tipo/ }).click();
      await page.getByRole("option", { name: "WebHooks" }).click();
      await d.getByLabel(/^Nome/).fill(`Webhook ${unique}`);
      await d.getByLabel(/^URL/).fill(`${baseUrl()}/simulator/webhooks/in/${hook}`);
    });
    await dialog.getByRole("button", { name: "Adicionar" }).click();
    const shown = dialog.getByTestId("webhook-secret");
    await shown.waitFor();
    secret = await shown.inputValue();
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    await screenshot(page, "bots-webhook-secret");
    await dialog.getByRole("button", { name: "Concluir" }).click();
    await dialog.waitFor({ state: "hidden" });

    const list = await http<{ queueIntegrations: { id: number; name: string; hasWebhookSecret: boolean }[] }>(`/api/queueIntegration/?searchParam=webhook%20${unique}`, { token });
    const row = list.data.queueIntegrations.find((i) => i.name === `Webhook ${unique}`)!;
    expect(row.hasWebhookSecret).toBe(true);
    expect(JSON.stringify(list.data)).not.toContain(secret);
    expect(JSON.stringify((await http(`/api/queueIntegration/${row.id}`, { token })).data)).not.toContain(secret);
    await page.getByRole("textbox", { name: "Pesquisar..." }).fill(`Webhook ${unique}`);
    await page.getByTestId("integration-row").filter({ hasText: `Webhook ${unique}` }).getByRole("button", { name: "Editar" }).click();
    await page.getByRole("dialog").getByText("Um segredo está configurado").waitFor();
    expect(await page.getByRole("dialog").getByTestId("webhook-secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();

    expect((await http(`/api/queue/${webhookQueueId}`, { method: "PUT", token, body: { integrationId: row.id } })).status).toBeLessThan(300);
    const configured = await http(`/simulator/webhooks/api/hooks/${hook}`, {
      method: "PUT",
      body: {
        secret,
        answer: { messages: [{ type: "text", body: "Vou te passar para Vendas, {{contact.name}}!" }], actions: [{ type: "transferQueue", queueId: vendasId }] },
      },
    });
    expect(configured.status).toBe(200);
  });

  it("a customer's message reaches the receiver signed, and the receiver's answer transfers the ticket to Vendas", async () => {
    const customer = { number: `55117${String(Date.now()).slice(-8)}`, name: "João Webhook" };
    await says(customer.number, "Oi", customer.name);
    await botSaid(customer.number, `Webhook ${unique}`);
    await says(customer.number, "2", customer.name);
    await says(customer.number, "Quero comprar", customer.name);
    await botSaid(customer.number, "Vou te passar para Vendas, João Webhook!");

    type Delivery = { verified: boolean; body: { contact: { number: string; name: string }; message: { body: string }; company: { id: number }; connection: { id: number; name: string }; ticket: { id: number } } };
    const deliveries = (await http<Delivery[]>(`/simulator/webhooks/api/deliveries?hook=${hook}`)).data;
    const mine = deliveries.filter((d) => d.body.contact?.number === customer.number);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((d) => d.verified)).toBe(true);
    expect(mine[0]!.body).toMatchObject({ company: { id: companyId }, connection: { id: whatsappId, name: connectionName }, contact: { name: customer.name } });

    const ticket = await poll(() => ticketOf(customer.number), (t) => t?.queueId === vendasId);
    expect(ticket?.queueId).toBe(vendasId);
    expect(ticket?.id).toBe(mine[0]!.body.ticket.id);
    await page.goto(`/tickets/${ticket!.uuid}`);
    await page.getByText("Vou te passar para Vendas, João Webhook!").first().waitFor({ timeout: 15_000 });
    await screenshot(page, "bots-webhook-transfer");
  });
});
