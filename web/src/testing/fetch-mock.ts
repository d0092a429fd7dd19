import { vi } from "vitest";

/**
 * A fetch stub for component tests: `mockFetch({ "GET /api/version": { version: "1" }, "POST /api/tags": (req) => reply(201, {...}) })`.
 * Keys are "METHOD path" (path without query string). A value is sent as JSON 200; a function gets the Request
 * and returns a Response (or a value). Requests nobody handles answer 599 and fail the test (see setup.ts).
 */
export type Handler = unknown | ((req: Request) => Response | unknown | Promise<Response | unknown>);

export const reply = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export const unhandledRequests: string[] = [];

export const mockFetch = (routes: Record<string, Handler>) => {
  const calls: Request[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost"), init);
    calls.push(req.clone());
    const key = `${req.method} ${new URL(req.url).pathname}`;
    if (!(key in routes)) {
      unhandledRequests.push(key);
      return reply(599, { error: `unhandled ${key}` });
    }
    const handler = routes[key];
    const out = typeof handler === "function" ? await (handler as (req: Request) => unknown)(req) : handler;
    return out instanceof Response ? out : reply(200, out);
  });
  vi.stubGlobal("fetch", fn);
  return { fn, calls };
};
