import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll } from "./support/http";
import { LOGINS } from "./support/seed";

/**
 * The installable app (issue 32, docs/adr/0097) in headless Chromium: the manifest parses (DevTools
 * `Page.getAppManifest`), the service worker is active, the attendant turns notifications on in the profile dialog
 * (the subscription reaches the server), a push delivered to the real service worker (`ServiceWorker.deliverPushMessage`)
 * shows its notification, and the notification's click takes the open app to the ticket.
 */
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  await context.grantPermissions(["notifications"], { origin: baseUrl() });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

type Shown = { title: string; body: string; tag: string; data: { url: string } };
const notifications = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as { url: string } })));

describe("installable app and Web Push", () => {
  it("manifest parsed, service worker active; a push to the real worker shows its notification and its click opens the ticket", async () => {
    const admin = await httpJson<{ token: string }>(baseUrl(), "/api/auth/login", { method: "POST", body: LOGINS.admin });
    // a conversation of the admin's, to be opened from the notification
    const name = `Cliente Push ${Date.now().toString(36)}`;
    const contact = await httpJson<{ id: number }>(baseUrl(), "/api/contacts", { method: "POST", token: admin.data.token, body: { name, number: `5511${String(Date.now()).slice(-9)}` } });
    expect(contact.status).toBeLessThan(300);
    const created = await httpJson<{ uuid: string }>(baseUrl(), "/api/tickets", { method: "POST", token: admin.data.token, body: { contactId: contact.data.id, status: "pending" } });
    expect(created.status).toBeLessThan(300);
    const ticket = { uuid: created.data.uuid, contact: { name } };

    await login(page, LOGINS.attendant.email, LOGINS.attendant.password);
    await page.waitForURL(/\/tickets$/);
    const cdp = await context.newCDPSession(page);

    // installable: the manifest is found and parsed without errors, with the icons and the standalone display
    const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: { message: string }[]; data?: string };
    expect(manifest.url).toBe(`${baseUrl()}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data!)).toMatchObject({ name: "Atende", display: "standalone", start_url: "/tickets" });
    // the service worker (registered after the first screen) is active and controls the page
    await expect(poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), (s) => s === "activated", 10_000)).resolves.toBe("activated");
    await poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), Boolean, 10_000);

    // the registration's id, for DevTools
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on("ServiceWorker.workerRegistrationUpdated", (e: { registrations: { registrationId: string; scopeURL: string }[] }) => registrations.push(...e.registrations));
    await cdp.send("ServiceWorker.enable");
    const reg = await poll(async () => registrations.find((r) => r.scopeURL === `${baseUrl()}/`), Boolean, 10_000);
    expect(reg).toBeDefined();

    // a push as the server sends it (the payload the service worker receives, decrypted)
    const payload = { title: "Cliente aguardando", body: `${ticket.contact.name} está aguardando atendimento`, url: `/tickets/${ticket.uuid}`, tag: `ticket-${ticket.uuid}` };
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: baseUrl(), registrationId: reg!.registrationId, data: JSON.stringify(payload) });
    const shown = await poll(notifications, (ns) => ns.length > 0, 10_000);
    expect(shown).toEqual<Shown[]>([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url } }]);

    // the click: headless Chromium has no notification to click, so the worker's own notificationclick handler is
    // dispatched inside the worker with the notification it shows (docs/adr/0097 says why and how)
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
    await worker.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
      const [n] = await scope.registration.getNotifications();
      const NotificationEventCtor = (globalThis as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
      scope.dispatchEvent(new NotificationEventCtor("notificationclick", { notification: n! }));
    });
    await page.waitForURL(new RegExp(`/tickets/${ticket.uuid}$`));
    // the click closed it
    await expect(poll(notifications, (ns) => ns.length === 0, 5_000)).resolves.toEqual([]);
    await screenshot(page, "push-opened-ticket");
  });
});
