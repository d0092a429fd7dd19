// Lint with import boundaries (STYLE.md "Boundaries as lint rules"):
// shared imports nothing of ours; functions, session-host and web meet only through shared;
// a feature never reaches into another feature's repository (type imports are fine).
import tseslint from "typescript-eslint";
import webBoundaries from "./eslint-rules/web-boundaries.js";

const noImport = (...groups) => ({ patterns: groups.map(([group, message]) => ({ group, message, allowTypeImports: group.some((g) => g.includes("repository")) })) });

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "cdk.out/**", ".tsbuild/**", ".data/**", "test-results/**", "**/*.d.ts"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["shared/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport([["@atende/functions/*", "@atende/session-host/*", "@atende/web/*", "@atende/infra/*"], "shared imports nothing of ours"], [["node:*"], "shared runs in the browser too: no Node APIs"]),
      ],
    },
  },
  {
    files: ["functions/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport(
          [["@atende/session-host/*", "@atende/web/*", "**/session-host/**", "**/web/**"], "functions meet other deployables only through shared"],
          [["../*/*.repository"], "call the other feature's service, not its repository"],
        ),
      ],
    },
  },
  {
    files: ["functions/src/features/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          ...noImport(
            [["@atende/session-host/*", "@atende/web/*"], "functions meet other deployables only through shared"],
            [["../*/*.repository"], "call the other feature's service, not its repository"],
          ),
        },
      ],
    },
  },
  {
    files: ["session-host/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport([["@atende/functions/*", "@atende/web/*", "**/functions/src/**", "**/web/src/**"], "session-host meets functions only through shared contracts"]),
      ],
    },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport([["@atende/functions/*", "@atende/session-host/*", "**/functions/src/**", "**/session-host/src/**"], "web meets the server only through shared contracts and HTTP"]),
      ],
    },
  },
  // web zones (ADR 0022): a feature imports components/, hooks/, lib/ and @atende/shared, never another
  // feature; no import circles; kebab-case file names. Kept in its own block (functions rules live above).
  {
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "web-boundaries": webBoundaries },
    rules: {
      "web-boundaries/zones": "error",
      "web-boundaries/no-cycle": "error",
      "web-boundaries/kebab-case": "error",
    },
  },
  {
    files: ["**/*.test.ts", "**/*.int.test.ts", "**/testing/**", "e2e/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
