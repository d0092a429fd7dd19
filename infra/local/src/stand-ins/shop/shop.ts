import { createServer, type Server } from "node:http";
import { TABS_BAR, type Lang, type StandIn } from "../registry";

/**
 * The demo shop (issue 31 item 4, docs/adr/0096): a company's own website on ANOTHER origin (its own port), carrying
 * the one line a company pastes, `<script src="<app>/webchat.js" data-key="…" async>`. Local only, never deployed.
 * `?key=` shows another connection's chat (the e2e makes its own); by default the demo company's.
 */
export const DEMO_WEBCHAT_NAME = "Site da loja (demo)";

const TEXTS: Record<Lang, { title: string; tagline: string; buy: string; help: string; noKey: string; tab: string; open: string }> = {
  pt: {
    title: "Loja Demo",
    tagline: "Café especial torrado na semana — frete grátis acima de R$ 150",
    buy: "Comprar",
    help: "Dúvidas? Use o chat no canto da página: quem responde é a equipe no Atende.",
    noKey: "Esta loja ainda não tem um chat: crie uma conexão \"Chat do site\" com esta origem.",
    tab: "Uma loja de demonstração em outra origem, com o chat do site (o widget) colado como uma empresa o cola. Escreva como visitante e responda no Atende.",
    open: "Abrir a loja",
  },
  en: {
    title: "Demo Shop",
    tagline: "Specialty coffee roasted this week — free shipping over R$ 150",
    buy: "Buy",
    help: "Questions? Use the chat in the corner: the team answers from Atende.",
    noKey: "This shop has no chat yet: create a \"Website chat\" connection with this origin.",
    tab: "A demo shop on another origin, with the website chat (the widget) pasted as a company pastes it. Write as a visitor and answer in Atende.",
    open: "Open the shop",
  },
  es: {
    title: "Tienda Demo",
    tagline: "Café de especialidad tostado esta semana — envío gratis sobre R$ 150",
    buy: "Comprar",
    help: "¿Dudas? Usa el chat en la esquina: responde el equipo desde Atende.",
    noKey: "Esta tienda aún no tiene chat: crea una conexión \"Chat del sitio\" con este origen.",
    tab: "Una tienda de demostración en otro origen, con el chat del sitio (el widget) pegado como lo pega una empresa. Escribe como visitante y responde en Atende.",
    open: "Abrir la tienda",
  },
};
const PRODUCTS = [
  { name: "Café Bourbon Amarelo 250 g", price: "R$ 42,90" },
  { name: "Café Catuaí Vermelho 500 g", price: "R$ 69,90" },
  { name: "Coador de porcelana", price: "R$ 89,00" },
];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const langOf = (accept: string | undefined): Lang => {
  const first = (accept ?? "").toLowerCase().split(",")[0] ?? "";
  return first.startsWith("en") ? "en" : first.startsWith("es") ? "es" : "pt";
};

/** The shop's page: products and, when there is a key, the widget's one line. */
export const shopPage = (appUrl: string, key: string | null, lang: Lang) => {
  const t = TEXTS[lang];
  const items = PRODUCTS.map((p) => `<li><strong>${escapeHtml(p.name)}</strong><span>${escapeHtml(p.price)}</span><button type="button">${t.buy}</button></li>`).join("");
  const widget = key ? `<script src="${escapeHtml(appUrl)}/webchat.js" data-key="${escapeHtml(key)}" async></script>` : `<p class="note">${escapeHtml(t.noKey)}</p>`;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${t.title}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#faf7f2;color:#3b2f2f}header{background:#6f4e37;color:#fff;padding:24px}main{padding:24px;max-width:720px}ul{list-style:none;padding:0}li{display:flex;gap:16px;align-items:center;background:#fff;margin:8px 0;padding:12px;border-radius:8px}li strong{flex:1}.note{color:#a33}</style></head>
<body><header><h1>${t.title}</h1><p>${escapeHtml(t.tagline)}</p></header><main><ul>${items}</ul><p>${escapeHtml(t.help)}</p>${widget}</main></body></html>`;
};

/**
 * The shop on its own port. `keyOf` finds the demo company's chat (read again until there is one). The simulator
 * page gets a tab that links to it (the shop itself must stay on its own origin).
 */
export const startShopStandIn = async (opts: { appUrl: string; host: string; port: number; keyOf: () => Promise<string | null> }) => {
  let demoKey: string | null = null;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://shop");
      if (url.pathname !== "/") {
        res.writeHead(404).end();
        return;
      }
      const asked = url.searchParams.get("key");
      if (!asked) demoKey ??= await opts.keyOf().catch(() => null);
      const key = asked ?? demoKey;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(shopPage(opts.appUrl, key, langOf(req.headers["accept-language"])));
    })();
  });
  const port = await new Promise<number>((resolve) => server.listen(opts.port, opts.host, () => resolve((server.address() as { port: number }).port)));
  const url = `http://${opts.host === "0.0.0.0" ? "localhost" : opts.host}:${port}`;
  const tabPage = () =>
    `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>${TABS_BAR}${(["pt", "en", "es"] as const)
      .map((l) => `<p lang="${l}" data-lang="${l}">${escapeHtml(TEXTS[l].tab)} <a href="${url}" target="_blank" rel="noopener">${TEXTS[l].open}</a></p>`)
      .join("")}<p><code>${escapeHtml(url)}</code></p><script>(function(){var l=localStorage.getItem('language');if(l!=='en'&&l!=='es')l='pt';document.querySelectorAll('p[data-lang]').forEach(function(p){p.hidden=p.getAttribute('data-lang')!==l})})()</script></body></html>`;
  const standIn: StandIn = {
    id: "shop",
    prefix: "/simulator/shop",
    fetch: () => new Response(tabPage(), { headers: { "content-type": "text/html; charset=utf-8" } }),
    tab: { path: "/simulator/shop", order: 70, label: { pt: "Loja (chat do site)", en: "Shop (website chat)", es: "Tienda (chat del sitio)" } },
  };
  return { url, port, standIn, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
};

type Login = { email: string; password: string };
const adminApi = async (appUrl: string, login: Login) => {
  const res = await fetch(`${appUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(login) });
  const token = ((await res.json()) as { token?: string }).token;
  if (!token) throw new Error(`login ${res.status}`);
  return (path: string, init: RequestInit = {}) => fetch(`${appUrl}/api${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
};

/** The demo company's website chat, allowing the shop's origin (both loopback spellings); answers its public key. */
export const wireWebchatDemo = async (opts: { url: string; shopUrl: string; login: Login }) => {
  const api = await adminApi(opts.url, opts.login);
  const port = new URL(opts.shopUrl).port;
  const allowedOrigins = [...new Set([opts.shopUrl, `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
  const made = await api("/whatsapp", { method: "POST", body: JSON.stringify({ name: DEMO_WEBCHAT_NAME, provider: "webchat", allowedOrigins, greeting: "Olá! 👋 Em que podemos ajudar?", color: "#6f4e37", askName: true }) });
  if (made.status !== 200) throw new Error(`connection ${made.status} ${await made.text()}`);
};

/** What `demoWebchatKey` reads (the local runner's container): no login, so no one's session is touched. */
type DemoReads = {
  repos: {
    companies: { listPage(limit: number, cursor?: string): Promise<{ items: { id: number }[]; cursor?: string }> };
    whatsapps: { listByCompany(companyId: number): Promise<{ id: number; name: string }[]> };
  };
  webchat: { repo: { byConnection(companyId: number, whatsappId: number): Promise<{ publicKey: string } | null> } };
};

/** The public key of the demo company's website chat, read from the table (null until it exists). */
export const demoWebchatKey = async (container: DemoReads): Promise<string | null> => {
  let cursor: string | undefined;
  do {
    const page = await container.repos.companies.listPage(100, cursor);
    for (const company of page.items) {
      const conn = (await container.repos.whatsapps.listByCompany(company.id)).find((w) => w.name === DEMO_WEBCHAT_NAME);
      if (conn) return (await container.webchat.repo.byConnection(company.id, conn.id))?.publicKey ?? null;
    }
    cursor = page.cursor;
  } while (cursor);
  return null;
};
