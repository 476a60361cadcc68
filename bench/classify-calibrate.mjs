#!/usr/bin/env node
/**
 * Refits the confidence calibration (CALIBRATION in src/engines/classify/engine.ts): logistic regression of
 * "the top suggestion is right at 4 digits" on the ranking's evidence (bias, margin, synonym, conflict,
 * log(1 + strength), coverage) over bench/data/classify-eval.tsv, then prints the weights and the
 * reliability per label on the eval and held-out sets. Copy the weights by hand.
 *
 *   node bench/classify-calibrate.mjs
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(mkdtempSync(join(tmpdir(), "classify-")), "engine.mjs");
execFileSync(join(root, "node_modules", ".bin", "esbuild"), [
  join(root, "src/engines/classify/engine.ts"),
  "--bundle",
  "--format=esm",
  "--platform=neutral",
  `--outfile=${out}`,
  "--log-level=warning",
]);
const E = await import(pathToFileURL(out).href);

const read = (p) => readFileSync(join(root, p), "utf8");
const hs = JSON.parse(read("data/hs/hs2022.json")).map(([code, parent, , description]) => ({
  code,
  parent,
  description,
}));
const lines = [];
for (const [schedule, f] of [
  ["US", "lines-us.json"],
  ["GB", "lines-gb.json"],
])
  for (const [code, description] of JSON.parse(read(`data/hs/${f}`))) lines.push({ schedule, code, description });
const synonyms = read("data/hs/synonyms.tsv")
  .split("\n")
  .filter((l) => l.trim() && !l.startsWith("#"))
  .flatMap((l) => {
    const [p, c] = l.split("\t");
    return p.split("|").map((phrase) => ({ phrase: phrase.trim(), codes: c.trim() }));
  });
const index = E.buildIndex(hs, lines, synonyms);

function samples(name) {
  return read(`bench/data/${name}.tsv`)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.split("\t"))
    .flatMap(([d, code]) => {
      const r = E.rank(index, d, { schedule: "US" });
      if (!r.ok) return [];
      const e = r.evidence;
      return [
        {
          x: [1, e.margin, e.synonym ? 1 : 0, e.conflict ? 1 : 0, Math.log(1 + e.strength), e.coverage],
          y: r.suggestions[0].hs6.slice(0, 4) === code.trim().slice(0, 4) ? 1 : 0,
          e,
        },
      ];
    });
}

const train = samples("classify-eval");
const w = new Array(6).fill(0);
const sigmoid = (x) => 1 / (1 + Math.exp(-x.reduce((a, v, i) => a + v * w[i], 0)));
for (let it = 0; it < 50_000; it++) {
  const g = new Array(6).fill(0);
  for (const { x, y } of train) {
    const p = sigmoid(x);
    for (let i = 0; i < 6; i++) g[i] += (p - y) * x[i];
  }
  for (let i = 0; i < 6; i++) w[i] -= (0.5 * g[i]) / train.length;
}
const names = ["bias", "margin", "synonym", "conflict", "strength", "coverage"];
console.log("fitted:", Object.fromEntries(names.map((n, i) => [n, Number(w[i].toFixed(2))])));
console.log("in use:", E.CALIBRATION);
for (const name of ["classify-eval", "classify-holdout"]) {
  const bins = {};
  for (const { y, e } of samples(name)) {
    const label = E.label(E.probability(e));
    bins[label] ??= [0, 0];
    bins[label][0]++;
    bins[label][1] += y;
  }
  console.log(
    name,
    Object.entries(bins)
      .map(([l, [n, ok]]) => `${l}: ${ok}/${n} right`)
      .join(", "),
  );
}
