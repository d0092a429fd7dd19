import { build } from "esbuild";
const names = process.argv.slice(2);
for (const n of names) {
  const r = await build({ entryPoints: [`functions/src/handlers/${n}.ts`], bundle: true, platform: "node", format: "esm", target: "node22", mainFields: ["module","main"], minify: true, outfile: `.tmp/${n}.mjs`, external: ["@aws-sdk/*"], metafile: true, logLevel: "error",
    banner: { js: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);" } });
  const out = Object.values(r.metafile.outputs)[0];
  console.log(n, out.bytes);
  const byPkg = {};
  for (const [p, i] of Object.entries(out.inputs)) { const m = p.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/); const k = m ? m[1] : p.split("/").slice(0,4).join("/"); byPkg[k] = (byPkg[k]||0) + i.bytesInOutput; }
  console.log(Object.entries(byPkg).sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,v])=>`  ${k} ${v}`).join("\n"));
}
