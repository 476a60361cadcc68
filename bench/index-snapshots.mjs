#!/usr/bin/env node --expose-gc
/**
 * `node --expose-gc bench/index-snapshots.mjs`: for each prebuilt index a Worker isolate holds, in this Node
 * process (V8, as workerd):
 *
 *   - build: the index built from the dataset's rows, as the module service does after its D1 read (the read
 *     itself is not in this figure: bench/cold-start.mjs measures it in the Worker);
 *   - serialized size, and deserialize: the stored object turned back into the index (src/engines/.../snapshot.ts);
 *   - heap: V8 heapUsed after forced garbage collection, before and after building (the deserialized copy is
 *     measured the same way, its typed arrays being views on the one object buffer);
 *   - same answers: every text of the evaluation sets ranked by both, compared.
 *
 * Medians of RUNS (default 5) timings. Writes bench/results/index-snapshots.md.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadEngine, readRepoFile, referenceData, referenceRulings, root } from "./lib/classify-engine.mjs";
import { bundledModule, screenEngine } from "./lib/screen-engine.mjs";

if (typeof globalThis.gc !== "function") {
  console.error("run with node --expose-gc bench/index-snapshots.mjs");
  process.exit(1);
}
const RUNS = Number(process.env.RUNS ?? 5);
/** Issue 23: the heap of all indexes of an isolate. */
const BUDGET_MB = 64;

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

function heapOf(make) {
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage();
  const kept = make();
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage();
  // heapUsed misses typed arrays' backing stores (arrayBuffers): count both.
  const bytes = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
  return { kept, bytes };
}

function timeOf(fn) {
  const times = [];
  let out;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    out = fn();
    times.push(performance.now() - t0);
  }
  return { out, ms: median(times) };
}

// ---------------------------------------------------------------------------------------------------------
// classify: the rows as the Worker reads them from D1 (scripts/data/hs.mjs), split as its service splits them

async function classify() {
  const engine = await loadEngine("engine");
  const snapshot = await loadEngine("snapshot");
  const precedents = await loadEngine("precedents");
  const { hs, lines, synonyms } = referenceData();
  const ranked = lines.filter((l) => l.schedule !== "US10");
  const statisticalRows = lines.filter((l) => l.schedule === "US10");
  // The precedents the Worker loads (data/hs/rulings.tsv), with their CROSS addresses.
  const rulings = referenceRulings().map((r) => ({ ...r, url: `https://rulings.cbp.gov/ruling/${r.rulingNumber}` }));
  const build = () => {
    const statistical = new Map();
    for (const l of statisticalRows) {
      const key = l.code.slice(0, 8);
      if (!statistical.has(key)) statistical.set(key, []);
      statistical.get(key).push({ code: l.code, description: l.description });
    }
    for (const list of statistical.values()) list.sort((a, b) => a.code.localeCompare(b.code));
    return {
      index: engine.buildIndex(hs, ranked, synonyms),
      statistical,
      precedents: precedents.buildPrecedents(rulings),
    };
  };
  const built = timeOf(build);
  const heapBuilt = heapOf(build);
  const serializeAll = () => ({
    main: snapshot.serializeIndexes(built.out, "v1"),
    parts: new Map(snapshot.partNames(built.out).map((p) => [p, snapshot.serializePart(built.out, p, "v1")])),
  });
  const { main: bytes, parts } = serializeAll();
  const serializeMs = timeOf(serializeAll).ms;
  // The main object and the parts a US request reads (its national and statistical lines), each from a fresh
  // ArrayBuffer, as R2 reads give them.
  const restoreFor = (names) => {
    const out = snapshot.deserializeIndexes(bytes.slice().buffer, "v1");
    if ("refused" in out) throw new Error(`refused: ${out.refused}`);
    for (const name of names) {
      const refused = snapshot.attachPart(out, name, parts.get(name).slice().buffer, "v1");
      if (refused) throw new Error(`part ${name} refused: ${refused.refused}`);
    }
    return out;
  };
  const usParts = snapshot.partsFor("US");
  const restored = timeOf(() => restoreFor(usParts));
  // Every part attached and every lazily parsed chapter loaded (all schedules' lines, every chapter's
  // statistical lines): the most the restored index can hold, which is what the budget is about.
  const heapRestored = heapOf(() => {
    const out = restoreFor([...parts.keys()]);
    for (const byHs6 of out.index.lines.values()) void byHs6.size;
    void out.statistical.size;
    return out;
  });
  const everything = restoreFor([...parts.keys()]);

  const texts = ["eval", "holdout"].flatMap((set) =>
    readRepoFile(`bench/data/classify-${set}.tsv`)
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("#"))
      .map((l) => l.split("\t")[0]),
  );
  let same = 0;
  for (const text of texts) {
    const a = JSON.stringify([
      engine.rank(built.out.index, text, { schedule: "US", limit: 5 }),
      precedents.nearestRulings(built.out.precedents, text),
    ]);
    const b = JSON.stringify([
      engine.rank(restored.out.index, text, { schedule: "US", limit: 5 }),
      precedents.nearestRulings(restored.out.precedents, text),
    ]);
    const gb = (index) => JSON.stringify(engine.rank(index, text, { schedule: "GB", limit: 5 }));
    if (a === b && gb(built.out.index) === gb(everything.index)) same++;
  }
  return {
    area: "classify",
    what: "BM25F index (HS subheadings, US/GB/EU lines, synonyms) + US statistical lines + rulings",
    buildMs: built.ms,
    serializeMs,
    bytes: bytes.length + usParts.reduce((n, p) => n + parts.get(p).length, 0),
    objects: [`main ${mb(bytes.length)} MB`, ...[...parts].map(([name, b]) => `${name} ${mb(b.length)} MB`)].join(", "),
    deserializeMs: restored.ms,
    heapBuilt: heapBuilt.bytes,
    heapRestored: heapRestored.bytes,
    same: `${same} / ${texts.length} (US and GB)`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// screen: the matcher's index over the bundled lists, stored as its parts (src/engines/screen/snapshot.ts)

async function screen() {
  const { E, input } = await screenEngine();
  const S = await bundledModule("src/engines/screen/snapshot.ts");
  const built = timeOf(() => E.ScreenIndex.build(input));
  const heap = heapOf(() => E.ScreenIndex.build(input));
  const bytes = S.serializeScreenIndex(built.out, {}, "v1");
  const serializeMs = timeOf(() => S.serializeScreenIndex(built.out, {}, "v1")).ms;
  const restored = timeOf(() => S.deserializeScreenIndex(bytes.slice().buffer, "v1"));
  const heapRestored = heapOf(() => S.deserializeScreenIndex(bytes.slice().buffer, "v1"));
  if ("refused" in restored.out) throw new Error(`refused: ${restored.out.refused}`);
  const evalSet = JSON.parse(readRepoFile("bench/screen-eval.json"));
  const queries = [...evalSet.true_variants, ...evalSet.innocents].map((q) => q.query).filter(Boolean);
  const all = () => true;
  let same = 0;
  for (const q of queries)
    if (JSON.stringify([...built.out.search(q, all)]) === JSON.stringify([...restored.out.index.search(q, all)]))
      same++;
  return {
    area: "screen",
    what: `ScreenIndex (${input.length.toLocaleString("en-US")} listed entries of the bundled lists)`,
    buildMs: built.ms,
    serializeMs,
    bytes: bytes.length,
    deserializeMs: restored.ms,
    heapBuilt: heap.bytes,
    heapRestored: heapRestored.bytes,
    same: `${same} / ${queries.length} (eval queries)`,
  };
}

const rows = [await classify(), await screen()];
const total = rows.reduce((n, r) => n + Math.max(r.heapBuilt, r.heapRestored ?? 0), 0);
const opt = (v, f) => (v === undefined ? "—" : f(v));
const lines = [
  "# Prebuilt indexes: build vs deserialize, size and heap",
  "",
  `Command: \`node --expose-gc bench/index-snapshots.mjs\` (Node ${process.version}, median of ${RUNS} runs). Build: from the rows the service reads from D1 (the D1 read is not included; bench/results/cold-start.md has the Worker's figures). Object size and deserialize: what a first request reads and restores (a fresh ArrayBuffer per object, as an R2 read gives); for classify, a US request: the main object and the US national and statistical lines (every object's size below the table). Heap: V8 heapUsed + array buffers after forced GC, before and after; the deserialized classify index with every part attached and every lazily parsed chapter loaded.`,
  "",
  "| index | build ms | serialize ms | object size | deserialize ms | heap built | heap deserialized | same answers (eval + holdout texts) |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.area}: ${r.what} | ${r.buildMs.toFixed(0)} | ${opt(r.serializeMs, (v) => v.toFixed(0))} | ${opt(r.bytes, (v) => `${mb(v)} MB`)} | ${opt(r.deserializeMs, (v) => v.toFixed(0))} | ${mb(r.heapBuilt)} MB | ${opt(r.heapRestored, (v) => `${mb(v)} MB`)} | ${r.same ?? "—"} |`,
  ),
  "",
  ...rows.filter((r) => r.objects).map((r) => `- ${r.area} objects in R2: ${r.objects}.`),
  "",
  `Heap of all indexes above (the larger of built and deserialized each): ${mb(total)} MB, budget ${BUDGET_MB} MB (issue 23): ${total <= BUDGET_MB * 1024 * 1024 ? "**met**" : "**not met**"}.`,
  "",
];
writeFileSync(join(root, "bench", "results", "index-snapshots.md"), lines.join("\n"));
process.stdout.write(`${lines.join("\n")}\n`);
