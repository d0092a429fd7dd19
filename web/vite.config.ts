import react from "@vitejs/plugin-react";
import { type Plugin, defineConfig } from "vite";

/**
 * The modules whose chunks (with everything they import statically) a page load runs before its first screen, with
 * the entry's: the login page, and the signed-in /tickets screen (layout and tickets page) where a sign-in lands.
 */
const FIRST_SCREEN_ENTRIES = ["src/features/auth/components/login-page.tsx", "src/app/layout/app-layout.tsx", "src/features/inbox/tickets/components/tickets-page.tsx"];

/**
 * V8's explicit compile hint (Chrome 136+; other engines read a comment): every function of a chunk marked
 * `//# allFunctionsCalledOnLoad` is compiled with the chunk, on a background thread and into the code cache, instead
 * of on the main thread the first time it is called — most functions of the first screen's chunks run before the
 * first card (issue 15 item 4, docs/adr/0052-first-card-off-the-critical-path.md). Other chunks stay lazily compiled.
 */
const compileHints = (): Plugin => ({
  name: "atende:first-screen-compile-hints",
  apply: "build",
  enforce: "post",
  generateBundle(_options, bundle) {
    const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === "chunk" ? [[file.fileName, file] as const] : [])));
    const marked = new Set<string>();
    const visit = (fileName: string) => {
      const chunk = chunks.get(fileName);
      if (!chunk || marked.has(fileName)) return;
      marked.add(fileName);
      chunk.imports.forEach(visit);
    };
    for (const chunk of chunks.values()) if (chunk.isEntry || FIRST_SCREEN_ENTRIES.some((entry) => chunk.facadeModuleId?.endsWith(entry))) visit(chunk.fileName);
    for (const fileName of marked) chunks.get(fileName)!.code = `//# allFunctionsCalledOnLoad\n${chunks.get(fileName)!.code}`;
  },
});

/**
 * The web app: built to web/dist (served by the local runner and CloudFront); `npm run dev -w web` proxies to a local platform on 8080.
 * The manifest (dist/.vite/manifest.json) lets e2e/first-screen.e2e.ts weigh the first screen's chunks (issue 15).
 */
export default defineConfig({
  plugins: [react(), compileHints()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500, manifest: true },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/config.json": "http://127.0.0.1:8080",
      "/ws": { target: "ws://127.0.0.1:8080", ws: true },
    },
  },
});
