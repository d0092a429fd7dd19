import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { pngCard } from "../simulator-media";

/**
 * A DialogFlow ES stand-in (local runner only, /simulator/dialogflow; never deployed): Google's OAuth token
 * exchange for a service account's signed JWT (`POST token`) and `detectIntent`
 * (`POST v2/projects/{project}/agent/sessions/{session}:detectIntent`) with a tiny agent: greeting, opening hours,
 * prices (with a picture), the test phrase of the integration dialog, a fallback, and an "atendente" intent marked
 * end of conversation. The JWT's claims are checked (RS256, issuer, audience, scope, lifetime), not its signature:
 * the stand-in does not know the key's public half. The page lists the questions and answers.
 */
const BASE = "/simulator/dialogflow";

type Query = { at: string; project: string; session: string; text: string; languageCode: string; intent: string; answer: string[]; endInteraction: boolean };
type Intent = { name: string; match: RegExp; answer: string[]; image?: boolean; end?: boolean; fallback?: boolean };

const INTENTS: Intent[] = [
  { name: "Teste de sessão", match: /^teste$/i, answer: ["Sessão de teste OK: o agente DialogFlow simulado respondeu."] },
  { name: "Atendente", match: /atendente|humano|pessoa|tchau|agent|human|adi[oó]s/i, answer: ["Certo! Vou chamar um atendente para continuar com você."], end: true },
  { name: "Boas-vindas", match: /^(oi|ol[aá]|bom dia|boa tarde|boa noite|hello|hi|hola)(?=$|[\s,.!?])/i, answer: ["Olá! Sou o agente DialogFlow de teste.", "Pergunte sobre horário ou preço, ou diga \"atendente\"."] },
  { name: "Horário", match: /hor[aá]rio|hours|abre|fecha/i, answer: ["Atendemos de segunda a sexta, das 8h às 18h."] },
  { name: "Preço", match: /pre[cç]o|price|precio|quanto custa/i, answer: ["O plano básico custa R$ 99 por mês. Veja a tabela:"], image: true },
];
const FALLBACK: Intent = { name: "Default Fallback Intent", match: /.*/, answer: ["Desculpe, não entendi. Pode repetir de outro jeito?"], fallback: true };

const b64json = (part: string | undefined) => {
  try {
    return JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
};

const PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>DialogFlow simulado</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:64rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;font-size:.85rem}code{background:#f3f4f6}</style></head>
<body><h1>DialogFlow simulado</h1><p>Token OAuth em <code>${BASE}/token</code> e <code>detectIntent</code> em
<code>${BASE}/v2/projects/{projeto}/agent/sessions/{sessão}:detectIntent</code>. Intenções: teste, saudação, horário,
preço (com imagem), atendente (fim da conversa) e fallback.</p>
<table><thead><tr><th>quando</th><th>projeto</th><th>sessão</th><th>pergunta</th><th>intenção</th><th>resposta</th></tr></thead><tbody id="rows"></tbody></table>
<script>
async function load(){const list=await (await fetch('${BASE}/api/queries')).json();const rows=document.getElementById('rows');rows.innerHTML='';
for(const q of list){const tr=document.createElement('tr');for(const v of [q.at,q.project,q.session,q.text,q.intent+(q.endInteraction?' (fim)':''),q.answer.join(' / ')]){const td=document.createElement('td');td.textContent=v;tr.appendChild(td);}rows.appendChild(tr);}}
load();setInterval(load,2000);
</script></body></html>`;

export const createDialogflowSimulatorHttp = () => {
  const tokens = new Map<string, { clientEmail: string; expiresAt: number }>();
  const queries: Query[] = [];
  const control = { failNext: 0, failStatus: 503 };
  const app = new Hono().basePath(BASE);

  app.get("/", (c) => c.html(PAGE));
  app.get("/api/queries", (c) => c.json(queries.slice(-100).reverse()));
  app.post("/api/control", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Partial<typeof control>;
    if (typeof body.failNext === "number") control.failNext = body.failNext;
    if (typeof body.failStatus === "number") control.failStatus = body.failStatus;
    return c.json(control);
  });
  app.get("/media/preco.png", (c) => c.body(new Uint8Array(pngCard(120, [22, 163, 74])), 200, { "content-type": "image/png" }));

  app.post("/token", async (c) => {
    const form = new URLSearchParams(await c.req.text());
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return c.json({ error: "unsupported_grant_type" }, 400);
    const [h, p, sig] = (form.get("assertion") ?? "").split(".");
    const header = b64json(h);
    const claims = b64json(p);
    const now = Math.floor(Date.now() / 1000);
    const ok =
      header?.alg === "RS256" &&
      !!sig &&
      typeof claims?.iss === "string" &&
      /@/.test(claims.iss) &&
      typeof claims.aud === "string" &&
      claims.aud.endsWith(`${BASE}/token`) &&
      typeof claims.scope === "string" &&
      claims.scope.includes("cloud-platform") &&
      typeof claims.exp === "number" &&
      claims.exp > now &&
      typeof claims.iat === "number" &&
      claims.iat <= now + 60;
    if (!ok) return c.json({ error: "invalid_grant", error_description: "Invalid JWT assertion" }, 400);
    const token = `sim.${randomBytes(16).toString("hex")}`;
    tokens.set(token, { clientEmail: claims!.iss as string, expiresAt: now + 3600 });
    return c.json({ access_token: token, expires_in: 3600, token_type: "Bearer" });
  });

  app.post("/v2/projects/:project/agent/sessions/:sessionVerb", async (c) => {
    const auth = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    const t = auth ? tokens.get(auth) : undefined;
    if (!t || t.expiresAt < Date.now() / 1000) return c.json({ error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } }, 401);
    const [session, verb] = c.req.param("sessionVerb").split(":");
    if (verb !== "detectIntent" || !session) return c.json({ error: { code: 404, message: "Not found", status: "NOT_FOUND" } }, 404);
    if (control.failNext > 0) {
      control.failNext -= 1;
      return c.json({ error: { code: control.failStatus, message: "simulated failure", status: "UNAVAILABLE" } }, control.failStatus as 503);
    }
    const project = c.req.param("project");
    // a service account only reaches its own project (x@{project}.iam.gserviceaccount.com)
    const own = /@([^.]+)\.iam\.gserviceaccount\.com$/.exec(t.clientEmail)?.[1];
    if (own && own !== project) return c.json({ error: { code: 403, message: `Permission denied on project ${project}`, status: "PERMISSION_DENIED" } }, 403);
    const body = (await c.req.json().catch(() => ({}))) as { queryInput?: { text?: { text?: unknown; languageCode?: unknown } } };
    const text = typeof body.queryInput?.text?.text === "string" ? body.queryInput.text.text.trim() : "";
    const languageCode = typeof body.queryInput?.text?.languageCode === "string" ? body.queryInput.text.languageCode : "";
    if (!text || !languageCode) return c.json({ error: { code: 400, message: "queryInput.text is required", status: "INVALID_ARGUMENT" } }, 400);
    const intent = INTENTS.find((i) => i.match.test(text)) ?? FALLBACK;
    const origin = new URL(c.req.url).origin;
    queries.push({ at: new Date().toISOString(), project, session, text, languageCode, intent: intent.name, answer: intent.answer, endInteraction: !!intent.end });
    if (queries.length > 500) queries.splice(0, queries.length - 500);
    return c.json({
      responseId: randomBytes(8).toString("hex"),
      queryResult: {
        queryText: text,
        languageCode,
        fulfillmentText: intent.answer.join(" "),
        fulfillmentMessages: [
          ...intent.answer.map((a) => ({ text: { text: [a] } })),
          ...(intent.image ? [{ image: { imageUri: `${origin}${BASE}/media/preco.png`, accessibilityText: "Tabela de preços" } }] : []),
        ],
        intent: { name: `projects/${project}/agent/intents/${intent.name}`, displayName: intent.name, ...(intent.end ? { endInteraction: true } : {}), ...(intent.fallback ? { isFallback: true } : {}) },
        intentDetectionConfidence: intent.fallback ? 1 : 0.9,
        ...(intent.end ? { diagnosticInfo: { end_conversation: true } } : {}),
      },
    });
  });
  return app;
};
