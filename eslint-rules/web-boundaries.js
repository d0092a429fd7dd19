// Web import boundaries (ADR 0022), as an inline ESLint plugin (no dependency):
// - zones: a feature (web/src/features/<name>/) imports only itself, components/, hooks/, lib/, locales/
//   and @atende/shared; components/, hooks/ and lib/ import neither features nor app/; app/ composes.
// - no-cycle: no circle of value imports inside web/src (type-only imports do not run, so they do not count).
// - kebab-case: file names are kebab-case with optional role suffixes (use-x.ts, x.test.tsx).
import fs from "node:fs";
import path from "node:path";

const zoneOf = (file) => {
  const i = file.split(path.sep).join("/").lastIndexOf("/web/src/");
  if (i < 0) return null;
  const rel = file.split(path.sep).join("/").slice(i + "/web/src/".length);
  const [top, second] = rel.split("/");
  if (top === "features") return `features/${second}`;
  return top.includes(".") ? "root" : top;
};

const EXTS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];
const resolve = (from, spec) => {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const e of EXTS) if (fs.existsSync(base + e) && fs.statSync(base + e).isFile()) return base + e;
  return null;
};

const allowed = (from, to, isTest) => {
  if (from === to) return true;
  if (isTest && (to === "testing" || to === "app" || to.startsWith("features/"))) return true; // a test composes like app/: harness, routes, the page a link leads to
  if (from.startsWith("features/")) return ["components", "hooks", "lib", "locales"].includes(to);
  if (["components", "hooks", "lib"].includes(from)) return ["components", "hooks", "lib", "locales"].includes(to);
  return true; // app/, testing/, main.tsx compose the rest
};

const sources = (node) => (node.source && typeof node.source.value === "string" ? node.source.value : null);

const zones = {
  meta: { type: "problem", messages: { zone: "{{from}} may not import {{to}}: a feature imports components/, hooks/, lib/ and @atende/shared only; move what several features use out of features/ (ADR 0022)" } },
  create(context) {
    const file = context.filename;
    const from = zoneOf(file);
    if (!from) return {};
    const check = (node) => {
      const spec = sources(node);
      const target = spec && resolve(file, spec);
      const to = target && zoneOf(target);
      if (to && !allowed(from, to, /\.test\.tsx?$/.test(file))) context.report({ node, messageId: "zone", data: { from, to } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// value-import graph of web/src, built once per lint run
const IMPORT_RE = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s+["']([^"']+)["']/g;
const buildGraph = (root) => {
  const g = new Map();
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name)) {
        const deps = [];
        for (const m of fs.readFileSync(p, "utf8").matchAll(IMPORT_RE)) {
          if (m[2]) continue; // import type
          if (/^\{[^}]*\}$/s.test(m[3]) && m[3].slice(1, -1).split(",").every((s) => !s.trim() || s.trim().startsWith("type "))) continue; // only inline type names
          const t = resolve(p, m[4]);
          if (t) deps.push(t);
        }
        g.set(p, deps);
      }
    }
  };
  walk(root);
  // Tarjan: files in a strongly connected component of more than one file sit on a circle
  let index = 0;
  const idx = new Map(), low = new Map(), stack = [], on = new Set(), inCycle = new Map();
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = []; let w;
      do { w = stack.pop(); on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1) for (const f of scc) inCycle.set(f, scc);
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return inCycle;
};

// one graph per source root (web/src, functions/src), built once per lint run
const graphs = new Map();
const ROOTS = ["/web/src/", "/functions/src/"];
const noCycle = {
  meta: { type: "problem", messages: { cycle: "import circle: {{files}}" } },
  create(context) {
    const file = context.filename;
    const norm = file.split(path.sep).join("/");
    const rootMark = ROOTS.find((r) => norm.includes(r));
    if (!rootMark) return {};
    const root = file.slice(0, norm.lastIndexOf(rootMark) + rootMark.length - 1);
    return {
      Program(node) {
        if (!graphs.has(root)) graphs.set(root, buildGraph(root));
        const scc = graphs.get(root).get(file);
        if (scc) context.report({ node, messageId: "cycle", data: { files: scc.map((f) => path.basename(f)).join(" → ") } });
      },
    };
  },
};

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*\.(ts|tsx)$/;
const kebabCase = {
  meta: { type: "suggestion", messages: { kebab: "file names are kebab-case with role suffixes (e.g. ticket-list.tsx, use-now.ts): {{name}}" } },
  create(context) {
    const name = path.basename(context.filename);
    return { Program(node) { if (!KEBAB.test(name)) context.report({ node, messageId: "kebab", data: { name } }); } };
  },
};

export default { rules: { zones, "no-cycle": noCycle, "kebab-case": kebabCase } };
