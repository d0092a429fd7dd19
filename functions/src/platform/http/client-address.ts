import type { Context } from "hono";

/**
 * The client address the throttles key on (login, sign-up, password reset): the address the edge saw, never
 * a header the client can set. docs/security.md, docs/adr/0009-client-address-sessions-bodies.md.
 *
 * - Local (Node, @hono/node-server): the TCP socket's peer address (`c.env.incoming.socket`). No proxy sits in
 *   front of the local runner, so `x-forwarded-for` is the client's own words and is ignored.
 * - AWS (Lambda, hono/aws-lambda): CloudFront's `CloudFront-Viewer-Address`, but only on a request that carries
 *   the valid `x-origin-verify` secret (it came through our distribution, which sets that header itself);
 *   otherwise API Gateway's `requestContext.http.sourceIp` (the peer API Gateway saw).
 * - Anything else (no adapter env): "unknown".
 */
export const UNKNOWN_ADDRESS = "unknown";

/** What @hono/node-server passes as `c.env`. */
type NodeEnv = { incoming?: { socket?: { remoteAddress?: string } } };
/** What hono/aws-lambda passes as `c.env` (HTTP API v2 and REST v1 request contexts). */
type LambdaEnv = { requestContext?: { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } };

const asObject = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === "object" ? (v as Record<string, unknown>) : undefined);

/** The local adapter: the socket's peer address. */
export const nodeSocketAddress = (env: unknown): string | undefined => {
  const incoming = asObject(asObject(env)?.incoming) as NodeEnv["incoming"];
  return incoming?.socket?.remoteAddress || undefined;
};

/** The Lambda adapter: the peer API Gateway saw. */
export const lambdaSourceAddress = (env: unknown): string | undefined => {
  const ctx = asObject(asObject(env)?.requestContext) as LambdaEnv["requestContext"];
  return ctx?.http?.sourceIp || ctx?.identity?.sourceIp || undefined;
};

/** `CloudFront-Viewer-Address` is "ip:port" (IPv6 without brackets): the address without the port. */
export const parseViewerAddress = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  if (!v) return undefined;
  const cut = v.lastIndexOf(":");
  const ip = cut > 0 ? v.slice(0, cut) : v;
  return ip.replace(/^\[|\]$/g, "") || undefined;
};

const expandV6 = (ip: string): string[] | undefined => {
  const [head = "", tail, extra] = ip.split("::");
  if (extra !== undefined) return undefined;
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  if (tail === undefined && h.length !== 8) return undefined;
  const groups = [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t];
  return groups.length === 8 && groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups : undefined;
};

/**
 * One throttle key per client: IPv4 as is (an IPv4-mapped IPv6 address becomes IPv4); IPv6 by its /64 network,
 * since one customer line gets a whole /64 and could otherwise rotate addresses inside it.
 */
export const normalizeAddress = (ip: string | undefined): string => {
  if (!ip) return UNKNOWN_ADDRESS;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(ip)) return ip;
  const groups = expandV6(ip.split("%")[0]!);
  if (!groups) return UNKNOWN_ADDRESS;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
};

/**
 * The address of this request's client. `edgeVerified`: the request carried the valid `x-origin-verify` secret
 * (only then is CloudFront's viewer header believed).
 */
export const resolveClientAddress = (c: Context, edgeVerified: boolean): string => {
  const socket = nodeSocketAddress(c.env);
  if (socket) return normalizeAddress(socket);
  const viewer = edgeVerified ? parseViewerAddress(c.req.header("cloudfront-viewer-address")) : undefined;
  return normalizeAddress(viewer ?? lambdaSourceAddress(c.env));
};
