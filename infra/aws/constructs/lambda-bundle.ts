import { build } from "esbuild";
import { join } from "node:path";
import { repoPath } from "./repo-paths";

/**
 * The esbuild settings of every Lambda (AtendeFunction passes these to NodejsFunction), in one place so the
 * bundle test and the bench (bench/lambda-bundles.bench.ts) measure exactly what is deployed.
 */
export const LAMBDA_BUNDLING = {
  target: "node22",
  mainFields: ["module", "main"],
  minify: true,
  // Bundled CommonJS dependencies may call require() for Node built-ins; ESM has no require of its own.
  banner: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);",
  /** the Node 22 runtime provides the AWS SDK v3 (NodejsFunction's default for Node 18+) */
  external: ["@aws-sdk/*"],
} as const;

export type HandlerBundle = {
  name: string;
  bytes: number;
  /** the bundled file (written only when `outdir` was given) */
  file?: string;
  /** bytes in the bundle per npm package (`pkg`) or per source folder (`functions/src/features/inbox`, ...) */
  parts: Record<string, number>;
  /** every bundled input path (repo-relative, or node_modules/...) */
  inputs: string[];
};

const partOf = (path: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  const segments = path.split("/");
  return segments.slice(0, segments[0] === "shared" ? 3 : 4).join("/");
};

/**
 * Bundles functions/src/handlers/<name>.ts as AtendeFunction does (ESM, minified). `root` is the repository to
 * bundle from (another checkout measures a "before"); `outdir` writes the bundle as <name>.mjs there.
 */
export const bundleHandler = async (name: string, opts: { root?: string; outdir?: string } = {}): Promise<HandlerBundle> => {
  const root = opts.root ?? repoPath();
  const result = await build({
    entryPoints: [join(root, "functions", "src", "handlers", `${name}.ts`)],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "esm",
    target: LAMBDA_BUNDLING.target,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    minify: LAMBDA_BUNDLING.minify,
    external: [...LAMBDA_BUNDLING.external],
    banner: { js: LAMBDA_BUNDLING.banner },
    metafile: true,
    logLevel: "silent",
    ...(opts.outdir ? { outfile: join(opts.outdir, `${name}.mjs`), write: true } : { write: false, outdir: join(root, ".bundle-unused") }),
  });
  const [outPath, output] = Object.entries(result.metafile.outputs).find(([p]) => p.endsWith(".js") || p.endsWith(".mjs"))!;
  const parts: Record<string, number> = {};
  for (const [path, input] of Object.entries(output.inputs)) parts[partOf(path)] = (parts[partOf(path)] ?? 0) + input.bytesInOutput;
  return { name, bytes: output.bytes, file: opts.outdir ? join(root, outPath) : undefined, parts, inputs: Object.keys(output.inputs) };
};
