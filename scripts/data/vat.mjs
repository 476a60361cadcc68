/** VAT/GST rates by country and region with history, and the per-destination rules (customs basis, VAT base). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "vat";
export const version = "2026-11-27.3";
export const source =
  "ibericode/vat-rates (2025-08, EU27 + GB); npm sales-tax 2.23.0 (2025-10, other countries, CA HST); reduced rates on books, newspapers and works of art from the EC TEDB and HMRC (2025-08-27, via hennrunnel/regional-vat-datasets); Japan's reduced consumption tax on food and destination rules curated by hand";
export const tables = ["calc_vat_rates", "calc_vat_reduced", "calc_destination_rules"];

const read = (rel) => JSON.parse(readFileSync(join(dataDir, rel), "utf8"));

export async function rows() {
  const vat = read("vat/vat-rates.json");
  const rules = read("customs/destination-rules.json").rows;
  const reduced = read("vat/vat-reduced-goods.json");
  const curated = read("vat/reduced-curated.json");
  return {
    calc_vat_rates: {
      columns: vat.columns,
      rows: vat.rows.map((r) => r.map((v, i) => (i === 6 && v ? JSON.stringify(v) : v))),
    },
    calc_vat_reduced: { columns: reduced.columns, rows: [...reduced.rows, ...curated.rows] },
    calc_destination_rules: {
      columns: [
        "country",
        "schedule",
        "currency",
        "customs_basis",
        "vat_name",
        "vat_includes_duty",
        "vat_includes_fees",
        "vat_includes_freight",
        "source_url",
      ],
      rows: rules.map((r) => [
        r.country,
        r.schedule,
        r.currency,
        r.customs_basis,
        r.vat_name,
        r.vat_includes_duty,
        r.vat_includes_fees,
        r.vat_includes_freight,
        r.source_url,
      ]),
    },
  };
}
