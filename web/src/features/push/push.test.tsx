import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getToasts } from "../../lib/toast";
import { mockFetch } from "../../testing/fetch-mock";
import { aUser } from "../../testing/fixtures";
import { renderWithApp } from "../../testing/render";
import { PushSection } from "./components/push-section";
import { startServiceWorker } from "./service-worker";

const files = import.meta.glob<Record<string, unknown>>("../../locales/*/push.json", { eager: true, import: "default" });

/** A stand-in `navigator.serviceWorker` (jsdom has none): its listeners, its registration's push manager. */
const fakeServiceWorker = (opts: { controller: boolean }) => {
  const listeners = new Map<string, ((e: unknown) => void)[]>();
  let subscription: { endpoint: string; toJSON: () => unknown; unsubscribe: () => Promise<boolean> } | null = null;
  const pushManager = {
    getSubscription: vi.fn(async () => subscription),
    subscribe: vi.fn(async (o: { applicationServerKey: string }) => {
      subscription = { endpoint: "https://push.example/sub-1", toJSON: () => ({ endpoint: "https://push.example/sub-1", expirationTime: null, keys: { p256dh: "BKey", auth: "auth16" }, serverKey: o.applicationServerKey }), unsubscribe: async () => true };
      return subscription;
    }),
  };
  const registration = { pushManager };
  const sw = {
    controller: opts.controller ? {} : null,
    ready: Promise.resolve(registration),
    getRegistration: vi.fn(async () => registration),
    register: vi.fn(async () => registration),
    addEventListener: (type: string, fn: (e: unknown) => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
    fire: (type: string, e: unknown = {}) => (listeners.get(type) ?? []).forEach((fn) => fn(e)),
  };
  Object.defineProperty(navigator, "serviceWorker", { value: sw, configurable: true });
  Object.defineProperty(window, "isSecureContext", { value: true, configurable: true });
  return { sw, pushManager };
};

afterEach(() => {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  delete (window as { isSecureContext?: unknown }).isSecureContext;
  vi.useRealTimers();
});

describe("push strings", () => {
  it("has every push string in pt, en and es", () => {
    const keys = (o: Record<string, unknown>, p = ""): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === "object" && v ? keys(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
    const [pt, en, es] = ["pt", "en", "es"].map((l) => keys(files[`../../locales/${l}/push.json`]!).sort());
    expect(en).toEqual(pt);
    expect(es).toEqual(pt);
  });
});

describe("the service worker's 'nova versão'", () => {
  it("a new worker taking over an already controlled page shows the toast, then reloads the app", async () => {
    vi.useFakeTimers();
    const { sw } = fakeServiceWorker({ controller: true });
    const reload = vi.fn();
    await startServiceWorker(() => undefined, reload);
    expect(sw.register).toHaveBeenCalledWith(expect.stringMatching(/^\/sw\.js\?v=/), { scope: "/" });
    expect(getToasts()).toEqual([]);
    sw.fire("controllerchange");
    expect(getToasts().map((t) => t.message)).toEqual(["Nova versão disponível. Recarregando…"]);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2500);
    expect(reload).toHaveBeenCalledTimes(1);
  });
  it("the first install taking control is not a new version: no toast, no reload", async () => {
    vi.useFakeTimers();
    const { sw } = fakeServiceWorker({ controller: false });
    const reload = vi.fn();
    await startServiceWorker(() => undefined, reload);
    expect(sw.register).toHaveBeenCalledTimes(1);
    sw.fire("controllerchange");
    vi.advanceTimersByTime(10_000);
    expect(getToasts()).toEqual([]);
    expect(reload).not.toHaveBeenCalled();
  });
  it("a notification click in the worker navigates the open app", async () => {
    const { sw } = fakeServiceWorker({ controller: true });
    const navigate = vi.fn();
    await startServiceWorker(navigate, vi.fn());
    sw.fire("message", { data: { type: "navigate", url: "/tickets/abc" } });
    sw.fire("message", { data: { type: "navigate", url: "https://evil.example/" } });
    expect(navigate.mock.calls).toEqual([["/tickets/abc"]]);
  });
});

describe("the profile dialog's push section", { timeout: 30_000 }, () => {
  const prefs = { waiting: true, message: true, transfer: true, chat: true, announcement: true, quietStart: null, quietEnd: null };
  const setup = () => {
    const device = fakeServiceWorker({ controller: true });
    vi.stubGlobal("PushManager", class {});
    vi.stubGlobal("Notification", { requestPermission: vi.fn(async () => "granted") });
    const fetch = mockFetch({
      "GET /api/push/preferences": prefs,
      "GET /api/push/public-key": { publicKey: "BPublicKey" },
      "POST /api/push/subscriptions": () => new Response(null, { status: 201 }),
      "PUT /api/push/preferences": async (req: Request) => await req.json(),
    });
    renderWithApp(<PushSection />, { user: aUser() });
    return { ...device, fetch };
  };

  it("turning notifications on subscribes this device with the VAPID key and sends the subscription to the server", async () => {
    const { pushManager, fetch } = setup();
    const toggle = (await screen.findByTestId("push-device")).querySelector("input")!;
    await waitFor(() => expect(toggle).not.toBeDisabled());
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: "BPublicKey" });
    const post = fetch.calls.find((r) => r.method === "POST" && r.url.endsWith("/api/push/subscriptions"))!;
    expect(await post.json()).toMatchObject({ endpoint: "https://push.example/sub-1", keys: { p256dh: "BKey", auth: "auth16" }, lang: "pt" });
  });

  it("saves what to push and the quiet hours with PUT /api/push/preferences", async () => {
    const { fetch } = setup();
    await userEvent.click((await screen.findByTestId("push-pref-announcement")).querySelector("input")!);
    await userEvent.click(screen.getByTestId("push-quiet").querySelector("input")!);
    // the time field's picker sets the whole value at once
    fireEvent.change(screen.getByLabelText("De"), { target: { value: "21:30" } });
    await userEvent.click(screen.getByTestId("push-save"));
    await waitFor(() => expect(fetch.calls.some((r) => r.method === "PUT")).toBe(true));
    const put = fetch.calls.find((r) => r.method === "PUT")!;
    expect(new URL(put.url).pathname).toBe("/api/push/preferences");
    expect(await put.json()).toEqual({ ...prefs, announcement: false, quietStart: "21:30", quietEnd: "07:00" });
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain("Preferências de notificação salvas."));
  });
});
