import { getRequestListener } from "@hono/node-server";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { TestApp } from "./test-app";

/**
 * The contract suite's client: real HTTP to the Hono app served by a Node HTTP server on a free port (the same
 * request listener the local platform serves /api with), sending values the way a browser client written against
 * the spec sends them: axios-style query strings (arrays as JSON-array strings), JSON bodies with 0/1 numbers and
 * false/""/null for none, and multipart forms. See docs/adr/0011-accepting-spec-clients.md.
 */
export type SpecResponse = { status: number; body: any; headers: Headers }; // answers are checked field by field

export const startSpecServer = async (t: TestApp) => {
  const server: Server = createServer(getRequestListener(t.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  let address = 0;

  /** One call. `query` values are sent as axios sends params; `form` is multipart; `json` a JSON body. */
  const call = async (
    method: string,
    path: string,
    opts: { token?: string; json?: unknown; form?: FormData; query?: Record<string, string | number | boolean | undefined>; cookie?: string; headers?: Record<string, string> } = {},
  ): Promise<SpecResponse> => {
    const headers: Record<string, string> = { "x-forwarded-for": `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`, ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.json !== undefined) headers["content-type"] = "application/json";
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.append(k, String(v));
    const url = `${base}${path}${qs.size ? `?${qs.toString()}` : ""}`;
    const res = await fetch(url, { method, headers, body: opts.form ?? (opts.json !== undefined ? JSON.stringify(opts.json) : undefined) });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, body, headers: res.headers };
  };

  /** A call that must succeed (2xx); the failure names the call and the answer. */
  const ok = async (method: string, path: string, opts: Parameters<typeof call>[2] = {}): Promise<any> => {
    const res = await call(method, path, opts);
    expect(res.status, `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`).toBeGreaterThanOrEqual(200);
    expect(res.status, `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`).toBeLessThan(300);
    return res.body;
  };

  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { call, ok, close, base };
};
export type SpecClient = Awaited<ReturnType<typeof startSpecServer>>;

/** A multipart form as the spec's client builds it. */
export const formOf = (fields: Record<string, string | File | (string | File)[]>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  return form;
};

export const pngFile = (name = "logo.png") =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])], name, { type: "image/png" });
export const pdfFile = (name = "tabela.pdf") => new File([new TextEncoder().encode("%PDF-1.4\n%fake\n")], name, { type: "application/pdf" });

/** Keys every item of a list answer must carry. */
export const expectKeys = (item: unknown, keys: string[], what: string) => {
  expect(item, what).toBeTypeOf("object");
  for (const k of keys) expect(item as Record<string, unknown>, `${what} lacks ${k}`).toHaveProperty(k);
};
