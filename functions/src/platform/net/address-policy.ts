import ipaddr from "ipaddr.js";

/**
 * Which IP addresses an outbound call may reach (docs/adr/0062). The ranges are ipaddr.js's (IANA's special-purpose
 * registries), not hand-written: only "unicast" (a public internet address) passes. Everything else is refused:
 * loopback, RFC 1918 private, link-local (169.254.0.0/16 with the cloud metadata service, fe80::/10), carrier-grade
 * NAT, unique-local (fc00::/7, with AWS's IPv6 metadata fd00:ec2::254), unspecified (0.0.0.0, ::), multicast,
 * broadcast, reserved and documentation ranges, and the IPv6 forms that carry an IPv4 address (IPv4-mapped,
 * NAT64, 6to4, Teredo), an IPv4-mapped one judged by the IPv4 address it carries.
 */
export type AddressClass = ReturnType<ipaddr.IPv4["range"]> | ReturnType<ipaddr.IPv6["range"]> | "invalid";

export const classifyAddress = (ip: string): AddressClass => {
  const bare = ip.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return "invalid";
  let addr: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(bare);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range();
};

/** Whether an outbound call may connect to this address: public unicast only. */
export const isPublicAddress = (ip: string): boolean => classifyAddress(ip) === "unicast";

/**
 * Link-local addresses (the cloud metadata services: 169.254.169.254, fd00:ec2::254, fe80::/10): no integration,
 * prompt or connection has a legitimate use for them, so a URL on them is refused at save whatever the switch says.
 */
export const isMetadataAddress = (ip: string): boolean => {
  const bare = ip.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return false;
  if (classifyAddress(bare) === "linkLocal") return true;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === "ipv6" && parsed.toNormalizedString() === ipaddr.parse("fd00:ec2::254").toNormalizedString();
};

/** Whether a string is an IP literal (v4 in any form WHATWG URL leaves, or v6 with or without brackets). */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ""));
