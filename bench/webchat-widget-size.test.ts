import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { describe, expect, it } from "vitest";

/** The website chat widget's build (docs/adr/0092): small (≤ 30 kB gz), no React, no HTML parsing of anyone's words. */
describe("the webchat widget bundle", () => {
  it("builds to a versioned file ≤ 30 kB gzipped, with a tiny loader, and never sets innerHTML", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "webchat-"));
    const root = resolve(__dirname, "../web");
    await build({ root, configFile: join(root, "vite.webchat.config.ts"), logLevel: "silent", build: { outDir } });
    const files = readdirSync(outDir);
    const versioned = files.find((f) => /^webchat\.[0-9a-f]{10}\.js$/.test(f))!;
    expect(versioned).toBeDefined();
    const loader = readFileSync(join(outDir, "webchat.js"), "utf8");
    expect(loader).toContain(versioned);
    expect(loader.length).toBeLessThan(400);
    const code = readFileSync(join(outDir, versioned));
    const gz = gzipSync(code).byteLength;
    console.log(`webchat widget: ${code.byteLength} B, ${gz} B gz`);
    expect(gz).toBeLessThanOrEqual(30 * 1024);
    const text = code.toString("utf8");
    expect(text).not.toMatch(/innerHTML|insertAdjacentHTML|outerHTML|document\.write|react/i);
  });
});
