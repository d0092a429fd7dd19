import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./platform";

/** The first `npm start`'s demo, played on an in-memory platform exactly as the runner plays it. */
let platform: Platform;
let token = "";
const api = async <T = Record<string, unknown>>(path: string): Promise<T> => {
  const res = await fetch(`${platform.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
type Ticket = { id: number; status: string; queueId: number | null; userId: number | null; contact: { name: string; number: string }; tags: { name: string }[] };

beforeAll(async () => {
  platform = await startPlatform({ demo: true, logLevel: "error", env: { BCRYPT_ROUNDS: "4" }, tick: false });
  await platform.demo;
  const res = await fetch(`${platform.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@demo.com.br", password: "Admin1234" }) });
  token = ((await res.json()) as { token: string }).token;
}, 240_000);
afterAll(async () => {
  await platform?.stop();
});

describe("the demo seed (npm start's first start)", () => {
  it("leaves conversations in every state, made by the real inbound path and the attendants' API", async () => {
    const all: Ticket[] = [];
    for (const status of ["pending", "open", "closed"]) all.push(...(await api<{ tickets: Ticket[] }>(`/tickets?showAll=true&status=${status}&pageNumber=1`)).tickets);
    const of = (name: string) => all.filter((t) => t.contact.name === name);
    const queues = await api<{ id: number; name: string }[]>("/queue");
    const queueId = (name: string) => queues.find((q) => q.name === name)?.id;

    expect(of("Marcos Oliveira")).toMatchObject([{ status: "pending", queueId: null }]);
    expect(of("Juliana Costa")).toMatchObject([{ status: "pending", queueId: queueId("Vendas"), tags: [{ name: "Novo cliente" }] }]);
    expect(of("Roberto Almeida")).toMatchObject([{ status: "pending", queueId: queueId("Suporte") }]);
    const fernanda = of("Fernanda Lima");
    expect(fernanda).toMatchObject([{ status: "open", queueId: queueId("Suporte") }]);
    // one ticket only: the "3" after the close was taken as the rating, not as a new conversation
    expect(of("Carlos Souza")).toMatchObject([{ status: "closed" }]);
    expect(of("Patrícia Mendes")).toMatchObject([{ status: "open" }]);

    // the customer's messages came in through the simulator, the menu went out, the attendant's reply was delivered
    const history = await api<{ messages: { body: string; fromMe: boolean; ack: number }[] }>(`/messages/${fernanda[0]!.id}`);
    expect(history.messages.some((m) => !m.fromMe && m.body === "Claro! É o pedido 48213.")).toBe(true);
    const reply = history.messages.find((m) => m.fromMe && m.body.startsWith("Olá, Fernanda!"));
    expect(reply?.ack).toBeGreaterThanOrEqual(1);
    // the demo went through the write path, so search finds it (docs/adr/0035): an earlier message, not the last one
    const found = await api<{ results: { ticketId: number; message: { id: string } | null }[] }>(`/search?q=${encodeURIComponent("pedido 48213")}`);
    expect(found.results.map((r) => r.ticketId)).toContain(fernanda[0]!.id);
    const notes = await api<{ note: string }[]>(`/ticket-notes/list?ticketId=${fernanda[0]!.id}`);
    expect(notes.map((n) => n.note)).toEqual([expect.stringContaining("2ª via da NF")]);
    const photo = await api<{ messages: { mediaType: string | null; mediaUrl: string | null }[] }>(`/messages/${of("Patrícia Mendes")[0]!.id}`);
    expect(photo.messages.some((m) => m.mediaType === "image" && m.mediaUrl)).toBe(true);
  });

  it("has an AI prompt on Suporte, on the local AI simulator, that answered a customer", async () => {
    const prompts = await api<{ prompts: { name: string; baseUrl: string; queue: { name: string } | null; tokensThisMonth: number }[] }>("/prompt");
    expect(prompts.prompts).toMatchObject([{ name: "Assistente virtual", baseUrl: `${platform.url}/simulator/ai/v1`, queue: { name: "Suporte" } }]);
    expect(prompts.prompts[0]!.tokensThisMonth).toBeGreaterThan(0);
    const queues = await api<{ id: number; name: string; promptId: number | null }[]>("/queue");
    expect(queues.find((q) => q.name === "Suporte")?.promptId).toEqual(expect.any(Number));
    const all = (await api<{ tickets: Ticket[] }>("/tickets?showAll=true&status=pending&pageNumber=1")).tickets;
    const livia = all.find((t) => t.contact.name === "Lívia Rocha")!;
    const history = await api<{ messages: { body: string; fromMe: boolean }[] }>(`/messages/${livia.id}`);
    expect(history.messages.some((m) => m.fromMe && m.body === 'Você disse: "Vocês trocam produto com defeito?"')).toBe(true);
    expect(platform.aiSimulator.requests.some((r) => r.endpoint === "chat")).toBe(true);
  });

  it("has a Typebot integration on the local stand-in, bound to the Autoatendimento queue of the Simulador connection", async () => {
    const list = await api<{ queueIntegrations: { id: number; name: string; type: string; urlN8N: string; typebotSlug: string }[] }>("/queueIntegration/?searchParam=typebot");
    const typebot = list.queueIntegrations.find((i) => i.name === "Typebot demo");
    expect(typebot).toMatchObject({ type: "typebot", urlN8N: `${platform.url}/simulator/typebot`, typebotSlug: "atende-demo" });
    const queues = await api<{ id: number; name: string; integrationId: number | null }[]>("/queue");
    const queue = queues.find((q) => q.name === "Autoatendimento");
    expect(queue?.integrationId).toBe(typebot!.id);
    const connections = await api<{ name: string; queueIds: number[] }[]>("/whatsapp");
    expect(connections.find((w) => w.name === "Simulador")?.queueIds).toContain(queue!.id);
  });

  it("has a published flow (issue 30) on the keyword \"fluxo\": greet, the e-mail, a menu, a queue; the connection keeps its queue menu", async () => {
    const list = await api<{ flows: { id: number; name: string; publishedVersion: number | null; triggers: { value: string }[] }[] }>("/flows");
    const flow = list.flows.find((f) => f.name === "Demo: e-mail e menu");
    expect(flow).toMatchObject({ publishedVersion: 1, triggers: [{ type: "keyword", value: "fluxo" }] });
    const full = await api<{ nodes: { type: string }[] }>(`/flows/${flow!.id}`);
    expect(full.nodes.map((n) => n.type)).toEqual(["start", "message", "question", "menu", "transfer", "transfer"]);
    const connections = await api<{ name: string; flowId?: number | null }[]>("/whatsapp");
    expect(connections.find((w) => w.name === "Simulador")?.flowId ?? null).toBeNull();
  });

  it("has contacts, tags, a scheduled message and a finished campaign", async () => {
    const contacts = await api<{ count: number }>("/contacts?pageNumber=1");
    expect(contacts.count).toBeGreaterThanOrEqual(9);
    const tags = await api<{ name: string }[]>("/tags/list");
    expect(tags.map((t) => t.name).sort()).toEqual(["Cliente VIP", "Financeiro", "Novo cliente"]);
    const schedules = await api<{ schedules: { status: string; contact: { name: string } }[] }>("/schedules/?pageNumber=1");
    expect(schedules.schedules).toMatchObject([{ status: "PENDENTE", contact: { name: "Carlos Souza" } }]);
    const campaigns = await api<{ records: { name: string; status: string; completedAt: string | null }[] }>("/campaigns/?pageNumber=1");
    expect(campaigns.records).toMatchObject([{ name: "Black Friday", status: "FINALIZADA" }]);
    expect(campaigns.records[0]?.completedAt).toBeTruthy();
    // the QR connection on the WhatsApp simulator, the Cloud API, Telegram, Messenger and Instagram ones on their
    // stand-ins, and the website chat of the demo shop (its own origin: stand-ins/shop)
    const connections = await api<{ name: string; status: string; provider: string }[]>("/whatsapp");
    expect(connections).toMatchObject([
      { name: "Simulador", status: "CONNECTED", provider: "beta" },
      { name: "API oficial (simulador)", status: "CONNECTED", provider: "cloudapi" },
      { name: "Telegram (simulador)", status: "CONNECTED", provider: "telegram", number: "@demo_4242_bot" },
      { name: "Site da loja (demo)", status: "CONNECTED", provider: "webchat" },
      { name: "Messenger (simulador)", status: "CONNECTED", provider: "messenger", number: "Atende Demo" },
      { name: "Instagram (simulador)", status: "CONNECTED", provider: "instagram", number: "@atende.demo" },
    ]);
    const shop = await (await fetch(platform.shopUrl)).text();
    const key = /data-key="(wk_[0-9a-f]+)"/.exec(shop)?.[1];
    expect(shop).toContain(`<script src="${platform.url}/webchat.js" data-key="${key}" async></script>`);
  });

  it("plays a Messenger user from /simulator/meta: the message becomes a ticket and the attendant's reply shows in the tab", async () => {
    const sim = (path: string, body?: unknown) =>
      fetch(`${platform.url}/simulator/meta${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const pages = (await (await sim("/api/pages")).json()) as { provider: string; pageId: string; webhookUrl: string | null }[];
    const messenger = pages.find((p) => p.provider === "messenger")!;
    expect(messenger.webhookUrl).toContain("/api/channels/meta/webhook/");
    expect((await sim("")).headers.get("content-type")).toContain("text/html");
    const userId = "24000000000004242";
    expect((await sim("/api/events", { pageId: messenger.pageId, userId, name: "Rafa Messenger", kind: "text", text: "Oi, vocês abrem sábado?" })).status).toBe(200);
    let ticket: Ticket | undefined;
    await expect.poll(async () => (ticket = (await api<{ tickets: Ticket[] }>("/tickets?showAll=true&status=pending&pageNumber=1")).tickets.find((t) => t.contact.name === "Rafa Messenger")), { timeout: 20_000 }).toBeTruthy();
    const reply = await fetch(`${platform.url}/api/messages/${ticket!.id}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify({ body: "Abrimos sim, das 9h às 13h." }) });
    expect(reply.status).toBe(201);
    await expect
      .poll(async () => ((await (await sim(`/api/chats/${messenger.pageId}/${userId}`)).json()) as { from: string; text: string }[]).filter((l) => l.from === "page").map((l) => l.text), { timeout: 20_000 })
      .toEqual(["Abrimos sim, das 9h às 13h."]);
  });
});
