import { existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type BrowserContext, type Page, type Response } from "playwright-core";
import { REPO_ROOT, startPlatform } from "../infra/local/src/platform";
import { seedCompany, signIn } from "./inbox-web.bench";

/**
 * The web app's first screen (issue 15 item 4), against the built web app (run `npm run build -w web` first),
 * in headless Chromium on the local platform:
 * 1. `loginPageJs`: every JavaScript response a new visitor's browser receives for /login, up to the login form
 *    shown and the network quiet, each body gzipped (level 9) as it came over the wire and summed. Target ≤ 250 kB.
 *    `signInJs`: what the sign-in then adds until the first ticket card (not part of the first screen).
 * 2. `ticketsFirstCardMs`: with BENCH_WEB_TICKETS (default 1,000) open tickets assigned to the admin, the time
 *    from navigating to /tickets (a new page load; the session comes back from the refresh cookie) to the first
 *    ticket card shown, RUNS times (the browser's cache warm from a sign-in, as an agent's is);
 *    `signInToFirstCardMs` from the login button's click to the first card (the app's chunks not yet cached);
 *    `openListAnsweredMedian`: when GET /tickets?status=open had answered, `afterOpenListMedian`: the page's own
 *    time from that answer to the card (so the server's share and the page's can be told apart). Target ≤ 1 s. `waterfall`: the last run's requests in start order.
 */
const TICKETS = Number(process.env.BENCH_WEB_TICKETS ?? 1_000);
const RUNS = 7;
const DIST = join(REPO_ROOT, "web", "dist");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
};

type Loaded = { path: string; rawBytes: number; gzipBytes: number };

/** Collects the page's JavaScript responses (bodies gzipped here, level 9) from now on. */
const collectJs = (page: Page) => {
  const pending: Promise<Loaded | null>[] = [];
  page.on("response", (res: Response) => {
    const url = new URL(res.url());
    if (res.request().resourceType() !== "script" && !url.pathname.endsWith(".js")) return;
    pending.push(
      res
        .body()
        .then((body) => ({ path: url.pathname, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length }))
        .catch(() => null),
    );
  });
  return async () => {
    const all = (await Promise.all(pending)).filter((l): l is Loaded => l !== null);
    const unique = [...new Map(all.map((l) => [l.path, l])).values()];
    const sum = (key: "rawBytes" | "gzipBytes") => unique.reduce((acc, l) => acc + l[key], 0);
    return { files: unique.length, rawKiB: Math.round(sum("rawBytes") / 1024), gzipKiB: Math.round(sum("gzipBytes") / 1024), gzipKB: Math.round(sum("gzipBytes") / 1000), largest: unique.sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 8).map((l) => `${l.path} ${Math.round(l.gzipBytes / 1024)} KiB`) };
  };
};

const waterfallOf = (page: Page, startedEpoch: () => number) => {
  const requests: { path: string; startMs: number; durationMs: number }[] = [];
  page.on("requestfinished", (req) => {
    const t = req.timing();
    const path = new URL(req.url()).pathname;
    if (path.startsWith("/api/") || path.endsWith(".js")) requests.push({ path, startMs: Math.round(t.startTime - startedEpoch()), durationMs: Math.round(t.responseEnd) });
  });
  return () => requests.sort((a, b) => a.startMs - b.startMs);
};

export default async function webFirstScreenBench(): Promise<Record<string, unknown>> {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("build the web app first: npm run build -w web");
  const platform = await startPlatform({ logLevel: "warn", env: { BCRYPT_ROUNDS: "4" } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const newContext = (): Promise<BrowserContext> => browser.newContext({ baseURL: platform.url, viewport: { width: 1280, height: 800 }, locale: "pt-BR" });
  try {
    const seedStarted = Date.now();
    const tenant = await seedCompany(platform, { tickets: TICKETS, statusOf: () => "open" });
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);

    // 1. a new visitor's /login, then the sign-in
    const visitor = await newContext();
    const page = await visitor.newPage();
    const loginJs = collectJs(page);
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor();
    await page.waitForLoadState("networkidle");
    const loginPageJs = await loginJs();
    const signInJsOf = collectJs(page);
    await page.getByLabel(/e-?mail/i).fill(tenant.admin.email);
    await page.getByLabel(/senha|password|contraseña/i).fill(tenant.password);
    const clicked = performance.now();
    await page.getByRole("button", { name: /entrar|login|sign in|ingresar/i }).click();
    await page.getByTestId("ticket-card").first().waitFor({ timeout: 60_000 });
    const signInToFirstCardMs = Math.round(performance.now() - clicked);
    const signInJs = await signInJsOf();
    await visitor.close();

    // 2. /tickets opened with a session (refresh cookie), RUNS times
    const times: number[] = [];
    /** when the open tab's list answer was in (the server's share ends there), and what the page took after it */
    const listInMs: number[] = [];
    const afterListMs: number[] = [];
    let waterfall: ReturnType<ReturnType<typeof waterfallOf>> = [];
    const agent = await newContext();
    await signIn(await agent.newPage(), tenant.admin.email, tenant.password);
    for (let run = 0; run < RUNS; run++) {
      const tab = await agent.newPage();
      let startedEpoch = 0;
      const requests = waterfallOf(tab, () => startedEpoch);
      const mark: { listIn: number | null } = { listIn: null };
      tab.on("requestfinished", (req) => {
        const url = new URL(req.url());
        if (mark.listIn === null && url.pathname === "/api/tickets" && url.searchParams.get("status") === "open") mark.listIn = performance.now() - started;
      });
      startedEpoch = Date.now();
      const started = performance.now();
      await tab.goto("/tickets");
      await tab.getByTestId("ticket-card").first().waitFor({ timeout: 60_000 });
      const shown = performance.now() - started;
      times.push(Math.round(shown));
      if (mark.listIn !== null) {
        listInMs.push(Math.round(mark.listIn));
        afterListMs.push(Math.round(shown - mark.listIn));
      }
      if (run === RUNS - 1) waterfall = requests();
      await tab.close();
    }
    await agent.close();
    return {
      loginPageJs,
      signInJs,
      tickets: TICKETS,
      seedSeconds,
      signInToFirstCardMs,
      ticketsFirstCardMs: { median: median(times), runs: times, openListAnsweredMedian: median(listInMs), afterOpenListMedian: median(afterListMs) },
      waterfallLastRun: waterfall,
    };
  } finally {
    await browser.close();
    await platform.stop();
  }
}
