import { afterEach, describe, expect, it, vi } from "vitest";
import { INITIAL_LIST_PARAMS, fetchTickets } from "../features/inbox/tickets/api/tickets-list";
import { getCompanyPlan } from "../features/auth/api/company-plan";
import { SIGNED_IN_HINT, clearSession, getToken, saveSession } from "./session-storage";
import { refreshSession } from "./api-client";
import bootScript from "../../public/session-boot.js?raw";
import { EARLY_WINDOW_MS, earlyRequestsReady, takeEarlyGet } from "./early-requests";

const holder = globalThis as { __atendeEarly?: { at: number; refresh: Promise<Response> | null; ready?: Promise<unknown>; gets: Record<string, Promise<Response>> } };
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

/** Runs public/session-boot.js as the browser would (a classic script) with fetch recorded. */
const runBoot = async (path: string) => {
  const requested: { url: string; method: string; auth: string | null }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      requested.push({ url, method: init.method ?? "GET", auth: headers.get("Authorization") });
      return url.endsWith("/auth/refresh_token") ? json({ token: "tok-1", user: { id: 5, companyId: 7 } }) : json({ tickets: [], count: 0, hasMore: false });
    }),
  );
  window.history.pushState({}, "", path);
  new Function(bootScript)();
  await vi.waitFor(() => expect(requested.length).toBeGreaterThan(0));
  await new Promise((r) => setTimeout(r, 20));
  return requested;
};

/** The addresses the app's own client asks for on the first screen. */
const appAddresses = async () => {
  const asked: string[] = [];
  vi.stubGlobal("fetch", vi.fn(async (url: string) => (asked.push(url), json({ tickets: [], count: 0, hasMore: false, plan: null }))));
  saveSession("tok-1", { id: 5, companyId: 7 });
  await getCompanyPlan(7);
  for (const params of INITIAL_LIST_PARAMS) await fetchTickets(params, 1);
  return asked;
};

afterEach(() => {
  vi.unstubAllGlobals();
  delete holder.__atendeEarly;
  localStorage.clear();
  window.history.pushState({}, "", "/");
});

describe("requests started before the app loads (public/session-boot.js)", () => {
  it("on /tickets a signed-in browser refreshes, then asks for exactly the GETs the app's client would, with the new token", async () => {
    // the hint as the app writes it: a rename in session-storage.ts must reach session-boot.js too
    localStorage.setItem(SIGNED_IN_HINT, "1");
    const requested = await runBoot("/tickets");
    expect(requested[0]).toMatchObject({ url: "/api/auth/refresh_token", method: "POST" });
    const gets = requested.slice(1);
    expect(gets.every((r) => r.method === "GET" && r.auth === "Bearer tok-1")).toBe(true);
    // the app waits for `ready` before its first GETs: by then every early GET is registered
    await earlyRequestsReady();
    expect(Object.keys(holder.__atendeEarly?.gets ?? {})).toHaveLength(3);
    const early = holder.__atendeEarly;
    delete holder.__atendeEarly;
    const expected = await appAddresses();
    expect(gets.map((r) => r.url).sort()).toEqual([...expected].sort());
    // with the early answers there, the app's client takes each over instead of asking
    holder.__atendeEarly = early;
    expect(await appAddresses()).toEqual([]);
    expect(holder.__atendeEarly?.gets).toEqual({});
  });

  it("elsewhere only the refresh starts, and a browser without the signed-in hint asks for nothing", async () => {
    localStorage.setItem(SIGNED_IN_HINT, "1");
    expect((await runBoot("/contacts")).map((r) => r.url)).toEqual(["/api/auth/refresh_token"]);
    delete holder.__atendeEarly;
    localStorage.clear();
    vi.stubGlobal("fetch", vi.fn());
    new Function(bootScript)();
    expect(fetch).not.toHaveBeenCalled();
    expect(holder.__atendeEarly).toBeUndefined();
  });

  it("the app has no session until session-boot.js has registered its GETs, so no first GET goes out ahead of them", async () => {
    clearSession();
    let registered: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (registered = resolve));
    holder.__atendeEarly = { at: performance.now(), refresh: Promise.resolve(json({ token: "tok-2", user: { id: 5, companyId: 7 } })), ready, gets: {} };
    vi.stubGlobal("fetch", vi.fn());
    const restored = refreshSession();
    await new Promise((r) => setTimeout(r, 20));
    // the refresh's answer is read, but the token waits for the early GETs (a component would ask with it at once)
    expect(getToken()).toBeNull();
    registered();
    await expect(restored).resolves.toMatchObject({ token: "tok-2" });
    expect(getToken()).toBe("tok-2");
    expect(fetch).not.toHaveBeenCalled();
    clearSession();
  });

  it("hands an answer over once, and nothing after the window", async () => {
    const answer = Promise.resolve(json({ ok: 1 }));
    holder.__atendeEarly = { at: performance.now(), refresh: null, gets: { "/api/x": answer, "/api/y": answer } };
    const ask = () => Promise.resolve(json({ asked: true }));
    expect(takeEarlyGet("/api/x", ask)).toBeDefined();
    expect(takeEarlyGet("/api/x", ask)).toBeUndefined();
    holder.__atendeEarly.at = performance.now() - EARLY_WINDOW_MS - 1;
    expect(takeEarlyGet("/api/y", ask)).toBeUndefined();
    expect(holder.__atendeEarly).toBeUndefined();
  });
});
