#!/usr/bin/env node
/**
 * How the precedent floor was chosen (src/engines/classify/precedents.ts, MIN_SIMILARITY): leave-one-out over the
 * labelled rulings (each ruling's nearest other ruling, by similarity band: how often it gave the same heading),
 * and how often retail titles would cite any ruling at each floor.
 *
 *   node bench/classify-precedents.mjs
 */
import { loadEngine, readRepoFile, referenceRulings } from "./lib/classify-engine.mjs";

const P = await loadEngine("precedents");
// The rulings the Worker loads (data/hs/rulings.tsv).
const rows = referenceRulings();
const index = P.buildPrecedents(rows);
const bands = [0.2, 0.3, 0.4, 0.5, 0.6, 1.01];
const tally = bands.slice(0, -1).map(() => ({ n: 0, same4: 0 }));
for (const r of rows) {
  const [best] = P.nearestRulings(index, r.subject, { limit: 1, min: 0, exclude: r.rulingNumber });
  if (!best) continue;
  const b = bands.findIndex((x, i) => best.similarity >= x && best.similarity < bands[i + 1]);
  if (b < 0) continue;
  tally[b].n++;
  if (best.code.slice(0, 4) === r.code.slice(0, 4)) tally[b].same4++;
}
console.log(`leave-one-out over ${rows.length} rulings: the nearest other ruling, by similarity`);
console.log("| similarity | rulings | same heading |\n|---|---|---|");
for (const [i, t] of tally.entries())
  console.log(
    `| ${bands[i]}-${Math.min(1, bands[i + 1])} | ${t.n} | ${t.n ? ((100 * t.same4) / t.n).toFixed(0) : "-"}% |`,
  );
const retail = readRepoFile("bench/data/classify-eval.tsv")
  .split("\n")
  .filter((l) => l.trim() && !l.startsWith("#"))
  .map((l) => l.split("\t")[0]);
console.log(`\nretail titles (${retail.length}) citing at least one ruling, by floor:`);
for (const min of [0.2, 0.25, 0.3, 0.35, 0.4])
  console.log(`  floor ${min}: ${retail.filter((t) => P.nearestRulings(index, t, { min }).length > 0).length}`);
