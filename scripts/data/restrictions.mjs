/**
 * Dataset `restrictions`: the curated platform rule set for restricted and prohibited goods
 * (data/restrictions/rules.json, see its SOURCE.md), loaded into `restriction_rules`.
 * The file is small (a few hundred rules), so the fixture is the full set.
 *
 * Keyword rules may name shared concepts of data/restrictions/lexicon.json (`@meat`, `@e_cigarette`): they
 * are expanded here, at load time, into the concept's terms in every language it lists and its exclusions,
 * so the Worker matches plain phrases and one vocabulary serves every country's rule on the same goods.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { dataDir } from "./lib.mjs";

// The same expansion the dataset registry runs on an uploaded rule set (TypeScript, loaded through tsx).
const { expandRules } = await tsImport("../../src/engines/restrict/lexicon.ts", import.meta.url);

export const dataset = "restrictions";
export const version = "2026-11-24.4";
export const source =
  "Curated platform rule set from official public sources (eCFR, OFAC, CBP, EUR-Lex, legislation.gov.uk, national customs and agency pages); one source_url per rule; shared multilingual vocabulary in lexicon.json";
export const tables = ["restriction_rules"];

const COLUMNS = [
  "id",
  "imposing_country",
  "direction",
  "rule_type",
  "hs_prefix",
  "keywords",
  "exclude_keywords",
  "origin_country",
  "destination_countries",
  "except_countries",
  "title",
  "summary",
  "agency",
  "agency_flag",
  "requirement",
  "source_url",
  "source_ref",
  "valid_from",
  "valid_to",
  "family",
  "reviewed_on",
];

const readJson = (name) => JSON.parse(readFileSync(join(dataDir, "restrictions", name), "utf8"));

/** The rules exactly as stored in the file, concept references unexpanded (for the file's validation test). */
export function readRawRules() {
  return readJson("rules.json");
}

/** The shared vocabulary: `{contexts, concepts}`. */
export function readLexicon() {
  return readJson("lexicon.json");
}

/** The rules as loaded: concept references expanded. */
export function readRules() {
  return expandRules(readRawRules(), readLexicon());
}

export async function rows({ fixture = false } = {}) {
  const rules = readRules();
  const ruleVersion = fixture ? `${version}+fixture` : version;
  return {
    restriction_rules: {
      columns: ["version", ...COLUMNS],
      rows: rules.map((r) => [
        ruleVersion,
        ...COLUMNS.map((c) => {
          const v = r[c];
          // JSON arrays are stored as JSON text; sqlValue would do the same, this keeps it explicit.
          return Array.isArray(v) ? JSON.stringify(v) : v;
        }),
      ]),
    },
  };
}
