#!/usr/bin/env node
/**
 * What each stage of one classification costs in process (Node, warm, no Worker): the ranking, the US statistical
 * line, the precedent lookup, and the `ai` mode's prompt building and answer parsing (the model call itself is a
 * remote service and is not measured here). Over every description of the four evaluation sets.
 *
 *   node bench/classify-stages.mjs
 */
import { loadEngine, readRepoFile, referenceData, referenceRulings } from "./lib/classify-engine.mjs";

const E = await loadEngine();
const S = await loadEngine("statistical");
const P = await loadEngine("precedents");
const M = await loadEngine("model-prompts");
const { hs, lines, synonyms } = referenceData();
const index = E.buildIndex(hs, lines, synonyms);
const us10 = JSON.parse(readRepoFile("data/hs/lines-us10.json"));
const read = (f) =>
  readRepoFile(f)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.split("\t"));
// The precedents the Worker weighs (data/hs/rulings.tsv).
const rulings = referenceRulings();
const built = performance.now();
const precedents = P.buildPrecedents(rulings);
// Once per dataset version (then stored): the rulings' postings, the centroids and the two models' training.
console.log(
  `precedents built (${rulings.length} rulings, with the heading and subheading models) in ${(performance.now() - built).toFixed(0)} ms`,
);
const texts = [
  "bench/data/classify-eval.tsv",
  "bench/data/classify-holdout.tsv",
  "bench/data/classify-rulings-dev.tsv",
  "bench/data/classify-rulings-test.tsv",
].flatMap((f) => read(f).map(([d]) => d));

const stages = {
  rank: [],
  statistical: [],
  precedents: [],
  "heading centroids": [],
  "heading model": [],
  "subheading model": [],
  "ai prompt + parse": [],
};
const time = (name, f) => {
  const t = performance.now();
  const out = f();
  stages[name].push(performance.now() - t);
  return out;
};
for (let round = 0; round < 5; round++)
  for (const text of texts) {
    const r = time("rank", () => E.rank(index, text, { schedule: "US", limit: 5 }));
    if (!r.ok) continue;
    time("statistical", () =>
      r.suggestions.map((s) =>
        S.pickStatistical(
          text,
          s.code,
          (us10[s.code] ?? []).map(([code, description]) => ({ code, description })),
        ),
      ),
    );
    time("precedents", () => P.nearestRulings(precedents, text, { limit: 5, min: P.VOTE_SIMILARITY }));
    time("heading centroids", () => P.nearestHeadings(precedents, text));
    time("heading model", () => P.likelyHeadings(precedents, text));
    const likely = P.likelyHeadings(precedents, text);
    time("subheading model", () => P.likelySubheadings(precedents, text, likely));
    const candidates = r.suggestions.map((s) => ({
      code: s.code,
      chapter: { number: s.chapter.code, description: s.chapter.description },
      heading: { number: s.heading.code, description: s.heading.description },
      subheading: { number: s.subheading.code, description: s.subheading.description },
      tariff: { number: s.tariff.code, description: s.tariff.description },
    }));
    time("ai prompt + parse", () => {
      M.rerankMessages(text, candidates);
      return M.parseRerank({ response: { code: candidates.at(-1).code, reasoning: "GRI 1." } }, candidates);
    });
  }
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))];
console.log(`${texts.length} descriptions × 5 rounds, in-process, ms per call:\n`);
console.log("| stage | p50 | p95 |\n|---|---|---|");
for (const [name, xs] of Object.entries(stages))
  console.log(`| ${name} | ${q(xs, 0.5).toFixed(3)} | ${q(xs, 0.95).toFixed(3)} |`);
