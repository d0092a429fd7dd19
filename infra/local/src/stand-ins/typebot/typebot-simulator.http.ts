import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { mp4Stub, pngCard, wavSilence } from "../simulator-media";

/**
 * A Typebot stand-in (local runner only, under /simulator/typebot like the WhatsApp simulator; never deployed):
 * the public chat API's two calls, `POST api/v1/typebots/{publicId}/startChat` and
 * `POST api/v1/sessions/{sessionId}/continueChat`, answering Typebot's shapes (text bubbles in markdown or rich text,
 * image/audio/video bubbles by URL, text and choice inputs; no input once the flow ends) for small built-in flows:
 *
 * - `atende-demo`: greeting + picture + "what is your name?" → "what about?" (choice) → closing words, end;
 * - `atende-midias`: an audio and a video, one question, end.
 *
 * A page at /simulator/typebot shows the sessions and what was said; `api/control` makes the next calls fail or
 * slow (for tests of the runner's retry and timeout).
 */
type Bubble = { id: string; type: "text" | "image" | "audio" | "video"; content: Record<string, unknown> };
type Vars = Record<string, string>;
type Step = {
  say: (vars: Vars, origin: string) => ({ text: string } | { image: string } | { audio: string } | { video: string })[];
  input?: { type: "text input" } | { type: "choice input"; items: string[] };
  /** the variable the answer is saved in */
  saveAs?: string;
  next?: string;
};
type Flow = { title: string; first: string; steps: Record<string, Step> };

const BASE = "/simulator/typebot";
export const TYPEBOT_DEMO_SLUG = "atende-demo";

const FLOWS: Record<string, Flow> = {
  [TYPEBOT_DEMO_SLUG]: {
    title: "Demo Atendimento: boas-vindas, nome, assunto",
    first: "welcome",
    steps: {
      welcome: {
        say: (v) => [
          { text: `Olá${v.firstName ? `, ${v.firstName}` : ""}! Eu sou o **assistente virtual** da ${v.company || "empresa"}.` },
          { image: "/media/boas-vindas.png" },
          { text: "Para começar, qual é o seu nome?" },
        ],
        input: { type: "text input" },
        saveAs: "nome",
        next: "topic",
      },
      topic: {
        say: (v) => [{ text: `Prazer, ${v.nome}! Sobre o que você quer falar?` }],
        input: { type: "choice input", items: ["Pedidos", "Financeiro", "Outro assunto"] },
        saveAs: "assunto",
        next: "done",
      },
      done: { say: (v) => [{ text: `Anotado: ${v.assunto}. Um atendente vai continuar a conversa com você em instantes.` }] },
    },
  },
  "atende-midias": {
    title: "Áudio e vídeo",
    first: "media",
    steps: {
      media: { say: () => [{ text: "Ouça e assista:" }, { audio: "/media/aviso.wav" }, { video: "/media/video.mp4" }, { text: "Gostou?" }], input: { type: "text input" }, saveAs: "gostou", next: "bye" },
      bye: { say: (v) => [{ text: `Você disse: ${v.gostou}. Até logo!` }] },
    },
  },
};

type Said = { from: "bot" | "customer"; text: string; at: string };
type Session = { id: string; slug: string; step: string; vars: Vars; ended: boolean; startedAt: string; updatedAt: string; said: Said[]; markdown: boolean };

const MEDIA: Record<string, { type: string; bytes: () => Buffer }> = {
  "boas-vindas.png": { type: "image/png", bytes: () => pngCard(160, [37, 99, 235]) },
  "aviso.wav": { type: "audio/wav", bytes: () => wavSilence(400) },
  "video.mp4": { type: "video/mp4", bytes: () => mp4Stub() },
};

const PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Typebot simulado</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}section{border:1px solid #ccc;border-radius:6px;padding:.6rem 1rem;margin:.6rem 0}
.bot{color:#1d4ed8}.customer{color:#15803d}small{color:#666}code{background:#f3f4f6;padding:0 .3rem}</style></head>
<body><h1>Typebot simulado</h1>
<p>API de chat compatível com o Typebot: <code>POST ${BASE}/api/v1/typebots/{slug}/startChat</code> e
<code>POST ${BASE}/api/v1/sessions/{sessionId}/continueChat</code>. Numa integração do tipo Typebot, use a URL
<code id="url"></code> e um dos slugs abaixo.</p>
<h2>Fluxos</h2><ul id="flows"></ul><h2>Sessões</h2><div id="sessions"><p>Nenhuma sessão ainda.</p></div>
<script>
document.getElementById('url').textContent=location.origin+'${BASE}';
async function load(){const d=await (await fetch('${BASE}/api/sessions')).json();
const fl=document.getElementById('flows');fl.innerHTML='';for(const f of d.flows){const li=document.createElement('li');li.textContent=f.slug+' — '+f.title;fl.appendChild(li);}
const box=document.getElementById('sessions');if(!d.sessions.length)return;box.innerHTML='';
for(const s of d.sessions){const sec=document.createElement('section');const h=document.createElement('div');
h.innerHTML='<b></b> <small></small>';h.children[0].textContent=s.slug;h.children[1].textContent=s.id+' · '+(s.ended?'encerrada':'em andamento: '+s.step)+' · '+s.updatedAt;sec.appendChild(h);
for(const m of s.said){const p=document.createElement('div');p.className=m.from;p.textContent=(m.from==='bot'?'🤖 ':'👤 ')+m.text;sec.appendChild(p);}box.appendChild(sec);}}
load();setInterval(load,2000);
</script></body></html>`;

export const createTypebotSimulatorHttp = () => {
  const sessions = new Map<string, Session>();
  const control = { failNext: 0, failStatus: 503, delayMs: 0 };
  const app = new Hono().basePath(BASE);
  const now = () => new Date().toISOString();

  const gate = async () => {
    if (control.delayMs) await new Promise((r) => setTimeout(r, control.delayMs));
    if (control.failNext > 0) {
      control.failNext -= 1;
      return control.failStatus;
    }
    return 0;
  };

  /** The bubbles and input of a step, in Typebot's shapes; the session moves on (or ends) accordingly. */
  const play = (s: Session, stepId: string, origin: string) => {
    const flow = FLOWS[s.slug]!;
    const step = flow.steps[stepId]!;
    s.step = stepId;
    const bubbles: Bubble[] = step.say(s.vars, origin).map((part, i) => {
      const id = `${stepId}-${i}`;
      if ("text" in part) {
        s.said.push({ from: "bot", text: part.text, at: now() });
        return s.markdown
          ? { id, type: "text", content: { type: "markdown", markdown: part.text } }
          : { id, type: "text", content: { type: "richText", richText: [{ type: "p", children: [{ text: part.text.replace(/\*\*/g, "") }] }] } };
      }
      const [type, path] = Object.entries(part)[0] as ["image" | "audio" | "video", string];
      s.said.push({ from: "bot", text: `[${type}] ${path}`, at: now() });
      return { id, type, content: type === "video" ? { url: `${origin}${BASE}${path}`, type: "url" } : { url: `${origin}${BASE}${path}` } };
    });
    s.updatedAt = now();
    if (!step.input) {
      s.ended = true;
      return { messages: bubbles };
    }
    const input =
      step.input.type === "choice input"
        ? { id: `${stepId}-input`, type: "choice input", items: step.input.items.map((content, i) => ({ id: `${stepId}-item-${i}`, content })), options: {} }
        : { id: `${stepId}-input`, type: "text input", options: { labels: { placeholder: "Digite sua resposta..." } } };
    return { messages: bubbles, input };
  };

  app.get("/", (c) => c.html(PAGE));
  app.get("/media/:name", (c) => {
    const m = MEDIA[c.req.param("name")];
    if (!m) return c.json({ message: "not found" }, 404);
    return c.body(new Uint8Array(m.bytes()), 200, { "content-type": m.type, "cache-control": "no-store" });
  });
  app.get("/api/sessions", (c) =>
    c.json({ flows: Object.entries(FLOWS).map(([slug, f]) => ({ slug, title: f.title })), sessions: [...sessions.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, 50) }),
  );
  /** failNext: how many next chat calls fail (with failStatus, default 503); delayMs: how long each chat call waits */
  app.post("/api/control", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Partial<typeof control>;
    if (typeof body.failNext === "number") control.failNext = body.failNext;
    if (typeof body.failStatus === "number") control.failStatus = body.failStatus;
    if (typeof body.delayMs === "number") control.delayMs = body.delayMs;
    return c.json(control);
  });
  /** forget a session, as a Typebot server does when it expires one */
  app.delete("/api/sessions/:id", (c) => c.json({ deleted: sessions.delete(c.req.param("id")) }));

  app.post("/api/v1/typebots/:publicId/startChat", async (c) => {
    const failed = await gate();
    if (failed) return c.json({ message: "simulated failure", code: "INTERNAL_SERVER_ERROR" }, failed as 503);
    const slug = c.req.param("publicId");
    const flow = FLOWS[slug];
    if (!flow) return c.json({ message: "Typebot not found", code: "NOT_FOUND" }, 404);
    const body = (await c.req.json().catch(() => ({}))) as { prefilledVariables?: Record<string, unknown>; textBubbleContentFormat?: string };
    const vars: Vars = {};
    for (const [k, v] of Object.entries(body.prefilledVariables ?? {})) if (typeof v === "string" || typeof v === "number") vars[k] = String(v);
    const s: Session = { id: randomUUID(), slug, step: flow.first, vars, ended: false, startedAt: now(), updatedAt: now(), said: [], markdown: body.textBubbleContentFormat === "markdown" };
    sessions.set(s.id, s);
    const origin = new URL(c.req.url).origin;
    return c.json({ sessionId: s.id, resultId: `result-${s.id}`, typebot: { id: slug, version: "6" }, ...play(s, flow.first, origin) });
  });

  app.post("/api/v1/sessions/:sessionId/continueChat", async (c) => {
    const failed = await gate();
    if (failed) return c.json({ message: "simulated failure", code: "INTERNAL_SERVER_ERROR" }, failed as 503);
    const s = sessions.get(c.req.param("sessionId"));
    if (!s || s.ended) return c.json({ message: "Session not found.", code: "NOT_FOUND" }, 404);
    const body = (await c.req.json().catch(() => ({}))) as { message?: unknown; textBubbleContentFormat?: string };
    const m = body.message;
    const text = (typeof m === "string" ? m : m && typeof m === "object" && typeof (m as { text?: unknown }).text === "string" ? (m as { text: string }).text : "").trim();
    s.markdown = body.textBubbleContentFormat === "markdown";
    s.said.push({ from: "customer", text, at: now() });
    const step = FLOWS[s.slug]!.steps[s.step]!;
    const origin = new URL(c.req.url).origin;
    let value = text;
    if (step.input?.type === "choice input") {
      const chosen = step.input.items.find((i) => i.toLowerCase() === text.toLowerCase());
      if (!chosen) {
        // not one of the options: the same input again, nothing said (as Typebot does without a retry message)
        s.updatedAt = now();
        return c.json({ messages: [], input: { id: `${s.step}-input`, type: "choice input", items: step.input.items.map((content, i) => ({ id: `${s.step}-item-${i}`, content })), options: {} } });
      }
      value = chosen;
    } else if (!text) {
      return c.json({ messages: [], input: { id: `${s.step}-input`, type: "text input", options: {} } });
    }
    if (step.saveAs) s.vars[step.saveAs] = value;
    return c.json(play(s, step.next!, origin));
  });
  return app;
};
