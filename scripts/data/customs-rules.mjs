/** De minimis thresholds and import fees, curated by hand with a source URL per row (data/customs). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { dataDir } from "./lib.mjs";

// The same validation and mapping the dataset registry runs on an uploaded version (TypeScript, through tsx).
const { customsTables } = await tsImport("../../src/engines/datasets/reference.ts", import.meta.url);

export const dataset = "customs_rules";
export const version = "2026-11-28.5";
export const source =
  "Hand-curated from official sources (CBP, 19 CFR, EUR-Lex, GOV.UK, CBSA, ABF/ATO, 26 U.S.C. and TTB for excise, Japan Customs and the NTA); a source_url on every row";
export const tables = ["calc_de_minimis", "calc_fees", "calc_excise"];

const read = (rel) => JSON.parse(readFileSync(join(dataDir, rel), "utf8"));

export async function rows() {
  const issues = [];
  const tables = customsTables(
    {
      de_minimis: read("customs/de-minimis.json"),
      fees: read("customs/fees.json"),
      excise: read("customs/excise.json"),
    },
    issues,
  );
  if (issues.length) throw new Error(`customs_rules: ${issues.map((i) => i.message).join("; ")}`);
  return tables;
}
