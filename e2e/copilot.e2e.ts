import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator, customerChat } from "./support/simulator";

/**
 * The attendants' copilot (issue 33) in Chromium, the provider played by the AI stand-in (/simulator/ai): the demo
 * company turns the copilot on (pointed at the stand-in); a customer writes and sends a voice note through the
 * WhatsApp simulator; the attendant (Beto, queue Suporte) opens the conversation, asks for a summary, puts a
 * suggested reply in the box (nothing is sent) and reads the voice note's transcript under its player. Other test
 * files share the platform: the copilot is turned off at the end.
 */
let browser: Browser;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const unique = Date.now().toString(36);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Cliente Copiloto ${unique.slice(-4)}` };
let session = { token: "", companyId: 0, whatsappId: 0 };
type TicketRow = { id: number; uuid: string; status: string; contact: { number: string } };

const send = (body: Record<string, unknown>) =>
  http(`/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { companyId: session.companyId, whatsappId: session.whatsappId, name: customer.name, ...body } });
const settings = (token: string, enabled: boolean) =>
  http("/api/copilot/settings", {
    method: "PUT",
    token,
    body: { enabled, baseUrl: `${baseUrl()}/simulator/ai/v1`, apiKey: `sk-e2e-copilot-${unique}-00000000004321`, model: "simulador", features: { summary: true, suggestions: true, rewrite: true, transcription: true } },
  });

beforeAll(async () => {
  browser = await launchBrowser();
  session = await connectSimulator(baseUrl(), LOGINS.admin);
  expect((await settings(session.token, true)).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  const auth = await http<{ token: string }>("/api/auth/login", { method: "POST", body: LOGINS.admin });
  await settings(auth.data.token, false);
});

describe("the copilot helps the attendant in a conversation", () => {
  it("summary, a suggestion put in the box (not sent), and a voice note's transcript", async () => {
    await send({ type: "text", body: "Oi! Meu pedido 8812 chegou com a tampa quebrada." });
    await send({ type: "audio", body: "" });
    const token = session.token;
    const ticket = await poll(
      async () => ((await http<{ tickets: TicketRow[] }>("/api/tickets?showAll=true&status=pending", { token })).data.tickets ?? []).find((t) => t.contact.number === customer.number),
      (t) => !!t,
      30_000,
    );
    // the ticket goes to Beto in Suporte (the attendant may see it), open
    const users = await http<{ users: { id: number; email: string }[] }>("/api/users?pageNumber=1", { token });
    const beto = users.data.users.find((u) => u.email === LOGINS.attendant.email)!;
    const queues = await http<{ id: number; name: string }[]>("/api/queue", { token });
    const support = queues.data.find((q) => q.name === "Suporte")!;
    const moved = await http(`/api/tickets/${ticket!.id}`, { method: "PUT", token, body: { status: "open", userId: beto.id, queueId: support.id } });
    expect(moved.status).toBe(200);

    const page = await (await newContext(browser)).newPage();
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.attendant.email, LOGINS.attendant.password);
    await page.waitForURL(/\/tickets$/);
    await page.goto(`/tickets/${ticket!.uuid}`);
    await page.getByText("Meu pedido 8812 chegou com a tampa quebrada.").first().waitFor({ timeout: 20_000 });

    // the voice note's transcript under its player (the stand-in names the bytes it got)
    await page.getByTestId("audio-transcript").getByText(/Áudio de \d+ bytes/).waitFor({ timeout: 30_000 });

    await page.getByRole("button", { name: "Resumo" }).click();
    await page.getByTestId("copilot-summary").getByText(/Resumo do simulador/).waitFor({ timeout: 20_000 });

    await page.getByRole("button", { name: "Sugerir respostas" }).click();
    const chip = page.getByTestId("copilot-suggestion").first();
    await chip.waitFor({ timeout: 20_000 });
    const suggestion = (await chip.textContent()) ?? "";
    expect(suggestion.length).toBeGreaterThan(0);
    await chip.click();
    await expect.poll(() => page.getByTestId("composer-input").inputValue()).toBe(suggestion);
    await screenshot(page, "copilot-01-summary-suggestion-transcript");
    // nothing went to the customer: the attendant has not pressed send
    await new Promise((r) => setTimeout(r, 1500));
    expect((await customerChat(baseUrl(), session, customer.number)).filter((e) => !e.fromCustomer && e.body === suggestion)).toEqual([]);
  });
});
