#!/usr/bin/env node
/**
 * Derives data/hs/rulings.tsv, the CBP classification rulings the engine reads as precedents (cited beside an
 * answer, and voting in the ranking: src/engines/classify/precedents.ts), from the labelled ruling files kept in
 * bench/data (each row with its ruling number and where its text was read; provenance in
 * bench/data/labelled/SOURCE.md and the files' own headers):
 *   - bench/data/classify-rulings-{dev,test}.tsv, bench/data/classify-rulings-cbp2026-{dev,test}.tsv:
 *     description, code, ruling number, date or page;
 *   - bench/data/labelled/us-cbp-subjects.tsv: subject lines;
 *   - bench/data/labelled/us-cbp-rulings.jsonl, us-cbp-rulings-2.jsonl, -3.jsonl ... -9.jsonl: subject line and
 *     description of ruling letters and summaries read from public pages (nine collections, each with its own
 *     evaluation pair).
 * One row per ruling (the first file naming it wins, in the order above); a ruling whose code's HS subheading is
 * not in the HS 2022 nomenclature (an older ruling under a subheading since deleted) is left out, as is one
 * without six digits of code. The text is CBP's own (a U.S. Government work, 17 U.S.C. 105). Run only to
 * refresh; the output is committed.
 *
 *   node scripts/build/rulings.mjs
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { dataDir, root } from "../data/lib.mjs";

/** The ruling's number as CROSS writes it in its page address: "NY L85866" → "L85866", "HQ H312456" → "H312456". */
export function rulingId(raw) {
  return String(raw ?? "")
    .trim()
    .replace(/^(?:NY|HQ|NYRR|PD)\s+/i, "")
    .replace(/\s+/g, "")
    .toUpperCase();
}

/** One line of text: tabs and line breaks become spaces. */
const clean = (s) =>
  String(s ?? "")
    .replace(/\s+/g, " ")
    .trim();

/** The rulings of one tab-separated file: `[id, code, date, subject, description, source]`. */
function fromTsv(file, pick) {
  const out = [];
  for (const line of readFileSync(join(root, file), "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#") || line.startsWith("id\t")) continue;
    out.push(pick(line.split("\t"), file));
  }
  return out;
}

/** The ruling letters read from public pages, each collection with the name of its evaluation pair. */
export const LETTER_FILES = [
  ["bench/data/labelled/us-cbp-rulings.jsonl", "pages"],
  ["bench/data/labelled/us-cbp-rulings-2.jsonl", "pages2"],
  ["bench/data/labelled/us-cbp-rulings-3.jsonl", "pages3"],
  ["bench/data/labelled/us-cbp-rulings-4.jsonl", "pages4"],
  ["bench/data/labelled/us-cbp-rulings-5.jsonl", "pages5"],
  ["bench/data/labelled/us-cbp-rulings-6.jsonl", "pages6"],
  ["bench/data/labelled/us-cbp-rulings-7.jsonl", "pages7"],
  ["bench/data/labelled/us-cbp-rulings-8.jsonl", "pages8"],
  ["bench/data/labelled/us-cbp-rulings-9.jsonl", "pages9"],
];

/** The JSON lines of one collection of ruling letters. */
const letters = (file) =>
  readFileSync(join(root, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

export function collect() {
  const rows = [];
  for (const split of ["dev", "test"])
    rows.push(
      ...fromTsv(`bench/data/classify-rulings-${split}.tsv`, ([d, code, ruling, date, page], file) => [
        ruling,
        code,
        /^\d{4}-\d{2}-\d{2}$/.test(date ?? "") ? date : "",
        d,
        "",
        page || file,
      ]),
    );
  for (const split of ["dev", "test"])
    rows.push(
      ...fromTsv(`bench/data/classify-rulings-cbp2026-${split}.tsv`, ([d, code, ruling, page], file) => [
        ruling,
        code,
        "",
        "",
        d,
        page || file,
      ]),
    );
  rows.push(
    ...fromTsv("bench/data/labelled/us-cbp-subjects.tsv", ([id, d, code, , source]) => [id, code, "", d, "", source]),
  );
  for (const [file] of LETTER_FILES)
    for (const j of letters(file)) rows.push([j.ruling, j.code, j.date ?? "", j.subject, j.description, j.url]);
  return rows;
}

/** The kept rows, sorted by ruling number, and the counts of what was left out. */
export function rulingRows(rows, hs6) {
  const seen = new Set();
  const kept = [];
  const dropped = { duplicate: 0, code: 0, deleted: 0 };
  for (const [raw, rawCode, date, subject, description, source] of rows) {
    const id = rulingId(raw);
    const code = String(rawCode ?? "").replace(/\D/g, "");
    if (!id || seen.has(id)) {
      dropped.duplicate++;
      continue;
    }
    if (code.length < 6) {
      dropped.code++;
      continue;
    }
    if (!hs6.has(code.slice(0, 6))) {
      dropped.deleted++;
      continue;
    }
    seen.add(id);
    kept.push([id, code, clean(date), clean(subject), clean(description), clean(source)]);
  }
  kept.sort((a, b) => a[0].localeCompare(b[0]));
  return { kept, dropped };
}

/** FNV-1a of a ruling number: a stable split that needs no randomness. */
function fnv(s) {
  let h = 0x811c9dc5;
  for (const c of s) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return h;
}

/**
 * One collection of ruling letters read from public pages as two evaluation files
 * (bench/data/classify-rulings-<name>-{dev,test}.tsv): CBP's description of the goods (without the subject line,
 * which names the goods in the tariff's words), the code, the ruling number and the page; split by a hash of the
 * ruling number. Only rulings kept in rulings.tsv.
 */
export function evaluationSplits(kept, file) {
  const pages = new Map(letters(file).map((j) => [rulingId(j.ruling), j]));
  const splits = { dev: [], test: [] };
  for (const [id, code, , , description, source] of kept) {
    const j = pages.get(id);
    if (!j || !description || source !== clean(j.url)) continue;
    splits[fnv(id) % 10 < 5 ? "dev" : "test"].push([description, code, id, source]);
  }
  return splits;
}

const SPLIT_HEADER = (split, file) =>
  [
    "# description<TAB>US HTS code the ruling gave<TAB>ruling number<TAB>where the text was read",
    `# Ruling-grade set, ${split} split: CBP ruling letters and summaries read from public pages`,
    `# (${file}, provenance in bench/data/labelled/SOURCE.md); the description is CBP's`,
    "# own statement of the goods (a U.S. Government work), the subject line left out. Split by a hash of the ruling",
    "# number (scripts/build/rulings.mjs); the engine's precedents for an item of this file never include the file's rulings.",
  ].join("\n");

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const hs = JSON.parse(readFileSync(join(dataDir, "hs", "hs2022.json"), "utf8"));
  const hs6 = new Set(hs.map((r) => r[0]).filter((c) => c.length === 6));
  const { kept, dropped } = rulingRows(collect(), hs6);
  const header = "ruling\tcode\tdate\tsubject\tdescription\tsource";
  writeFileSync(join(dataDir, "hs", "rulings.tsv"), `${[header, ...kept.map((r) => r.join("\t"))].join("\n")}\n`);
  console.log(`data/hs/rulings.tsv: ${kept.length} rulings; left out: ${JSON.stringify(dropped)}`);
  for (const [letterFile, name] of LETTER_FILES)
    for (const [split, rows] of Object.entries(evaluationSplits(kept, letterFile))) {
      const file = `bench/data/classify-rulings-${name}-${split}.tsv`;
      const text = `${SPLIT_HEADER(split, letterFile)}\n${rows.map((r) => r.join("\t")).join("\n")}\n`;
      writeFileSync(join(root, file), text);
      console.log(`${file}: ${rows.length} rulings`);
    }
}
