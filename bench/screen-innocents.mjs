/**
 * False positives of the screening engine on innocent person names, per culture (issue 21). The names are
 * full names of ordinary people recombined from common given names and surnames of 19 cultures, each list
 * taken from a public source named in bench/data/innocent-names.json (its `sources` per culture; `_note`
 * says which cultures rest on the same data as src/engines/screen/common-names.ts). None of them is meant
 * to be a listed person, so a hit at the 0.7 threshold is a false positive; the goal is at most 1 %.
 *
 * Per culture, 200 distinct names are built with a seeded PRNG (mulberry32, seed fixed below, mixed with the
 * culture's key) from the culture's `pattern`: one shape picked at random per name, so a culture with a
 * two-part and a three-part shape ("given surname | given father surname") gets about half of each. Women
 * get women's given names, patronymics, middle names and surname forms where the file gives them. A stable
 * FNV-1a hash of the name splits them: even → dev (the split to look at while changing the engine), odd →
 * test (held out). Each name is screened as an individual against the bundled SDN and UN lists
 * (bench/lib/screen-engine.mjs). A flagged name counts as a homonym when one of its hits matches word for
 * word (explanation.unmatched_query and unmatched_listed both empty: a namesake, which screening must flag)
 * and as a partial match otherwise (the false positives a scorer can avoid); "same spelling" counts the
 * homonyms whose every word pair is the same word up to spelling (similarity ≥ 0.95), the rest being fuzzy
 * (edit distance, phonetic, words joined into one).
 *
 * Run `node_modules/.bin/node bench/screen-innocents.mjs [--misses] [checkout]`: a markdown table per
 * culture; --misses also lists every flagged name with the listed name it hit, the score and the
 * explanation. `checkout` screens with another checkout's engine and lists (default: this one).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fnv1a, screenEngine } from "./lib/screen-engine.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SEED = 20261201;
const PER_CULTURE = 200;
const THRESHOLD = 0.7;

const args = process.argv.slice(2);
const showMisses = args.includes("--misses");
const checkout = args.find((a) => !a.startsWith("--"));
const { E, index } = await screenEngine(checkout);
const data = JSON.parse(readFileSync(join(ROOT, "bench", "data", "innocent-names.json"), "utf8"));

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The culture's full names: `PER_CULTURE` distinct names (fewer if the lists cannot make that many). */
function buildNames(key, c) {
  const rand = mulberry32(SEED ^ fnv1a(key));
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const pickOther = (xs, not) => {
    const rest = xs.filter((x) => !not.includes(x));
    return rest.length ? pick(rest) : undefined;
  };
  const female = new Set(c.given_female ?? []);
  const pools = { female: c.given.filter((g) => female.has(g)), male: c.given.filter((g) => !female.has(g)) };
  const shapes = c.pattern.split("|").map((p) => p.trim().split(/\s+/));
  const surnameFor = (s, sex) => (sex === "female" ? (c.surname_female_forms?.[s] ?? s) : s);
  const names = new Map();
  for (let attempt = 0; names.size < PER_CULTURE && attempt < PER_CULTURE * 100; attempt++) {
    const shape = pick(shapes);
    const sex = pools.female.length && (!pools.male.length || rand() < 0.5) ? "female" : "male";
    const given = pick(pools[sex]);
    const surname = pick(c.surnames);
    const words = [];
    let ok = true;
    for (const slot of shape) {
      let w;
      if (slot === "given") w = given;
      else if (slot === "given2") w = pickOther(pools[sex], [given]);
      else if (slot === "surname") w = surnameFor(surname, sex);
      else if (slot === "surname2") w = surnameFor(pickOther(c.surnames, [surname]) ?? "", sex) || undefined;
      else if (slot === "father") w = pickOther(c.father_names ?? [], [given]);
      else if (slot === "patronymic") w = pick(c.patronymics?.[sex] ?? []);
      else if (slot === "middle") w = pick(c.middle?.[sex] ?? []);
      else throw new Error(`${key}: unknown pattern slot ${slot}`);
      if (w === undefined) ok = false;
      else words.push(w);
    }
    if (!ok) continue;
    const name = words.join(" ");
    if (!names.has(name)) names.set(name, { name, words: shape.length, split: fnv1a(name) % 2 === 0 ? "dev" : "test" });
  }
  return [...names.values()];
}

const homonym = (h) => h.explanation.unmatched_query.length === 0 && h.explanation.unmatched_listed.length === 0;
/** A homonym whose every word pair is the same word up to spelling (exact or transliteration, similarity ≥ 0.95). */
const sameSpelling = (h) => homonym(h) && h.explanation.matched.every((m) => m.sim >= 0.95);
const pct = (k, n) => (n ? `${((100 * k) / n).toFixed(1)} %` : "–");

const rows = [];
const flaggedAll = [];
const total = { dev: 0, devFp: 0, test: 0, testFp: 0, homonym: 0, sameSpelling: 0, partial: 0 };
for (const [key, c] of Object.entries(data.cultures)) {
  const r = { key, dev: 0, devFp: 0, test: 0, testFp: 0, homonym: 0, sameSpelling: 0, partial: 0 };
  for (const n of buildNames(key, c)) {
    r[n.split]++;
    const hits = E.screen(index, { name: n.name, type: "individual" }).filter((h) => h.score >= THRESHOLD);
    if (!hits.length) continue;
    r[`${n.split}Fp`]++;
    const kind = hits.some(homonym) ? "homonym" : "partial";
    r[kind]++;
    if (hits.some(sameSpelling)) r.sameSpelling++;
    flaggedAll.push({ culture: key, ...n, kind, hit: hits.find(homonym) ?? hits[0], hits: hits.length });
  }
  rows.push(r);
  for (const k of Object.keys(total)) total[k] += r[k];
}

console.log(`Innocent names screened as individuals at ${THRESHOLD} (${PER_CULTURE} per culture, seed ${SEED})\n`);
console.log(
  "| culture | n dev | FP dev | FP dev % | n test | FP test | FP test % | homonyms | of which same spelling | partial |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of [...rows, { key: "**all**", ...total }])
  console.log(
    `| ${r.key} | ${r.dev} | ${r.devFp} | ${pct(r.devFp, r.dev)} | ${r.test} | ${r.testFp} | ${pct(r.testFp, r.test)} | ${r.homonym} | ${r.sameSpelling} | ${r.partial} |`,
  );

if (showMisses) {
  console.log("\nFlagged names (the homonym hit when there is one, else the best hit):\n");
  for (const f of flaggedAll) {
    const e = f.hit.explanation;
    const matched = e.matched.map((m) => `${m.query}=${m.listed} (${m.feature} ${m.sim.toFixed(2)})`).join(", ");
    console.log(
      `- ${f.culture}/${f.split} ${f.words}w "${f.name}" → "${f.hit.matchedName}" ` +
        `(${index.entries[f.hit.entry].id}, ${index.entries[f.hit.entry].entryType}) ` +
        `${f.hit.score.toFixed(3)} ${f.kind}${f.hits > 1 ? ` (+${f.hits - 1} more)` : ""}; features: ${e.features.join(", ")}; ` +
        `matched: ${matched}; unmatched query: [${e.unmatched_query.join(" ")}]; unmatched listed: [${e.unmatched_listed.join(" ")}]`,
    );
  }
}
