import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeReadmeSummary } from "./readme-summary";

/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) one after another.
 * Each exports `default async function (): Promise<Record<string, unknown>>` and returns its figures;
 * they are written to bench/results/<name>.json with the machine they were measured on.
 */
const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const all = readdirSync(dir).filter((f) => f.endsWith(".bench.ts"));
// a name that is a bench's whole name runs that one only (`flows` is not also `bots-flows`); else any that contains it
const exact = all.filter((f) => only.some((o) => f === `${o}.bench.ts`));
const files = (exact.length ? exact : all.filter((f) => only.length === 0 || only.some((o) => f.includes(o)))).sort();

const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
mkdirSync(join(dir, "results"), { recursive: true });

for (const file of files) {
  const name = basename(file, ".bench.ts");
  console.log(`== bench ${name}`);
  const started = Date.now();
  const mod = (await import(join(dir, file))) as { default: () => Promise<Record<string, unknown>> };
  const figures = await mod.default();
  const result = { name, measuredAt: new Date().toISOString(), durationSeconds: Math.round((Date.now() - started) / 1000), machine, figures };
  writeFileSync(join(dir, "results", `${name}.json`), JSON.stringify(result, null, 2) + "\n");
  console.log(JSON.stringify(figures, null, 2));
}
// the README's benchmark section follows the results (issue 15 item 5)
writeReadmeSummary(join(dir, "results"), join(dir, "..", "README.md"));
process.exit(0);
