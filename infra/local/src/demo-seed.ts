import type { Container } from "@atende/functions/app/container";
import type { SimulatorNetwork } from "./stand-ins/whatsapp/network";
import { seedDemoFlow, seedDemoTypebot } from "./demo-bots-flows";

/**
 * The first `npm start`'s demo (docs/adr/0012): the demo company's *Simulador* connection paired on the simulator,
 * and realistic conversations played exactly as they happen for real. Customers write through the simulated
 * network (session host, inbound queue, automation); the admin and the attendant answer through the HTTP API the
 * web app uses. Nothing is written behind the services' back, so every record looks like real data: tickets in
 * every state (in the menu, pending in each queue, open with an attendant, closed and rated), one with an image,
 * one with an internal note, tagged tickets, contacts, a scheduled message, a campaign that ran to its end, and an AI
 * prompt on Suporte (answered by the local AI simulator) talking to one customer.
 */

type Api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;
type TicketRow = { id: number; status: string; queueId: number | null; userId: number | null; lastMessage: string; contact: { id: number; number: string } };

const DEMO_PHONE = "5511940000000";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls until `read` gives a value `ok` accepts (each demo step waits for the platform to have done the last);
 * the platform stopping ends the demo at its next wait.
 */
const waiter = (isStopped: () => boolean) => async <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    if (isStopped()) throw new Error("demo seed: the platform stopped");
    const v = await read().catch((err: unknown) => ((last = String(err)), undefined as T));
    if (v !== undefined && ok(v)) return v;
    if (v !== undefined) last = v;
    if (Date.now() > until) throw new Error(`demo seed: timed out waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 500) ?? String(last)})`);
    await sleep(250);
  }
};

const apiFor =
  (url: string, token: string): Api =>
  async (method, path, body) => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const data = (await res.json().catch(() => ({}))) as never;
    if (!res.ok) throw new Error(`demo seed: ${method} ${path} answered ${res.status} ${JSON.stringify(data)}`);
    return data;
  };

const login = async (url: string, email: string, password: string) => {
  const res = await fetch(`${url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`demo seed: login ${email} answered ${res.status}`);
  const body = (await res.json()) as { token: string; user: { id: number; companyId: number } };
  return { api: apiFor(url, body.token), user: body.user };
};

export const seedDemoConversations = async (deps: { url: string; network: SimulatorNetwork; container: Container; stopped?: () => boolean }) => {
  const { url, network, container } = deps;
  const waitFor = waiter(deps.stopped ?? (() => false));
  const ana = await login(url, "admin@demo.com.br", "Admin1234");
  const beto = await login(url, "atendente@demo.com.br", "Atende1234");
  const companyId = ana.user.companyId;
  const connections = await ana.api<{ id: number; name: string }[]>("GET", "/whatsapp");
  const whatsappId = connections.find((w) => w.name === "Simulador")?.id;
  if (!whatsappId) throw new Error("demo seed: no Simulador connection");
  const ref = { companyId, whatsappId };

  // the phone scans the QR the connection shows (the session host started it right after the seed)
  await waitFor("the Simulador QR code", async () => network.connections().find((c) => c.companyId === companyId && c.whatsappId === whatsappId)?.status, (s) => s === "qrcode");
  await network.scan(ref, DEMO_PHONE);
  await waitFor("the connection to be connected", () => ana.api<{ status: string }>("GET", `/whatsapp/${whatsappId}`), (w) => w.status === "CONNECTED");
  await ana.api("PUT", "/settings/userRating", { value: "enabled" });
  await seedDemoTypebot(ana.api, url, whatsappId);

  const tickets = async () => {
    const all: TicketRow[] = [];
    for (const status of ["pending", "open", "closed"])
      all.push(...(await ana.api<{ tickets: TicketRow[] }>("GET", `/tickets?showAll=true&status=${status}&pageNumber=1`)).tickets);
    return all;
  };
  const ticketOf = async (number: string, ok: (t: TicketRow) => boolean) =>
    (await waitFor(`the ticket of ${number}`, async () => (await tickets()).filter((t) => t.contact.number === number), (list) => list.some(ok))).find(ok) as TicketRow;
  const says = async (number: string, name: string, body: string) => {
    network.upsertCustomer(number, name);
    await network.customerSend(number, ref, { type: "text", body });
  };
  /** A customer writes into an open conversation; the next step waits until the platform stored it. */
  const replies = async (number: string, name: string, body: string) => {
    await says(number, name, body);
    await ticketOf(number, (t) => t.status === "open" && t.lastMessage.includes(body));
  };
  /** A customer writes, gets the greeting and the queue menu, and answers it (1 Vendas, 2 Suporte). */
  const intoQueue = async (number: string, name: string, first: string, option: "1" | "2") => {
    await says(number, name, first);
    await ticketOf(number, (t) => t.status === "pending");
    await sleep(300);
    await network.customerSend(number, ref, { type: "text", body: option });
    return ticketOf(number, (t) => t.status === "pending" && t.queueId !== null);
  };

  // 1. still in the menu
  await says("5511987654301", "Marcos Oliveira", "Oi, boa tarde! Vocês abrem no sábado?");
  // 2. and 3. waiting in each queue
  await intoQueue("5511987654302", "Juliana Costa", "Olá! Queria saber o preço do plano anual.", "1");
  await intoQueue("5521987654303", "Roberto Almeida", "Bom dia, meu pedido 48190 ainda não chegou.", "2");
  // 4. open with the attendant, with an internal note
  const fernanda = await intoQueue("5531987654304", "Fernanda Lima", "Oi, preciso da segunda via da nota fiscal.", "2");
  await beto.api("PUT", `/tickets/${fernanda.id}`, { status: "open", userId: beto.user.id });
  await beto.api("POST", `/messages/${fernanda.id}`, { body: "Olá, Fernanda! Sou o Beto, do suporte. Pode me passar o número do pedido?", fromMe: true, read: true });
  await replies("5531987654304", "Fernanda Lima", "Claro! É o pedido 48213.");
  await beto.api("POST", "/ticket-notes", { note: "Cliente pediu a 2ª via da NF do pedido 48213 — conferir com o financeiro antes de enviar.", ticketId: fernanda.id, contactId: fernanda.contact.id });
  // 5. closed and rated
  const carlos = await intoQueue("5511987654305", "Carlos Souza", "Boa tarde, vocês entregam em Campinas?", "1");
  await ana.api("PUT", `/tickets/${carlos.id}`, { status: "open", userId: ana.user.id });
  await ana.api("POST", `/messages/${carlos.id}`, { body: "Entregamos sim, Carlos! Para Campinas o prazo é de 2 dias úteis e o frete é grátis acima de R$ 200.", fromMe: true, read: true });
  await replies("5511987654305", "Carlos Souza", "Perfeito, vou fechar o pedido então. Obrigado!");
  await ana.api("PUT", `/tickets/${carlos.id}`, { status: "closed" });
  await ticketOf("5511987654305", (t) => t.status === "closed");
  await says("5511987654305", "Carlos Souza", "3");
  await waitFor(
    "the rating to be recorded",
    () => ana.api<{ messages: { body: string; fromMe: boolean }[] }>("GET", `/messages/${carlos.id}`),
    (r) => r.messages.some((m) => !m.fromMe && m.body === "3"),
  );
  // 6. a photo from the customer, open with the admin
  const patricia = await intoQueue("5541987654306", "Patrícia Mendes", "Olá, recebi o produto com defeito.", "2");
  await network.customerSend("5541987654306", ref, { type: "image", body: "Foto da caixa amassada" });
  await ticketOf("5541987654306", (t) => t.lastMessage.includes("Foto da caixa amassada"));
  await ana.api("PUT", `/tickets/${patricia.id}`, { status: "open", userId: ana.user.id });
  await ana.api("POST", `/messages/${patricia.id}`, { body: "Sinto muito, Patrícia! Já abrimos a troca; o entregador passa amanhã para retirar.", fromMe: true, read: true });

  // tags on the conversations (the kanban shows them), and a few more contacts
  const vip = await ana.api<{ id: number }>("POST", "/tags", { name: "Cliente VIP", color: "#f9a825", kanban: 1 });
  const newLead = await ana.api<{ id: number }>("POST", "/tags", { name: "Novo cliente", color: "#43a047", kanban: 1 });
  const invoice = await ana.api<{ id: number }>("POST", "/tags", { name: "Financeiro", color: "#8e24aa", kanban: 1 });
  const juliana = await ticketOf("5511987654302", () => true);
  await ana.api("PUT", `/ticket-tags/${juliana.id}/${newLead.id}`);
  await ana.api("PUT", `/ticket-tags/${carlos.id}/${vip.id}`);
  await ana.api("PUT", `/ticket-tags/${fernanda.id}/${invoice.id}`);
  await ana.api("PUT", `/ticket-tags/${fernanda.id}/${vip.id}`);
  const people = [
    { name: "Luciana Ferreira", number: "5511976543201", email: "luciana.ferreira@exemplo.com.br", extraInfo: [{ name: "Empresa", value: "Padaria Pão Quente" }] },
    { name: "Eduardo Ramos", number: "5521976543202", email: "eduardo@exemplo.com.br", extraInfo: [{ name: "Cidade", value: "Niterói" }] },
    { name: "Sônia Batista", number: "5571976543203", email: "", extraInfo: [] },
  ];
  const made: { id: number; name: string; number: string }[] = [];
  for (const p of people) made.push(await ana.api("POST", "/contacts", p));

  // a scheduled message: the day after tomorrow at 10:00 in the company's time zone
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  await ana.api("POST", "/schedules", { contactId: carlos.contact.id, body: "Olá, Carlos! Seu pedido sai hoje para entrega em Campinas. 🚚", sendAt: `${day} 10:00:00`, whatsappId });

  // a campaign to a contact list, run to its end (the seed plays the minute tick early instead of waiting for it)
  await ana.api("POST", "/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 20, greaterInterval: 60 } });
  const list = await ana.api<{ id: number }>("POST", "/contact-lists", { name: "Clientes da Black Friday" });
  for (const p of made) await ana.api("POST", "/contact-list-items", { contactListId: list.id, name: p.name, number: p.number, email: "" });
  await waitFor(
    "the list's numbers to be checked",
    () => ana.api<{ contacts: { isWhatsappValid: boolean | null }[] }>("GET", `/contact-list-items?contactListId=${list.id}&pageNumber=1`),
    (r) => r.contacts.length === made.length && r.contacts.every((c) => c.isWhatsappValid !== null),
  );
  const campaign = await ana.api<{ id: number }>("POST", "/campaigns", {
    name: "Black Friday",
    message1: "Oi, {nome}! A Black Friday da Demo Atendimento começou: 30% de desconto em toda a loja até domingo.",
    message2: "{nome}, a Black Friday chegou! Use o cupom BLACK30 e ganhe 30% de desconto até domingo.",
    scheduledAt: new Date(Date.now() + 2 * 60_000).toISOString(),
    whatsappId,
    contactListId: list.id,
  });
  await container.services.campaignDispatch.startDue(new Date(Date.now() + 3 * 60_000));
  await waitFor("the campaign to finish", () => ana.api<{ status: string }>("GET", `/campaigns/${campaign.id}`), (c) => c.status === "FINALIZADA", 120_000);

  // 7. an AI prompt on Suporte, answered by the local AI simulator (docs/bots.md): from now on a customer who picks
  //    Suporte talks to it until they ask for "atendente" (the conversations above were played before it existed)
  const queues = await ana.api<{ id: number; name: string }[]>("GET", "/queue");
  const support = queues.find((q) => q.name === "Suporte");
  if (!support) throw new Error("demo seed: no Suporte queue");
  const assistant = await ana.api<{ id: number }>("POST", "/prompt", {
    name: "Assistente virtual",
    prompt:
      "Você é o assistente virtual do suporte da {{company}}. Cumprimente {{firstName}} pelo nome, responda com frases curtas e educadas e, quando não souber, ofereça um atendente.",
    apiKey: "sk-demo-simulador-0000000000000000",
    queueId: support.id,
    model: "simulador",
    baseUrl: `${url}/simulator/ai/v1`,
    maxMessages: 10,
  });
  await ana.api("PUT", `/queue/${support.id}`, { promptId: assistant.id });
  const livia = await intoQueue("5511987654307", "Lívia Rocha", "Oi! Tenho uma dúvida sobre a troca de um produto.", "2");
  await says("5511987654307", "Lívia Rocha", "Vocês trocam produto com defeito?");
  await waitFor(
    "the assistant's answer",
    () => ana.api<{ messages: { body: string; fromMe: boolean }[] }>("GET", `/messages/${livia.id}`),
    (r) => r.messages.some((m) => m.fromMe && m.body.includes("Vocês trocam produto com defeito?")),
  );
  // 8. a drawn flow (issue 30), published, on the keyword "fluxo": the conversations above do not meet it
  await seedDemoFlow(ana.api);
  // 9. the attendants' copilot (issue 33) on the AI simulator, and a voice note from Fernanda transcribed by it
  await ana.api("PUT", "/copilot/settings", {
    enabled: true,
    baseUrl: `${url}/simulator/ai/v1`,
    apiKey: "sk-demo-simulador-copiloto-00000000",
    model: "simulador",
    features: { summary: true, suggestions: true, rewrite: true, transcription: true },
  });
  await network.customerSend("5531987654304", ref, { type: "audio", body: "" });
};
