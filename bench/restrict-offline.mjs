/**
 * Offline report for the restricted-goods checks: runs the evaluation set (bench/restrict-eval.json) and a
 * 100-item timing through the matcher itself in Node, with the rules exactly as the loader builds them, and
 * writes the generated part of bench/results/restrict.md. No server, no D1, one core for a few seconds:
 *
 *   node --import tsx bench/restrict-offline.mjs            # print
 *   node --import tsx bench/restrict-offline.mjs --write    # also update bench/results/restrict.md
 *
 * `--root DIR` runs the engine and data of another checkout (e.g. an older commit exported with
 * `git archive`), so a change can be measured before and after on the same set.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { evaluate, score, toMarkdown } from "./restrict-eval.mjs";
import { requests } from "./scenarios/restrict.mjs";

const here = resolve(import.meta.dirname, "..");
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const root = resolve(arg("--root") ?? here);
const engine = await import(pathToFileURL(join(root, "src/engines/restrict/engine.ts")).href);
const loader = await import(pathToFileURL(join(root, "scripts/data/restrictions.mjs")).href);
const rows = loader.readRules();
const asOf = "2026-11-24";

/** A loaded row in the engine's shape (as the service builds it from D1). */
const toRule = (r) => ({
  id: `restriction_${r.id}`,
  source: "platform",
  imposingCountry: r.imposing_country,
  direction: r.direction,
  ruleType: r.rule_type,
  hsPrefix: r.hs_prefix,
  keywords: r.keywords,
  excludeKeywords: r.exclude_keywords,
  originCountry: r.origin_country,
  destinationCountries: r.destination_countries,
  exceptCountries: r.except_countries ?? null,
  title: r.title,
  summary: r.summary,
  agency: r.agency,
  agencyFlag: r.agency_flag,
  requirement: r.requirement,
  sourceUrl: r.source_url,
  sourceRef: r.source_ref,
  validFrom: r.valid_from,
  validTo: r.valid_to,
  family: r.family ?? null,
  reviewedOn: r.reviewed_on ?? null,
});

let t0 = performance.now();
const index = engine.compileRules(rows.map(toRule));
const compileMs = performance.now() - t0;

const evalSet = JSON.parse(readFileSync(join(here, "bench/restrict-eval.json"), "utf8"));
const results = await evaluate(evalSet, rows, async (c) =>
  engine.checkItem([index], { destination: c.destination_country, origin: c.origin_country ?? null, asOf }, c.item),
);

// Timing: the benchmark's own 100-item request, checked in process (median of 200 runs after 50 warm-up).
const body = requests()[0].body;
const once = () => {
  for (const item of body.items)
    engine.checkItem([index], { destination: body.destination_country, origin: body.origin_country, asOf }, item);
};
for (let i = 0; i < 50; i++) once();
const times = [];
for (let i = 0; i < 200; i++) {
  t0 = performance.now();
  once();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const median = times[100];
const p95 = times[190];

const dev = score(results.filter((r) => r.split === "dev"));
const test = score(results.filter((r) => r.split === "test"));
const fourth = score(results.filter((r) => r.batch === "fourth"));
const importers = new Set(rows.filter((r) => r.direction === "IMPORT").map((r) => r.imposing_country));
const summary = [
  `Rules: ${rows.length} (${importers.size} importing jurisdictions). Compile ${compileMs.toFixed(1)} ms once per isolate and data version; 100-item check (bench scenario body, US ← CN) median ${median.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms in process (Node ${process.version}).`,
  "",
  "| split | recall | right label (of caught) | false flags on everyday items |",
  "| --- | --- | --- | --- |",
  `| dev | ${(dev.recall * 100).toFixed(1)}% (${dev.caught}/${dev.restricted}) | ${(dev.label * 100).toFixed(1)}% (${dev.right}/${dev.caught}) | ${(dev.falseFlagRate * 100).toFixed(1)}% (${dev.flagged}/${dev.clean}) |`,
  `| test | ${(test.recall * 100).toFixed(1)}% (${test.caught}/${test.restricted}) | ${(test.label * 100).toFixed(1)}% (${test.right}/${test.caught}) | ${(test.falseFlagRate * 100).toFixed(1)}% (${test.flagged}/${test.clean}) |`,
  `| test, fourth batch only (written at f8e8820, never tuned on) | ${(fourth.recall * 100).toFixed(1)}% (${fourth.caught}/${fourth.restricted}) | ${(fourth.label * 100).toFixed(1)}% (${fourth.right}/${fourth.caught}) | ${(fourth.falseFlagRate * 100).toFixed(1)}% (${fourth.flagged}/${fourth.clean}) |`,
].join("\n");
const generated = `${summary}\n\n${toMarkdown(results)}`;
console.log(generated);

if (process.argv.includes("--write")) {
  const path = join(here, "bench/results/restrict.md");
  const doc = readFileSync(path, "utf8");
  const start = "<!-- restrict-offline:start -->";
  const end = "<!-- restrict-offline:end -->";
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${path} has no ${start} … ${end} section`);
  writeFileSync(path, `${doc.slice(0, a + start.length)}\n${generated}\n${doc.slice(b)}`);
}
