import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";

export const ARTIFACTS = join(process.cwd(), "test-results", "e2e");

/** Debian's Chromium, headless, with the flags this closed network needs. */
export const launchBrowser = async (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });

export const baseUrl = () => inject("baseUrl");

/** A fresh browser context (own cookies and local storage) at the platform's origin. */
export const newContext = (browser: Browser, opts: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<BrowserContext> =>
  browser.newContext({ baseURL: baseUrl(), viewport: opts.viewport ?? { width: 1280, height: 800 }, locale: opts.locale ?? "pt-BR" });

export const screenshot = async (page: Page, name: string) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
};

/** Signs in through the login page and waits for the app shell. */
export const login = async (page: Page, email: string, password: string) => {
  await page.goto("/login");
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/senha|password|contraseña/i).fill(password);
  await page.getByRole("button", { name: /entrar|login|sign in|ingresar/i }).click();
};
