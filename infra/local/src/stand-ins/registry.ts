/**
 * The stand-ins' registry (issue 35 "One home for every stand-in"): each stand-in of an outside service
 * (WhatsApp's network and phones, Meta's Cloud API, the bank, the AI models, Typebot, DialogFlow, webhooks ...)
 * registers here once, with the path prefix it answers under on the local origin (/simulator/<...>) and, when it
 * has a page, the tab that page gets on the simulator's bar. The local runner routes /simulator/* through
 * `route`; a stand-in's HTML page puts `TABS_PLACEHOLDER` where its bar goes and `route` fills it in.
 * See README.md beside this file.
 */

export type Lang = "pt" | "en" | "es";

/** A tab on the simulator page's bar: the stand-in's page, named in pt (default), en and es. */
export type StandInTab = {
  /** the page's path on the local origin, e.g. "/simulator/cloudapi" */
  path: string;
  label: Record<Lang, string>;
  /** position on the bar (lower first; WhatsApp's phones are 0) */
  order: number;
};

export type StandIn = {
  /** unique, kebab-case: "whatsapp", "cloud-api", "bank", "ai", "typebot", "dialogflow", "webhooks" ... */
  id: string;
  /** the path prefix it answers under, e.g. "/simulator/bank" ("/simulator" for WhatsApp's phones: the fallback) */
  prefix: string;
  fetch: (req: Request) => Response | Promise<Response>;
  tab?: StandInTab;
};

/** What a stand-in page writes where its tab bar goes; `withTabs` replaces it. */
export const TABS_PLACEHOLDER = "<!--stand-in-tabs-->";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export type StandInRegistry = ReturnType<typeof createStandInRegistry>;

export const createStandInRegistry = () => {
  const standIns: StandIn[] = [];
  const registry = {
    register(standIn: StandIn) {
      if (standIns.some((s) => s.id === standIn.id)) throw new Error(`stand-in ${standIn.id} registered twice`);
      if (!standIn.prefix.startsWith("/simulator")) throw new Error(`stand-in ${standIn.id}: its prefix must be under /simulator`);
      standIns.push(standIn);
      return registry;
    },
    list: (): readonly StandIn[] => standIns,
    /** the tabs in bar order */
    tabs: () =>
      standIns
        .filter((s): s is StandIn & { tab: StandInTab } => Boolean(s.tab))
        .sort((a, b) => a.tab.order - b.tab.order)
        .map((s) => ({ id: s.id, ...s.tab })),
    /**
     * The stand-in that answers a path: the longest matching prefix, so "/simulator" (WhatsApp's phones) takes
     * what no other claims. Undefined: no stand-in (the runner answers 404).
     */
    find(path: string) {
      return standIns
        .filter((s) => path === s.prefix || path.startsWith(`${s.prefix}/`))
        .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    },
    /** answers a /simulator request; an HTML page that has TABS_PLACEHOLDER gets the tab bar there */
    async route(req: Request): Promise<Response> {
      const own = registry.find(new URL(req.url).pathname);
      if (!own) return new Response(JSON.stringify({ error: "no stand-in here" }), { status: 404, headers: { "content-type": "application/json" } });
      const res = await own.fetch(req);
      if (!res.headers.get("content-type")?.startsWith("text/html")) return res;
      const html = await res.text();
      if (!html.includes(TABS_PLACEHOLDER)) return new Response(html, { status: res.status, headers: res.headers });
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      return new Response(registry.withTabs(html, own.id), { status: res.status, headers });
    },
    /**
     * The tab bar as HTML: one link per tab, the active one marked, each label in the three languages (the page's
     * own script, or the small one included here, shows the one of the app's `language` choice).
     */
    tabsHtml(activeId: string) {
      const links = registry
        .tabs()
        .map(
          (t) =>
            `<a href="${escapeHtml(t.path)}" data-testid="tab-${escapeHtml(t.id)}"${t.id === activeId ? ' class="active" aria-current="page"' : ""} data-label-pt="${escapeHtml(t.label.pt)}" data-label-en="${escapeHtml(t.label.en)}" data-label-es="${escapeHtml(t.label.es)}">${escapeHtml(t.label.pt)}</a>`,
        )
        .join("");
      const script = `<script>(function(){var l=localStorage.getItem('language');if(l!=='en'&&l!=='es')l='pt';document.querySelectorAll('nav.stand-in-tabs a').forEach(function(a){a.textContent=a.getAttribute('data-label-'+l)})})()</script>`;
      return `<nav class="stand-in-tabs">${links}</nav>${script}`;
    },
    /** a stand-in page with its tab bar in place of TABS_PLACEHOLDER */
    withTabs(html: string, activeId: string) {
      return html.replace(TABS_PLACEHOLDER, registry.tabsHtml(activeId));
    },
  };
  return registry;
};
