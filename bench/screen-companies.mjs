#!/usr/bin/env node
/**
 * False positives of the screening engine on real company names (issue 21): the 503 S&P 500 constituents
 * (bench/data/companies-sp500.json, with its source), none of them a listed party, each screened with no type
 * and as an entity against the bundled SDN and UN lists; a name counts once if either flags it at 0.7. The
 * same FNV-1a split as bench/screen-innocents.mjs (even → dev, odd → test). A hit whose every word pair matched
 * (nothing unmatched on either side but legal forms) is reported as a namesake.
 *
 *   node_modules/.bin/node bench/screen-companies.mjs [--misses]
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fnv1a, screenEngine } from "./lib/screen-engine.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const THRESHOLD = 0.7;
const showMisses = process.argv.includes("--misses");
const { E, index } = await screenEngine();
const { names } = JSON.parse(readFileSync(join(ROOT, "bench", "data", "companies-sp500.json"), "utf8"));

const counts = { dev: { n: 0, flagged: 0, namesakes: 0 }, test: { n: 0, flagged: 0, namesakes: 0 } };
for (const name of names) {
  const split = fnv1a(name) % 2 === 0 ? "dev" : "test";
  counts[split].n++;
  const hit = [undefined, "entity"]
    .flatMap((type) => E.screen(index, type ? { name, type } : { name }))
    .filter((h) => h.score >= THRESHOLD)
    .sort((a, b) => b.score - a.score)[0];
  if (!hit) continue;
  counts[split].flagged++;
  const namesake = hit.explanation?.unmatched_query?.length === 0;
  if (namesake) counts[split].namesakes++;
  if (showMisses) {
    const e = hit.explanation;
    const pairs = e?.matched?.map((m) => `${m.query}=${m.listed} (${m.feature})`).join(", ");
    console.log(
      `- ${split} "${name}" → ${index.entries[hit.entry].id} ${hit.score}: ${pairs}; unmatched listed ${JSON.stringify(e?.unmatched_listed)}`,
    );
  }
}
console.log("| split | names | flagged at 0.7 | % | of which every query word matched |\n|---|---:|---:|---:|---:|");
for (const [split, c] of Object.entries(counts))
  console.log(`| ${split} | ${c.n} | ${c.flagged} | ${((100 * c.flagged) / c.n).toFixed(1)} % | ${c.namesakes} |`);
