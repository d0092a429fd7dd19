import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchBrowser, login, newContext, screenshot } from "./support/browser";
import { httpJson, poll } from "./support/http";
import { LOGINS } from "./support/seed";
import { createTestSubscription, decryptPushBody } from "../infra/local/src/stand-ins/push/push-keys";

/**
 * The installable app (issue 32, docs/adr/0097) in headless Chromium: the manifest parses (DevTools
 * `Page.getAppManifest`), the service worker is active, the attendant turns notifications on in the profile dialog,
 * a ticket transferred to them makes the server send a push to the push-service stand-in, which the test (playing the
 * browser's push service) decrypts and delivers to the real service worker (`ServiceWorker.deliverPushMessage`); the
 * notification shows, its click takes the open app to the ticket, logout forgets the device's subscription, and
 * offline a reload gets the service worker's "sem conexão" page.
 *
 * Chromium's own push service (FCM) is out of reach in this closed network, so `pushManager.subscribe` answers a
 * subscription of the local stand-in whose private key the test holds (an init script; docs/adr/0097).
 */
let browser: Browser;
let context: BrowserContext;
let page: Page;
const device = createTestSubscription(`${baseUrl()}/simulator/push/send/e2e-${Date.now().toString(36)}`);
const deviceId = device.endpoint.split("/").pop()!;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  await context.grantPermissions(["notifications"], { origin: baseUrl() });
  await context.addInitScript((sub: { endpoint: string; keys: { p256dh: string; auth: string } }) => {
    let current: unknown = null;
    const make = () => ({ endpoint: sub.endpoint, expirationTime: null, toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }), unsubscribe: async () => ((current = null), true) });
    if (typeof PushManager !== "undefined") {
      PushManager.prototype.subscribe = async function () {
        return (current = make()) as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async function () {
        return current as PushSubscription | null;
      };
    }
  }, { endpoint: device.endpoint, keys: device.keys });
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
    const users = await httpJson<{ users: { id: number; email: string }[] }>(baseUrl(), "/api/users?pageNumber=1", { token: admin.data.token });
    const attendantId = users.data.users.find((u) => u.email === LOGINS.attendant.email)!.id;

    await login(page, LOGINS.attendant.email, LOGINS.attendant.password);
    await page.waitForURL(/\/tickets$/);
    const cdp = await context.newCDPSession(page);

    // installable: the manifest is found and parsed without errors, with the icons and the standalone display
    const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: { message: string }[]; data?: string };
    expect(manifest.url).toBe(`${baseUrl()}/api/public/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data!)).toMatchObject({ name: "Atende", display: "standalone", start_url: "/tickets" });
    // the service worker (registered after the first screen) is active and controls the page
    await expect(poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), (s) => s === "activated", 10_000)).resolves.toBe("activated");
    await poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), Boolean, 10_000);

    // the attendant turns notifications on for this device in the profile dialog
    await page.getByTestId("profile-button").click();
    await page.getByRole("menuitem", { name: "Perfil" }).click();
    await page.getByTestId("push-device").locator("input").click();
    await expect(poll(() => page.getByTestId("push-device").locator("input").isChecked(), Boolean, 10_000)).resolves.toBe(true);
    await page.keyboard.press("Escape");

    // the admin gives the attendant a conversation: the server pushes it to the device's push service (the stand-in)
    const name = `Cliente Push ${Date.now().toString(36)}`;
    const contact = await httpJson<{ id: number }>(baseUrl(), "/api/contacts", { method: "POST", token: admin.data.token, body: { name, number: `5511${String(Date.now()).slice(-9)}` } });
    expect(contact.status).toBeLessThan(300);
    const created = await httpJson<{ uuid: string }>(baseUrl(), "/api/tickets", { method: "POST", token: admin.data.token, body: { contactId: contact.data.id, status: "open", userId: attendantId } });
    expect(created.status).toBeLessThan(300);
    const uuid = created.data.uuid;
    const arrived = await poll(
      async () => (await httpJson<{ headers: Record<string, string>; body: string }[]>(baseUrl(), `/simulator/push/api/received?id=${deviceId}`)).data,
      (list) => list.length > 0,
      15_000,
    );
    expect(arrived).toHaveLength(1);
    const payload = JSON.parse(decryptPushBody(Buffer.from(arrived[0]!.body, "base64url"), device)) as { title: string; body: string; url: string; tag: string };
    expect(payload).toEqual({ title: "Atendimento transferido para você", body: `Conversa com ${name}`, url: `/tickets/${uuid}`, tag: `ticket-${uuid}` });

    // the registration's id, for DevTools
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on("ServiceWorker.workerRegistrationUpdated", (e: { registrations: { registrationId: string; scopeURL: string }[] }) => registrations.push(...e.registrations));
    await cdp.send("ServiceWorker.enable");
    const reg = await poll(async () => registrations.find((r) => r.scopeURL === `${baseUrl()}/`), Boolean, 10_000);
    expect(reg).toBeDefined();
    // the push service's delivery to the browser: the payload, to the real service worker
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
    await page.waitForURL(new RegExp(`/tickets/${uuid}$`));
    // the click closed it
    await expect(poll(notifications, (ns) => ns.length === 0, 5_000)).resolves.toEqual([]);
    await screenshot(page, "push-opened-ticket");

    // logout forgets this device's subscription on the server first
    const forgotten = page.waitForResponse((r) => r.url().endsWith("/api/push/subscriptions") && r.request().method() === "DELETE");
    await page.getByTestId("profile-button").click();
    await page.getByRole("menuitem", { name: "Sair" }).click();
    expect((await forgotten).status()).toBe(200);
    await page.waitForURL(/\/login$/);

    // the network goes down: a reload is answered by the service worker's "sem conexão" screen, not a browser error
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId("offline-screen").getByRole("heading", { name: "Sem conexão" }).waitFor();
    await screenshot(page, "push-offline");
    await context.setOffline(false);
  });
});
