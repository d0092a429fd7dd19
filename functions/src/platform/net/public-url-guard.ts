import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Outbound calls to addresses an admin typed (bot flows: Typebot, n8n, webhooks) must not reach our own side of the
 * network: loopback (in Lambda, the runtime API listens on 127.0.0.1), private ranges, link-local (metadata
 * services), carrier-grade NAT, multicast. The guard resolves the host and refuses the URL when any address is one
 * of those. The local platform allows them (its stand-ins live on 127.0.0.1). A host that changes its answer between
 * this look-up and the connection (DNS rebinding) is not caught; redirects are never followed by the callers.
 */
export class PrivateUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrivateUrlError";
  }
}

const v4Private = (ip: string) => {
  const [a = 0, b = 0] = ip.split(".").map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
};

/** Whether an IP address (v4 or v6) is loopback, private, link-local, unspecified or otherwise not on the internet. */
export const isPrivateAddress = (ip: string): boolean => {
  const kind = isIP(ip);
  if (kind === 4) return v4Private(ip);
  if (kind !== 6) return true;
  const low = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(low)?.[1];
  if (mapped) return v4Private(mapped);
  return low === "::1" || low === "::" || /^f[cd]/.test(low) || /^fe[89ab]/.test(low) || /^ff/.test(low);
};

export type UrlGuard = (url: string) => Promise<void>;

export const createPublicUrlGuard = (opts: { allowPrivate: boolean; lookup?: (host: string) => Promise<{ address: string }[]> }): UrlGuard => {
  const resolveAll = opts.lookup ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));
  return async (url) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new PrivateUrlError(`not a URL: ${url.slice(0, 100)}`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new PrivateUrlError(`only http(s) URLs are called (${u.protocol})`);
    if (opts.allowPrivate) return;
    const host = u.hostname.replace(/^\[|\]$/g, "");
    if (host === "localhost" || host.endsWith(".localhost")) throw new PrivateUrlError(`${host} is not a public address`);
    const addresses = isIP(host) ? [host] : (await resolveAll(host).catch(() => [] as { address: string }[])).map((a) => a.address);
    if (addresses.length === 0) return; // unresolvable: the call itself fails (transient)
    const bad = addresses.find(isPrivateAddress);
    if (bad) throw new PrivateUrlError(`${host} resolves to ${bad}, not a public address`);
  };
};
