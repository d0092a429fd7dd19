import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The web app: built to web/dist (served by the local runner and CloudFront); `npm run dev -w web` proxies to a local platform on 8080.
 * The manifest (dist/.vite/manifest.json) lets e2e/first-screen.e2e.ts weigh the first screen's chunks (issue 15).
 */
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500, manifest: true },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/config.json": "http://127.0.0.1:8080",
      "/ws": { target: "ws://127.0.0.1:8080", ws: true },
    },
  },
});
