import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The first screen's JavaScript (issue 15 item 4, ADR 0037), weighed from the build alone: the entry chunk of
 * index.html (the default language's first-screen translations are part of it, ADR 0052) and the login page's chunk,
 * with everything each imports statically (the browser fetches those along: modulepreload for the entry, Vite's preload for a
 * dynamic import), read from Vite's manifest, and the classic scripts index.html loads itself (public/, outside
 * the manifest: session-boot.js). Deterministic: same build, same figure. Bytes gzipped at level 9.
 */
export const FIRST_SCREEN_BUDGET_BYTES = 250_000;
export const FIRST_SCREEN_MODULES = ["index.html", "src/features/auth/components/login-page.tsx"];

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };

export const firstScreenFiles = (dist: string): string[] => {
  const manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the web build's manifest (renamed? update FIRST_SCREEN_MODULES)`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  FIRST_SCREEN_MODULES.forEach(visit);
  const html = readFileSync(join(dist, "index.html"), "utf8");
  for (const [, src] of html.matchAll(/<script(?![^>]*type="module")[^>]*\ssrc="\/([^"]+\.js)"/g)) files.add(src!);
  return [...files].filter((f) => f.endsWith(".js")).sort();
};

export const firstScreenWeight = (dist: string) => {
  const files = firstScreenFiles(dist).map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, rawBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
};
