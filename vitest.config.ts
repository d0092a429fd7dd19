import { defineConfig } from "vitest/config";

/**
 * Four projects:
 * - unit: pure rules, services with in-memory fakes, CDK assertions, the benches' statistics;
 * - web: the web app's components (jsdom);
 * - int: handlers and repositories against DynamoDB Local (-inMemory), one JVM for the run;
 * - e2e: headless Chromium against the started local platform (scripts/e2e.sh).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["{shared,functions,session-host,infra,local-sqs,bench}/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        extends: "./web/vite.config.ts",
        test: {
          name: "web",
          root: "./web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["./src/testing/setup.ts"],
        },
      },
      {
        test: {
          name: "int",
          include: ["{functions,session-host,infra,local-sqs}/**/*.int.test.ts"],
          globalSetup: ["./infra/local/src/testing/dynamo-global-setup.ts"],
          // every realtime frame a test file sent matched its event's payload schema (ADR 0068)
          setupFiles: ["./functions/src/testing/realtime-payloads.setup.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.ts"],
          globalSetup: ["./e2e/support/global-setup.ts"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
