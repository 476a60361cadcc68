/**
 * Tariff lines (US HTS-8, UK Global Tariff 2021, EU CET 2020 proxy), US Chapter 99 measures and exclusions, and
 * the origins each programme covers. From data/tariffs and data/customs/us-programs.json (see their SOURCE.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "tariffs";
export const version = "2026-11-27.1";
export const source =
  "USITC tariff database 2025 (2025-06-06); HTSUS Chapter 99 (Rev 6 2026: Section 301, Section 232 metals incl. Russian aluminum, metal-origin rules and the U.S. note 16 lists from 2026-04-06, autos and parts, medium- and heavy-duty vehicles, wood, Section 122 surcharge 2026-02-24 to 2026-07-23, IEEPA duties 2025-02-04 to 2026-02-23 as refundable) via Budget Lab at Yale tariff-rate-tracker; UK Global Tariff 2021 (DIT, OGL v3) with the EU CET as published beside it";
export const tables = ["calc_tariff_lines", "calc_measures", "calc_exclusions", "calc_origin_programs"];

const read = (rel) => JSON.parse(readFileSync(join(dataDir, rel), "utf8"));
const json = (v) => (v === null || v === undefined ? null : JSON.stringify(v));
/** Chapters the fixture keeps: enough for the tests that do not load the full schedule. */
const FIXTURE_CHAPTERS = ["04", "22", "61", "62", "72", "73", "76", "84", "85", "87", "94"];

export async function rows({ fixture }) {
  // '' is a measure or exclusion on every product (the Section 122 surcharge): always kept.
  const keep = (code) => !fixture || code === "" || FIXTURE_CHAPTERS.includes(code.slice(0, 2));
  const us = read("tariffs/us-hts8.json");
  const ukEu = read("tariffs/uk-eu.json");
  const ch99 = read("tariffs/us-ch99.json");
  const programs = read("customs/us-programs.json");

  const lines = [];
  for (const [code, from, to, description, q1, q2, mfnText, mfn, col2Text, col2, specialText, special] of us.rows) {
    if (!keep(code)) continue;
    lines.push([
      "US",
      code,
      from,
      to,
      description,
      q1,
      q2,
      "USD",
      mfnText,
      json(mfn),
      col2Text,
      json(col2),
      specialText,
      json(special),
    ]);
  }
  for (const [code, description, ukText, uk, cetText, cet] of ukEu.rows) {
    if (!keep(code)) continue;
    lines.push([
      "GB",
      code,
      "2021-01-01",
      null,
      description,
      null,
      null,
      "GBP",
      ukText,
      json(uk),
      null,
      null,
      null,
      null,
    ]);
    lines.push([
      "EU",
      code,
      "2020-01-01",
      null,
      description,
      null,
      null,
      "EUR",
      cetText,
      json(cet),
      null,
      null,
      null,
      null,
    ]);
  }
  const measures = [];
  for (const m of ch99.measures)
    for (const prefix of m.prefixes)
      if (keep(prefix))
        measures.push([
          m.program,
          m.code,
          m.name,
          prefix,
          json(m.origins),
          json(m.origins_excluded),
          m.rate,
          m.basis,
          m.metal,
          m.valid_from,
          m.valid_to,
          json(m.metal_origin ?? null),
          m.sector ?? null,
          m.use_condition ?? null,
        ]);
  const exclusions = ch99.exclusions.rows.filter((r) => keep(r[3]));
  const origin = [];
  for (const [program, p] of Object.entries(programs.programs))
    for (const [country, from] of Object.entries(p.countries))
      origin.push(["US", program, p.name, country, from, null]);
  for (const [country, [from, to]] of Object.entries(programs.column2.countries))
    origin.push(["US", "column2", "Column 2 (HTSUS General Note 3(b))", country, from, to]);

  return {
    calc_tariff_lines: {
      columns: [
        "schedule",
        "code",
        "valid_from",
        "valid_to",
        "description",
        "q1",
        "q2",
        "currency",
        "mfn_text",
        "mfn",
        "col2_text",
        "col2",
        "special_text",
        "special",
      ],
      rows: lines,
    },
    calc_measures: {
      columns: [
        "program",
        "code",
        "name",
        "hs_prefix",
        "origins",
        "origins_excluded",
        "rate",
        "basis",
        "metal",
        "valid_from",
        "valid_to",
        "metal_origin",
        "sector",
        "use_condition",
      ],
      rows: measures,
    },
    calc_exclusions: { columns: ch99.exclusions.columns, rows: exclusions },
    calc_origin_programs: {
      columns: ["schedule", "program", "name", "country", "valid_from", "valid_to"],
      rows: origin,
    },
  };
}
