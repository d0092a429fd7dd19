import { Hono } from "hono";
import type { FakeBank } from "@atende/functions/platform/payments/fake-bank.adapter";

/**
 * The fake bank's page and API (local runner only, mounted beside the WhatsApp simulator at /simulator/bank and,
 * like it, never deployed to AWS). A developer pays a Pix charge here; the bank then calls our webhook.
 */
const PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Banco simulado (Pix)</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.4rem .6rem;font-size:.9rem}code{word-break:break-all}</style></head>
<body><h1>Banco simulado (Pix)</h1><p>Cobranças Pix emitidas pela plataforma local. "Pagar" conclui a cobrança e notifica o webhook.</p>
<form id="paste"><input name="code" size="80" placeholder="Pix copia e cola"> <button>Pagar código</button></form><p id="msg"></p>
<table><thead><tr><th>txid</th><th>valor</th><th>status</th><th></th></tr></thead><tbody id="rows"></tbody></table>
<script>
const rows=document.getElementById('rows'),msg=document.getElementById('msg');
async function load(){const list=await (await fetch('/simulator/bank/api/charges')).json();rows.innerHTML='';
for(const c of list){const tr=document.createElement('tr');tr.innerHTML='<td><code></code></td><td></td><td></td><td></td>';
tr.children[0].firstChild.textContent=c.txid;tr.children[1].textContent=c.original;tr.children[2].textContent=c.status;
if(c.status==='ATIVA'){const b=document.createElement('button');b.textContent='Pagar';b.onclick=()=>pay('/simulator/bank/api/charges/'+c.txid+'/pay',{});tr.children[3].appendChild(b);}
rows.appendChild(tr);}}
async function pay(url,body){const r=await fetch(url,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(body)});msg.textContent=JSON.stringify(await r.json());load();}
document.getElementById('paste').onsubmit=(e)=>{e.preventDefault();pay('/simulator/bank/api/pay',{code:e.target.code.value});};
load();
</script></body></html>`;

export const createFakeBankHttp = (bank: FakeBank) => {
  const app = new Hono().basePath("/simulator/bank");
  app.get("/", (c) => c.html(PAGE));
  app.get("/api/charges", (c) => c.json(bank.list()));
  app.post("/api/charges/:txid/pay", async (c) => {
    const txid = c.req.param("txid");
    if (!(await bank.getCharge(txid))) return c.json({ error: "unknown charge" }, 404);
    return c.json(await bank.pay(txid));
  });
  /** Paying by the copy-paste code, as a bank app does. */
  app.post("/api/pay", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { code?: unknown };
    const charge = typeof body.code === "string" ? bank.findByCode(body.code) : null;
    if (!charge) return c.json({ error: "unknown code" }, 404);
    return c.json(await bank.pay(charge.txid));
  });
  app.post("/api/charges/:txid/notify", async (c) => c.json({ webhookStatus: await bank.notify(c.req.param("txid")).catch(() => null) }));
  return app;
};
