import type { LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import { AppError } from "../errors";
import { isIpLiteral, isMetadataAddress, isPublicAddress } from "./address-policy";
import { createPublicUrlGuard, isLocalhostName, parseOutboundUrl, PrivateUrlError, resolveAllAddresses, type ResolveAll, type UrlGuard } from "./public-url-guard";

/**
 * THE outbound guard (docs/adr/0062): every call to a URL a company typed or a provider answered (Graph API and its
 * media and paging URLs, AI and speech endpoints, DialogFlow, Typebot, n8n, webhooks, bot media, the payment
 * provider; later push endpoints, the copilot and a flow's HTTP node) goes through `outbound.fetch`, a drop-in
 * `fetch` (also the `fetch` option of the `openai` client). With the guard on:
 * - the host is resolved ONCE per connection, inside the connection (undici's connector with a checking `lookup`):
 *   every address it answers must be public (address-policy.ts), and the socket connects to those same addresses,
 *   so a name that answers public to a first look-up and private to the next (DNS rebinding) is still refused;
 *   an IP literal is checked by the connector before it connects;
 * - redirects are followed by hand, at most MAX_REDIRECTS, each hop going through the same checks (and losing its
 *   Authorization/Cookie when it leaves the origin);
 * - answers are capped while streamed (`maxBodyBytes`, default OUTBOUND_MAX_BODY_BYTES), and every call has a
 *   time limit (`timeoutMs`, default OUTBOUND_TIMEOUT_MS) besides the caller's own signal.
 * With the guard off (the local platform, whose stand-ins live on 127.0.0.1) only the address check is skipped.
 */
export const OUTBOUND_MAX_BODY_BYTES = 16 * 1024 * 1024;
export const OUTBOUND_TIMEOUT_MS = 60_000;
export const MAX_REDIRECTS = 3;
const CONNECT_TIMEOUT_MS = 10_000;

export class OutboundBodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is over ${maxBytes} bytes`);
    this.name = "OutboundBodyTooLargeError";
  }
}

/** `fetch`'s own options plus the guard's per-call limits (plain `fetch` callers never set them). */
export type OutboundInit = RequestInit & { maxBodyBytes?: number; timeoutMs?: number };
export type OutboundFetch = (input: string | URL | Request, init?: OutboundInit) => Promise<Response>;

export type Outbound = {
  /** whether the address check is on (OUTBOUND_GUARD) */
  on: boolean;
  /** the guarded fetch: every outbound call to a URL from outside goes through it */
  fetch: OutboundFetch;
  /** an early check of a URL (clear reason before anything is sent); the fetch checks again at connection time */
  guard: UrlGuard;
  /** a `lookup` for node:http(s) requests (the payment adapter): resolves once, checks, connects to what it checked */
  lookup: LookupFunction;
  /** the save-time check of an integration, prompt or connection URL: ERR_URL_NOT_ALLOWED when refused */
  checkSavedUrl: (url: string) => Promise<void>;
};

export type OutboundOptions = {
  on: boolean;
  /** tests: the resolver (default: the system's, every address) and which addresses pass (default: public only) */
  resolveAll?: ResolveAll;
  allowAddress?: (ip: string) => boolean;
  maxBodyBytes?: number;
  timeoutMs?: number;
  /** how long a save-time look-up may take before the URL is judged on its form alone */
  saveLookupTimeoutMs?: number;
};

/** A net/tls `lookup` that resolves all addresses once, refuses the host if any is not allowed, and answers them. */
export const createCheckedLookup = (opts: { on: boolean; resolveAll: ResolveAll; allowAddress: (ip: string) => boolean }): LookupFunction =>
  ((hostname: string, options: { all?: boolean; family?: number | string }, callback: (err: Error | null, address?: unknown, family?: number) => void) => {
    opts
      .resolveAll(hostname)
      .then((answered) => {
        const addresses = answered.map((a) => ({ address: a.address, family: a.family ?? (a.address.includes(":") ? 6 : 4) }));
        if (addresses.length === 0) throw Object.assign(new Error(`${hostname} did not resolve`), { code: "ENOTFOUND" });
        const bad = opts.on ? addresses.find((a) => !opts.allowAddress(a.address)) : undefined;
        if (bad) throw new PrivateUrlError(`${hostname} resolves to ${bad.address}, not a public address`);
        const family = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (usable.length === 0) throw Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: "ENOTFOUND" });
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      })
      .catch((err: Error) => callback(err));
  }) as unknown as LookupFunction;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** The refusal inside fetch's "fetch failed" TypeError, when the guard was the cause. */
const refusalIn = (err: unknown): Error | undefined => {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof PrivateUrlError || e instanceof OutboundBodyTooLargeError) return e;
  return undefined;
};

/** The answer with its body counted while read: over `max` bytes, reading fails with OutboundBodyTooLargeError. */
export const capBody = async (res: Response, max: number): Promise<Response> => {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new OutboundBodyTooLargeError(max);
  }
  if (!res.body || NULL_BODY.has(res.status)) return res;
  let seen = 0;
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        seen += chunk.byteLength;
        if (seen > max) ctl.error(new OutboundBodyTooLargeError(max));
        else ctl.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
};

export const createOutbound = (opts: OutboundOptions): Outbound => {
  const resolveAll = opts.resolveAll ?? resolveAllAddresses;
  const allowAddress = opts.allowAddress ?? isPublicAddress;
  const lookup = createCheckedLookup({ on: opts.on, resolveAll, allowAddress });
  const base = buildConnector({ timeout: CONNECT_TIMEOUT_MS, lookup } as buildConnector.BuildOptions);
  const agent = new Agent({
    headersTimeout: OUTBOUND_TIMEOUT_MS,
    bodyTimeout: OUTBOUND_TIMEOUT_MS,
    connect: (options, callback) => {
      // an IP literal never reaches `lookup`: the connector checks it before connecting
      const host = options.hostname.replace(/^\[|\]$/g, "");
      if (opts.on && isIpLiteral(host) && !allowAddress(host)) return callback(new PrivateUrlError(`${host} is not a public address`), null);
      return base(options, callback);
    },
  });

  /** What can be told before connecting: the URL's form, and with the guard on, localhost names and IP literals. */
  const precheck = (url: URL | string) => {
    const { url: u, host } = parseOutboundUrl(url);
    if (opts.on && (isLocalhostName(host) || (isIpLiteral(host) && !allowAddress(host)))) throw new PrivateUrlError(`${host} is not a public address`);
    return u;
  };

  const guardedFetch: OutboundFetch = async (input, init = {}) => {
    const req = input instanceof Request ? input : undefined;
    const { maxBodyBytes, timeoutMs, ...rest } = init;
    const max = maxBodyBytes ?? opts.maxBodyBytes ?? OUTBOUND_MAX_BODY_BYTES;
    const timeout = AbortSignal.timeout(timeoutMs ?? opts.timeoutMs ?? OUTBOUND_TIMEOUT_MS);
    const callerSignal = rest.signal ?? req?.signal;
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const follow = (rest.redirect ?? req?.redirect ?? "follow") === "follow";
    let url = precheck(req ? req.url : input instanceof URL ? input : String(input));
    let method = (rest.method ?? req?.method ?? "GET").toUpperCase();
    const headers = new Headers(rest.headers ?? req?.headers);
    let body = rest.body ?? (req?.body ? await req.arrayBuffer() : undefined);
    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        res = await fetch(url, { ...rest, method, headers, body, signal, redirect: "manual", dispatcher: agent } as unknown as RequestInit);
      } catch (err) {
        throw refusalIn(err) ?? err;
      }
      const location = res.headers.get("location");
      if (!follow || !REDIRECTS.has(res.status) || !location) return capBody(res, max);
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new PrivateUrlError(`more than ${MAX_REDIRECTS} redirects`);
      const next = precheck(new URL(location, url));
      if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        headers.delete("content-type");
        headers.delete("content-length");
      } else if (body instanceof ReadableStream) throw new PrivateUrlError("a redirect cannot resend a streamed body");
      url = next;
    }
  };

  const guard = createPublicUrlGuard({ allowPrivate: !opts.on, lookup: resolveAll, allowAddress });

  const checkSavedUrl = async (raw: string) => {
    if (!raw.trim()) return;
    let host: string;
    try {
      host = parseOutboundUrl(raw.trim()).host;
    } catch {
      throw new AppError("ERR_URL_NOT_ALLOWED");
    }
    if (opts.on && isLocalhostName(host)) throw new AppError("ERR_URL_NOT_ALLOWED");
    const within = opts.saveLookupTimeoutMs ?? 3000;
    const addresses = isIpLiteral(host)
      ? [host]
      : await Promise.race([
          resolveAll(host).then((a) => a.map((x) => x.address)).catch(() => [] as string[]),
          new Promise<string[]>((r) => setTimeout(() => r([]), within).unref()),
        ]);
    // the metadata services: refused whatever the switch says (no integration has a use for them)
    if (addresses.some(isMetadataAddress)) throw new AppError("ERR_URL_NOT_ALLOWED");
    if (opts.on && addresses.some((a) => !allowAddress(a))) throw new AppError("ERR_URL_NOT_ALLOWED");
  };

  return { on: opts.on, fetch: guardedFetch, guard, lookup, checkSavedUrl };
};
