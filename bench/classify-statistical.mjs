#!/usr/bin/env node
/**
 * How often the full 10-digit US code is right, on the ruling-grade sets (each row carries the 10-digit HTS code
 * its CBP ruling gave): the engine ranks as POST /classify does for the US, the statistical line is chosen under
 * its top 8-digit line (src/engines/classify/statistical.ts, data/hs/lines-us10.json), and the answer is compared
 * with the ruling's code.
 *
 *   node bench/classify-statistical.mjs [bench/data/file.tsv ...]
 *
 * Reported per file: top-1 at 8 digits, at 10 digits, and the 10-digit share among the items whose 8-digit line was
 * right and whose ruling code is still a line of the current schedule (older rulings may name retired suffixes).
 */
import { loadEngine, readRepoFile, referenceData } from "./lib/classify-engine.mjs";

const E = await loadEngine();
const S = await loadEngine("statistical");
const { hs, lines, synonyms } = referenceData();
const index = E.buildIndex(hs, lines, synonyms);
const us10 = JSON.parse(readRepoFile("data/hs/lines-us10.json"));
const known = new Set(Object.values(us10).flatMap((l) => l.map(([c]) => c)));

const files = process.argv.slice(2);
for (const file of files.length
  ? files
  : ["bench/data/classify-rulings-dev.tsv", "bench/data/classify-rulings-test.tsv"]) {
  const rows = readRepoFile(file)
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.split("\t"))
    .map(([d, code]) => ({ d: d.trim(), code: code.replace(/\D/g, "") }))
    .filter((r) => r.code.length === 10);
  let at8 = 0;
  let at10 = 0;
  let eligible = 0;
  let eligibleRight = 0;
  for (const { d, code } of rows) {
    const r = E.rank(index, d, { schedule: "US" });
    if (!r.ok) continue;
    const top = r.suggestions[0];
    if (top.code !== code.slice(0, 8)) continue;
    at8++;
    const candidates = (us10[top.code] ?? []).map(([c, description]) => ({ code: c, description }));
    const pick = S.pickStatistical(d, top.code, candidates);
    const ok = pick?.code === code;
    if (ok) at10++;
    if (known.has(code)) {
      eligible++;
      if (ok) eligibleRight++;
    }
  }
  const pct = (a, n) => (n ? `${((100 * a) / n).toFixed(1)}%` : "n/a");
  console.log(`## ${file} (${rows.length} items with a 10-digit code)`);
  console.log(`top-1 at 8 digits: ${pct(at8, rows.length)} (${at8})`);
  console.log(`top-1 at 10 digits: ${pct(at10, rows.length)} (${at10})`);
  console.log(
    `10 digits right when the 8-digit line is right and the ruling's code is a current line: ${pct(eligibleRight, eligible)} (${eligibleRight}/${eligible})\n`,
  );
}
