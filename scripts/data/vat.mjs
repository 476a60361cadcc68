/** VAT/GST rates by country and region with history, and the per-destination rules (customs basis, VAT base). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { dataDir } from "./lib.mjs";

// The same validation and mapping the dataset registry runs on an uploaded version (TypeScript, through tsx).
const { vatTables } = await tsImport("../../src/engines/datasets/reference.ts", import.meta.url);

export const dataset = "vat";
export const version = "2026-11-28.2";
export const source =
  "ibericode/vat-rates (2025-08, EU27 + GB); npm sales-tax 2.23.0 (2025-10, other countries, CA HST); reduced rates on books, newspapers and works of art from the EC TEDB and HMRC (2025-08-27, via hennrunnel/regional-vat-datasets); Japan's reduced consumption tax on food and destination rules curated by hand";
export const tables = ["calc_vat_rates", "calc_vat_reduced", "calc_destination_rules"];

const read = (rel) => JSON.parse(readFileSync(join(dataDir, rel), "utf8"));

export async function rows() {
  const issues = [];
  const tables = vatTables(
    {
      rates: read("vat/vat-rates.json"),
      rules: read("customs/destination-rules.json"),
      reduced: read("vat/vat-reduced-goods.json"),
      curated: read("vat/reduced-curated.json"),
    },
    issues,
  );
  if (issues.length) throw new Error(`vat: ${issues.map((i) => i.message).join("; ")}`);
  return tables;
}
