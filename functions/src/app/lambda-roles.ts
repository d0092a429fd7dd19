/**
 * What each Lambda builds and carries (docs/adr/0038-per-lambda-composition.md). The handler files in
 * functions/src/handlers/ do what this table says; `functions/src/handlers/lambda-bundles.test.ts` bundles each
 * one with esbuild and fails when a bundle carries a heavy package its role does not list (or misses one it
 * lists), and bench/lambda-bundles.bench.ts measures sizes and init times from the same table.
 *
 * - `root`: `container` = the whole composition root (container.ts: every module's routes, inbound handlers, jobs and
 *   tick jobs); `ws-root` = the sockets only (ws-root.ts); `own` = the handler wires its few parts itself.
 * - `heavy`: the optional ports of container.ts (`Overrides`) whose adapters pull a large library, passed by the
 *   handlers that run the code needing them; the others get a stand-in that refuses loudly.
 */
export const HEAVY_PORTS = {
  /** SheetJS (@e965/xlsx, ~0.5 MB minified): contact uploads, contact-list imports, the sample spreadsheet */
  spreadsheets: "@e965/xlsx",
  /** the `openai` package (~0.15 MB): the AI prompt bot's turns (the `bots.turn` job) */
  promptEngine: "openai",
  /** the `openai` package again: the attendants' copilot (issue 33), asked by the API and run by jobs (transcripts) */
  copilotProvider: "openai",
} as const;
export type HeavyPort = keyof typeof HEAVY_PORTS;

export type LambdaRole = { root: "container" | "ws-root" | "own"; heavy: readonly HeavyPort[] };

export const LAMBDA_ROLES = {
  /** the HTTP API: every route; uploads read spreadsheets; bot turns are only queued (jobs runs them) */
  api: { root: "container", heavy: ["spreadsheets", "copilotProvider"] },
  /** $connect/$default/$disconnect: token check, rooms, presence */
  ws: { root: "ws-root", heavy: [] },
  /** the minute tick: every module's tick jobs (ticket timers, schedules, campaigns, invoices, LGPD, templates) */
  tick: { root: "container", heavy: [] },
  /** inbound.fifo: every module's inbound handlers (the inbox, connections, contact lists, campaigns, LGPD, Cloud API) */
  inbound: { root: "container", heavy: [] },
  /** the jobs queue: every module's jobs, bot turns among them */
  jobs: { root: "container", heavy: ["promptEngine", "copilotProvider"] },
  /** Meta's webhook: verify and enqueue (handlers/cloud-api-webhook.ts) */
  "cloud-api-webhook": { root: "own", heavy: [] },
  /** Messenger / Instagram webhook: verify and enqueue (handlers/meta-webhook.ts, docs/adr/0090) */
  "meta-webhook": { root: "own", heavy: [] },
  /** Telegram's webhook: secret token, files, enqueue (handlers/telegram-webhook.ts, docs/adr/0088) */
  "telegram-webhook": { root: "own", heavy: [] },
} as const satisfies Record<string, LambdaRole>;
export type LambdaName = keyof typeof LAMBDA_ROLES;
