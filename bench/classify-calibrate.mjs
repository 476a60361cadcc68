#!/usr/bin/env node
/**
 * Refits the classification confidence (the logistic CALIBRATION of src/engines/classify/engine.ts) on the
 * development splits and reports how the fitted and the current weights fare on every split, development and
 * held out. Run in-process on Node, like bench/classify-eval.mjs:
 *
 *   node bench/classify-calibrate.mjs            # fit, compare, print the weights to paste into engine.ts
 *
 * The features are the ones rank() returns as `evidence` (margin, synonym, strength, coverage, head support,
 * word count); the label is "the first suggestion is right at 4 digits". The fit is an L2-regularised logistic
 * regression by Newton's method; ruling-grade rows weigh 3x so the many short retail titles do not decide the
 * fit alone. Texts of more than LONG_TEXT known words (statements of the goods) get weights of their own, fitted on
 * the long texts alone. Rows are ranked as the Worker ranks them, with the precedents' votes (each file's own
 * rulings left out). Only development files are fitted on; the held-out files are only reported.
 */
import {
  headingVotes,
  loadEngine,
  modelVotes,
  precedentsWithout,
  precedentVotes,
  readRepoFile as read,
  referenceData,
  subheadingVotes,
} from "./lib/classify-engine.mjs";

const E = await loadEngine();
const P = await loadEngine("precedents");
const { hs, lines, synonyms } = referenceData();
const index = E.buildIndex(hs, lines, synonyms);

const DEV = [
  ["bench/data/classify-eval.tsv", 1],
  ["bench/data/classify-rulings-dev.tsv", 3],
  ["bench/data/classify-rulings-cbp2026-dev.tsv", 3],
  ["bench/data/labelled/us-cbp-subjects.tsv#even", 1],
  ["bench/data/labelled/us-hscodecomp.tsv#even", 1],
  ["bench/data/classify-rulings-pages-dev.tsv", 1],
  ["bench/data/classify-rulings-pages2-dev.tsv", 1],
  ["bench/data/classify-rulings-pages3-dev.tsv", 1],
  ["bench/data/classify-rulings-pages4-dev.tsv", 1],
  ["bench/data/classify-rulings-pages5-dev.tsv", 1],
  ["bench/data/classify-rulings-pages6-dev.tsv", 1],
  ["bench/data/classify-rulings-pages7-dev.tsv", 1],
  ["bench/data/classify-rulings-pages8-dev.tsv", 1],
  ["bench/data/classify-rulings-pages9-dev.tsv", 1],
];
const HELD_OUT = [
  "bench/data/classify-holdout.tsv",
  "bench/data/classify-rulings-test.tsv",
  "bench/data/classify-rulings-cbp2026-test.tsv",
  "bench/data/labelled/us-cbp-subjects.tsv#odd",
  "bench/data/labelled/us-hscodecomp.tsv#odd",
  "bench/data/classify-rulings-pages-test.tsv",
  "bench/data/classify-rulings-pages2-test.tsv",
  "bench/data/classify-rulings-pages3-test.tsv",
  "bench/data/classify-rulings-pages4-test.tsv",
  "bench/data/classify-rulings-pages5-test.tsv",
  "bench/data/classify-rulings-pages6-test.tsv",
  "bench/data/classify-rulings-pages7-test.tsv",
  "bench/data/classify-rulings-pages8-test.tsv",
  "bench/data/classify-rulings-pages9-test.tsv",
];
const NAMES = [
  "bias",
  "margin",
  "synonym",
  "strength",
  "coverage",
  "unsupported",
  "nounUnsupported",
  "words",
  "votes",
  "centroid",
  "learned",
];
const L2 = 0.5;

/** FNV-1a 32-bit, the content-blind split of the ruling sets, here on a labelled row's id. */
function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Rows of a file as [description, code]; the labelled files carry an id column first. "file#even" and
 * "file#odd" are the halves of a labelled file by the hash of the row id (development and held out).
 */
function rowsOf(spec) {
  const [file, half] = spec.split("#");
  const labelled = file.includes("/labelled/");
  return read(file)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#") && !l.startsWith("id\t"))
    .map((l) => l.split("\t"))
    .filter((c) => !half || (fnv(c[0]) % 2 === 0) === (half === "even"))
    .map((c) => (labelled ? [c[1], c[2], c[0]] : [c[0], c[1], c[2]]))
    .filter(([d, code]) => d && code);
}

/** The feature vector of one ranked text (the same transforms as engine.ts `probability`). */
function features(e) {
  return [
    1,
    Math.sqrt(Math.max(0, e.margin)),
    e.synonym ? 1 : 0,
    Math.log(1 + e.strength),
    e.coverage,
    e.head ? 0 : 1,
    e.headNoun ? 0 : 1,
    Math.log(1 + e.words),
    e.votes,
    e.centroid ? 1 : 0,
    e.learned ? 1 : 0,
  ];
}

/** Every ranked row of a file: features, whether it was right, the engine's own score and its caps. */
function examples(file) {
  const out = [];
  const rows = rowsOf(file);
  // As the Worker ranks: with the precedents' votes, the file's own rulings left out.
  const ruling = (cell) =>
    (cell ?? "")
      .trim()
      .replace(/^(?:NY|HQ)\s+/i, "")
      .toUpperCase();
  const precedents = precedentsWithout(P, new Set(rows.map((r) => ruling(r[2])).filter(Boolean)));
  for (const [d, c] of rows) {
    const code = c.replace(/\D/g, "");
    const r = E.rank(index, d.trim(), {
      schedule: "US",
      precedents: precedentVotes(P, precedents, d),
      headings: headingVotes(P, precedents, d),
      model: modelVotes(P, precedents, d),
      subheadings: subheadingVotes(P, precedents, d),
    });
    if (!r.ok) continue;
    const first = r.suggestions[0];
    const x = features(r.evidence);
    const current = 1 / (1 + Math.exp(-dot(isLong({ x }) ? CURRENT_LONG : CURRENT, x)));
    // The engine caps some scores below its logistic (no goods named, an ornament without its material).
    const cap = first.score < current - 1e-9 ? first.score : 1;
    out.push({ x, y: first.hs6.slice(0, 4) === code.slice(0, 4) ? 1 : 0, score: first.score, cap });
  }
  return out;
}

const dot = (w, x) => w.reduce((s, wi, i) => s + wi * x[i], 0);

/**
 * L2-regularised weighted logistic regression by Newton's method over rows `{z, off, y, weight}`: the features `z`
 * to fit weights for, a fixed part `off` of the logit (0 unless some weights are held), the label and its weight.
 * The first weight is the bias and is not penalised.
 */
function newtonFit(rows, init) {
  const k = init.length;
  let w = [...init];
  for (let it = 0; it < 50; it++) {
    const g = new Array(k).fill(0);
    const H = Array.from({ length: k }, () => new Array(k).fill(0));
    for (const { z, off, y, weight } of rows) {
      const p = 1 / (1 + Math.exp(-(off + dot(w, z))));
      for (let i = 0; i < k; i++) {
        g[i] += weight * (p - y) * z[i];
        for (let j = 0; j < k; j++) H[i][j] += weight * p * (1 - p) * z[i] * z[j];
      }
    }
    for (let i = 1; i < k; i++) {
      g[i] += L2 * w[i];
      H[i][i] += L2;
    }
    const step = solve(H, g);
    w = w.map((wi, i) => wi - step[i]);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
}

/** Every weight free. */
const logisticFit = (data) =>
  newtonFit(
    data.map((r) => ({ ...r, z: r.x, off: 0 })),
    new Array(NAMES.length).fill(0),
  );

/** Gaussian elimination with partial pivoting. */
function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c || M[c][c] === 0) continue;
      const f = M[r][c] / M[c][c];
      for (let j = c; j <= n; j++) M[r][j] -= f * M[c][j];
    }
  }
  return M.map((row, i) => (row[i] === 0 ? 0 : row[n] / row[i]));
}

/** `high` count and precision, Brier score, and mean score against share right, for scores from `w`. */
function report(rows, weightsFor) {
  let high = 0;
  let highOk = 0;
  let brier = 0;
  let sum = 0;
  let right = 0;
  for (const r of rows) {
    const p = Math.min(r.cap, 1 / (1 + Math.exp(-dot(weightsFor(r), r.x))));
    if (p >= 0.95) {
      high++;
      highOk += r.y;
    }
    brier += (p - r.y) ** 2;
    sum += p;
    right += r.y;
  }
  const n = rows.length || 1;
  const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)} %` : "n/a");
  return `${String(high).padStart(4)} ${pct(highOk, high).padStart(8)} | Brier ${(brier / n).toFixed(3)} | mean score ${(sum / n).toFixed(2)} vs right ${(right / n).toFixed(2)}`;
}

// The weights engine.ts has now, read from its source so the comparison is with what ships: the short-text
// weights (CALIBRATION) and the long-text ones (CALIBRATION_LONG, for more than LONG_TEXT known words).
const source = read("src/engines/classify/engine.ts");
const weightsOf = (name) => {
  const block = source.slice(source.indexOf(`const ${name}`));
  return NAMES.map((n) => Number(new RegExp(`\\b${n}: (-?[0-9.]+)`).exec(block)?.[1] ?? 0));
};
const CURRENT = weightsOf("CALIBRATION = {");
const CURRENT_LONG = weightsOf("CALIBRATION_LONG");
const LONG_TEXT = Number(/const LONG_TEXT = (\d+)/.exec(source)?.[1] ?? 15);
const isLong = (e) => Math.exp(e.x[7]) - 1 > LONG_TEXT;

/**
 * The long-text weights with only the bias and the rulings' agreement (votes, centroid) free, the others held at
 * their current values: what engine.ts ships ("agreement refit"). A free refit of every long-text weight lowers the
 * Brier score a little more but gives a third as many `high` answers at no better precision.
 */
const FREE = [0, NAMES.indexOf("votes"), NAMES.indexOf("centroid")];
function agreementFit(data, base) {
  const rows = data.map((r) => ({
    ...r,
    off: r.x.reduce((a, xi, i) => a + (FREE.includes(i) ? 0 : base[i] * xi), 0),
    z: FREE.map((i) => r.x[i]),
  }));
  const w = newtonFit(
    rows,
    FREE.map((i) => base[i]),
  );
  const out = [...base];
  FREE.forEach((i, k) => {
    out[i] = w[k];
  });
  return out;
}

const dev = DEV.flatMap(([file, weight]) => examples(file).map((e) => ({ ...e, weight })));
const fitted = logisticFit(dev.filter((e) => !isLong(e)));
const fittedLong = logisticFit(dev.filter(isLong));
// Held at the weights before the agreement terms (0), so the refit is reproducible from the shipped ones.
const agreementLong = agreementFit(
  dev.filter(isLong),
  CURRENT_LONG.map((w, i) => (FREE.slice(1).includes(i) ? 0 : w)),
);

console.log(`weights (name: current -> fitted), texts of ${LONG_TEXT} known words or fewer | longer`);
for (const [i, n] of NAMES.entries())
  console.log(
    `  ${n}: ${CURRENT[i]} -> ${fitted[i].toFixed(2)} | ${CURRENT_LONG[i]} -> ${fittedLong[i].toFixed(2)} (agreement refit ${agreementLong[i].toFixed(2)})`,
  );
console.log("\n| file | weights | high n | high right @4 | calibration |\n|---|---|---|---|---|");
for (const file of [...DEV.map(([f]) => f), ...HELD_OUT]) {
  const rows = examples(file);
  for (const [name, short, long] of [
    ["current", CURRENT, CURRENT_LONG],
    ["fitted", fitted, fittedLong],
    ["agreement refit", CURRENT, agreementLong],
  ])
    console.log(
      `| ${file.replace("bench/data/", "")} | ${name} | ${report(rows, (r) => (isLong(r) ? long : short))} |`,
    );
}
