import { describe, expect, it } from "vitest";
import { createPublicUrlGuard, isPrivateAddress } from "./public-url-guard";

describe("public URL guard", () => {
  it("tells private, loopback, link-local and special addresses from public ones", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.10", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "not-an-ip"])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ["8.8.8.8", "172.32.0.1", "200.147.67.142", "2804:14c::1", "::ffff:8.8.8.8"]) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it("refuses URLs whose host is or resolves to a private address; allows everything when told to", async () => {
    const lookup = async (host: string) => (host === "interno.exemplo.com" ? [{ address: "8.8.8.8" }, { address: "10.0.0.5" }] : [{ address: "200.147.67.142" }]);
    const guard = createPublicUrlGuard({ allowPrivate: false, lookup });
    await expect(guard("https://n8n.exemplo.com.br/webhook/1")).resolves.toBeUndefined();
    await expect(guard("http://127.0.0.1:9001/2018-06-01/runtime/invocation/next")).rejects.toThrow(/not a public address/);
    await expect(guard("http://[::1]/x")).rejects.toThrow(/not a public address/);
    await expect(guard("http://localhost:8080/x")).rejects.toThrow(/not a public address/);
    await expect(guard("https://interno.exemplo.com/hook")).rejects.toThrow(/resolves to 10\.0\.0\.5/);
    await expect(guard("ftp://exemplo.com/x")).rejects.toThrow(/only http/);
    const local = createPublicUrlGuard({ allowPrivate: true, lookup });
    await expect(local("http://127.0.0.1:8080/simulator/typebot")).resolves.toBeUndefined();
    await expect(local("file:///etc/passwd")).rejects.toThrow(/only http/);
  });
});
