import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, expect, vi } from "vitest";
import "../lib/i18n";
import { unhandledRequests } from "./fetch-mock";

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  const unhandled = unhandledRequests.splice(0);
  expect(unhandled, "requests no test handler answered").toEqual([]);
});
