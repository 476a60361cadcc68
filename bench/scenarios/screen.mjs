/**
 * Screening benchmark scenario (run by `npm run bench`).
 *
 * requests(): POST /screen latency and throughput beside the bare /health route, for a listed name (a hit),
 * an innocent name (no hit) and name + company.
 *
 * report(): the quality set bench/screen-eval.json (scripts/build/screen-eval.mjs) three ways:
 *   1. through the running Worker (POST /screen), the figures users get: recall at 0.7, false positives,
 *      client-side latency per request;
 *   2. the engine in this Node process (src/engines/screen bundled with esbuild), matching only;
 *   3. the naive approach: fuse.js over every listed name and alias (all 38k strings), a hit being a fuse
 *      score ≤ 0.3 (similarity ≥ 0.7, the same threshold), in this Node process, same data, same queries;
 * plus the heap the engine's index takes (measured in Node, with forced garbage collection; V8 lays out the
 * same objects in workerd).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";

export const area = "screen";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PATH = "/admin/api/v1/screen";
/** fuse.js takes 0.3-0.6 s per query over the whole list, so it runs on every n-th query of the set. */
const FUSE_STRIDE = Number(process.env.BENCH_SCREEN_FUSE_STRIDE) || 8;

export function requests() {
  return [
    { label: "POST /screen (listed name, hit)", method: "POST", path: PATH, body: { name: "Banco Nacional de Cuba" } },
    { label: "POST /screen (innocent name, no hit)", method: "POST", path: PATH, body: { name: "Katrin Lindemann" } },
    {
      label: "POST /screen (name + company)",
      method: "POST",
      path: PATH,
      body: { name: "Omar Haddad", company: "Gazprom Bank", type: "entity" },
    },
  ];
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const ms = (x) => x.toFixed(2);
function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : NaN;
}

function quality(set, hitsOf) {
  const times = [];
  let found = 0;
  let flagged = 0;
  const misses = [];
  const falsePositives = [];
  for (const v of set.true_variants) {
    const t = performance.now();
    const ids = hitsOf(v.query);
    times.push(performance.now() - t);
    if (ids.includes(v.expect)) found++;
    else misses.push(v);
  }
  for (const v of set.innocents) {
    const t = performance.now();
    const ids = hitsOf(v.query);
    times.push(performance.now() - t);
    if (ids.length) {
      flagged++;
      falsePositives.push(v);
    }
  }
  return {
    recall: found / set.true_variants.length,
    fpRate: flagged / set.innocents.length,
    found,
    flagged,
    misses,
    falsePositives,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

async function loadEngine() {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [join(ROOT, "src/engines/screen/index.ts")],
    bundle: true,
    format: "esm",
    write: false,
    platform: "neutral",
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}

async function listInput() {
  const { readList } = await import(join(ROOT, "scripts/data/sanctions.mjs"));
  const input = [];
  for (const code of ["SDN", "UN"]) {
    for (const e of readList(code))
      input.push({ id: `${code}:${e.ref}`, listCode: code, entryType: e.type, name: e.name, altNames: e.alt_names });
  }
  return input;
}

function heapAfterGc(gc) {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

export async function report({ call }) {
  const set = JSON.parse(readFileSync(join(ROOT, "bench", "screen-eval.json"), "utf8"));
  const variants = set.true_variants.length;
  const innocents = set.innocents.length;

  // 1. Through the Worker.
  const byId = (m) => `${m.list_code}:${m.entry.source_ref}`;
  const httpTimes = [];
  let found = 0;
  let flagged = 0;
  let searched = [];
  for (const v of set.true_variants) {
    const t = performance.now();
    const res = await call("POST", PATH, { name: v.query });
    httpTimes.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`POST /screen answered ${res.status}`);
    searched = res.json.searched_lists;
    if (res.json.matches.map(byId).includes(v.expect)) found++;
  }
  for (const v of set.innocents) {
    const t = performance.now();
    const res = await call("POST", PATH, { name: v.query });
    httpTimes.push(performance.now() - t);
    if (res.json.matches.length) flagged++;
  }
  const http = {
    recall: found / variants,
    fpRate: flagged / innocents,
    p50: percentile(httpTimes, 50),
    p99: percentile(httpTimes, 99),
  };

  // 2 and 3. In this process: the engine, then fuse.js over the same names.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const E = await loadEngine();
  const input = await listInput();
  const before = heapAfterGc(gc);
  const t0 = performance.now();
  const index = E.ScreenIndex.build(input);
  const buildMs = performance.now() - t0;
  const indexBytes = heapAfterGc(gc) - before;
  quality(set, (q) => E.screen(index, { name: q }).map((h) => input[h.entry].id)); // warm-up (JIT, neighbour cache)
  const engine = quality(set, (q) => E.screen(index, { name: q }).map((h) => input[h.entry].id));

  // fuse.js scans every string per query (about 0.3-0.5 s each here), so it runs on a fixed subsample:
  // every FUSE_STRIDE-th variant and innocent; the engine is reported on the same subsample too.
  const sample = {
    true_variants: set.true_variants.filter((_, i) => i % FUSE_STRIDE === 0),
    innocents: set.innocents.filter((_, i) => i % FUSE_STRIDE === 0),
  };
  const engineSample = quality(sample, (q) => E.screen(index, { name: q }).map((h) => input[h.entry].id));
  const Fuse = (await import("fuse.js")).default;
  const docs = input.flatMap((e) => [e.name, ...e.altNames].map((name) => ({ name, id: e.id })));
  const t1 = performance.now();
  const fuse = new Fuse(docs, { keys: ["name"], includeScore: true, threshold: 0.3, ignoreLocation: true });
  const fuseBuildMs = performance.now() - t1;
  const fuseQuality = quality(sample, (q) => [
    ...new Set(
      fuse
        .search(q)
        .filter((r) => r.score <= 0.3)
        .map((r) => r.item.id),
    ),
  ]);

  const lines = [
    "### Screening quality and speed",
    "",
    `Quality set: \`bench/screen-eval.json\` (${variants} true variants of listed names in 8 kinds: reordered, typo, diacritics/German transliteration, legal form changed, joined/split, alias, case/punctuation, reordered + typo; ${innocents} innocent personal and company names). Lists searched: ${searched.join(", ")}. A variant is found when its entry is among the matches (score ≥ 0.7); an innocent is a false positive when any match is returned.`,
    "",
    "| approach | recall at 0.7 | false positives | p50 ms / query | p99 ms / query |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| POST /screen through the Worker (HTTP, one connection, sequential) | ${pct(http.recall)} | ${pct(http.fpRate)} | ${ms(http.p50)} | ${ms(http.p99)} |`,
    `| screening engine in-process (index, matching only) | ${pct(engine.recall)} | ${pct(engine.fpRate)} | ${ms(engine.p50)} | ${ms(engine.p99)} |`,
    "",
    `Same-run comparison with the naive approach on a fixed subsample (every ${FUSE_STRIDE}th query: ${sample.true_variants.length} variants, ${sample.innocents.length} innocents), both in this Node process over the same ${docs.length.toLocaleString("en-US")} names and aliases:`,
    "",
    "| approach | recall at 0.7 | false positives | p50 ms / query | p99 ms / query |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| screening engine (index) | ${pct(engineSample.recall)} | ${pct(engineSample.fpRate)} | ${ms(engineSample.p50)} | ${ms(engineSample.p99)} |`,
    `| fuse.js over every name and alias (threshold 0.3 = similarity ≥ 0.7, ignoreLocation) | ${pct(fuseQuality.recall)} | ${pct(fuseQuality.fpRate)} | ${ms(fuseQuality.p50)} | ${ms(fuseQuality.p99)} |`,
    "",
    `Goals: recall ≥ 95 % (${http.recall >= 0.95 ? "**met**" : "**not met**"}), false positives ≤ 2 % (${http.fpRate <= 0.02 ? "**met**" : "**not met**"}).`,
    "",
    `Index: ${index.nameCount.toLocaleString("en-US")} names and aliases of ${input.length.toLocaleString("en-US")} entries, ${index.vocabularySize.toLocaleString("en-US")} distinct token keys; built in ${ms(buildMs)} ms; heap ${(indexBytes / 1024 / 1024).toFixed(1)} MB (V8 heap growth after forced GC, measured in Node; the Worker builds the same structures once per isolate and data version). fuse.js index build: ${ms(fuseBuildMs)} ms.`,
    "",
    `Engine misses (${engine.misses.length}): ${engine.misses.map((v) => `\`${v.query}\` (${v.kind})`).join(", ") || "none"}.  `,
    `Engine false positives (${engine.falsePositives.length}): ${engine.falsePositives.map((v) => `\`${v.query}\``).join(", ") || "none"}.`,
    "",
  ];
  return lines.join("\n");
}
