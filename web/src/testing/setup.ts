import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, expect, vi } from "vitest";
import { loadAllTranslations, translationsReady } from "../lib/i18n";
import { clearSession } from "../lib/session-storage";
import { clearToasts } from "../lib/toast";
import { mockFetch, unhandledRequests } from "./fetch-mock";

// components render with every namespace (the app loads those past the login page with the layout)
await Promise.all([translationsReady, loadAllTranslations()]);

// findBy*/waitFor wait up to 5 s (default 1 s): a page that renders after a debounce and a fetch on a loaded
// 2-core CI machine must not fail for being slow; what it must show is asserted all the same.
configure({ asyncUtilTimeout: 5_000 });

// No test reaches the network: a request the test did not stub answers 599 and fails the test.
beforeEach(() => {
  mockFetch({});
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  clearSession(); // the session lives in memory: one test's login must not leak into the next
  clearToasts();
  vi.unstubAllGlobals();
  const unhandled = unhandledRequests.splice(0);
  expect(unhandled, "requests no test handler answered").toEqual([]);
});
