/**
 * Where the data build scripts read the published originals they derive data/ from, and where each comes from.
 *
 * The directory is `--sources <dir>` on the command line, else the DATA_SOURCES environment variable, else
 * `../shared/data` beside the project (the team's shared copy). A clone without that copy downloads the files named
 * in ORIGINS into any directory, keeping the relative paths, and passes it: e.g.
 * `node scripts/build/hs.mjs --sources ~/downloads/trade-data`. Before reading anything a script checks that every
 * file it needs is there and names the missing ones with their origin.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { root } from "../data/lib.mjs";

/** Each original, by its path under the sources directory: where it is published. */
export const ORIGINS = {
  "hs-datasets/harmonized-system.csv":
    "https://github.com/datasets/harmonized-system (data/harmonized-system.csv: HS2022 with UN Comtrade labels, ODC-PDDL)",
  "us-usitc-tariff-db/tariff_database_2025_06062025.csv":
    "the USITC annual tariff database 2025 (usitc.gov, Tariff Affairs: Tariff Data, as of 2025-06-06; copy in github SDedalus64/harmonyt2 scripts/Archive tariff data/Rev15Archive.zip)",
  "uk-global-tariff-2021/ukgt_2021_observations.csv":
    "https://github.com/GSS-Cogs/family-trade (datasets/DIT-UK-tariffs/observations.csv: DIT UK Global Tariff 2021 beside the EU CET, OGL v3)",
  "us-ch99-yale/config/policy_params.yaml":
    "https://github.com/Budget-Lab-Yale/tariff-rate-tracker (config/policy_params.yaml)",
  "us-ch99-yale/resources/s301_product_lists.csv":
    "https://github.com/Budget-Lab-Yale/tariff-rate-tracker (resources/; Section 301 lists from the USTR notices)",
  "us-ch99-yale/resources/s232_semi_products.csv":
    "https://github.com/Budget-Lab-Yale/tariff-rate-tracker (resources/)",
  "us-ch99-yale/us_notes/chapter99_2026_rev_6.txt":
    "https://hts.usitc.gov (HTS 2026 Revision 6, chapter 99 text; copy in Budget-Lab-Yale/tariff-rate-tracker us_notes/)",
  "vat-ibericode/vat-rates.json": "https://github.com/ibericode/vat-rates (vat-rates.json)",
  "vat-worldwide-sales-tax-npm/sales_tax_rates.json":
    "https://www.npmjs.com/package/sales-tax (res/sales_tax_rates.json, MIT)",
  "vat-eu-tedb-hennrunnel":
    "https://github.com/hennrunnel/regional-vat-datasets (data/*/parsed/latest.json, from the EC TEDB and national sources)",
  "fx-ecb/eurofxref-hist.csv":
    "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip (ECB euro reference rates, full history; unzipped)",
  "us-usitc-hts-2026/hts_2026_rev_10.json.gz":
    "https://www.usitc.gov/sites/default/files/tata/hts/hts_2026_revision_10_json.json (USITC HTS export, 2026 Revision 10; gzip it, or pass the .json path to hts10.mjs)",
  "au-abf-tariff/tariff-schedule3.json":
    "the ABF Working Tariff, Schedule 3 (https://www.abf.gov.au/importing-exporting-and-manufacturing/tariff-classification/current-tariff/schedule-3), as scraped to JSON in github networkneedsau/australian-tariff-classification @ 9a8f3f37 data/tariff-schedule3.json",
  "au-abf-tariff/tariff-schedules-fta.json":
    "the ABF Working Tariff, Schedules 4A-16 (one per free trade agreement), same copy: data/tariff-schedules-fta.json",
  "au-abf-tariff/tariff-schedule1.json":
    "the ABF Working Tariff, Schedule 1 (countries and places), same copy: data/tariff-schedule1.json",
  "jp-customs-tariff/index.json":
    "Japan Customs' statistical schedule of 2026-07-09 (https://www.customs.go.jp/tariff/2026_07_09/data/j_NN.htm, one page per chapter), as scraped to JSON in github qlitre/japan-tariff-mcp @ 715eff92 src/tariffdata/ (MIT): index.json and j_NN_tariff_data.json beside it",
  "ca-cbsa-tariff/ca_tariff_2026_rev_3.csv":
    "the CBSA Customs Tariff schedule T2026 (https://www.cbsa-asfc.gc.ca/trade-commerce/tariff-tarif/, its tariff table exported to CSV, revision 3), as published in github SAIL-Engineering/tariff-rate-tracker @ ac5225f2 data/ca_tariff_source/ca_tariff_2026_rev_3.csv (CRLF line ends, 4,017,118 characters)",
  "ch-bazg-tariff/ch_tariff_2026_rev_901.csv":
    "the Swiss customs tariff (Tares, https://www.tares.admin.ch), general rates of 2026 as the BAZG publishes them, revision 901, as published in github SAIL-Engineering/tariff-rate-tracker @ 844e73ef data/ch_tariff_source/ch_tariff_2026_rev_901.csv (CRLF line ends, 959,446 characters)",
  "fx-hmrc-monthly":
    "HMRC's monthly exchange rates for customs and VAT (https://www.trade-tariff.service.gov.uk/exchange_rates, monthly XML, Crown copyright, Open Government Licence v3.0), one JSON file per month (YYYY-MM.json: base GBP, period start and end, units of each currency per 1 GBP) as converted from HMRC's XML in github matchilling/hmrc-exchange-rates (rate/YYYY/MM.json; 2024-01 to 2026-09 at c109e3dc, 2026-10 at 29f76c8a)",
  "uk-ott-intercepts/intercept_messages.yml":
    "the UK Online Trade Tariff's search-term guidance (https://www.trade-tariff.service.gov.uk, the messages its search shows for a term), github trade-tariff/trade-tariff-backend @ 3c026694 config/intercept_messages.yml (MIT, Crown Copyright; 764,599 bytes, SHA-256 a7fbb6c90752d0e7193d4f8d198609190301b5c028bcd0899f9c22c37929349b)",
  "iso-country-codes/country-codes.csv": "https://github.com/datasets/country-codes (data/country-codes.csv, ODC-PDDL)",
  "iso-currency-codes/codes-all.csv":
    "https://github.com/datasets/currency-codes (data/codes-all.csv, ISO 4217, ODC-PDDL)",
};

/** The sources directory for this run (see the module comment). */
export function sourcesDir(argv = process.argv, env = process.env) {
  const at = argv.indexOf("--sources");
  const given = at >= 0 ? argv[at + 1] : env.DATA_SOURCES;
  if (at >= 0 && !given) throw new Error("--sources needs a directory");
  const dir = given ?? join(root, "..", "shared", "data");
  return isAbsolute(dir) ? dir : resolve(dir);
}

/** Checks that `files` (keys of ORIGINS) are under `dir`; throws one error naming each missing file and its origin. */
export function requireSources(dir, files) {
  const missing = files.filter((f) => !existsSync(join(dir, f)));
  if (!missing.length) return dir;
  const lines = missing.map((f) => `  ${f}\n    from ${ORIGINS[f] ?? "(no origin recorded)"}`);
  throw new Error(`Missing source files under ${dir} (pass --sources <dir> or set DATA_SOURCES):\n${lines.join("\n")}`);
}
