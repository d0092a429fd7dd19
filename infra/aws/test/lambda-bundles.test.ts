import { describe, expect, it } from "vitest";
import { HEAVY_PORTS, LAMBDA_ROLES, type LambdaName } from "@atende/functions/app/lambda-roles";
import { bundleHandler } from "../constructs/lambda-bundle";

/**
 * Issue 16 item 4, ADR 0038: each Lambda carries what it runs. Bundles every handler exactly as AtendeFunction
 * does and checks it against functions/src/app/lambda-roles.ts.
 */
const names = Object.keys(LAMBDA_ROLES) as LambdaName[];
// two ports may share a package (the prompt engine and the copilot both use `openai`)
const heavyPackages = [...new Set<string>(Object.values(HEAVY_PORTS))];
const bundles = new Map<LambdaName, ReturnType<typeof bundleHandler>>();
const bundleOf = (name: LambdaName) => bundles.get(name) ?? bundles.set(name, bundleHandler(name)).get(name)!;

describe.each(names)("the %s Lambda's bundle", (name) => {
  const bundle = bundleOf(name);

  it("carries the heavy packages its role lists, and no other", async () => {
    const { parts } = await bundle;
    const carried = heavyPackages.filter((pkg) => (parts[pkg] ?? 0) > 0).sort();
    expect(carried).toEqual([...new Set<string>(LAMBDA_ROLES[name].heavy.map((port) => HEAVY_PORTS[port]))].sort());
  });

  it("keeps only zod's default (English) locale: zod is imported as a namespace everywhere", async () => {
    const { inputs } = await bundle;
    const locales = inputs.filter((p) => /node_modules\/zod\/.*\/locales\/(?!en\.js)/.test(p));
    expect(locales).toEqual([]);
  });

  it("builds the composition its role names", async () => {
    const { inputs } = await bundle;
    const has = (path: string) => inputs.some((p) => p.endsWith(path));
    const root = LAMBDA_ROLES[name].root;
    expect(has("functions/src/app/container.ts"), "container.ts").toBe(root === "container");
    expect(has("functions/src/app/ws-root.ts"), "ws-root.ts").toBe(root === "ws-root");
    // the whole inbox only where the container is built
    expect(has("functions/src/features/inbox/inbox.module.ts"), "inbox").toBe(root === "container");
  });
});

describe("bundle sizes", () => {
  it("the WebSocket and webhook Lambdas stay small; queue and tick Lambdas carry no HTTP upload library", async () => {
    const sizes = Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await bundleOf(n)).bytes] as const))) as Record<LambdaName, number>;
    // generous ceilings (about twice today's sizes, bench/README.md): they catch a whole library slipping back in
    expect(sizes.ws).toBeLessThan(600_000);
    expect(sizes["cloud-api-webhook"]).toBeLessThan(600_000);
    // the Telegram webhook also downloads files: it carries the S3 client and the outbound guard (~0.9 MB today)
    expect(sizes["telegram-webhook"]).toBeLessThan(1_800_000);
    expect(sizes.tick).toBeLessThan(sizes.api);
    expect(sizes.inbound).toBeLessThan(sizes.api);
  });
});
