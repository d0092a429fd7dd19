import { createHash } from "node:crypto";
import { type Plugin, defineConfig } from "vite";

/**
 * The website chat widget (docs/adr/0092): a separate, tiny build (plain TS, no React) next to the app in web/dist.
 * `webchat.<hash>.js` is the widget (immutable, long cache); `webchat.js` is the few-byte loader the companies paste,
 * short-cached, which loads the current versioned file with the same `data-key`.
 */
const loader = (): Plugin => ({
  name: "atende:webchat-loader",
  apply: "build",
  generateBundle(_options, bundle) {
    const chunk = Object.values(bundle).find((f) => f.type === "chunk" && f.isEntry);
    if (!chunk || chunk.type !== "chunk") return;
    const hash = createHash("sha256").update(chunk.code).digest("hex").slice(0, 10);
    chunk.fileName = `webchat.${hash}.js`;
    this.emitFile({
      type: "asset",
      fileName: "webchat.js",
      source: `(function(){var s=document.currentScript;if(!s||!s.dataset.key)return;var n=document.createElement("script");n.src=new URL("webchat.${hash}.js",s.src).href;n.async=true;n.dataset.key=s.dataset.key;document.head.appendChild(n)})();\n`,
    });
  },
});

export default defineConfig({
  plugins: [loader()],
  build: {
    outDir: "dist",
    emptyOutDir: false,
    copyPublicDir: false,
    target: "es2019",
    lib: { entry: "src/webchat-widget/main.ts", formats: ["iife"], name: "AtendeWebchat", fileName: () => "webchat.js" },
  },
});
