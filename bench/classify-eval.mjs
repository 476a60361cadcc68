#!/usr/bin/env node
/**
 * Offline accuracy and reliability report for the classification engine, run in-process on Node (no worker,
 * no database): bundles src/engines/classify/engine.ts with esbuild, builds the same index the worker builds,
 * and for each evaluation file prints
 *   - top-1 at 4 digits (heading) and top-5 at 6 digits (subheading),
 *   - a reliability table: per confidence label and per score band, how often the top suggestion was right at
 *     4 digits next to the mean score the engine gave (a calibrated score has the two close),
 *   - the in-process p50 and p95 of one rank() call.
 *
 *   node bench/classify-eval.mjs [bench/data/file.tsv ...]
 *
 * With no arguments it reads the retail development set (classify-eval.tsv) and the held-out set
 * (classify-holdout.tsv). A file's rows are `description<TAB>code[<TAB>...provenance]`; the code may be 4-10
 * digits (dots ignored) and is compared on its first 4 and 6 digits. Rows starting with # are comments.
 */
import { relative, resolve } from "node:path";
import {
  headingVotes,
  loadEngine,
  modelVotes,
  precedentsWithout,
  precedentVotes,
  readRepoFile as read,
  referenceData,
  root,
  subheadingVotes,
} from "./lib/classify-engine.mjs";

const E = await loadEngine();
const P = await loadEngine("precedents");
/** The ruling number in a row's third column, as data/hs/rulings.tsv writes it ("NY N340330" → "N340330"). */
const rulingOf = (cell) =>
  (cell ?? "")
    .trim()
    .replace(/^(?:NY|HQ)\s+/i, "")
    .toUpperCase();

const { hs, lines, synonyms } = referenceData();
const t0 = performance.now();
const index = E.buildIndex(hs, lines, synonyms);
console.log(`index built in ${(performance.now() - t0).toFixed(0)} ms`);

const BANDS = [0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0001];
const pct = (a, n) => (n ? `${((100 * a) / n).toFixed(1)}%` : "n/a");

function evaluate(file) {
  const rows = read(file)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.split("\t"))
    .map(([d, code, ruling]) => ({ d: d.trim(), code: code.replace(/\D/g, ""), ruling: rulingOf(ruling) }));
  // The rulings the Worker weighs (data/hs/rulings.tsv), without this file's own.
  const precedents = precedentsWithout(P, new Set(rows.map((r) => r.ruling).filter(Boolean)));
  let top1 = 0;
  let top5 = 0;
  let refused = 0;
  const times = [];
  const byLabel = {};
  const byBand = BANDS.slice(0, -1).map(() => ({ n: 0, ok: 0, sum: 0 }));
  for (const { d, code } of rows) {
    const s = performance.now();
    const r = E.rank(index, d, {
      schedule: "US",
      precedents: precedentVotes(P, precedents, d),
      headings: headingVotes(P, precedents, d),
      model: modelVotes(P, precedents, d),
      subheadings: subheadingVotes(P, precedents, d),
    });
    times.push(performance.now() - s);
    if (!r.ok) {
      refused++;
      continue;
    }
    const first = r.suggestions[0];
    const ok = first.hs6.slice(0, 4) === code.slice(0, 4) ? 1 : 0;
    top1 += ok;
    if (r.suggestions.slice(0, 5).some((x) => x.hs6 === code.slice(0, 6))) top5++;
    byLabel[first.confidence] ??= { n: 0, ok: 0, sum: 0 };
    const cells = [
      byLabel[first.confidence],
      byBand[BANDS.findIndex((b, i) => first.score >= b && first.score < BANDS[i + 1])],
    ];
    for (const c of cells) {
      c.n++;
      c.ok += ok;
      c.sum += first.score;
    }
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
  console.log(
    `\n## ${relative(root, resolve(root, file))} (${rows.length} items, ${refused} refused as unclassifiable)`,
  );
  console.log(`top-1 at 4 digits: ${pct(top1, rows.length)} (${top1}/${rows.length})`);
  console.log(`top-5 at 6 digits: ${pct(top5, rows.length)} (${top5}/${rows.length})`);
  console.log(`rank() in-process: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms`);
  console.log("\n| confidence | n | right at 4 digits | mean score |\n|---|---|---|---|");
  for (const l of ["high", "medium", "low"]) {
    const c = byLabel[l] ?? { n: 0, ok: 0, sum: 0 };
    console.log(`| ${l} | ${c.n} | ${pct(c.ok, c.n)} | ${c.n ? (c.sum / c.n).toFixed(2) : "n/a"} |`);
  }
  console.log("\n| score band | n | right at 4 digits | mean score |\n|---|---|---|---|");
  for (const [i, c] of byBand.entries()) {
    const band = `${BANDS[i].toFixed(1)}-${Math.min(1, BANDS[i + 1]).toFixed(1)}`;
    console.log(`| ${band} | ${c.n} | ${pct(c.ok, c.n)} | ${c.n ? (c.sum / c.n).toFixed(2) : "n/a"} |`);
  }
}

const files = process.argv.slice(2);
for (const f of files.length ? files : ["bench/data/classify-eval.tsv", "bench/data/classify-holdout.tsv"]) evaluate(f);
