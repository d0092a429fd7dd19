import { Hono } from "hono";
import { foldText } from "@atende/shared/domain/bots/handover-keywords";
import { TABS_BAR } from "../registry";

/**
 * The local stand-in for an OpenAI-compatible API and Azure Speech (issue 11 item 8): mounted by the local runner at
 * /simulator/ai beside the WhatsApp simulator and, like it, never deployed to AWS. A prompt whose `baseUrl` is
 * `<local url>/simulator/ai/v1` talks to it; the Azure speech base `<local url>/simulator/ai/azure/{region}`.
 * Deterministic (docs/bots.md "The AI simulator"):
 *
 * - chat completions: answers `Você disse: "<the last customer message>"`; when tools are offered and the last
 *   customer message asks for a manager or a person ("gerente", "pessoa", "humano", "supervisor"), it calls the
 *   first tool instead, with `motivo` and `resumo`; a summary request (system message starting "Resuma") answers
 *   a summary line naming how many messages it got. Usage: ceil(characters / 4) tokens each way.
 *   The model name steers failures: `simulador-lento` never answers (the caller's timeout fires), `simulador-erro`
 *   answers 500, `simulador-mudo` answers an empty message, `simulador-espera` waits until released
 *   (POST /simulator/ai/release) and then answers as usual.
 * - the copilot (issue 33): a system message starting "Sugira" answers three suggestions (one a line, the first quoting
 *   the last customer message); "Reescreva (<style>)" answers the text capitalised and ended with a period, with
 *   "Prezado(a) cliente, " (formal) or "Oi! " (friendly) before it, or its first sentence only (shorter).
 * - audio transcriptions: the audio's bytes as text when they are printable UTF-8 (a test "speaks" by uploading
 *   text), else "Áudio de N bytes".
 * - Azure TTS: needs `Ocp-Apim-Subscription-Key`; answers a small Ogg body whose bytes name the voice and text.
 * - GET /simulator/ai: a page listing what it was asked; GET /simulator/ai/requests the same as JSON (newest last);
 *   DELETE /simulator/ai/requests forgets them.
 */
export type AiSimulatorRequest = {
  at: string;
  endpoint: "chat" | "transcription" | "speech";
  model: string;
  /** the last 4 characters of the bearer key (or the speech key): proves the real key was opened and sent */
  keyTail: string;
  messages?: { role: string; content: string }[];
  tools?: string[];
  maxTokens?: number;
  temperature?: number;
  answer: string;
  toolCall?: { name: string; arguments: string };
};

const MAX_KEPT = 500;
const PERSON_WORDS = ["gerente", "pessoa", "humano", "supervisor"];
const tokens = (s: string) => Math.ceil(s.length / 4);

const contentText = (c: unknown): string =>
  typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => (p && typeof p === "object" && "text" in p ? String((p as { text: unknown }).text) : "")).join(" ") : "";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

export const createAiSimulator = (opts: { clock?: () => Date } = {}) => {
  const clock = opts.clock ?? (() => new Date());
  const requests: AiSimulatorRequest[] = [];
  const keep = (r: AiSimulatorRequest) => {
    requests.push(r);
    if (requests.length > MAX_KEPT) requests.splice(0, requests.length - MAX_KEPT);
  };
  const bearerTail = (h: string | undefined) => (h ?? "").replace(/^Bearer\s+/i, "").slice(-4);
  const held: (() => void)[] = [];
  /** lets every held `simulador-espera` request answer */
  const release = () => held.splice(0).forEach((r) => r());

  const app = new Hono().basePath("/simulator/ai");

  app.post("/v1/chat/completions", async (c) => {
    const auth = c.req.header("authorization");
    if (!auth || !/^Bearer\s+\S+/i.test(auth)) return c.json({ error: { message: "missing API key", type: "invalid_request_error" } }, 401);
    const body = (await c.req.json().catch(() => null)) as {
      model?: string;
      messages?: { role: string; content: unknown }[];
      tools?: { type: string; function?: { name: string } }[];
      max_tokens?: number;
      temperature?: number;
    } | null;
    if (!body || !Array.isArray(body.messages)) return c.json({ error: { message: "messages required", type: "invalid_request_error" } }, 400);
    const model = body.model ?? "";
    const messages = body.messages.map((m) => ({ role: m.role, content: contentText(m.content) }));
    const tools = (body.tools ?? []).map((t) => t.function?.name ?? "").filter(Boolean);
    const base = { at: clock().toISOString(), endpoint: "chat" as const, model, keyTail: bearerTail(auth), messages, tools, maxTokens: body.max_tokens, temperature: body.temperature };

    if (model === "simulador-lento") {
      keep({ ...base, answer: "(sem resposta: simulador-lento)" });
      // never answers: the caller's timeout aborts the request (the connection closes, this promise is dropped)
      await new Promise<void>((resolve) => {
        c.req.raw.signal.addEventListener("abort", () => resolve(), { once: true });
        setTimeout(resolve, 120_000).unref();
      });
      return c.json({ error: { message: "too late", type: "server_error" } }, 504);
    }
    if (model === "simulador-espera") {
      // held until released (POST /simulator/ai/release or `release()`), then answers as usual: tests of who waits for whom
      await new Promise<void>((resolve) => {
        held.push(resolve);
        c.req.raw.signal.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    if (model === "simulador-erro") {
      keep({ ...base, answer: "(erro 500: simulador-erro)" });
      return c.json({ error: { message: "simulated server error", type: "server_error" } }, 500);
    }

    const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    const promptTokens = tokens(messages.map((m) => m.content).join("\n"));
    const completion = (message: Record<string, unknown>, answer: string, finish: string, toolCall?: AiSimulatorRequest["toolCall"]) => {
      keep({ ...base, answer, ...(toolCall ? { toolCall } : {}) });
      return c.json({
        id: `chatcmpl-sim-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(clock().getTime() / 1000),
        model: model || "simulador",
        choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish, logprobs: null }],
        usage: { prompt_tokens: promptTokens, completion_tokens: tokens(answer), total_tokens: promptTokens + tokens(answer) },
      });
    };

    if (model === "simulador-mudo") return completion({ content: "" }, "", "stop");
    if (system.startsWith("Resuma")) {
      const customer = messages.filter((m) => m.role === "user");
      const answer = `Resumo do simulador: ${customer.length} mensagens do cliente; a última: "${customer.at(-1)?.content ?? ""}".`;
      return completion({ content: answer }, answer, "stop");
    }
    // the attendants' copilot (issue 33): suggestions and rewrites, recognisable in tests and on screen
    if (system.startsWith("Sugira")) {
      const answer = [`Certo! Sobre "${lastUser.slice(0, 60)}", já verifico para você.`, "Pode me passar mais detalhes, por favor?", "Obrigado pelo contato! Já estou cuidando disso."].join("\n");
      return completion({ content: answer }, answer, "stop");
    }
    if (system.startsWith("Reescreva")) {
      const style = /^Reescreva \((\w+)\)/.exec(system)?.[1] ?? "fix";
      const text = lastUser.trim();
      const fixed = `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
      const answer =
        style === "formal" ? `Prezado(a) cliente, ${fixed}` : style === "friendly" ? `Oi! ${fixed} 😊` : style === "shorter" ? (fixed.split(/(?<=[.!?])\s/)[0] ?? fixed) : fixed;
      return completion({ content: answer }, answer, "stop");
    }
    const folded = ` ${foldText(lastUser)} `;
    const person = PERSON_WORDS.find((w) => folded.includes(` ${w} `));
    if (person && tools.length > 0) {
      const args = JSON.stringify({ motivo: `o cliente pediu para falar com um ${person}`, resumo: `O cliente escreveu: "${lastUser}".` });
      const toolCall = { name: tools[0]!, arguments: args };
      return completion(
        { content: null, tool_calls: [{ id: `call_sim_${requests.length}`, type: "function", function: toolCall }] },
        `(ferramenta ${tools[0]})`,
        "tool_calls",
        toolCall,
      );
    }
    const answer = `Você disse: "${lastUser}"`;
    return completion({ content: answer }, answer, "stop");
  });

  app.post("/v1/audio/transcriptions", async (c) => {
    const auth = c.req.header("authorization");
    if (!auth) return c.json({ error: { message: "missing API key" } }, 401);
    const form = await c.req.formData().catch(() => null);
    const file = form?.get("file");
    if (!file || typeof file === "string") return c.json({ error: { message: "file required" } }, 400);
    const bytes = new Uint8Array(await file.arrayBuffer());
    let text: string;
    try {
      const decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      text = /^[\p{L}\p{N}\p{P}\p{Zs}\n]+$/u.test(decoded) && decoded.trim() ? decoded.trim() : `Áudio de ${bytes.length} bytes`;
    } catch {
      text = `Áudio de ${bytes.length} bytes`;
    }
    keep({ at: clock().toISOString(), endpoint: "transcription", model: String(form?.get("model") ?? ""), keyTail: bearerTail(auth), answer: text });
    return c.json({ text });
  });

  app.post("/azure/:region/cognitiveservices/v1", async (c) => {
    const key = c.req.header("ocp-apim-subscription-key");
    if (!key) return c.text("missing subscription key", 401);
    const ssml = await c.req.text();
    const voice = /name='([^']+)'/.exec(ssml)?.[1] ?? "";
    const text = ssml
      .replace(/<[^>]+>/g, "")
      .replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);
    keep({ at: clock().toISOString(), endpoint: "speech", model: voice, keyTail: key.slice(-4), answer: text });
    // "OggS" magic, then the words: enough for the pipeline (a real voice note needs the real service)
    const bytes = new TextEncoder().encode(`OggS\u0000\u0002sim voice=${voice} region=${c.req.param("region")} text=${text}`);
    return c.body(bytes, 200, { "content-type": "audio/ogg" });
  });

  app.post("/release", (c) => {
    const n = held.length;
    release();
    return c.json({ released: n });
  });
  app.get("/requests", (c) => c.json(requests));
  app.delete("/requests", (c) => {
    requests.splice(0);
    return c.json({ ok: true });
  });
  app.get("/", (c) => {
    const rows = [...requests]
      .reverse()
      .map(
        (r) =>
          `<tr><td>${escapeHtml(r.at.slice(11, 19))}</td><td>${escapeHtml(r.endpoint)}</td><td>${escapeHtml(r.model)}</td><td>…${escapeHtml(r.keyTail)}</td>` +
          `<td>${(r.messages ?? []).map((m) => `<div><b>${escapeHtml(m.role)}</b>: ${escapeHtml(m.content.slice(0, 300))}</div>`).join("")}</td><td>${escapeHtml(r.answer)}</td></tr>`,
      )
      .join("");
    return c.html(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Simulador de IA</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.4rem .6rem;font-size:.85rem;vertical-align:top}</style></head>
<body>${TABS_BAR}<h1>Simulador de IA (OpenAI-compatível e Azure Speech)</h1>
<p>Base URL para prompts: <code>/simulator/ai/v1</code>. Responde citando a última mensagem do cliente; pedidos de gerente ou pessoa chamam a ferramenta de transferência. Modelos <code>simulador-lento</code>, <code>simulador-erro</code> e <code>simulador-mudo</code> simulam falhas.</p>
<p>${requests.length} pedidos (mais novos primeiro). <a href="/simulator/ai">Atualizar</a></p>
<table><thead><tr><th>hora</th><th>tipo</th><th>modelo/voz</th><th>chave</th><th>mensagens</th><th>resposta</th></tr></thead><tbody>${rows}</tbody></table></body></html>`);
  });

  return { fetch: app.fetch, requests, release, held: () => held.length };
};
export type AiSimulator = ReturnType<typeof createAiSimulator>;
