#!/usr/bin/env node
/**
 * Derives data/hs/intercepts.tsv from the UK Online Trade Tariff's search-term guidance
 * (scripts/build/sources.mjs: uk-ott-intercepts/intercept_messages.yml): for each term a trader types ("airfryer",
 * "alcohol tester", "accelerometer") the message HMRC's classification staff wrote names the headings,
 * subheadings or commodity codes it belongs to ("we believe you are looking for heading 8516"). A term whose
 * message names one to three codes of at least four digits becomes a row `term<TAB>codes` (the codes cut to
 * their HS part, six digits at most); a message that names chapters only, more than three codes or none ("too
 * generic", "too many codes to list") gives no row. The engine reads the rows as product terms weaker than the
 * curated ones (src/engines/classify/engine.ts PARAMS.indexTerm). Run only to refresh; the output is committed.
 *
 *   node scripts/build/intercepts.mjs [--sources <dir>]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { dataDir } from "../data/lib.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const FILE = "uk-ott-intercepts/intercept_messages.yml";
/** At most this many codes: a message offering more is a list of possibilities, not a pointer. */
const MAX_CODES = 3;

/**
 * The codes a message points to: the numbers after "chapter", "heading", "subheading", "commodity" or "code",
 * in order, each once; a chapter (two digits) is reported as such so the caller can refuse the message.
 */
export function messageCodes(message) {
  const codes = [];
  const list =
    /\b(?:chapters?|headings?|subheadings?|commodit(?:y|ies)|codes?)\s+((?:\d[\d ]*\d(?:,\s*|\s+and\s+|\s+or\s+)?)+)/gi;
  for (const m of message.matchAll(list))
    for (const c of (m[1] ?? "").replace(/(\d) (?=\d)/g, "$1").match(/\d+/g) ?? [])
      if (!codes.includes(c)) codes.push(c);
  return codes;
}

/** The rows `[term, codes]` of a parsed intercept file (its `default` block), sorted by term. */
export function interceptRows(doc) {
  const messages = doc?.default;
  if (!messages || typeof messages !== "object") throw new Error("no `default` block of term: message pairs");
  const rows = new Map();
  for (const [rawTerm, message] of Object.entries(messages)) {
    if (typeof message !== "string") continue;
    const term = String(rawTerm).toLowerCase().replace(/\s+/g, " ").trim();
    const codes = messageCodes(message);
    if (!term || codes.length === 0 || codes.length > MAX_CODES) continue;
    if (codes.some((c) => ![4, 6, 8, 10].includes(c.length))) continue;
    rows.set(term, [...new Set(codes.map((c) => c.slice(0, 6)))]);
  }
  return [...rows].sort((a, b) => a[0].localeCompare(b[0]));
}

function main() {
  const path = join(requireSources(sourcesDir(), [FILE]), FILE);
  const rows = interceptRows(parse(readFileSync(path, "utf8")));
  const head = [
    "# The UK Online Trade Tariff's search-term guidance: a term and the HS codes (headings or subheadings) HMRC's",
    "# message for it names. Derived by scripts/build/intercepts.mjs; origin and licence in data/hs/SOURCE.md.",
  ];
  writeFileSync(
    join(dataDir, "hs", "intercepts.tsv"),
    `${[...head, ...rows.map(([t, c]) => `${t}\t${c.join(" ")}`)].join("\n")}\n`,
  );
  console.log(`data/hs/intercepts.tsv: ${rows.length} terms`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
