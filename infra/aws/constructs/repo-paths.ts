import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo root (infra/aws/constructs -> ../../..): bundling, the Docker build and the web build start here. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export const repoPath = (...segments: string[]) => join(REPO_ROOT, ...segments);

/** A Lambda entry point under functions/src/handlers. */
export const handlerEntry = (name: string) => repoPath("functions", "src", "handlers", `${name}.ts`);

/** The optional `jobs` queue consumer: wired only once its handler file exists. */
export const jobsHandlerEntryIfPresent = (): string | undefined => {
  const entry = handlerEntry("jobs");
  return existsSync(entry) ? entry : undefined;
};

/** The built web app, when `npm run build -w web` has produced it. */
export const webDistIfBuilt = (): string | undefined => {
  const dir = repoPath("web", "dist");
  return existsSync(join(dir, "index.html")) ? dir : undefined;
};
