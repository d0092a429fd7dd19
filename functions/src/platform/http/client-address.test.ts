import { describe, expect, it } from "vitest";
import { lambdaSourceAddress, nodeSocketAddress, normalizeAddress, parseViewerAddress } from "./client-address";

describe("client address helpers", () => {
  it("reads CloudFront-Viewer-Address without its port (IPv4 and bracketless IPv6)", () => {
    expect(parseViewerAddress("203.0.113.5:51234")).toBe("203.0.113.5");
    expect(parseViewerAddress("2001:db8::1:443")).toBe("2001:db8::1");
    expect(parseViewerAddress("")).toBeUndefined();
    expect(parseViewerAddress(undefined)).toBeUndefined();
  });
  it("keys IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64, garbage as unknown", () => {
    expect(normalizeAddress("203.0.113.5")).toBe("203.0.113.5");
    expect(normalizeAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeAddress("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("::1")).toBe("0:0:0:0::/64");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(normalizeAddress("1.2.3.4, 5.6.7.8")).toBe("unknown");
    expect(normalizeAddress("not an address")).toBe("unknown");
    expect(normalizeAddress(undefined)).toBe("unknown");
  });
  it("reads the Node socket and the Lambda request context, and nothing else", () => {
    expect(nodeSocketAddress({ incoming: { socket: { remoteAddress: "10.1.1.1" } } })).toBe("10.1.1.1");
    expect(nodeSocketAddress({ requestContext: {} })).toBeUndefined();
    expect(lambdaSourceAddress({ requestContext: { http: { sourceIp: "10.2.2.2" } } })).toBe("10.2.2.2");
    expect(lambdaSourceAddress({ requestContext: { identity: { sourceIp: "10.3.3.3" } } })).toBe("10.3.3.3");
    expect(lambdaSourceAddress(undefined)).toBeUndefined();
  });
});
