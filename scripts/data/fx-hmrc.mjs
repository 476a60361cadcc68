/**
 * HMRC's monthly exchange rates for customs and VAT (units of each currency per 1 GBP, one rate per calendar
 * month), the rates UK customs converts declared values at: the bundled history of the registry's `fx-hmrc`
 * dataset, which an upload or the monthly fetch of HMRC's XML extends (data/fx/SOURCE.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "fx-hmrc";
export const version = "2026-10";
export const source = "HMRC monthly exchange rates for customs and VAT (2024-01 to 2026-10)";
export const tables = ["fx_customs_rates"];

export async function rows({ fixture }) {
  // Rows carry the version the registry records for them (see lib.mjs datasetStatements).
  const v = fixture ? `${version}+fixture` : version;
  const [, ...lines] = readFileSync(join(dataDir, "fx", "hmrc-monthly.csv"), "utf8")
    .trim()
    .split("\n");
  const out = [];
  for (const line of lines) {
    const [start, end, currency, rate] = line.split(",");
    if (fixture && start < "2026-01-01") continue;
    out.push([dataset, v, currency, start, end, rate]);
  }
  return {
    fx_customs_rates: {
      columns: ["dataset", "version", "currency", "period_start", "period_end", "rate"],
      rows: out,
    },
  };
}
