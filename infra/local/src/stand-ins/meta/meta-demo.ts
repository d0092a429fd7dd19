import type { MetaGraphStandIn } from "./meta-graph-api";

/** The demo pages on the Graph stand-in: a Facebook page (Messenger) and an Instagram professional account. */
export const DEMO_MESSENGER_PAGE_ID = "100000000000042";
export const DEMO_INSTAGRAM_ACCOUNT_ID = "17841400000000042";
/** The demo pages' credentials (local only, like the Telegram stand-in's demo bot token): fixed, so a restart of the
 * runner (the stand-in is in memory) finds the pages the demo connections were saved with. */
const DEMO_CREDENTIALS = { accessToken: "EAADEMO-page-token-of-the-graph-stand-in-0042", appSecret: "demo-app-secret-of-the-graph-stand-in" };

/**
 * The demo company's Messenger and Instagram connections (first start with demo conversations, `npm start`): the
 * pages made on the stand-in (their plain secrets seen only here), the connections created through our API as an
 * admin would, then each page's callback saved on the stand-in (Meta's handshake against our webhook URL), so a
 * person can write from /simulator/meta at once. On a later start (`create: false`) the pages are made again and the
 * existing connections' callbacks saved again.
 */
export const wireMetaDemo = async (opts: { url: string; graph: MetaGraphStandIn; login: { email: string; password: string }; create: boolean }) => {
  const login = await fetch(`${opts.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts.login) });
  const token = ((await login.json()) as { token?: string }).token;
  if (!token) throw new Error(`login ${login.status}`);
  const api = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${opts.url}/api${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json().catch(() => null)) as { id?: number; channelSettings?: { webhookUrl?: string; verifyToken?: string } } | null };
  };
  const graphApiUrl = `${opts.url}/simulator/meta/graph/v23.0`;
  const made = [
    { page: opts.graph.addPage({ provider: "messenger", pageId: DEMO_MESSENGER_PAGE_ID, name: "Atende Demo", ...DEMO_CREDENTIALS }), name: "Messenger (simulador)", idField: "pageId" },
    { page: opts.graph.addPage({ provider: "instagram", pageId: DEMO_INSTAGRAM_ACCOUNT_ID, name: "Atende Demo", username: "atende.demo", ...DEMO_CREDENTIALS }), name: "Instagram (simulador)", idField: "instagramAccountId" },
  ];
  const existing = opts.create ? [] : (((await api("/whatsapp")).body ?? []) as unknown as { id: number; name: string; provider?: string }[]);
  for (const m of made) {
    const found = existing.find((w) => w.name === m.name && w.provider === m.page.provider);
    if (!opts.create && !found) continue;
    const conn = found ? { status: 200, body: { id: found.id } } : await api("/whatsapp", {
      method: "POST",
      body: JSON.stringify({ name: m.name, provider: m.page.provider, [m.idField]: m.page.pageId, pageAccessToken: m.page.accessToken, appSecret: m.page.appSecret, graphApiUrl }),
    });
    if (conn.status !== 200) throw new Error(`${m.page.provider} connection ${conn.status} ${JSON.stringify(conn.body)}`);
    const view = (await api(`/whatsapp/${conn.body!.id}`)).body?.channelSettings;
    if (!view?.webhookUrl || !view.verifyToken) throw new Error(`${m.page.provider}: no webhook URL in the connection`);
    const hooked = await opts.graph.subscribe(m.page.pageId, view.webhookUrl, view.verifyToken);
    if (!hooked.ok) throw new Error(`${m.page.provider}: webhook not verified (${hooked.status})`);
  }
};
