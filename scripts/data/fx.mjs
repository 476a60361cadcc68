/** ECB euro foreign exchange reference rates (units per EUR), one row per currency and business day. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./lib.mjs";

export const dataset = "fx";
export const version = "2026-04-13";
export const source = "ECB euro foreign exchange reference rates (eurofxref-hist, 2018-01-02 to 2026-04-13)";
export const tables = ["fx_rates"];

export async function rows({ fixture }) {
  // Rows carry the version the registry records for them (see lib.mjs datasetStatements).
  const fxVersion = fixture ? `${version}+fixture` : version;
  const [head, ...lines] = readFileSync(join(dataDir, "fx", "ecb-rates.csv"), "utf8")
    .trim()
    .split("\n");
  const currencies = head.split(",").slice(1);
  const out = [];
  for (const line of lines) {
    const [date, ...rates] = line.split(",");
    if (fixture && date < "2024-01-01") continue;
    rates.forEach((rate, i) => {
      if (rate) out.push([fxVersion, currencies[i], date, rate]);
    });
  }
  return { fx_rates: { columns: ["version", "currency", "date", "rate"], rows: out } };
}
