import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../infra/local/src/platform";
import { launchBrowser, newContext } from "./support/browser";
import { FIRST_SCREEN_BUDGET_BYTES, firstScreenFiles, firstScreenWeight } from "./support/first-screen";

/**
 * The web app's first screen stays small (issue 15 item 4, ADR 0037): the login page's JavaScript, weighed from the
 * build (deterministic, no timing), is within the budget, and a new visitor's browser loads no other script than
 * those weighed. The figures over time are in bench/web-first-screen.bench.ts.
 */
const DIST = join(REPO_ROOT, "web", "dist");
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("first screen", () => {
  it("the login page's JavaScript weighs at most 250 kB gzipped, without zod, the layout or other pages", () => {
    const weight = firstScreenWeight(DIST);
    const report = weight.files.map((f) => `${f.file} ${f.gzipBytes}`).join("\n");
    expect(weight.gzipBytes, `first screen ${weight.gzipBytes} B gzipped:\n${report}`).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_BYTES);
    const names = weight.files.map((f) => f.file).join(" ");
    for (const absent of ["zod", "schemas", "app-layout", "tickets-page", "dashboard", "qrcode"]) expect(names).not.toContain(absent);
  });

  it("a new visitor's browser fetches only the weighed scripts for /login", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const loaded = new Set<string>();
    page.on("request", (req) => {
      const path = new URL(req.url()).pathname;
      if (path.endsWith(".js")) loaded.add(path.replace(/^\//, ""));
    });
    await page.goto("/login");
    await page.getByLabel(/e-?mail/i).waitFor();
    await page.waitForLoadState("networkidle");
    const weighed = new Set(firstScreenFiles(DIST));
    expect([...loaded].filter((f) => !weighed.has(f))).toEqual([]);
    expect(loaded.size).toBeGreaterThan(0);
    await context.close();
  });
});
