import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * The flow builder (issue 30), in Chromium: the admin draws "start → ask the e-mail → transfer to a queue" by dragging
 * node types from the palette and connecting their handles, fills the inspector, tests it in the panel, publishes it;
 * the flow is set on a connection of its own and a simulator customer goes through it to the queue, where the ticket
 * waits. The test uses its own connection and queue, so the demo connection's menu and other tests are untouched.
 */
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const connectionName = `Fluxos ${unique}`;
const queueName = `Fila fluxo ${unique}`;
const color = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, "0")}`;
const apiAdmin = { email: `flows-${unique}@demo.com.br`, password: "FlowsE2e1234" };
let browser: Browser;
let page: Page;
let token = "";
let companyId = 0;
let whatsappId = 0;
let queueId = 0;
let flowId = 0;

type ChatEntry = { id: string; fromCustomer: boolean; body: string };
const says = (number: string, body: string) => http(`/simulator/api/customers/${number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: "Cliente Fluxo" } });
const chatOf = async (number: string) => (await http<{ messages?: ChatEntry[] }>(`/simulator/api/customers/${number}/messages?companyId=${companyId}&whatsappId=${whatsappId}`)).data.messages ?? [];

/** The id of the (only) node of a type on the canvas. */
const nodeIdOf = async (type: string) => ((await page.locator(`[data-node-type="${type}"]`).first().getAttribute("data-testid")) ?? "").replace("flow-node-", "");
/** Where an element is once it stopped moving (auto-layout re-fits the view a frame later): two equal reads in a row. */
const settledBox = async (locator: Locator) => {
  let last = await locator.boundingBox();
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(50);
    const now = await locator.boundingBox();
    if (now && last && now.x === last.x && now.y === last.y && now.width === last.width) return now;
    last = now;
  }
  return last!;
};
/** Drags from an out-handle to another node's in-handle, as a person does with the mouse. */
const connect = async (fromHandle: string, toNode: string) => {
  const from = await settledBox(page.getByTestId(fromHandle));
  const to = await settledBox(page.locator(`[data-testid="flow-node-${toNode}"] .react-flow__handle.target`));
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await page.mouse.up();
};
const pick = async (field: string, option: string) => {
  await page.getByTestId("node-inspector").locator(`[data-testid="${field}"]`).locator("..").getByRole("combobox").click();
  await page.getByRole("option", { name: option, exact: true }).click();
};

beforeAll(async () => {
  const first = await http<{ token: string }>("/api/auth/login", { method: "POST", body: LOGINS.admin });
  const made = await http("/api/users", { method: "POST", token: first.data.token, body: { name: `Flows E2E ${unique}`, ...apiAdmin, profile: "admin", allTicket: "enabled" } });
  expect(made.status).toBeLessThan(300);
  const auth = await http<{ token: string; user: { companyId: number } }>("/api/auth/login", { method: "POST", body: apiAdmin });
  token = auth.data.token;
  companyId = auth.data.user.companyId;
  const q = await http<{ id: number }>("/api/queue", { method: "POST", token, body: { name: queueName, color: color(), orderQueue: 1, greetingMessage: "Você está na fila do fluxo." } });
  expect(q.status, JSON.stringify(q.data)).toBeLessThan(300);
  queueId = q.data.id;
  const conn = await http<{ id: number }>("/api/whatsapp", { method: "POST", token, body: { name: connectionName, greetingMessage: "Bem-vindo ao atendimento.", queueIds: [queueId] } });
  expect(conn.status, JSON.stringify(conn.data)).toBeLessThan(300);
  ({ whatsappId, token } = await connectSimulator(baseUrl(), apiAdmin, connectionName));
  browser = await launchBrowser();
  page = await (await newContext(browser, { viewport: { width: 1280, height: 800 } })).newPage();
  await login(page, LOGINS.admin.email, LOGINS.admin.password);
  await page.waitForURL(/\/tickets$/, { timeout: 15_000 });
});
afterAll(async () => {
  await page?.context().close().catch(() => undefined);
  await browser?.close();
});

describe("flows: drawn in the browser, tested, published, run by a customer", () => {
  it("the admin drags nodes from the palette, connects them and fills the inspector; validation shows on the nodes", async () => {
    await page.goto("/flows");
    await page.getByTestId("flow-add").click();
    await page.getByTestId("flow-editor").waitFor();
    await page.getByTestId("flow-name").fill(`Captação ${unique}`);
    const canvas = page.getByTestId("flow-canvas");
    const box = (await canvas.boundingBox())!;
    await page.getByTestId("palette-question").dragTo(canvas, { targetPosition: { x: box.width / 2, y: box.height / 2 - 60 } });
    const question = await nodeIdOf("question");
    expect(question).toMatch(/^question-/);
    // a question without text is marked on the node
    await expect.poll(() => page.getByTestId(`flow-node-${question}`).getAttribute("data-status")).toBe("error");
    await page.getByTestId("field-text").fill("Olá! Qual é o seu e-mail?");
    await page.getByTestId("field-saveAs").fill("contact.email");
    await pick("field-validate", "E-mail");
    await page.getByTestId("field-invalidText").fill("E-mail inválido, tente de novo.");

    await page.getByTestId("palette-transfer").dragTo(canvas, { targetPosition: { x: box.width / 2, y: box.height / 2 + 140 } });
    const transfer = await nodeIdOf("transfer");
    await pick("field-queueId", queueName);

    await page.getByRole("button", { name: "Organizar automaticamente" }).click();
    await connect("handle-start-default", question);
    await connect(`handle-${question}-default`, transfer);
    await expect.poll(() => page.getByTestId(`flow-node-${question}`).getAttribute("data-status")).not.toBe("error");
    await expect.poll(() => page.getByTestId(`flow-node-${transfer}`).getAttribute("data-status")).toBe("ok");
    await screenshot(page, "flows-drawn");

    await page.getByTestId("flow-save").click();
    await page.waitForURL(/\/flows\/\d+$/);
    flowId = Number(page.url().split("/").pop());
    const saved = await http<{ nodes: { type: string }[]; edges: unknown[] }>(`/api/flows/${flowId}`, { token });
    expect(saved.data.nodes.map((n) => n.type).sort()).toEqual(["question", "start", "transfer"]);
    expect(saved.data.edges).toHaveLength(2);
  });

  it("the test panel chats with the flow: the question, a wrong answer, the e-mail, the transfer", async () => {
    await page.getByTestId("tab-test").click();
    await page.getByTestId("flow-test-start").click();
    await expect.poll(() => page.getByTestId("flow-test-out").last().textContent()).toContain("Qual é o seu e-mail?");
    await page.getByTestId("flow-test-input").fill("não sei");
    await page.getByTestId("flow-test-send").click();
    await expect.poll(async () => (await page.getByTestId("flow-test-out").allTextContents()).join("\n")).toContain("E-mail inválido, tente de novo.");
    await page.getByTestId("flow-test-input").fill("maria@example.com");
    await page.getByTestId("flow-test-send").click();
    await expect.poll(() => page.getByTestId("flow-test-status").textContent()).toContain("Transferido");
    expect(await page.getByTestId("flow-test-var").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("maria@example.com")]));
    await screenshot(page, "flows-test-panel");
  });

  it("the admin publishes it; the version shows with its diff", async () => {
    await page.getByTestId("flow-publish").click();
    await page.getByTestId("flow-version-diff").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("flow-version-diff").textContent()).toContain("Nós adicionados: 3");
    await expect.poll(async () => (await http<{ publishedVersion: number | null }>(`/api/flows/${flowId}`, { token })).data.publishedVersion).toBe(1);
  });

  it("set on a connection, a simulator customer goes through it to the queue, where the ticket waits", async () => {
    const wa = (await http<Json>(`/api/whatsapp/${whatsappId}`, { token })).data;
    const put = await http(`/api/whatsapp/${whatsappId}`, { method: "PUT", token, body: { ...wa, queueIds: [queueId], flowId } });
    expect(put.status, JSON.stringify(put.data)).toBeLessThan(300);
    const number = `55119${String(Date.now()).slice(-8)}`;
    await says(number, "Oi");
    await poll(() => chatOf(number), (m) => m.some((x) => !x.fromCustomer && x.body.includes("Qual é o seu e-mail?")), 45_000);
    await says(number, "maria.fluxo@example.com");
    type TicketRow = { id: number; status: string; queueId: number | null; contact: { number: string; email?: string } };
    const ticket = await poll(
      async () => ((await http<{ tickets: TicketRow[] }>(`/api/tickets?status=pending&showAll=true&queueIds=[${queueId}]`, { token })).data.tickets ?? []).find((t) => t.contact.number === number) ?? null,
      (t) => !!t && t.queueId === queueId,
      45_000,
    );
    expect(ticket).toMatchObject({ status: "pending", queueId });
    await screenshot(page, "flows-published");
  });
});
