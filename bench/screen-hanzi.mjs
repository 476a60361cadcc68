/**
 * Offline evaluation of names written in Chinese characters against the bundled SDN and UN lists (issue 21): listed
 * North Korean persons as Chinese-language sources write them (the characters of their Sino-Korean names), and
 * innocent Chinese names. Engine in this Node process; run `node_modules/.bin/node bench/screen-hanzi.mjs
 * [checkout]` (default: this one; another checkout's engine and lists for a before / after).
 *
 * Listed persons: bench/data/screen-hanzi-listed.tsv, each row the page the characters were read from and the
 * page's words naming the person; the expected entry is the list's own Latin entry. The split is a FNV-1a hash of
 * the entry id (even: development, odd: test). Innocent names: bench/data/screen-hanzi-innocents.txt (its header
 * gives the source). A hit at 0.7 on them is a false positive.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fnv1a as fnv, screenEngine } from "./lib/screen-engine.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const rows = (file) =>
  readFileSync(join(here, "data", file), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"));

const { screen } = await screenEngine(process.argv[2]);
const listed = rows("screen-hanzi-listed.tsv")
  .slice(1)
  .map((l) => l.split("\t"))
  .map(([id, name, hanzi, url]) => ({ id, name, hanzi, url }));
const found = { dev: [0, 0], test: [0, 0] };
const misses = [];
for (const it of listed) {
  const split = fnv(it.id) % 2 === 0 ? "dev" : "test";
  const hit = screen(it.hanzi).find((h) => h.id === it.id);
  found[split][1]++;
  if (hit && hit.score >= 0.7) found[split][0]++;
  else misses.push(`${split} ${it.hanzi} (${it.name}, ${it.id}): ${screen(it.hanzi)[0]?.name ?? "nothing"}`);
}
const pct = ([a, n]) => `${a}/${n} (${n ? ((100 * a) / n).toFixed(1) : "-"} %)`;
console.log(
  `Listed North Korean persons in Chinese characters, found at 0.7: dev ${pct(found.dev)}, test ${pct(found.test)}`,
);
for (const m of misses) console.log(`  missed ${m}`);

const innocents = rows("screen-hanzi-innocents.txt");
const flagged = [];
for (const name of innocents) {
  const hits = screen(name).filter((h) => h.score >= 0.7);
  if (hits.length) flagged.push(`${name} → ${hits[0].name} ${hits[0].score}`);
}
console.log(`Innocent Chinese names flagged at 0.7: ${pct([flagged.length, innocents.length])}`);
for (const f of flagged) console.log(`  ${f}`);
