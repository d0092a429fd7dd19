import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { DEMO_LOGINS } from "@atende/functions/features/seed/seed.service";
import { startPlatform } from "../infra/local/src/platform";
import { httpJson } from "../e2e/support/http";
import { connectSimulator } from "../e2e/support/simulator";
import { percentile } from "./stats";
import { signatureFor } from "@atende/functions/platform/channels/meta-webhook/webhook-signature";

/**
 * Channels benchmark (issue 31 "Measured"): a channel's webhook → the message on the agent's browser socket (its
 * ticket created or updated), on the local platform. One section per channel; each returns its figures under
 * its name. Telegram: a minimal Bot API on 127.0.0.1 takes getMe/setWebhook, then CUSTOMERS users write
 * MESSAGES each through the connection's webhook with its secret token.
 * Other channels: add a `async function <channel>(ctx): Promise<Record<string, unknown>>` and call it in `bench`.
 */
const CUSTOMERS = Number(process.env.BENCH_CHANNEL_CUSTOMERS ?? 10);
const MESSAGES = Number(process.env.BENCH_CHANNEL_MESSAGES ?? 10);

type Ctx = { base: string; token: string; ws: WebSocket; arrived: Map<string, number> };

const botApi = async (): Promise<{ url: string; webhook: Promise<{ url: string; secret: string }>; server: Server }> => {
  let resolve!: (v: { url: string; secret: string }) => void;
  const webhook = new Promise<{ url: string; secret: string }>((r) => (resolve = r));
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += String(c)));
    req.on("end", () => {
      const method = req.url?.split("/").pop();
      const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      if (method === "setWebhook") resolve({ url: String(json.url), secret: String(json.secret_token) });
      const result = method === "getMe" ? { id: 42, is_bot: true, first_name: "Bench", username: "bench_bot" } : method?.startsWith("send") ? { message_id: 1, date: 0, chat: { id: 1, type: "private" } } : true;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ok: true, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, webhook, server };
};

async function telegram(ctx: Ctx): Promise<Record<string, unknown>> {
  const api = await botApi();
  try {
    const made = await httpJson<{ id: number }>(ctx.base, "/api/whatsapp", { method: "POST", token: ctx.token, body: { name: `Telegram bench ${Date.now()}`, provider: "telegram", botToken: "4242:BENCHBENCHBENCHBENCHBENCHBENCH", telegramApiUrl: api.url } });
    if (made.status !== 200) throw new Error(`telegram connection: ${made.status} ${JSON.stringify(made.data)}`);
    const hook = await api.webhook;
    const path = new URL(hook.url).pathname;
    const ms: number[] = [];
    let update = 1;
    for (let round = 0; round < MESSAGES; round++) {
      await Promise.all(
        Array.from({ length: CUSTOMERS }, async (_, c) => {
          const body = `tg bench ${round}-${c}-${Date.now()}`;
          const started = performance.now();
          const res = await fetch(`${ctx.base}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": hook.secret },
            body: JSON.stringify({ update_id: update++, message: { message_id: update, date: Math.floor(Date.now() / 1000), chat: { id: 900000 + c, type: "private" }, from: { id: 900000 + c, first_name: `Cliente ${c}` }, text: body } }),
          });
          if (res.status !== 200) throw new Error(`webhook ${res.status}`);
          const end = Date.now() + 15_000;
          while (!ctx.arrived.has(body) && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
          if (ctx.arrived.has(body)) ms.push(ctx.arrived.get(body)! - started);
        }),
      );
    }
    await httpJson(ctx.base, `/api/whatsapp/${made.data.id}`, { method: "DELETE", token: ctx.token });
    return { messages: ms.length, lost: CUSTOMERS * MESSAGES - ms.length, webhookToBrowserP50Ms: Math.round(percentile(ms, 50) ?? Number.NaN), webhookToBrowserP99Ms: Math.round(percentile(ms, 99) ?? Number.NaN) };
  } finally {
    api.server.close();
  }
}

/** A minimal Graph API on 127.0.0.1 for Messenger: the page check, profiles and the Send API. */
const graphApi = async (): Promise<{ url: string; server: Server }> => {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = req.url ?? "";
      const result = path.includes("/messages") ? { recipient_id: "1", message_id: "m_bench" } : path.includes("fields=") ? { id: "1", name: "Bench", first_name: "Cliente", last_name: "Bench" } : {};
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

/** Messenger (docs/adr/0090): signed page webhooks (X-Hub-Signature-256) → the message on the agent's socket. */
async function messenger(ctx: Ctx): Promise<Record<string, unknown>> {
  const api = await graphApi();
  const pageId = "100200300400";
  const appSecret = "bench-messenger-app-secret";
  try {
    const made = await httpJson<{ id: number }>(ctx.base, "/api/whatsapp", { method: "POST", token: ctx.token, body: { name: `Messenger bench ${Date.now()}`, provider: "messenger", pageId, pageAccessToken: "EAABENCH", appSecret, graphApiUrl: api.url } });
    if (made.status !== 200) throw new Error(`messenger connection: ${made.status} ${JSON.stringify(made.data)}`);
    const got = await httpJson<{ channelSettings: { webhookUrl: string } }>(ctx.base, `/api/whatsapp/${made.data.id}`, { token: ctx.token });
    const path = new URL(got.data.channelSettings.webhookUrl).pathname;
    const ms: number[] = [];
    for (let round = 0; round < MESSAGES; round++) {
      await Promise.all(
        Array.from({ length: CUSTOMERS }, async (_, c) => {
          const text = `fb bench ${round}-${c}-${Date.now()}`;
          const raw = JSON.stringify({ object: "page", entry: [{ id: pageId, time: Date.now(), messaging: [{ sender: { id: String(7000000 + c) }, recipient: { id: pageId }, timestamp: Date.now(), message: { mid: `m_${round}_${c}_${Date.now()}`, text } }] }] });
          const started = performance.now();
          const res = await fetch(`${ctx.base}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(raw, appSecret) }, body: raw });
          if (res.status !== 200) throw new Error(`webhook ${res.status}`);
          const end = Date.now() + 15_000;
          while (!ctx.arrived.has(text) && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
          if (ctx.arrived.has(text)) ms.push(ctx.arrived.get(text)! - started);
        }),
      );
    }
    await httpJson(ctx.base, `/api/whatsapp/${made.data.id}`, { method: "DELETE", token: ctx.token });
    return { messages: ms.length, lost: CUSTOMERS * MESSAGES - ms.length, webhookToBrowserP50Ms: Math.round(percentile(ms, 50) ?? Number.NaN), webhookToBrowserP99Ms: Math.round(percentile(ms, 99) ?? Number.NaN) };
  } finally {
    api.server.close();
  }
}

export default async function bench(): Promise<Record<string, unknown>> {
  const platform = await startPlatform({ logLevel: "warn", tick: false });
  try {
    const admin = DEMO_LOGINS.find((l) => l.role === "admin")!;
    const { token } = await connectSimulator(platform.url, admin);
    const ws = new WebSocket(`${platform.url.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
    await new Promise<void>((res, rej) => {
      ws.once("open", () => res());
      ws.once("error", rej);
    });
    const arrived = new Map<string, number>();
    ws.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: { action?: string; message?: { body: string } } };
      if (frame.event === "appMessage" && frame.data.action === "create" && frame.data.message) arrived.set(frame.data.message.body, performance.now());
    });
    const ctx: Ctx = { base: platform.url, token, ws, arrived };
    const figures: Record<string, unknown> = { customers: CUSTOMERS, messagesPerCustomer: MESSAGES };
    figures.telegram = await telegram(ctx);
    figures.messenger = await messenger(ctx);
    // other channels: figures.webchat = await webchat(ctx);
    ws.close();
    return figures;
  } finally {
    await platform.stop();
  }
}
