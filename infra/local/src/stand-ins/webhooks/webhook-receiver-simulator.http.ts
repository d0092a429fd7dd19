import { Hono } from "hono";
import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_SIGNATURE_HEADER } from "@atende/shared/domain/bots/webhook-bot";
import { verifyWebhookSignature } from "@atende/functions/features/bots/engines/webhook-signature";

/**
 * A webhook receiver stand-in (local runner only, /simulator/webhooks; never deployed), playing an n8n workflow or a
 * company's endpoint: `POST /simulator/webhooks/in/{hook}` checks the signature with the secret given to that hook,
 * keeps what it got, and answers the hook's configured JSON (messages and actions, docs/integrations.md). A hook
 * without a secret, or a bad signature, gets 401, as a careful receiver would answer.
 *
 * Configure a hook on the page or with `PUT /simulator/webhooks/api/hooks/{hook}` { secret, answer, status };
 * `{{contact.name}}`, `{{message.body}}` and `{{ticket.id}}` in the answer's texts are replaced.
 */
const BASE = "/simulator/webhooks";

type Hook = { secret: string; answer: unknown; status: number };
export type WebhookDelivery = {
  hook: string;
  at: string;
  deliveryId: string | null;
  signature: string | null;
  verified: boolean;
  answeredStatus: number;
  body: unknown;
  raw: string;
};

const DEFAULT_ANSWER = { messages: [{ type: "text", body: "Recebemos sua mensagem, {{contact.name}}: {{message.body}}" }], actions: [] };

const fill = (value: unknown, payload: Record<string, unknown>): unknown => {
  if (typeof value === "string")
    return value.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
      const v = path.split(".").reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), payload);
      return v === undefined || v === null ? "" : String(v);
    });
  if (Array.isArray(value)) return value.map((v) => fill(v, payload));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, payload)]));
  return value;
};

const PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Receptor de webhooks simulado</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:64rem}textarea{width:100%;font-family:monospace}input{width:100%}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;font-size:.85rem;vertical-align:top}code,pre{background:#f3f4f6}
.ok{color:#15803d}.bad{color:#b91c1c}pre{white-space:pre-wrap;max-height:12rem;overflow:auto;margin:0}</style></head>
<body><h1>Receptor de webhooks simulado</h1>
<p>Numa integração n8n ou Webhook, use a URL <code id="url"></code> (troque <code>demo</code> pelo nome que quiser).
Cole aqui o segredo mostrado ao criar (ou girar) a integração: cada entrega é verificada (HMAC-SHA256 do corpo, cabeçalho
<code>${WEBHOOK_SIGNATURE_HEADER}</code>) e respondida com o JSON abaixo.</p>
<form id="f"><label>Nome do webhook <input name="hook" value="demo"></label><label>Segredo <input name="secret" placeholder="whsec_..."></label>
<label>Resposta (JSON) <textarea name="answer" rows="8"></textarea></label><button>Salvar</button> <span id="msg"></span></form>
<h2>Entregas</h2><table><thead><tr><th>quando</th><th>webhook</th><th>assinatura</th><th>resposta</th><th>corpo</th></tr></thead><tbody id="rows"></tbody></table>
<script>
const f=document.getElementById('f');document.getElementById('url').textContent=location.origin+'${BASE}/in/demo';
f.answer.value=JSON.stringify(${JSON.stringify(DEFAULT_ANSWER)},null,2);
f.onsubmit=async(e)=>{e.preventDefault();let answer;try{answer=JSON.parse(f.answer.value)}catch{document.getElementById('msg').textContent='JSON inválido';return}
const r=await fetch('${BASE}/api/hooks/'+encodeURIComponent(f.hook.value),{method:'PUT',headers:{'content-type':'application/json'},body:JSON.stringify({secret:f.secret.value,answer})});
document.getElementById('msg').textContent=r.ok?'Salvo':'Erro';};
async function load(){const list=await (await fetch('${BASE}/api/deliveries')).json();const rows=document.getElementById('rows');rows.innerHTML='';
for(const d of list){const tr=document.createElement('tr');tr.innerHTML='<td></td><td></td><td></td><td></td><td><pre></pre></td>';
tr.children[0].textContent=d.at;tr.children[1].textContent=d.hook;tr.children[2].textContent=d.verified?'válida':'inválida';tr.children[2].className=d.verified?'ok':'bad';
tr.children[3].textContent=String(d.answeredStatus);tr.children[4].firstChild.textContent=JSON.stringify(d.body,null,2);rows.appendChild(tr);}}
load();setInterval(load,2000);
</script></body></html>`;

export const createWebhookReceiverSimulatorHttp = () => {
  const hooks = new Map<string, Hook>();
  const deliveries: WebhookDelivery[] = [];
  const app = new Hono().basePath(BASE);

  app.get("/", (c) => c.html(PAGE));
  app.put("/api/hooks/:hook", async (c) => {
    const body = (await c.req.json().catch(() => null)) as { secret?: unknown; answer?: unknown; status?: unknown } | null;
    if (!body) return c.json({ error: "JSON body expected" }, 400);
    const before = hooks.get(c.req.param("hook"));
    const hook: Hook = {
      secret: typeof body.secret === "string" ? body.secret.trim() : (before?.secret ?? ""),
      answer: body.answer !== undefined ? body.answer : (before?.answer ?? DEFAULT_ANSWER),
      status: typeof body.status === "number" ? body.status : (before?.status ?? 200),
    };
    hooks.set(c.req.param("hook"), hook);
    return c.json({ hook: c.req.param("hook"), hasSecret: !!hook.secret, answer: hook.answer, status: hook.status });
  });
  app.get("/api/deliveries", (c) => {
    const hook = c.req.query("hook");
    return c.json(deliveries.filter((d) => !hook || d.hook === hook).slice(-100).reverse());
  });
  app.delete("/api/deliveries", (c) => {
    deliveries.length = 0;
    return c.json({ ok: true });
  });

  app.post("/in/:hook", async (c) => {
    const name = c.req.param("hook");
    const raw = await c.req.text();
    const signature = c.req.header(WEBHOOK_SIGNATURE_HEADER) ?? null;
    const hook = hooks.get(name);
    const verified = !!hook?.secret && verifyWebhookSignature(hook.secret, raw, signature);
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw.slice(0, 2000);
    }
    const status = !verified ? 401 : (hook?.status ?? 200);
    deliveries.push({ hook: name, at: new Date().toISOString(), deliveryId: c.req.header(WEBHOOK_DELIVERY_HEADER) ?? null, signature, verified, answeredStatus: status, body, raw });
    if (deliveries.length > 500) deliveries.splice(0, deliveries.length - 500);
    if (!verified) return c.json({ error: hook?.secret ? "invalid signature" : "no secret configured for this hook" }, 401);
    if (status >= 300) return c.json({ error: "configured failure" }, status as 500);
    const payload = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
    return c.json(fill(hook!.answer, payload) as object);
  });
  return app;
};
