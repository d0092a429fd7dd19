import { lookup as dnsLookup } from "node:dns/promises";
import { isIpLiteral, isPublicAddress } from "./address-policy";

/**
 * The check of a URL before an outbound call (docs/adr/0062): http(s) only, and, with the guard on, a host that is
 * and resolves only to public addresses (address-policy.ts). It answers early and with a clear reason; the call
 * itself goes through the guarded fetch (outbound-fetch.ts), whose connection checks the address it connects to, so a
 * host that changes its answer after this look-up (DNS rebinding) is still refused.
 */
export class PrivateUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrivateUrlError";
  }
}
/** The same error under the name the outbound code uses: a call the guard refused. */
export { PrivateUrlError as OutboundRefusedError };

/** Whether an IP address (v4 or v6) is anything but a public unicast address (kept for callers; see address-policy). */
export const isPrivateAddress = (ip: string): boolean => !isPublicAddress(ip);

export type UrlGuard = (url: string) => Promise<void>;
export type ResolveAll = (host: string) => Promise<{ address: string; family?: number }[]>;

export const resolveAllAddresses: ResolveAll = (host) => dnsLookup(host, { all: true, verbatim: true });

export const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Parses and checks the URL's form (http/https only); answers it with its bare host name. */
export const parseOutboundUrl = (url: string | URL): { url: URL; host: string } => {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    throw new PrivateUrlError(`not a URL: ${String(url).slice(0, 100)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new PrivateUrlError(`only http(s) URLs are called (${u.protocol})`);
  return { url: u, host: u.hostname.replace(/^\[|\]$/g, "") };
};

export const createPublicUrlGuard = (opts: { allowPrivate: boolean; lookup?: ResolveAll; allowAddress?: (ip: string) => boolean }): UrlGuard => {
  const resolveAll = opts.lookup ?? resolveAllAddresses;
  const allowed = opts.allowAddress ?? isPublicAddress;
  return async (url) => {
    const { host } = parseOutboundUrl(url);
    if (opts.allowPrivate) return;
    if (isLocalhostName(host)) throw new PrivateUrlError(`${host} is not a public address`);
    const addresses = isIpLiteral(host) ? [host] : (await resolveAll(host).catch(() => [] as { address: string }[])).map((a) => a.address);
    if (addresses.length === 0) return; // unresolvable: the call itself fails (transient)
    const bad = addresses.find((a) => !allowed(a));
    if (bad) throw new PrivateUrlError(`${host}${bad === host ? "" : ` resolves to ${bad},`} is not a public address`);
  };
};
