import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { createMemoryMetrics } from "../../../platform/metrics";
import { adminTickets, deliver } from "../../../testing/inbox-fixtures";
import { createMemoryInboundQueue } from "../../../platform/queues/sqs-inbound.adapter";
import type { WebchatSettings } from "./webchat.repository";

/**
 * The website chat's visitor API (issue 31 item 3, docs/adr/0092) through the whole API: sessions, messages both
 * ways through the same inbound pipeline as WhatsApp, files checked like WhatsApp media, the Origin rule on every
 * route, rate limits, a visitor reading only their own conversation, and company B never reaching A's chat.
 */
const inbound = createMemoryInboundQueue();
const SHOP = "http://shop.localhost:9000";
let t: TestApp;
let a: Tenant;
let b: Tenant;
let chatA: WebchatSettings;
let chatB: WebchatSettings;

const consumeQueued = async () => {
  const events = inbound.events.splice(0);
  if (events.length) await deliver(t, ...events);
  return events;
};
const visitor = (key: string, path: string, opts: { method?: string; token?: string; body?: unknown; origin?: string | null; address?: string; rawBody?: string; headers?: Record<string, string> } = {}) =>
  t.call(opts.method ?? "GET", `/webchat/${key}/${path}`, {
    token: opts.token,
    body: opts.body,
    rawBody: opts.rawBody,
    address: opts.address,
    headers: { ...(opts.origin === null ? {} : { origin: opts.origin ?? SHOP }), ...opts.headers },
  });
const newSession = async (key: string, who: Record<string, string> = {}, address = "203.0.113.5") => {
  const res = await visitor(key, "sessions", { method: "POST", body: who, address });
  expect(res.status).toBe(201);
  return res.body.token as string;
};
const connection = async (tenant: Tenant, name: string, allowedOrigins: string[]) => {
  const res = await t.call("POST", "/whatsapp", {
    token: tenant.adminToken,
    body: { name, provider: "webchat", allowedOrigins, greeting: "Olá! Como podemos ajudar?", color: "#0f766e", askName: true },
  });
  expect(res.status).toBe(200);
  const settings = await t.container.webchat.repo.byConnection(tenant.company.id, res.body.id as number);
  return settings!;
};

// the channels' counters (issue 31 item 5): messages in and out by provider
const recorded = createMemoryMetrics();
const counted = (name: string) => recorded.points.filter((p) => p.name === name && p.dimensions?.provider === "webchat").length;

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { inbound, metrics: recorded.metrics } });
  a = await createTenant(t, { plan: { connections: 5 } });
  b = await createTenant(t, { plan: { connections: 5 } });
  chatA = await connection(a, "Site A", [SHOP]);
  chatB = await connection(b, "Site B", ["https://b.example"]);
});

describe("a website chat connection", () => {
  it("POST /whatsapp with provider webchat: its settings and the snippet to copy in GET /whatsapp/{id}; no session host", async () => {
    const res = await t.call("GET", `/whatsapp/${chatA.whatsappId}`, { token: a.adminToken });
    expect(res.body.channelSettings).toMatchObject({ provider: "webchat", publicKey: chatA.publicKey, allowedOrigins: [SHOP], color: "#0f766e", askName: true, askEmail: false });
    expect(res.body.channelSettings.snippet).toMatch(new RegExp(`^<script src="https?://[^"]+/webchat\\.js" data-key="${chatA.publicKey}" async></script>$`));
    expect(t.commands.sent.filter((c) => c.whatsappId === chatA.whatsappId)).toEqual([]);
    // origins only (a path is refused); the form's blank lines are dropped
    const bad = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Ruim", provider: "webchat", allowedOrigins: ["https://shop.example/loja"] } });
    expect(bad.status).toBe(400);
    const ok = await t.call("POST", "/whatsapp", { token: a.adminToken, body: { name: "Linhas", provider: "webchat", allowedOrigins: ["", " https://Shop.example/ ", ""] } });
    expect(ok.status).toBe(200);
    expect((await t.container.webchat.repo.byConnection(a.company.id, ok.body.id))!.allowedOrigins).toEqual(["https://shop.example"]);
    // ids are per company: the same id at B is B's own connection, never A's settings
    const atB = await t.call("GET", `/whatsapp/${chatA.whatsappId}`, { token: b.adminToken });
    expect(atB.body.channelSettings?.publicKey).not.toBe(chatA.publicKey);
  });
});

describe("the website chat's visitor API", () => {
  it("answers the widget's settings and CORS only to an allowed origin; any other origin (or none) is 403 on every route, preflight included", async () => {
    const cfg = await visitor(chatA.publicKey, "config");
    expect(cfg.status).toBe(200);
    expect(cfg.body).toEqual({ greeting: "Olá! Como podemos ajudar?", color: "#0f766e", ask: { name: true, email: false, phone: false } });
    expect(cfg.headers.get("access-control-allow-origin")).toBe(SHOP);
    const pre = await visitor(chatA.publicKey, "messages", { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
    const token = await newSession(chatA.publicKey);
    for (const origin of ["https://evil.example", "http://shop.localhost:9001", null]) {
      for (const [method, path, body] of [["GET", "config"], ["OPTIONS", "sessions"], ["POST", "sessions", {}], ["POST", "messages", { body: "x" }], ["GET", "messages"]] as const) {
        const res = await visitor(chatA.publicKey, path, { method, body, token, origin });
        expect({ origin, method, path, status: res.status, body: res.body }).toEqual({ origin, method, path, status: 403, body: { error: "ERR_ORIGIN_NOT_ALLOWED" } });
        expect(res.headers.get("access-control-allow-origin")).toBeNull();
      }
    }
    expect((await visitor("wk_unknown", "config")).body).toEqual({ error: "ERR_NOT_FOUND" });
  });

  it("a visitor's message becomes a ticket like a WhatsApp message; the agent's reply reaches the visitor (marked sent); reading needs the token", async () => {
    const token = await newSession(chatA.publicKey, { name: "Maria Visitante" });
    const sent = await visitor(chatA.publicKey, "messages", { method: "POST", token, body: { body: "<img src=x onerror=alert(1)> Vocês entregam?" } });
    expect(sent.status).toBe(201);
    await consumeQueued();
    const ticket = (await adminTickets(t, a)).find((x) => x.contact.name === "Maria Visitante")!;
    expect(ticket).toMatchObject({ status: "pending", lastMessage: "<img src=x onerror=alert(1)> Vocês entregam?" });
    // the attendant answers a second later (the test's clock stands still: the same instant would leave the order to
    // the ids); the webchat channel marks it sent (ack 1) and the visitor reads it
    t.clock.advance(1000);
    const reply = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "Entregamos sim!" } });
    expect(reply.status).toBe(201);
    await consumeQueued();
    const agentView = (await t.call("GET", `/messages/${ticket.id}`, { token: a.adminToken })).body.messages as { id: string; ack: number; body: string }[];
    expect(agentView.find((m) => m.body === "Entregamos sim!")).toMatchObject({ ack: 1 });
    const mine = await visitor(chatA.publicKey, "messages", { token });
    expect(mine.status).toBe(200);
    expect(mine.body.messages.map((m: { fromMe: boolean; body: string }) => [m.fromMe, m.body])).toEqual([
      [false, "<img src=x onerror=alert(1)> Vocês entregam?"],
      [true, "Entregamos sim!"],
    ]);
    expect([counted("MessagesIn"), counted("MessagesOut")]).toEqual([1, 1]);
    expect((await visitor(chatA.publicKey, "messages")).body).toEqual({ error: "ERR_SESSION_EXPIRED" });
    expect((await visitor(chatA.publicKey, "messages", { token: "forged" })).status).toBe(401);
  });

  it("a visitor reads only their own conversation", async () => {
    const one = await newSession(chatA.publicKey, { name: "Um" });
    const two = await newSession(chatA.publicKey, { name: "Dois" });
    await visitor(chatA.publicKey, "messages", { method: "POST", token: one, body: { body: "segredo do um" } });
    await visitor(chatA.publicKey, "messages", { method: "POST", token: two, body: { body: "segredo do dois" } });
    await consumeQueued();
    expect((await visitor(chatA.publicKey, "messages", { token: one })).body.messages.map((m: { body: string }) => m.body)).toEqual(["segredo do um"]);
    expect((await visitor(chatA.publicKey, "messages", { token: two })).body.messages.map((m: { body: string }) => m.body)).toEqual(["segredo do dois"]);
  });

  it("files are checked by their bytes like WhatsApp media: an image is stored with its sniffed type; HTML or an empty file is refused", async () => {
    const token = await newSession(chatA.publicKey, { name: "Com Arquivo" });
    const upload = (bytes: Uint8Array, name: string, type: string) => {
      const form = new FormData();
      form.append("file", new File([bytes], name, { type }));
      return t.app.request(`/api/webchat/${chatA.publicKey}/messages`, { method: "POST", headers: { origin: SHOP, authorization: `Bearer ${token}` }, body: form }, { incoming: { socket: { remoteAddress: "203.0.113.9" } } });
    };
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect((await upload(png, "foto.txt", "text/plain")).status).toBe(201);
    const html = await upload(new TextEncoder().encode("<html><script>alert(1)</script></html>"), "x.png", "image/png");
    expect(html.status).toBe(400);
    expect(await html.json()).toEqual({ error: "ERR_INVALID_MEDIA_TYPE", data: { field: "file" } });
    expect((await upload(new Uint8Array(), "vazio.pdf", "application/pdf")).status).toBe(400);
    const [event] = await consumeQueued();
    expect(event).toMatchObject({ type: "message", message: { type: "image", media: { mimetype: "image/png", filename: "foto.txt" } } });
  });

  it("sessions are limited per address and messages per session (429 with Retry-After)", async () => {
    const address = "198.51.100.77";
    for (let i = 0; i < 20; i++) await newSession(chatA.publicKey, {}, address);
    const over = await visitor(chatA.publicKey, "sessions", { method: "POST", body: {}, address });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("ERR_TOO_MANY_ATTEMPTS");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const token = await newSession(chatA.publicKey, {}, "198.51.100.78");
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await visitor(chatA.publicKey, "messages", { method: "POST", token, body: { body: `m${i}` }, address: "198.51.100.78" })).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
    inbound.events.splice(0);
  });

  it("messages are limited per address too: 120 a minute from one address, whatever the sessions (docs/adr/0096)", async () => {
    const address = "198.51.100.90";
    const tokens = await Promise.all([1, 2, 3, 4, 5].map((i) => newSession(chatA.publicKey, {}, `198.51.100.${100 + i}`)));
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      for (const token of tokens) statuses.push((await visitor(chatA.publicKey, "messages", { method: "POST", token, body: { body: `a${i}` }, address })).status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(120);
    expect(statuses.slice(120)).toEqual([429, 429, 429, 429, 429]);
    inbound.events.splice(0);
  });

  it("cross-tenant: company A's key never creates a ticket in company B, a token of A is nothing at B, and B's users can't read A's ticket", async () => {
    const token = await newSession(chatA.publicKey, { name: "Cliente de A" });
    await visitor(chatA.publicKey, "messages", { method: "POST", token, body: { body: "só para A" } });
    const events = await consumeQueued();
    expect(events.every((e) => e.companyId === a.company.id && e.whatsappId === chatA.whatsappId)).toBe(true);
    expect((await adminTickets(t, b)).some((x) => x.lastMessage === "só para A")).toBe(false);
    const ticketA = (await adminTickets(t, a)).find((x) => x.lastMessage === "só para A")!;
    expect((await t.call("GET", `/messages/${ticketA.id}`, { token: b.adminToken })).status).toBe(404);
    // A's token on B's key (from B's allowed origin) is no session there
    expect((await visitor(chatB.publicKey, "messages", { token, origin: "https://b.example" })).body).toEqual({ error: "ERR_SESSION_EXPIRED" });
    // A's key from B's origin is refused
    expect((await visitor(chatA.publicKey, "messages", { token, origin: "https://b.example" })).status).toBe(403);
  });
});
