/**
 * Dataset `restrictions`: the curated platform rule set for restricted and prohibited goods
 * (data/restrictions/rules.json, see its SOURCE.md), loaded into `restriction_rules`.
 * The file is small (a few hundred rules), so the fixture is the full set.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "restrictions";
export const version = "2026-11-22.3";
export const source =
  "Curated platform rule set from official public sources (eCFR, OFAC, CBP, EUR-Lex, legislation.gov.uk, national customs and agency pages); one source_url per rule";
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
  "title",
  "summary",
  "agency",
  "agency_flag",
  "requirement",
  "source_url",
  "source_ref",
  "valid_from",
  "valid_to",
];

/** The rules as stored in the file (also used by the file's validation test). */
export function readRules() {
  return JSON.parse(readFileSync(join(dataDir, "restrictions", "rules.json"), "utf8"));
}

export async function rows() {
  const rules = readRules();
  return {
    restriction_rules: {
      columns: COLUMNS,
      rows: rules.map((r) =>
        COLUMNS.map((c) => {
          const v = r[c];
          // JSON arrays are stored as JSON text; sqlValue would do the same, this keeps it explicit.
          return Array.isArray(v) ? JSON.stringify(v) : v;
        }),
      ),
    },
  };
}
