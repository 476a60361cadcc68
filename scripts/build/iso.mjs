#!/usr/bin/env node
/**
 * Derives data/iso/countries.json and data/iso/currencies.json from the ISO lists (scripts/build/sources.mjs: --sources <dir>, default ../shared/data).
 * Run only to refresh them; the outputs are committed so a clone works on its own.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../data/lib.mjs";
import { parseCsv } from "./csv.mjs";
import { requireSources, sourcesDir } from "./sources.mjs";

const shared = requireSources(sourcesDir(), [
  "iso-country-codes/country-codes.csv",
  "iso-currency-codes/codes-all.csv",
]);

function table(path) {
  const [head, ...body] = parseCsv(readFileSync(path, "utf8")).filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""])));
}

const countries = table(join(shared, "iso-country-codes", "country-codes.csv"))
  .filter((r) => /^[A-Z]{2}$/.test(r["ISO3166-1-Alpha-2"]))
  .map((r) => ({
    alpha2: r["ISO3166-1-Alpha-2"],
    alpha3: r["ISO3166-1-Alpha-3"],
    name: r["CLDR display name"] || r["UNTERM English Short"] || r.official_name_en,
    currency: r["ISO4217-currency_alphabetic_code"].split(",")[0] || null,
  }))
  .sort((a, b) => a.alpha2.localeCompare(b.alpha2));

const currencies = new Map();
for (const r of table(join(shared, "iso-currency-codes", "codes-all.csv"))) {
  if (!/^[A-Z]{3}$/.test(r.AlphabeticCode) || r.WithdrawalDate) continue;
  const minor = /^\d$/.test(r.MinorUnit) ? Number(r.MinorUnit) : null;
  if (!currencies.has(r.AlphabeticCode))
    currencies.set(r.AlphabeticCode, { code: r.AlphabeticCode, name: r.Currency, minor_unit: minor });
}

writeFileSync(join(dataDir, "iso", "countries.json"), `${JSON.stringify(countries, null, 0)}\n`);
writeFileSync(
  join(dataDir, "iso", "currencies.json"),
  `${JSON.stringify([...currencies.values()].sort((a, b) => a.code.localeCompare(b.code)))}\n`,
);
console.log(`countries: ${countries.length}, currencies: ${currencies.size}`);
