// Lint with import boundaries (STYLE.md "Boundaries as lint rules"):
// shared imports nothing of ours; functions, session-host and web meet only through shared;
// a feature never reaches into another feature's repository, types included (docs/adr/0024-feature-modules.md).
import tseslint from "typescript-eslint";
import webBoundaries from "./eslint-rules/web-boundaries.js";

// kebab-case file names with dotted role suffixes (contacts.service.ts, inbox-directory.ts, 0001-x.md is not linted)
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;
// the stand-ins' home (issue 35): functions and session-host never import it
const STAND_IN = /(^|\/)(infra\/local|stand-ins)(\/|$)|^@atende\/infra(\/|$)/;
const house = {
  rules: {
    "kebab-case-files": {
      meta: { type: "suggestion", schema: [] },
      create: (context) => ({
        Program(node) {
          const base = context.filename.split(/[\\/]/).pop() ?? "";
          const stem = base.replace(/\.(ts|tsx|js|mjs|cjs)$/, "");
          if (!KEBAB.test(stem)) context.report({ node, message: `file name "${base}" is not kebab-case (STYLE.md)` });
        },
      }),
    },
    "no-stand-in-imports": {
      meta: { type: "problem", schema: [] },
      create: (context) => {
        const check = (node) => {
          const source = node.source?.value;
          if (typeof source === "string" && STAND_IN.test(source))
            context.report({ node, message: `"${source}": a stand-in is reached over the wire (its URL), never imported (docs/adr/0073)` });
        };
        return { ImportDeclaration: check, ImportExpression: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
      },
    },
  },
};

// a pattern list may end with `{ typesOnly: true }`: those imports are allowed as `import type` only
// stand-ins of outside services (ADR 0079): local-only, under infra/local/src/stand-ins/<service>/; production code
// (functions, session-host) never imports one, so no Lambda bundle or host image carries them
const standIns = [["**/stand-ins/**", "**/infra/local/**", "@atende/infra/*"], "stand-ins live in infra/local/src/stand-ins (ADR 0079): production code never imports one"];
const noImport = (...groups) => ({ patterns: groups.map(([group, message, opts]) => ({ group, message, ...(opts?.typesOnly ? { allowTypeImports: true } : {}) })) });

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
    // shared's Node-only folder (docs/adr/0054): its own TypeScript project, which the web does not reference
    files: ["shared/src/node/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport([["@atende/functions/*", "@atende/session-host/*", "@atende/web/*", "@atende/infra/*"], "shared imports nothing of ours"]),
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
          standIns,
          [["../*/*.repository"], "call the other feature's service (or a port it publishes), not its repository"],
        ),
      ],
    },
  },
  {
    // features: no other feature's repository (types included); nothing of app/ (the composition root): the module
    // contract (FeatureModule, Guards, handler shapes) is platform/modules/feature-module.ts
    // (tests and their fixtures drive the whole app through app/: exempt from the app/ rule)
    files: ["functions/src/features/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.fixtures.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport(
          [["@atende/session-host/*", "@atende/web/*", "**/session-host/**", "**/web/**"], "functions meet other deployables only through shared"],
          standIns,
          [["../*/*.repository", "../../*/*.repository"], "call the other feature's service (or a port it publishes), not its repository"],
          [["**/app/*"], "a feature imports nothing of app/ (the composition root): it is handed its dependencies"],
        ),
      ],
    },
  },
  {
    // the inbox's parts (docs/adr/0023-inbox-feature.md) share their repositories inside the feature; other
    // features' repositories are refused by the inbox blocks below (types included)
    files: ["functions/src/features/inbox/*/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.fixtures.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport(
          [["@atende/session-host/*", "@atende/web/*", "**/session-host/**", "**/web/**"], "functions meet other deployables only through shared"],
          standIns,
          [["**/app/*"], "a feature imports nothing of app/ (the composition root): it is handed its dependencies"],
        ),
      ],
    },
  },
  {
    // the composition root is functions/src/app; platform keeps ports and adapters only (docs/adr/0019-functions-shape.md)
    files: ["functions/src/platform/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport(
          [["@atende/session-host/*", "@atende/web/*", "**/session-host/**", "**/web/**"], "functions meet other deployables only through shared"],
          standIns,
          [["**/features/**", "**/app/**"], "platform keeps ports and adapters: it imports no feature and no app code"],
        ),
      ],
    },
  },
  {
    // no import circles in functions (value imports; the same rule as web, eslint-rules/web-boundaries.js)
    files: ["functions/src/**/*.ts"],
    plugins: { house, "web-boundaries": webBoundaries },
    rules: {
      "web-boundaries/no-cycle": "error",
      "house/kebab-case-files": "error",
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read configuration through platform/config.ts (loadConfig)" }],
    },
  },
  {
    // config.ts only (the Lambda runtime's own variables too: lambdaRuntime()); tests set up their own environment
    files: ["functions/src/platform/config.ts", "functions/src/testing/**", "functions/src/**/*.test.ts"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // the inbox is one feature (docs/adr/0023-inbox-feature.md): the rest of functions/ uses the files at its root
    // (inbox.module.ts, inbox.service.ts, inbox-ports.ts, message-ids.ts), never its parts
    files: ["functions/src/features/**/*.ts", "functions/src/app/**/*.ts"],
    ignores: ["functions/src/features/inbox/**", "**/*.test.ts", "**/testing/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["**/inbox/*/*"], message: "use the inbox through its facade (features/inbox/inbox.service.ts) or its module" }] }] },
  },
  {
    // inside the inbox, its parts share their repositories; other features' repositories are not read, types
    // included (what the inbox needs of them is declared in inbox-ports.ts, the one file naming their record types)
    files: ["functions/src/features/inbox/*/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["../../*/*.repository"], message: "read other features through inbox-ports.ts (InboxReads)" }] }] },
  },
  {
    files: ["functions/src/features/inbox/*.ts"],
    ignores: ["**/*.test.ts", "functions/src/features/inbox/inbox-ports.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["../*/*.repository"], message: "read other features through inbox-ports.ts (InboxReads)" }] }] },
  },
  {
    files: ["session-host/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        noImport([["@atende/functions/*", "@atende/web/*", "**/functions/src/**", "**/web/src/**"], "session-host meets functions only through shared contracts"], standIns),
      ],
    },
  },
  {
    // the stand-ins of outside services (infra/local/src/stand-ins/<service>, issue 35) are local only: production
    // code and its tests talk to them over HTTP/WebSocket as to the real service, never by import (docs/adr/0073)
    files: ["functions/src/**/*.ts", "session-host/src/**/*.ts"],
    plugins: { house },
    rules: { "house/no-stand-in-imports": "error" },
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
      // query keys only through their factories (ADR 0025): `queryKey: [...]` is written nowhere but in a factory
      "no-restricted-syntax": [
        "error",
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: "Build the query key with its factory (lib/query-keys.ts or the feature's api `...Keys`), not an array literal.",
        },
      ],
    },
  },
  {
    // zod as a namespace import: `import { z }` makes esbuild keep all of zod (its ~40 locales, ~350 kB minified)
    // in every Lambda bundle; `import * as z` lets it drop what is unused (docs/adr/0038-per-lambda-composition.md)
    files: ["{shared,functions,session-host,infra,local-sqs}/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: 'Write `import * as z from "zod"` (a named `z` import bundles all of zod into every Lambda).',
        },
      ],
    },
  },
  {
    // no source file over 500 lines (issue 35; tests and fixtures aside): counted as `wc -l` counts, so the warning
    // and the handbook's rule agree
    files: ["**/*.{ts,tsx,js}"],
    ignores: ["**/*.test.{ts,tsx}", "**/*.e2e.ts", "**/*.fixtures.ts", "**/testing/**", "e2e/support/**"],
    rules: { "max-lines": ["warn", { max: 500, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ["**/*.test.ts", "**/*.int.test.ts", "**/testing/**", "e2e/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
