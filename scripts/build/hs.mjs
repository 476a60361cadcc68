#!/usr/bin/env node
/**
 * Derives data/hs/ from the published originals (scripts/build/sources.mjs: --sources <dir>, default ../shared/data) (run only to refresh; the outputs are committed):
 *
 *   hs2022.json   [code, parent, section, description] for every chapter, heading and subheading of HS2022
 *                 (the Comtrade "99/9999/999999 not specified" rows and the TOTAL row dropped)
 *   lines-us.json [hts8, description]: USITC tariff database 2025, chapters 01-97, the row in force
 *                 (latest end date) per HTS-8, common USITC abbreviations spelled out
 *   lines-gb.json [code, description]: UK Global Tariff 2021 commodity codes (8 and 10 digits, zero-padded)
 *
 * The EU schedule is derived from lines-gb.json by the dataset module (scripts/data/hs.mjs), see SOURCE.md.
 *
 * National lines whose first six digits are not an HS2022 subheading (HS2017 codes in the 2021 UK file) are
 * kept; the engine ignores them, and counts are printed here and recorded in SOURCE.md.
 */
import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { dataDir } from "../data/lib.mjs";
import { parseCsv } from "./csv.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const shared = requireSources(sourcesDir(), [
  "hs-datasets/harmonized-system.csv",
  "us-usitc-tariff-db/tariff_database_2025_06062025.csv",
  "uk-global-tariff-2021/ukgt_2021_observations.csv",
]);
const out = join(dataDir, "hs");

function table(path) {
  const text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  const [head, ...body] = parseCsv(text).filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h.trim(), (r[i] ?? "").trim()])));
}

const clean = (s) => s.replace(/\s+/g, " ").trim();

// HS2022 nomenclature, by the parser the dataset registry runs on an uploaded file (TypeScript, through tsx).
const { hsNomenclature } = await tsImport("../../src/engines/datasets/hs.ts", import.meta.url);
const hsIssues = [];
const hs = await hsNomenclature(
  createReadStream(join(shared, "hs-datasets", "harmonized-system.csv"), { encoding: "utf8" }),
  hsIssues,
);
if (hsIssues.length) throw new Error(`harmonized-system.csv: ${hsIssues.map((i) => i.message).join("; ")}`);
const hs6 = new Set(hs.filter((r) => r[0].length === 6).map((r) => r[0]));

// USITC abbreviations in brief descriptions, spelled out so that they match everyday words.
const US_ABBREVIATIONS = [
  [/\bftwear\b|\bftwr\b|\bfootwr\b/gi, "footwear"],
  [/\bw\/o\b/gi, "without "],
  [/\bw\/(?=\w)/gi, "with "],
  [/\bw\/\s/gi, "with "],
  [/\bk\/c\b/gi, "knitted or crocheted"],
  [/\bnesoi\b/gi, "not elsewhere specified"],
  [/\bmmf\b/gi, "man-made fibers"],
  [/\bsim\b/gi, "similar"],
  [/\btext mat\b/gi, "textile materials"],
  [/\bo\/than\b/gi, "other than"],
  [/\bo\/t\b/gi, "other than"],
  [/\bcont\b/gi, "containing"],
  [/\bwt\b/gi, "weight"],
  [/\bval\.?(?=\s)/gi, "valued"],
  [/\bpr\b/gi, "pair"],
  [/\bplast\b/gi, "plastic"],
  [/\brub\b/gi, "rubber"],
  [/\bveg\b/gi, "vegetable"],
  [/\bmach\b/gi, "machines"],
  [/\belec\b/gi, "electric"],
  [/\bequip\b/gi, "equipment"],
  [/\bapp\b/gi, "apparatus"],
  [/\bm&b\b/gi, "men's or boys'"],
  [/\bw&g\b/gi, "women's or girls'"],
  [/\bstl\b/gi, "steel"],
  [/\bss\b/gi, "stainless steel"],
  [/\bal\b/gi, "aluminum"],
];
const spellOut = (s) => clean(US_ABBREVIATIONS.reduce((acc, [re, to]) => acc.replace(re, to), s));

const usBest = new Map();
for (const r of table(join(shared, "us-usitc-tariff-db", "tariff_database_2025_06062025.csv"))) {
  if (!/^\d{8}$/.test(r.hts8) || Number(r.hts8.slice(0, 2)) > 97) continue;
  const [m, d, y] = r.end_effective_date.split("/").map(Number);
  const end = (2000 + (y ?? 0)) * 10000 + (m ?? 0) * 100 + (d ?? 0);
  const prev = usBest.get(r.hts8);
  if (!prev || end >= prev.end) usBest.set(r.hts8, { end, description: spellOut(r.brief_description) });
}
const us = [...usBest].map(([code, v]) => [code, v.description]).sort((a, b) => a[0].localeCompare(b[0]));

// UK Global Tariff 2021: leading zero lost, so 7 → 8 and 9 → 10 digits.
const gb = [];
for (const r of table(join(shared, "uk-global-tariff-2021", "ukgt_2021_observations.csv"))) {
  let code = r.commodity;
  if (!/^\d+$/.test(code)) continue;
  if (code.length === 7 || code.length === 9) code = `0${code}`;
  if (code.length !== 8 && code.length !== 10) continue;
  gb.push([code, clean(r.description)]);
}
gb.sort((a, b) => a[0].localeCompare(b[0]));
const gbUnique = [...new Map(gb.map((r) => [r[0], r])).values()];

const notInHs = (lines) => lines.filter(([c]) => !hs6.has(c.slice(0, 6))).length;
const write = (name, rows) =>
  writeFileSync(join(out, name), `[\n${rows.map((r) => JSON.stringify(r)).join(",\n")}\n]\n`);
write("hs2022.json", hs);
write("lines-us.json", us);
write("lines-gb.json", gbUnique);
console.log(
  JSON.stringify({
    hs: {
      chapters: hs.filter((r) => r[0].length === 2).length,
      headings: hs.filter((r) => r[0].length === 4).length,
      subheadings: hs6.size,
    },
    us: { lines: us.length, not_hs2022: notInHs(us) },
    gb: { lines: gbUnique.length, not_hs2022: notInHs(gbUnique) },
  }),
);
