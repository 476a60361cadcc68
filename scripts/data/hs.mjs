/**
 * Dataset "hs": the HS2022 nomenclature, the national tariff lines (US HTS-8 and its 10-digit statistical lines,
 * UK commodity codes, EU CN8), the UK tariff's index phrases
 * and the curated retail vocabulary, from data/hs (see data/hs/SOURCE.md). The classification engine reads
 * these tables once per isolate and builds its index from them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "hs";
export const version = "hs2022.2024-01+us-hts2025.06+ukgt2021+syn13+ic1+us10-2026r10+rul13+ref1";
export const source =
  "HS2022 nomenclature (UN Comtrade labels via datasets/harmonized-system, ODC-PDDL); USITC tariff database 2025-06-06 (HTS-8, public domain); " +
  "UK Global Tariff 2021 (DIT, OGL v3; its 8-digit codes also serve as the EU CN8 schedule); " +
  "USITC HTS 2026 Revision 10 statistical lines (10-digit, public domain); curated retail vocabulary; " +
  "UK Online Trade Tariff search references (tariff index phrases, MIT, Crown Copyright); " +
  "CBP classification rulings (U.S. Government works) cited as precedents and weighed in the ranking";
export const tables = ["hs_nomenclature", "hs_tariff_lines", "hs_synonyms", "hs_rulings"];

const read = (name) => JSON.parse(readFileSync(join(dataDir, "hs", name), "utf8"));

/** Chapters kept in the fixture slice: enough for apparel, footwear, bags, electronics, toys, drinks. */
const FIXTURE_CHAPTERS = new Set(["09", "22", "33", "42", "61", "62", "64", "71", "84", "85", "95"]);

/**
 * Precedents the answers cite and the ranking weighs: the CBP classification rulings of data/hs/rulings.tsv
 * (scripts/build/rulings.mjs: ruling number, the code the ruling gave, date, subject line, CBP's description of
 * the goods, where the text was read). The citation URL is the ruling's own page on CBP's CROSS.
 */
export function readRulings() {
  const out = [];
  for (const line of readFileSync(join(dataDir, "hs", "rulings.tsv"), "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("ruling\t")) continue;
    const [ruling, code, date, subject, description] = line.split("\t");
    out.push([
      ruling,
      code,
      subject || description,
      description || null,
      date || null,
      `https://rulings.cbp.gov/ruling/${ruling}`,
    ]);
  }
  return out;
}

/**
 * The product terms: the curated file (`phrase|phrase<TAB>codes`, kind "curated") and the tariff authority's
 * search-term guidance (`term<TAB>codes`, kind "index"); one entry `[phrase, codes, kind]` per phrase.
 */
export function readSynonyms() {
  const out = [];
  for (const [file, kind] of [
    ["synonyms.tsv", "curated"],
    ["intercepts.tsv", "index"],
  ])
    for (const line of readFileSync(join(dataDir, "hs", file), "utf8").split("\n")) {
      if (!line.trim() || line.startsWith("#")) continue;
      const [phrases, codes] = line.split("\t");
      for (const phrase of phrases.split("|")) out.push([phrase.trim(), codes.trim(), kind]);
    }
  return out;
}

/**
 * The EU schedule: the 8-digit codes of the UK Global Tariff 2021 file, which on 2021-01-01 carried the EU
 * Combined Nomenclature over unchanged at 8 digits (its `cet_duty_rate` column is the EU rate). A CN8 that the
 * file lists only at 10 digits takes its HS subheading's description.
 */
export function euLines(gb, hs) {
  const hsDesc = new Map(hs.map((r) => [r[0], r[3]]));
  const eu = new Map();
  for (const [code, description] of gb) if (code.length === 8) eu.set(code, description);
  for (const [code] of gb) {
    const cn8 = code.slice(0, 8);
    if (!eu.has(cn8) && hsDesc.has(cn8.slice(0, 6))) eu.set(cn8, hsDesc.get(cn8.slice(0, 6)));
  }
  return [...eu].sort((a, b) => a[0].localeCompare(b[0]));
}

export async function rows({ fixture = false } = {}) {
  const keep = (code) => !fixture || FIXTURE_CHAPTERS.has(code.slice(0, 2));
  const hs = read("hs2022.json");
  const us = read("lines-us.json");
  // Statistical (10-digit) US lines: schedule "US10". Their wording feeds the index; the answer's national code
  // is chosen among them under the 8-digit line the ranking picked (src/engines/classify/statistical.ts).
  const us10 = Object.values(read("lines-us10.json")).flatMap((lines) => lines.map(([c, d]) => ["US10", c, d]));
  const gb = read("lines-gb.json");
  const eu = euLines(gb, hs);
  // Tariff index phrases: schedule "REF", index vocabulary only (src/engines/classify/engine.ts INDEX_ONLY); one
  // row per code (the table's key), its phrases joined by "; ".
  const phrases = new Map();
  for (const [phrase, code] of read("search-references.json"))
    phrases.set(code, [...(phrases.get(code) ?? []), phrase]);
  const refs = [...phrases]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([code, list]) => ["REF", code, list.join("; ")]);
  const lines = [
    ...us.map(([c, d]) => ["US", c, d]),
    ...gb.map(([c, d]) => ["GB", c, d]),
    ...eu.map(([c, d]) => ["EU", c, d]),
    ...us10,
    ...refs,
  ].filter((r) => keep(r[1]));
  return {
    hs_nomenclature: { columns: ["code", "parent", "section", "description"], rows: hs.filter((r) => keep(r[0])) },
    hs_tariff_lines: { columns: ["schedule", "code", "description"], rows: lines },
    hs_synonyms: {
      columns: ["id", "phrase", "codes", "kind"],
      rows: readSynonyms().map(([p, c, k], i) => [i + 1, p, c, k]),
    },
    hs_rulings: {
      columns: ["ruling_number", "code", "subject", "description", "ruling_date", "url"],
      rows: readRulings(),
    },
  };
}
