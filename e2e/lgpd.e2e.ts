import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * LGPD in the browser (issue 14): a simulator customer writes; the admin opens the ticket's contact drawer and
 * exports the person's data (a ZIP holding their name and message); the company accepts opt-out words in any
 * ticket; the customer answers SAIR through the simulator, gets the confirmation and the drawer shows them opted
 * out; the ticket is closed and the admin erases the contact from the drawer: the contact is gone.
 */
let browser: Browser;
let page: Page;
let companyId = 0;
let whatsappId = 0;
let token = "";
const stamp = Date.now().toString(36).slice(-5);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Titular LGPD ${stamp}` };
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, { token, ...init });
const customerSays = (body: string) =>
  httpJson(baseUrl(), `/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId, whatsappId, type: "text", body, name: customer.name } });
type ChatEntry = { fromCustomer: boolean; body: string };
const customerChat = async () => (await httpJson<{ messages: ChatEntry[] }>(baseUrl(), `/simulator/api/customers/${customer.number}/messages?companyId=${companyId}&whatsappId=${whatsappId}`)).data.messages;
type TicketRow = { id: number; uuid: string; status: string; contact: { id: number; number: string } | null };
const ticketOfCustomer = async () => (await http<{ tickets: TicketRow[] }>("/api/tickets?showAll=true")).data.tickets.find((x) => x.contact?.number === customer.number);

beforeAll(async () => {
  browser = await launchBrowser();
  ({ companyId, whatsappId } = await connectSimulator(baseUrl(), LOGINS.admin));
  const signed = await httpJson<{ token: string }>(baseUrl(), "/api/auth/login", { method: "POST", body: { email: LOGINS.admin.email, password: LOGINS.admin.password } });
  token = signed.data.token;
});

afterAll(async () => {
  await browser?.close();
});

describe("LGPD", () => {
  it("the admin exports a customer's data from the drawer, the customer opts out with SAIR, and the admin erases the contact", { timeout: 240_000 }, async () => {
    await customerSays("Olá, quero meus dados");
    const ticket = await poll(ticketOfCustomer, (x) => Boolean(x));
    expect(ticket).toBeDefined();

    const context = await newContext(browser, {});
    page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.admin.email, LOGINS.admin.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    // one session per user: the browser's sign-in ended the API one; the API calls below use the browser's session
    token = await page.evaluate(async () => ((await (await fetch("/api/auth/refresh_token", { method: "POST", credentials: "include" })).json()) as { token: string }).token);
    await page.goto(`/tickets/${ticket!.uuid}`);

    await page.getByTestId("header-contact").click();
    const privacy = page.getByTestId("contact-privacy");
    await privacy.waitFor();
    expect(await privacy.getByTestId("opt-out-state").textContent()).toContain("Recebe campanhas");

    const downloading = page.waitForEvent("download");
    await privacy.getByRole("button", { name: "Exportar dados" }).click();
    const download = await downloading;
    const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    expect(JSON.parse(strFromU8(files["contato.json"]!)).contact).toMatchObject({ name: customer.name, number: customer.number });
    expect(strFromU8(files["mensagens.json"]!)).toContain("Olá, quero meus dados");
    await screenshot(page, "lgpd-01-drawer-export");

    // the company accepts the words in any ticket (settings page), then the customer answers SAIR
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Privacidade (LGPD)" }).click();
    const settings = page.getByTestId("lgpd-settings");
    await settings.waitFor({ timeout: 30_000 });
    const anyTicket = settings.getByLabel(/qualquer atendimento/);
    if (!(await anyTicket.isChecked())) await anyTicket.check();
    await settings.getByRole("button", { name: "Salvar" }).click();
    await page.getByText("Configurações de privacidade salvas.").waitFor();
    await screenshot(page, "lgpd-02-settings");

    await page.goto(`/tickets/${ticket!.uuid}`);
    await page.getByTestId("header-contact").click();
    await page.getByTestId("contact-privacy").waitFor();
    await customerSays("SAIR");
    await expect.poll(async () => (await customerChat()).some((m) => !m.fromCustomer && m.body.includes("não receberá mais")), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByTestId("opt-out-state").textContent(), { timeout: 30_000 }).toContain("Pediu para sair");
    await screenshot(page, "lgpd-03-opted-out");
    const list = await http<{ optOuts: { number: string; message: string }[] }>("/api/opt-outs");
    expect(list.data.optOuts).toEqual(expect.arrayContaining([expect.objectContaining({ number: customer.number, message: "SAIR" })]));

    // erasure needs the conversation closed first
    const open = await ticketOfCustomer();
    if (open && open.status === "pending") await http(`/api/tickets/${open.id}`, { method: "PUT", body: { status: "open" } });
    if (open && open.status !== "closed") await http(`/api/tickets/${open.id}`, { method: "PUT", body: { status: "closed" } });
    await page.goto(`/tickets/${ticket!.uuid}`);
    await page.getByTestId("header-contact").click();
    await page.getByTestId("contact-privacy").getByRole("button", { name: "Apagar dados" }).click();
    await page.getByRole("dialog").getByRole("button", { name: /confirmar/i }).click();
    await page.getByText("Dados do contato apagados.").first().waitFor({ timeout: 30_000 });
    await screenshot(page, "lgpd-04-erased");
    const gone = await http(`/api/contacts/${ticket!.contact!.id}`);
    expect(gone.status).toBe(404);
    const search = await http<{ contacts: { number: string }[] }>(`/api/contacts?searchParam=${customer.number}`);
    expect(search.data.contacts.filter((c) => c.number === customer.number)).toEqual([]);
  });
});
