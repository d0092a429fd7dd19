import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll, type Json } from "./support/http";
import { LOGINS } from "./support/seed";
import { connectSimulator } from "./support/simulator";

/**
 * Stored XSS through media (issue 19, docs/security.md "Media"): an SVG carrying a script, sent as an image by a
 * customer (through the simulator) and by a colleague (through the API), is opened by an attendant in headless
 * Chromium. Nothing runs — the script would set a global and call a marker URL — and no token is within reach:
 * the access token lives in memory only, and a reload restores the session from the httpOnly cookie.
 */
let browser: Browser;
let context: BrowserContext;
const http = <T = Json>(path: string, init: Parameters<typeof httpJson>[2] = {}) => httpJson<T>(baseUrl(), path, init);
const stamp = Date.now().toString(36).slice(-5);
const customer = { number: `55119${String(Date.now()).slice(-8)}`, name: `Cliente SVG ${stamp}` };
const MARKER = "/api/xss-marker";
const svg = (who: string) =>
  `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="window.__xss='${who}-onload';fetch('${MARKER}?${who}-onload')">` +
  `<script>window.__xss='${who}';localStorage.setItem('xss','${who}');fetch('${MARKER}?${who}')</script><rect width="40" height="40" fill="red"/></svg>`;
/** Every request any page of the context made to the marker URL: must stay empty. */
const markerHits: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Whether any page of the context shows a sign of the script having run. */
const ranAnywhere = async () => {
  const signs = [];
  for (const p of context.pages()) {
    if (p.isClosed()) continue;
    signs.push(await p.evaluate("[typeof window.__xss === 'undefined' ? null : window.__xss, localStorage.getItem('xss')]").catch(() => [null, null]));
  }
  return signs.flat().filter((v) => v !== null);
};

describe("media a customer or a colleague sends cannot run in the app", () => {
  it("an SVG with a script, sent as an image, is shown as a file, runs nothing when opened, and finds no token", { timeout: 240_000 }, async () => {
    const sim = await connectSimulator(baseUrl(), LOGINS.admin);
    const ref = { companyId: sim.companyId, whatsappId: sim.whatsappId };
    const says = (body: Json) => http(`/simulator/api/customers/${customer.number}/messages`, { method: "POST", body: { ...ref, name: customer.name, ...body } });

    // the customer reaches queue Suporte (the attendant's) and sends an SVG claiming to be a JPEG photo
    await says({ type: "text", body: "Olá" });
    await poll(
      async () => (await http<{ fromCustomer: boolean }[] | { messages: { fromCustomer: boolean }[] }>(`/simulator/api/customers/${customer.number}/messages?companyId=${ref.companyId}&whatsappId=${ref.whatsappId}`)).data,
      (d) => (Array.isArray(d) ? d : d.messages).some((m) => !m.fromCustomer),
    );
    await says({ type: "text", body: "2" });
    const sent = await says({ type: "image", mediaBase64: Buffer.from(svg("customer")).toString("base64"), mimetype: "image/jpeg", filename: "foto.jpg", body: "" });
    expect(sent.status).toBe(201);

    type Ticket = { id: number; uuid: string; contact: { number: string }; queue: { name: string } | null };
    const tickets = async () => (await http<{ tickets: Ticket[] }>("/api/tickets?status=pending&showAll=true", { token: sim.token })).data.tickets ?? [];
    const ticket = (await poll(tickets, (list) => list.some((t) => t.contact.number === customer.number && t.queue?.name === "Suporte"), 30_000)).find(
      (t) => t.contact.number === customer.number,
    )!;
    expect(ticket.queue?.name).toBe("Suporte");

    // a colleague (the admin, over the API) sends the same kind of file declared as an SVG image
    const form = new FormData();
    form.append("medias", new File([svg("colleague")], "foto.png", { type: "image/svg+xml" }));
    const posted = await fetch(`${baseUrl()}/api/messages/${ticket.id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${sim.token}` } });
    expect(posted.status).toBe(201);
    expect(((await posted.json()) as { mediaType: string }).mediaType).toBe("application");

    type Message = { id: string; mediaType: string; mediaUrl: string | null; fromMe: boolean };
    const messages = await poll(
      async () => (await http<{ messages: Message[] }>(`/api/messages/${ticket.id}`, { token: sim.token })).data.messages ?? [],
      (list) => list.filter((m) => m.mediaUrl).length >= 2,
    );
    const media = messages.filter((m) => m.mediaUrl);
    expect(media.map((m) => m.mediaType)).toEqual(["application", "application"]);
    // served through the one local origin: an attachment, never rendered, sandboxed even if it were
    for (const m of media) {
      const res = await fetch(`${baseUrl()}${m.mediaUrl}`, { headers: { authorization: `Bearer ${sim.token}` } });
      expect(res.headers.get("content-type")).toBe("application/octet-stream");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'.*sandbox/);
    }

    // the attendant opens the conversation in the browser
    context = await newContext(browser);
    context.on("request", (req) => {
      if (req.url().includes(MARKER)) markerHits.push(req.url());
    });
    const page = await context.newPage();
    const entry = await page.goto("/login");
    // the SPA's own headers: no inline script may run, no page may frame it
    const headers = entry!.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self';/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("microphone=(self)");
    await page.getByLabel(/e-?mail/i).waitFor({ timeout: 60_000 });
    await login(page, LOGINS.attendant.email, LOGINS.attendant.password);
    await page.waitForURL(/\/tickets$/);
    await page.goto(`/tickets/${ticket.uuid}`);
    const documents = page.getByTestId("message-document");
    await expect.poll(() => documents.count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId("message-image").count()).toBe(0);
    await screenshot(page, "media-security-svg-as-file");

    // opened every way a user could: download, and the object URL in a tab of its own
    const opened: Page[] = [];
    context.on("page", (p) => opened.push(p));
    for (const link of await page.getByTestId("message-document").getByRole("link").all()) {
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(await download.failure()).toBeNull();
      const href = (await link.getAttribute("href"))!;
      expect(href).toMatch(/^blob:/);
      const tab = await context.newPage();
      await tab.goto(href).catch(() => undefined); // an octet-stream object URL is only ever downloaded
      await tab.waitForTimeout(500);
      await tab.close();
    }
    expect(opened.filter((p) => !p.isClosed())).toHaveLength(0);
    // the stored file opened directly (as a link shared outside the app would be): downloaded, not rendered
    const direct = await context.newPage();
    await direct.setExtraHTTPHeaders({ authorization: `Bearer ${sim.token}` });
    await direct.goto(media[0]!.mediaUrl!).catch(() => undefined);
    await direct.waitForTimeout(500);
    await direct.close();

    expect(markerHits).toEqual([]);
    expect(await ranAnywhere()).toEqual([]);

    // nothing to steal: no token in web storage, the refresh cookie unreadable from scripts
    const reachable = await page.evaluate<{ storage: string; cookie: string }>("({ storage: JSON.stringify({ ...localStorage, ...sessionStorage }), cookie: document.cookie })");
    expect(reachable.storage).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(reachable.storage).not.toMatch(/token/i);
    expect(reachable.cookie).not.toContain("jrt");

    // and a reload keeps the attendant signed in (the httpOnly refresh cookie restores the session)
    await page.reload();
    await expect.poll(() => documents.count(), { timeout: 30_000 }).toBe(2);
    expect(new URL(page.url()).pathname).toBe(`/tickets/${ticket.uuid}`);
    expect(markerHits).toEqual([]);
    expect(await ranAnywhere()).toEqual([]);
    await context.close();
  });

  it("control: the same SVG served as an image/svg+xml document without our headers does run, and the checks above see it", { timeout: 60_000 }, async () => {
    // proves the marker and the global would have caught a script that ran (the test above could fail)
    context = await newContext(browser);
    const hits: string[] = [];
    context.on("request", (req) => {
      if (req.url().includes(MARKER)) hits.push(req.url());
    });
    await context.route(`${baseUrl()}/xss-control.svg`, (route) => route.fulfill({ status: 200, contentType: "image/svg+xml", body: svg("control") }));
    const page = await context.newPage();
    await page.goto("/xss-control.svg");
    await expect.poll(() => hits.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await ranAnywhere()).toContain("control");
    await context.close();
  });
});
