/** De minimis thresholds and import fees, curated by hand with a source URL per row (data/customs). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "customs_rules";
export const version = "2026-11-27.3";
export const source =
  "Hand-curated from official sources (CBP, 19 CFR, EUR-Lex, GOV.UK, CBSA, ABF/ATO, 26 U.S.C. and TTB for excise, Japan Customs and the NTA); a source_url on every row";
export const tables = ["calc_de_minimis", "calc_fees", "calc_excise"];

const read = (rel) => JSON.parse(readFileSync(join(dataDir, rel), "utf8"));
const json = (v) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function rows() {
  const dm = read("customs/de-minimis.json").rows;
  const fees = read("customs/fees.json").rows;
  const excise = read("customs/excise.json").rows;
  return {
    calc_de_minimis: {
      columns: [
        "country",
        "kind",
        "channel",
        "origins",
        "currency",
        "threshold",
        "basis",
        "valid_from",
        "valid_to",
        "source_url",
        "note",
        "amount",
      ],
      rows: dm.map((r) => [
        r.country,
        r.kind,
        r.channel,
        json(r.origins),
        r.currency,
        r.threshold,
        r.basis,
        r.valid_from,
        r.valid_to,
        r.source_url,
        r.note ?? null,
        r.amount ?? null,
      ]),
    },
    calc_fees: {
      columns: [
        "country",
        "code",
        "name",
        "rate",
        "min",
        "max",
        "currency",
        "transport_mode",
        "valid_from",
        "valid_to",
        "source_url",
        "note",
        "exempt_programs",
        "exempt_source",
        "entry_type",
        "flat",
        "entry_value_max",
        "estimated",
      ],
      rows: fees.map((r) => [
        r.country,
        r.code,
        r.name,
        r.rate,
        r.min,
        r.max,
        r.currency,
        r.transport_mode,
        r.valid_from,
        r.valid_to,
        r.source_url,
        r.note ?? null,
        json(r.exempt_programs),
        r.exempt_source ?? null,
        r.entry_type ?? null,
        r.flat ?? null,
        r.entry_value_max ?? null,
        r.estimated ? 1 : 0,
      ]),
    },
    calc_excise: {
      columns: [
        "country",
        "code",
        "name",
        "hs_prefix",
        "rate",
        "unit",
        "currency",
        "abv_over",
        "abv_max",
        "valid_from",
        "valid_to",
        "source_url",
        "note",
      ],
      rows: excise.map((r) => [
        r.country,
        r.code,
        r.name,
        r.hs_prefix,
        r.rate,
        r.unit,
        r.currency,
        r.abv_over,
        r.abv_max,
        r.valid_from,
        r.valid_to,
        r.source_url,
        r.note ?? null,
      ]),
    },
  };
}
