import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { LAMBDA_ROLES, type LambdaName } from "../functions/src/app/lambda-roles";
import { bundleHandler } from "../infra/aws/constructs/lambda-bundle";
import { repoPath } from "../infra/aws/constructs/repo-paths";

/**
 * Issue 16 item 4 (ADR 0038): each Lambda's bundle size and a cold-start estimate. Every handler is bundled exactly
 * as AtendeFunction deploys it (infra/aws/constructs/lambda-bundle.ts), written to a temporary folder, and loaded
 * in a fresh `node` process `BENCH_INIT_RUNS` times (default 7): the init time is a timer around
 * `await import(bundle)` plus the first construction of its composition root (at import for the container
 * handlers; for ws on its first event: one $disconnect whose table call fails at once), with the Lambda's Powertools
 * settings and fake AWS endpoints (nothing is called). `BENCH_BUNDLES_BEFORE=<checkout>` measures another
 * checkout the same way (a "before"; it needs its own node_modules/@atende links, see bench/README.md).
 */
const RUNS = Number(process.env.BENCH_INIT_RUNS ?? 7);

const lambdaEnv = (name: string): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  TABLE_NAME: "bench",
  AWS_REGION: "sa-east-1",
  AWS_ACCESS_KEY_ID: "bench",
  AWS_SECRET_ACCESS_KEY: "bench",
  AWS_MAX_ATTEMPTS: "1",
  // nothing listens there: a call fails at once (the ws "first event" of a checkout without init())
  DYNAMODB_ENDPOINT: "http://127.0.0.1:9",
  SQS_ENDPOINT: "http://127.0.0.1:9",
  QUEUE_URL_INBOUND: "http://127.0.0.1:9/000000000000/inbound.fifo",
  QUEUE_URL_OUTBOUND: "http://127.0.0.1:9/000000000000/outbound.fifo",
  QUEUE_URL_JOBS: "http://127.0.0.1:9/000000000000/jobs",
  WS_MANAGEMENT_ENDPOINT: "http://127.0.0.1:9/live",
  MEDIA_BUCKET: "bench-media",
  SECRETS_KMS_KEY_ID: "alias/bench",
  JWT_SECRET: "b".repeat(64),
  JWT_REFRESH_SECRET: "c".repeat(64),
  PAYMENTS_WEBHOOK_SECRET: "d".repeat(32),
  LOG_LEVEL: "warn",
  // as infra/aws sets them (atende-function.ts), so Powertools and the tracer initialise as in Lambda
  AWS_LAMBDA_FUNCTION_NAME: `bench-${name}`,
  POWERTOOLS_SERVICE_NAME: "atende",
  POWERTOOLS_METRICS_NAMESPACE: "Atende/bench",
  POWERTOOLS_LOGGER_SAMPLE_RATE: "0.01",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
});

// one cold process: import + first construction, in ms, and the heap after it
const probe = `
const t0 = performance.now();
const mod = await import(process.argv[1]);
// ws builds its root on the first event (in both checkouts): one $disconnect, whose table call fails at once
if (process.argv[2] === "ws") await Promise.resolve(mod.handler({ requestContext: { routeKey: "$disconnect", connectionId: "bench" } })).catch(() => {});
const initMs = performance.now() - t0;
console.log(JSON.stringify({ initMs, heapMb: process.memoryUsage().heapUsed / 2 ** 20 }));
process.exit(0);
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

type Run = { initMs: number; heapMb: number };
const summary = (bytes: number, parts: Record<string, number>, runs: Run[]) => ({
  bundleKb: round(bytes / 1000, 1),
  initMsMedian: round(median(runs.map((r) => r.initMs))),
  initMsMin: round(Math.min(...runs.map((r) => r.initMs))),
  initMsMax: round(Math.max(...runs.map((r) => r.initMs))),
  heapMb: round(median(runs.map((r) => r.heapMb)), 1),
  largestKb: Object.fromEntries(
    Object.entries(parts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => [k, round(v / 1000, 1)]),
  ),
});

/**
 * Bundles every handler of this checkout (and of `beforeRoot`), then loads them in turns (after, before, after ...)
 * so both see the same machine load.
 */
const measure = async (beforeRoot: string | undefined) => {
  // inside the repository's node_modules, so the bundles find the AWS SDK there (the Lambda runtime provides it)
  mkdirSync(join(repoPath(), "node_modules", ".cache"), { recursive: true });
  const outdir = mkdtempSync(join(repoPath(), "node_modules", ".cache", "atende-bundles-"));
  const after: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  try {
    for (const name of Object.keys(LAMBDA_ROLES) as LambdaName[]) {
      const now = await bundleHandler(name, { outdir: join(outdir, "after") });
      const then = beforeRoot ? await bundleHandler(name, { root: beforeRoot, outdir: join(outdir, "before") }) : undefined;
      const load = (file: string): Run => {
        const out = execFileSync(process.execPath, ["--enable-source-maps", "--input-type=module", "-e", probe, file, name], { env: lambdaEnv(name), encoding: "utf8" });
        return JSON.parse(out.trim().split("\n").pop()!) as Run;
      };
      const runsNow: Run[] = [];
      const runsThen: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        runsNow.push(load(now.file!));
        if (then) runsThen.push(load(then.file!));
      }
      after[name] = summary(now.bytes, now.parts, runsNow);
      if (then) before[name] = summary(then.bytes, then.parts, runsThen);
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  return { after, before: beforeRoot ? before : undefined };
};

export default async function lambdaBundles() {
  const loadAtStart = loadavg()[0] ?? 0;
  const { before, after } = await measure(process.env.BENCH_BUNDLES_BEFORE);
  return { runsPerHandler: RUNS, loadAverage1m: { atStart: round(loadAtStart, 1), atEnd: round(loadavg()[0] ?? 0, 1) }, ...(before ? { before } : {}), after };
}
