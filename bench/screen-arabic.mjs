/**
 * Offline evaluation of Arabic-script queries against listed names the lists give only in Latin letters
 * (issue 21, cross-script). Engine in this Node process; run `node_modules/.bin/node bench/screen-arabic.mjs`.
 *
 * Listed persons and entities: every entry of the bundled UN consolidated list (data/sanctions/un.jsonl.gz,
 * https://scsanctions.un.org/resources/xml/en/consolidated.xml) that carries a name in Arabic script. The index
 * is built from the SDN and UN lists with every Arabic-script name taken out, so the Arabic name must find the
 * entry through its Latin spellings; the query is the list's own Arabic name. Items fall into a development
 * split and a test split by a hash of the entry's reference.
 *
 * Innocent names: the same lists' Arabic names recombined, the first word of one listed name with the last word
 * of another (and, for three words, a middle word of a third): real Arabic name words in combinations the lists
 * do not hold. A hit at 0.7 is a false positive unless some listed name carries exactly those words (reported
 * apart as a namesake).
 */
import { bundledModule, fnv1a as fnv, sanctionsInput } from "./lib/screen-engine.mjs";

const E = await bundledModule("src/engines/screen/index.ts");
const { readList } = await import("../scripts/data/sanctions.mjs");
const input = sanctionsInput(readList);
const arabic = (s) => /\p{Script=Arabic}/u.test(s);
const latinOnly = input.map((e) => ({ ...e, altNames: e.altNames.filter((n) => !arabic(n)) }));
const index = E.ScreenIndex.build(latinOnly);
const items = [];
// The Arabic words of the list's Arabic-script name (some carry a Latin gloss in brackets beside them).
const arabicPart = (n) =>
  n
    .split(/[\s()]+/)
    .filter((w) => arabic(w))
    .join(" ");
for (const e of input)
  for (const n of e.altNames) if (arabic(n)) items.push({ id: e.id, type: e.entryType, query: arabicPart(n) });
const split = { dev: [0, 0], test: [0, 0], "dev persons": [0, 0], "test persons": [0, 0] };
const misses = [];
for (const it of items) {
  const s = fnv(it.id) % 2 === 0 ? "dev" : "test";
  const hits = E.screen(index, { name: it.query });
  const found = hits.some((h) => index.entries[h.entry].id === it.id && h.score >= 0.7);
  for (const k of it.type === "individual" ? [s, `${s} persons`] : [s]) {
    split[k][0]++;
    if (found) split[k][1]++;
  }
  if (!found)
    misses.push(
      `${s} ${it.id} ${it.query} | ${input.find((e) => e.id === it.id).name} | top ${hits[0] ? `${index.entries[hits[0].entry].id} ${hits[0].score}` : "-"}`,
    );
}
for (const [s, [n, ok]] of Object.entries(split))
  console.log(`${s}: ${ok}/${n} found (${((100 * ok) / n).toFixed(1)} %)`);
// Innocents: recombined words of the persons' Arabic names.
const persons = items
  .filter((i) => i.type === "individual")
  .map((i) => i.query.split(/\s+/).filter(Boolean))
  .filter((w) => w.length >= 2);
const fullNames = new Set(items.map((i) => i.query.replace(/\s+/g, " ").trim()));
let n = 0,
  flagged = 0,
  namesakes = 0;
const fps = [];
for (let i = 0; i < persons.length; i++) {
  const a = persons[i],
    b = persons[(i * 7 + 3) % persons.length],
    c = persons[(i * 13 + 5) % persons.length];
  for (const words of [
    [a[0], b.at(-1)],
    [a[0], c[Math.floor(c.length / 2)], b.at(-1)],
  ]) {
    const q = words.join(" ");
    if (fullNames.has(q)) continue;
    n++;
    const hits = E.screen(index, { name: q }).filter((h) => h.score >= 0.7);
    if (hits.length === 0) continue;
    const same = hits.some(
      (h) => h.explanation.unmatched_query.length === 0 && h.explanation.unmatched_listed.length === 0,
    );
    if (same) namesakes++;
    else {
      flagged++;
      fps.push(`${q} -> ${hits[0].matchedName} ${hits[0].score}`);
    }
  }
}
console.log(
  `innocent recombined Arabic names: ${n}; flagged ${flagged} (${((100 * flagged) / n).toFixed(1)} %), every word matched (namesakes by skeleton) ${namesakes} (${((100 * namesakes) / n).toFixed(1)} %)`,
);
if (process.argv.includes("--misses")) {
  console.log(misses.join("\n"));
  console.log(fps.slice(0, 40).join("\n"));
}
