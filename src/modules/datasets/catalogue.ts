/**
 * The datasets the registry can take new versions of without a redeploy: which files, in which published
 * format, and where the scheduled fetch finds them. The other reference datasets (the other tariff schedules
 * and the US Chapter 99 measures) are versioned in the same registry, loaded with the
 * deployment (`npm run dev`, `npm run deploy`); an upload of one of them is refused with the list of
 * uploadable datasets.
 */
type FileFormat =
  | "ofac-csv"
  | "un-xml"
  | "eu-xml"
  | "uk-xml"
  | "csl-csv"
  | "rules-json"
  | "ecb-csv-xml"
  | "hmrc-xml"
  | "usitc-tariff"
  | "vat-json"
  | "customs-json"
  | "hs-csv";

export interface UploadableDataset {
  dataset: string;
  kind: "sanctions-list" | "rule-set" | "fx-series" | "fx-customs" | "reference-tables";
  /** The sanctions list code the entries are filed under (`searched_lists`, `list_code`). */
  listCode?: string;
  name: string;
  format: FileFormat;
  /** Content types accepted as a single-file body, and the file part such a body is. */
  body: { types: RegExp; part: string; example: string };
  /** Another single-file body the dataset takes (OFAC's advanced XML beside its CSV). */
  altBody?: { types: RegExp; part: string; example: string };
  /** The files of one version: the first is required, the others optional (OFAC's aliases and addresses). */
  files: { part: string; required: boolean; description: string }[];
  /** Official URLs per file part, for the scheduled fetch. */
  officialUrls: Record<string, string>;
  /** The publisher's page describing the format (the registry's `source`). */
  formatSpec: string;
}

export const UPLOADABLE: Record<string, UploadableDataset> = {
  "sanctions-sdn": {
    dataset: "sanctions-sdn",
    kind: "sanctions-list",
    listCode: "SDN",
    name: "OFAC Specially Designated Nationals and Blocked Persons List",
    format: "ofac-csv",
    body: { types: /^text\/csv\b/i, part: "sdn", example: "text/csv" },
    altBody: { types: /^(application|text)\/xml\b/i, part: "advanced", example: "application/xml" },
    // The legacy trio, or the advanced XML alone (the same parties; `sdn` or `advanced` is needed).
    files: [
      { part: "sdn", required: false, description: "sdn.csv: one row per listed party" },
      { part: "alt", required: false, description: "alt.csv: aliases" },
      { part: "add", required: false, description: "add.csv: addresses" },
      {
        part: "advanced",
        required: false,
        description:
          "SDN_ADVANCED.XML: the same list in OFAC's advanced XML (names in every script, identity documents)",
      },
    ],
    // OFAC's Sanctions List Service serves the legacy files under these names.
    officialUrls: {
      sdn: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV",
      alt: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV",
      add: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADD.CSV",
    },
    formatSpec: "https://ofac.treasury.gov/specially-designated-nationals-list-data-formats-data-schemas",
  },
  "sanctions-un": {
    dataset: "sanctions-un",
    kind: "sanctions-list",
    listCode: "UN",
    name: "UN Security Council Consolidated List",
    format: "un-xml",
    body: { types: /^(application|text)\/xml\b/i, part: "xml", example: "application/xml" },
    files: [{ part: "xml", required: true, description: "consolidated.xml (schema sc-sanctions.xsd)" }],
    officialUrls: { xml: "https://scsanctions.un.org/resources/xml/en/consolidated.xml" },
    formatSpec: "https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list",
  },
  "sanctions-cons": {
    dataset: "sanctions-cons",
    kind: "sanctions-list",
    listCode: "CONS",
    name: "OFAC Consolidated (non-SDN) Sanctions List",
    format: "ofac-csv",
    body: { types: /^text\/csv\b/i, part: "cons_prim", example: "text/csv" },
    altBody: { types: /^(application|text)\/xml\b/i, part: "advanced", example: "application/xml" },
    files: [
      { part: "cons_prim", required: false, description: "cons_prim.csv: one row per listed party" },
      { part: "cons_alt", required: false, description: "cons_alt.csv: aliases" },
      { part: "cons_add", required: false, description: "cons_add.csv: addresses" },
      { part: "advanced", required: false, description: "CONS_ADVANCED.XML: the same lists in OFAC's advanced XML" },
    ],
    // The same legacy CSV layout as the SDN files, under the CONS_ names.
    officialUrls: {
      cons_prim: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/CONS_PRIM.CSV",
      cons_alt: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/CONS_ALT.CSV",
      cons_add: "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/CONS_ADD.CSV",
    },
    formatSpec: "https://ofac.treasury.gov/consolidated-sanctions-list-non-sdn-lists",
  },
  "sanctions-eu": {
    dataset: "sanctions-eu",
    kind: "sanctions-list",
    listCode: "EU",
    name: "EU Consolidated Financial Sanctions List",
    format: "eu-xml",
    body: { types: /^(application|text)\/xml\b/i, part: "xml", example: "application/xml" },
    files: [{ part: "xml", required: true, description: "xmlFullSanctionsList_1_1: the full list, XML 1.1" }],
    // The token is the public one the EU's open data portal publishes with the link.
    officialUrls: {
      xml: "https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw",
    },
    formatSpec:
      "https://data.europa.eu/data/datasets/consolidated-list-of-persons-groups-and-entities-subject-to-eu-financial-sanctions",
  },
  "sanctions-uk": {
    dataset: "sanctions-uk",
    kind: "sanctions-list",
    listCode: "UK",
    name: "UK Sanctions List",
    format: "uk-xml",
    body: { types: /^(application|text)\/xml\b/i, part: "xml", example: "application/xml" },
    files: [{ part: "xml", required: true, description: "UK-Sanctions-List.xml: the FCDO's designations" }],
    officialUrls: { xml: "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.xml" },
    formatSpec: "https://www.gov.uk/guidance/format-guide-for-the-uk-sanctions-list",
  },
  "sanctions-csl": {
    dataset: "sanctions-csl",
    kind: "sanctions-list",
    listCode: "CSL",
    name: "US Consolidated Screening List",
    format: "csl-csv",
    body: { types: /^text\/csv\b/i, part: "csv", example: "text/csv" },
    files: [{ part: "csv", required: true, description: "consolidated.csv: the eleven US screening lists" }],
    officialUrls: { csv: "https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv" },
    formatSpec: "https://www.trade.gov/consolidated-screening-list",
  },
  fx: {
    dataset: "fx",
    kind: "fx-series",
    name: "ECB euro foreign exchange reference rates",
    format: "ecb-csv-xml",
    body: {
      types: /^(text\/csv|application\/xml|text\/xml)\b/i,
      part: "rates",
      example: "text/csv or application/xml",
    },
    files: [
      {
        part: "rates",
        required: true,
        description: "eurofxref.csv, eurofxref-hist.csv or the daily/90-day/history XML: the ECB's reference rates",
      },
    ],
    // The daily file: each fetch adds the new business day to the history the active version holds.
    officialUrls: { rates: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml" },
    formatSpec:
      "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html",
  },
  "fx-hmrc": {
    dataset: "fx-hmrc",
    kind: "fx-customs",
    name: "HMRC monthly exchange rates for customs and VAT",
    format: "hmrc-xml",
    body: { types: /^(application|text)\/xml\b/i, part: "rates", example: "application/xml" },
    files: [
      {
        part: "rates",
        required: true,
        description: "the month's XML (exrates-monthly-MMYY.xml): units of each currency per 1 GBP for the period",
      },
    ],
    // The Online Trade Tariff serves each month's file; the fetch takes the current month's.
    officialUrls: {
      rates: "https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_{yyyy}-{m}.xml",
    },
    formatSpec: "https://www.gov.uk/government/collections/exchange-rates-for-customs-and-vat",
  },
  restrictions: {
    dataset: "restrictions",
    kind: "rule-set",
    name: "Restricted and prohibited goods rule set",
    format: "rules-json",
    body: { types: /^application\/json\b/i, part: "rules", example: "application/json" },
    files: [
      { part: "rules", required: true, description: "rules.json: the rules, as data/restrictions/rules.json" },
      { part: "lexicon", required: false, description: "lexicon.json: the shared vocabulary the rules name" },
    ],
    // The project's own curation of the authorities' publications: no single official file to fetch.
    officialUrls: {},
    formatSpec: "data/restrictions/SOURCE.md",
  },
  hs: {
    dataset: "hs",
    kind: "reference-tables",
    name: "HS nomenclature (chapters, headings, subheadings)",
    format: "hs-csv",
    body: { types: /^text\/csv\b/i, part: "csv", example: "text/csv" },
    files: [
      {
        part: "csv",
        required: true,
        description:
          "harmonized-system.csv: UN Comtrade's HS classification labels (section, hscode, description, parent, level)",
      },
    ],
    // A new HS edition comes every five years: uploaded when it does, never fetched.
    officialUrls: {},
    formatSpec: "https://comtradeplus.un.org/ListOfReferences",
  },
  "tariffs-us": {
    dataset: "tariffs-us",
    kind: "reference-tables",
    name: "US Harmonized Tariff Schedule (USITC tariff database)",
    format: "usitc-tariff",
    body: { types: /^(text\/csv|text\/plain)\b/i, part: "tariff", example: "text/csv or text/plain" },
    files: [
      {
        part: "tariff",
        required: true,
        description:
          "tariff_database_YYYY.txt: the USITC's annual tariff database (pipe-delimited as published, or the same columns as CSV)",
      },
    ],
    // Published once a year (and with revisions) inside a zip on the USITC's tariff data page: no plain file to fetch.
    officialUrls: {},
    formatSpec: "https://www.usitc.gov/tariff_affairs/documents/tariff_data",
  },
  vat: {
    dataset: "vat",
    kind: "reference-tables",
    name: "VAT and GST rates, reduced rates on goods, destination rules",
    format: "vat-json",
    body: { types: /^application\/json\b/i, part: "rates", example: "application/json" },
    files: [
      { part: "rates", required: true, description: "vat-rates.json: rates by country and region, as data/vat" },
      {
        part: "rules",
        required: true,
        description: "destination-rules.json: customs basis and import VAT base, as data/customs",
      },
      { part: "reduced", required: false, description: "vat-reduced-goods.json: reduced rates on goods (EU, UK)" },
      { part: "curated", required: false, description: "reduced-curated.json: other reduced rates on goods" },
    ],
    // The project's curation of the tax authorities' publications (a source per row): nothing to fetch.
    officialUrls: {},
    formatSpec: "data/vat/SOURCE.md",
  },
  customs_rules: {
    dataset: "customs_rules",
    kind: "reference-tables",
    name: "De minimis thresholds, import fees and excise",
    format: "customs-json",
    body: { types: /^application\/json\b/i, part: "de_minimis", example: "application/json" },
    files: [
      { part: "de_minimis", required: true, description: "de-minimis.json: thresholds, as data/customs" },
      { part: "fees", required: true, description: "fees.json: import fees, as data/customs" },
      { part: "excise", required: true, description: "excise.json: excise collected at import, as data/customs" },
    ],
    officialUrls: {},
    formatSpec: "data/customs/SOURCE.md",
  },
};

/** A dataset name as the routes accept it (the registry never holds other characters). */
export const DATASET_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A version as callers may name it: what fits in a URL path segment without escaping. */
export const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/;
