#!/usr/bin/env node
/**
 * Offline comparison of the two retrieval designs the classification engine could use, on the same data and
 * the same evaluation sets: the engine's BM25F ranker, and fuse.js (Bitap fuzzy search) over the same fields
 * with the same field weights and synonym phrases. Also reports index build time, isolate heap and per-query
 * time for each.
 *
 *   npm install --no-save fuse.js@7 && node bench/classify-compare.mjs
 *
 * (fuse.js is not a project dependency: the engine does not use it.) The TypeScript engine is bundled with
 * esbuild, which wrangler installs.
 */
import { loadEngine, readRepoFile as read, referenceData } from "./lib/classify-engine.mjs";

const E = await loadEngine();
let Fuse;
try {
  Fuse = (await import(process.env.FUSE_PATH ?? "fuse.js")).default;
} catch {
  console.error("fuse.js is not installed: npm install --no-save fuse.js@7");
  process.exit(1);
}

const { hs, lines, synonyms } = referenceData();
const sets = Object.fromEntries(
  ["classify-eval", "classify-holdout"].map((name) => [
    name,
    read(`bench/data/${name}.tsv`)
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("#"))
      .map((l) => l.split("\t")),
  ]),
);

const heap = () => {
  global.gc?.();
  return process.memoryUsage().heapUsed;
};

function evaluate(name, search) {
  const rows = [];
  for (const [set, items] of Object.entries(sets)) {
    let t1h4 = 0,
      t1h6 = 0,
      t5h4 = 0,
      t5h6 = 0;
    const started = performance.now();
    for (const [d, code] of items) {
      const top = search(d);
      if (top[0]?.slice(0, 4) === code.slice(0, 4)) t1h4++;
      if (top[0] === code) t1h6++;
      if (top.some((c) => c.slice(0, 4) === code.slice(0, 4))) t5h4++;
      if (top.includes(code)) t5h6++;
    }
    const ms = (performance.now() - started) / items.length;
    const pct = (n) => `${((100 * n) / items.length).toFixed(1)} %`;
    rows.push(
      `| ${name} | ${set} (${items.length}) | ${pct(t1h4)} | ${pct(t5h4)} | ${pct(t1h6)} | ${pct(t5h6)} | ${ms.toFixed(2)} |`,
    );
  }
  return rows;
}

// BM25F (the engine).
let h0 = heap();
let t0 = performance.now();
const index = E.buildIndex(hs, lines, synonyms);
const bmBuild = performance.now() - t0;
const bmHeap = (heap() - h0) / 1e6;
const bmRows = evaluate("BM25F (engine)", (d) => {
  const r = E.rank(index, d, { schedule: "US" });
  return r.ok ? r.suggestions.map((s) => s.hs6) : [];
});

// The same ranker without the curated vocabulary: what the nomenclature wording alone achieves.
const bare = E.buildIndex(hs, lines, []);
const bareRows = evaluate("BM25F without synonyms", (d) => {
  const r = E.rank(bare, d, { schedule: "US" });
  return r.ok ? r.suggestions.map((s) => s.hs6) : [];
});

// fuse.js over the same fields, weights and synonym phrases.
h0 = heap();
t0 = performance.now();
const byCode = new Map(hs.map((r) => [r.code, r.description]));
const nat = new Map();
for (const l of lines) {
  const k = l.code.slice(0, 6);
  nat.set(k, `${nat.get(k) ?? ""} ${l.description}`);
}
const synByDoc = new Map();
for (const s of synonyms) for (const c of s.codes.split(/\s+/)) synByDoc.set(c, `${synByDoc.get(c) ?? ""} ${s.phrase}`);
const docs = hs
  .filter((r) => r.code.length === 6)
  .map((r) => ({
    code: r.code,
    sub: r.description,
    nat: nat.get(r.code) ?? "",
    head: byCode.get(r.code.slice(0, 4)) ?? "",
    chap: byCode.get(r.code.slice(0, 2)) ?? "",
    syn: `${synByDoc.get(r.code) ?? ""} ${synByDoc.get(r.code.slice(0, 4)) ?? ""}`,
  }));
const fuse = new Fuse(docs, {
  keys: [
    { name: "syn", weight: 2 },
    { name: "sub", weight: 1 },
    { name: "nat", weight: 0.7 },
    { name: "head", weight: 0.6 },
    { name: "chap", weight: 0.25 },
  ],
  includeScore: true,
  ignoreLocation: true,
  useExtendedSearch: true,
  threshold: 0.4,
});
const fuseBuild = performance.now() - t0;
const fuseHeap = (heap() - h0) / 1e6;
const words = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z ]+/g, " ")
    .split(/\s+/)
    .filter((w) => w.length > 2);
const fuseRows = evaluate("fuse.js 7 (extended search, OR of words)", (d) =>
  fuse
    .search(
      words(d)
        .map((w) => `'${w}`)
        .join(" | "),
      { limit: 5 },
    )
    .map((r) => r.item.code),
);

console.log("| ranker | set | top-1 @4 | top-5 @4 | top-1 @6 | top-5 @6 | ms/query |");
console.log("|---|---|---|---|---|---|---|");
for (const r of [...bmRows, ...bareRows, ...fuseRows]) console.log(r);
console.log("");
console.log(
  `BM25F: index built in ${bmBuild.toFixed(0)} ms, ${bmHeap.toFixed(1)} MB heap (${index.stats.terms} terms); fuse.js: ${fuseBuild.toFixed(0)} ms, ${fuseHeap.toFixed(1)} MB.`,
);
