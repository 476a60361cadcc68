/**
 * Calculate: reference data (tariff lines, additional measures, exclusions, VAT, fees, de minimis, FX) loaded
 * by scripts/data/{tariffs,vat,fx,customs-rules}.mjs, and the workspaces' own country rules.
 * Every reference row is dated (`valid_from`/`valid_to`, inclusive ISO dates, `valid_to` null = open) and is
 * resolved as of the request's entry date. Lookups go through the indexes below (code/prefix + date), never a
 * scan. Rates are decimal strings (exact), rate components JSON (see src/engines/calculate/types.ts).
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** National tariff lines: US HTS-8, UK Global Tariff, EU CET, at 8 digits. */
export const calcTariffLines = sqliteTable(
  "calc_tariff_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** `US`, `GB` or `EU`. */
    schedule: text("schedule").notNull(),
    code: text("code").notNull(),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    description: text("description").notNull(),
    /** Units of quantity for specific rates (USITC Q1/Q2 codes: KG, NO, DOZ, L...). */
    q1: text("q1"),
    q2: text("q2"),
    /** Specific amounts are in this currency. */
    currency: text("currency").notNull(),
    mfnText: text("mfn_text").notNull(),
    /** JSON rate components, or null when the rate is stated in words only. */
    mfn: text("mfn"),
    col2Text: text("col2_text"),
    col2: text("col2"),
    specialText: text("special_text"),
    /** JSON {program: components} for the programmes modelled. */
    special: text("special"),
  },
  (t) => [index("calc_tariff_lines_code_idx").on(t.schedule, t.code, t.validFrom)],
);

/** US Chapter 99 additional duties (Sections 301, 232, 122) by HS prefix ('' = every product) and date. */
export const calcMeasures = sqliteTable(
  "calc_measures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    program: text("program").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    hsPrefix: text("hs_prefix").notNull(),
    /** JSON array of ISO origins the measure is limited to; null = every origin. */
    origins: text("origins"),
    originsExcluded: text("origins_excluded"),
    rate: text("rate").notNull(),
    /** `value` (customs value) or `content` (value of the metal content). */
    basis: text("basis").notNull(),
    metal: text("metal"),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    /** JSON MetalOriginRule: the measure applies only where the metal was smelted, cast or melted and poured so. */
    metalOrigin: text("metal_origin"),
    /**
     * Section 232 product sector other than a metal (`autos`, `auto_parts`, `mhd`, `mhd_parts`, `wood`); null for
     * the metal measures and the other programmes. A vehicle or parts sector displaces the metal duties.
     */
    sector: text("sector"),
    /** What the goods must be for the measure to apply, where the code alone does not say (reported as conditional). */
    useCondition: text("use_condition"),
  },
  (t) => [index("calc_measures_prefix_idx").on(t.hsPrefix, t.validFrom)],
);

/**
 * Exclusions from additional duties: `auto` ones fire on the code, `claim` ones only when claimed; the other kinds
 * (`auto_zero_content`, `auto_with_232`, `preference`) fire on facts the engine decides (see decideMeasures).
 */
export const calcExclusions = sqliteTable(
  "calc_exclusions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    /** A measure code (`9903.88.01`), a programme (`232`) or programme:metal (`232:steel`). */
    appliesTo: text("applies_to").notNull(),
    /** HS prefix ('' = any product the measure covers). */
    hsPrefix: text("hs_prefix").notNull(),
    kind: text("kind").notNull(),
    condition: text("condition"),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    /** JSON array of ISO origins the exclusion is limited to; null = every origin. */
    origins: text("origins"),
    /** `preference` kind: the special programme (General Note 3(c) code, `S` = USMCA) the goods must enter free under. */
    preference: text("preference"),
  },
  (t) => [index("calc_exclusions_prefix_idx").on(t.hsPrefix)],
);

/** Which origins a tariff programme covers (preferential programmes, column 2). */
export const calcOriginPrograms = sqliteTable(
  "calc_origin_programs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schedule: text("schedule").notNull(),
    program: text("program").notNull(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
  },
  (t) => [index("calc_origin_programs_idx").on(t.schedule, t.country)],
);

export const calcVatRates = sqliteTable(
  "calc_vat_rates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    country: text("country").notNull(),
    /** '' for the national rate, else a region code (ISO 3166-2 where one exists). */
    region: text("region").notNull(),
    name: text("name").notNull(),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    /** Percent, decimal string. */
    standard: text("standard").notNull(),
    reduced: text("reduced"),
  },
  (t) => [index("calc_vat_rates_idx").on(t.country, t.region, t.validFrom)],
);

/**
 * Reduced VAT rates on goods by HS prefix (books, newspapers, works of art...), per country and date; the rest of
 * a country's goods pay its standard rate (`calc_vat_rates`).
 */
export const calcVatReduced = sqliteTable(
  "calc_vat_reduced",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    country: text("country").notNull(),
    category: text("category").notNull(),
    label: text("label").notNull(),
    hsPrefix: text("hs_prefix").notNull(),
    /** Percent, decimal string. */
    rate: text("rate").notNull(),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    source: text("source").notNull(),
  },
  (t) => [index("calc_vat_reduced_idx").on(t.country, t.hsPrefix)],
);

/**
 * Excise taxes collected at import, per HS prefix: an amount per `unit` (`proof_gallon`, `wine_gallon`, `barrel`
 * of 31 US gallons, `litre_alcohol` of pure alcohol, `litre` of product, `kg` net, `thousand` pieces), within an
 * alcohol band where the rate depends on it.
 */
export const calcExcise = sqliteTable(
  "calc_excise",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    country: text("country").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    hsPrefix: text("hs_prefix").notNull(),
    rate: text("rate").notNull(),
    unit: text("unit").notNull(),
    currency: text("currency").notNull(),
    /**
     * Alcohol by volume, percent. The band's lower end is `abv_over` (exclusive) or `abv_min` (inclusive), its upper
     * end `abv_max` (inclusive) or `abv_below` (exclusive); null = open. Statutes word bands both ways ("exceeding
     * 1.2 %", "at least 3.5 % but less than 8.5 %").
     */
    abvOver: text("abv_over"),
    abvMax: text("abv_max"),
    abvMin: text("abv_min"),
    abvBelow: text("abv_below"),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    sourceUrl: text("source_url").notNull(),
    note: text("note"),
  },
  (t) => [index("calc_excise_idx").on(t.country, t.hsPrefix)],
);

/** Per destination (EU members share `EU`): schedule, customs value basis, what the VAT base includes. */
export const calcDestinationRules = sqliteTable("calc_destination_rules", {
  country: text("country").primaryKey(),
  schedule: text("schedule"),
  currency: text("currency").notNull(),
  customsBasis: text("customs_basis").notNull(),
  vatName: text("vat_name"),
  vatIncludesDuty: integer("vat_includes_duty", { mode: "boolean" }).notNull(),
  vatIncludesFees: integer("vat_includes_fees", { mode: "boolean" }).notNull(),
  vatIncludesFreight: integer("vat_includes_freight", { mode: "boolean" }).notNull(),
  sourceUrl: text("source_url").notNull(),
});

export const calcDeMinimis = sqliteTable(
  "calc_de_minimis",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    country: text("country").notNull(),
    kind: text("kind").notNull(),
    channel: text("channel").notNull(),
    origins: text("origins"),
    currency: text("currency").notNull(),
    /** Null: no de minimis (suspended or abolished). */
    threshold: text("threshold"),
    basis: text("basis").notNull(),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    sourceUrl: text("source_url").notNull(),
    note: text("note"),
    /** `flat_duty` rows: the flat duty per item category (in `currency`) that replaces the relief. */
    amount: text("amount"),
  },
  (t) => [index("calc_de_minimis_idx").on(t.country)],
);

export const calcFees = sqliteTable(
  "calc_fees",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    country: text("country").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    rate: text("rate").notNull(),
    min: text("min"),
    max: text("max"),
    currency: text("currency").notNull(),
    transportMode: text("transport_mode"),
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to"),
    sourceUrl: text("source_url").notNull(),
    note: text("note"),
    /** JSON array of special programme codes whose originating goods are exempt (US MPF, 19 CFR 24.23(c)). */
    exemptPrograms: text("exempt_programs"),
    exemptSource: text("exempt_source"),
    /** US: "formal" or "informal" (19 CFR 143.21); null = every entry. */
    entryType: text("entry_type"),
    /** A flat fee per entry (US informal MPF) in place of `rate`. */
    flat: text("flat"),
    /** Highest entered value for the entry type (informal: 2,500 USD, 19 CFR 143.21(a)). */
    entryValueMax: text("entry_value_max"),
    /**
     * Informal entry: the highest value of one article classified in Chapter 99, Subchapters III and IV (250 USD,
     * 19 CFR 143.21(a)'s parenthetical); null when no such limit applies (suspended from 2025-04-30).
     */
    chapter99ArticleMax: text("chapter99_article_max"),
    /** 1 when the figure is carried forward, not yet published for the period. */
    estimated: integer("estimated").notNull().default(0),
  },
  (t) => [index("calc_fees_idx").on(t.country)],
);

/**
 * ECB euro reference rates: units of `currency` per 1 EUR on `date`, per version of the `fx` dataset (the
 * registry names the active one; a new version holds the previous one's rates plus the new days).
 */
export const fxRates = sqliteTable(
  "fx_rates",
  {
    version: text("version").notNull(),
    currency: text("currency").notNull(),
    date: text("date").notNull(),
    rate: text("rate").notNull(),
  },
  (t) => [primaryKey({ columns: [t.version, t.currency, t.date] })],
);

/**
 * A customs authority's own exchange rates for a period (HMRC's monthly rates for customs and VAT): units of
 * `currency` per 1 unit of the authority's currency, from `period_start` to `period_end`, per version of the
 * dataset (`fx-hmrc`); a new version holds the previous one's periods plus the new months.
 */
export const fxCustomsRates = sqliteTable(
  "fx_customs_rates",
  {
    dataset: text("dataset").notNull(),
    version: text("version").notNull(),
    currency: text("currency").notNull(),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    rate: text("rate").notNull(),
  },
  (t) => [primaryKey({ columns: [t.dataset, t.version, t.currency, t.periodStart] })],
);

/** A workspace's own validation rules for calculate requests, per destination. */
export const calcCountryRules = sqliteTable(
  "calc_country_rules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull(),
    destinationCountry: text("destination_country").notNull(),
    ruleType: text("rule_type").notNull(),
    /** JSON parameters per rule type. */
    params: text("params").notNull(),
    code: text("code").notNull(),
    description: text("description").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("calc_country_rules_ws_idx").on(t.workspaceId, t.destinationCountry)],
);
