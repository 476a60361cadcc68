/**
 * The project's curated reference files (data/vat and data/customs, each row with its source) read into the
 * rows of the calculate tables, with every row validated. The deployment's loader (scripts/data/vat.mjs,
 * scripts/data/customs-rules.mjs) and the dataset registry's `vat` and `customs_rules` uploads run these same
 * functions, so a file that loads with the deployment loads the same way as an upload, and a row the engine
 * could not use is refused in both.
 *
 * A file that is not the expected document throws; a row that does not fit is skipped and reported in
 * `issues` (the registry refuses a curated version with any).
 */
import { z } from "zod";
import type { ParseIssue } from "./sanctions";

/** Rows for one live table: column names in order, one array of values per row. */
export interface TableRows {
  columns: string[];
  rows: unknown[][];
}

const iso2 = z.string().regex(/^[A-Z]{2}$/, "a two-letter country code");
const currency = z.string().regex(/^[A-Z]{3}$/, "a three-letter currency code");
const decimal = z.string().regex(/^\d+(\.\d+)?$/, "a decimal number as a string");
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a YYYY-MM-DD date");
const https = z.url({ protocol: /^https?$/ });
const text = (max: number) => z.string().trim().min(1).max(max);
const hsPrefix = z.string().regex(/^\d{2,10}$/, "2-10 digits");

/** A `{columns, rows}` document whose columns must be exactly these. */
function columnDocument(name: string, doc: unknown, columns: readonly string[]): unknown[][] {
  const parsed = z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())) }).safeParse(doc);
  if (!parsed.success) throw new Error(`${name}: expected {"columns": [...], "rows": [[...], ...]}`);
  if (parsed.data.columns.join(",") !== columns.join(","))
    throw new Error(`${name}: columns must be ${columns.join(", ")} (got ${parsed.data.columns.join(", ")})`);
  return parsed.data.rows;
}

/** A `{rows: [{...}]}` document. */
function objectDocument(name: string, doc: unknown): unknown[] {
  const parsed = z.object({ rows: z.array(z.unknown()) }).safeParse(doc);
  if (!parsed.success) throw new Error(`${name}: expected {"rows": [{...}, ...]}`);
  return parsed.data.rows;
}

/** Each row through its schema; the ones that fail are reported and left out. */
function validRows<T>(name: string, rows: unknown[], schema: z.ZodType<T>, issues: ParseIssue[]): T[] {
  const out: T[] = [];
  rows.forEach((r, i) => {
    const parsed = schema.safeParse(r);
    if (parsed.success) out.push(parsed.data);
    else
      issues.push({
        record: i + 1,
        message: `${name} row ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join(".") || "row"}: ${x.message}`).join("; ")}`,
      });
  });
  return out;
}

const dated = <T extends { valid_from: string; valid_to: string | null }>(r: T) =>
  r.valid_to === null || r.valid_to >= r.valid_from;
const DATES = { message: "valid_to is before valid_from" };
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

// ----------------------------------------------------------------------------------------------- VAT

export const VAT_RATE_COLUMNS = ["country", "region", "name", "valid_from", "valid_to", "standard", "reduced"] as const;
const VatRate = z
  .tuple([
    iso2,
    z.string().regex(/^([A-Z]{2}-[A-Z0-9]{1,12})?$/, "'' or a region code"),
    text(100),
    isoDate,
    isoDate.nullable(),
    decimal,
    z.record(z.string().regex(/^[a-z0-9_]{1,40}$/), decimal).nullable(),
  ])
  .refine(([, , , from, to]) => to === null || to >= from, DATES);

export const REDUCED_COLUMNS = [
  "country",
  "category",
  "label",
  "hs_prefix",
  "rate",
  "valid_from",
  "valid_to",
  "source",
] as const;
const Reduced = z
  .tuple([
    iso2,
    z.string().regex(/^[a-z0-9_]{1,40}$/),
    text(500),
    hsPrefix,
    decimal,
    isoDate,
    isoDate.nullable(),
    text(1000),
  ])
  .refine(([, , , , , from, to]) => to === null || to >= from, DATES);

const DestinationRule = z
  .object({
    country: iso2,
    schedule: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable(),
    currency,
    customs_basis: z.enum(["FOB", "CIF"]),
    vat_name: text(40).nullable(),
    vat_includes_duty: z.boolean(),
    vat_includes_fees: z.boolean(),
    vat_includes_freight: z.boolean(),
    source_url: https,
  })
  .strict();

export const DESTINATION_RULE_COLUMNS = Object.keys(DestinationRule.shape) as (keyof z.infer<typeof DestinationRule>)[];

/**
 * The `vat` dataset: `rates` (vat-rates.json), `rules` (customs/destination-rules.json) and the reduced rates
 * on goods (`reduced`: vat-reduced-goods.json, `curated`: reduced-curated.json; both optional).
 */
export function vatTables(
  files: { rates: unknown; rules: unknown; reduced?: unknown; curated?: unknown },
  issues: ParseIssue[] = [],
): Record<string, TableRows> {
  const rates = validRows(
    "vat-rates",
    columnDocument("vat-rates.json", files.rates, VAT_RATE_COLUMNS),
    VatRate,
    issues,
  );
  const reduced = [
    ...(files.reduced === undefined ? [] : columnDocument("vat-reduced-goods.json", files.reduced, REDUCED_COLUMNS)),
    ...(files.curated === undefined ? [] : columnDocument("reduced-curated.json", files.curated, REDUCED_COLUMNS)),
  ];
  const rules = validRows(
    "destination-rules",
    objectDocument("destination-rules.json", files.rules),
    DestinationRule,
    issues,
  );
  return {
    calc_vat_rates: { columns: [...VAT_RATE_COLUMNS], rows: rates.map((r) => [...r.slice(0, 6), json(r[6])]) },
    calc_vat_reduced: { columns: [...REDUCED_COLUMNS], rows: validRows("reduced", reduced, Reduced, issues) },
    calc_destination_rules: {
      columns: [...DESTINATION_RULE_COLUMNS],
      rows: rules.map((r) => DESTINATION_RULE_COLUMNS.map((k) => r[k])),
    },
  };
}

// ------------------------------------------------------------------------------------- customs rules

const DeMinimis = z
  .object({
    country: iso2,
    kind: z.enum(["duty", "tax", "point_of_sale", "flat_duty"]),
    channel: z.enum(["any", "postal", "courier"]),
    origins: z.array(iso2).min(1).nullable(),
    currency,
    threshold: decimal.nullable(),
    basis: z.enum(["goods", "customs_value", "tax_amount"]),
    valid_from: isoDate,
    valid_to: isoDate.nullable(),
    source_url: https,
    note: text(2000).optional(),
    amount: decimal.optional(),
  })
  .strict()
  .refine(dated, DATES)
  .refine((r) => r.kind !== "flat_duty" || r.amount !== undefined, { message: "a flat_duty row needs its amount" });

const Fee = z
  .object({
    country: iso2,
    code: text(40),
    name: text(200),
    rate: decimal,
    min: decimal.nullable(),
    max: decimal.nullable(),
    currency,
    transport_mode: z.enum(["air", "sea", "road", "rail", "postal", "courier"]).nullable(),
    valid_from: isoDate,
    valid_to: isoDate.nullable(),
    source_url: https,
    note: text(2000).optional(),
    exempt_programs: z.array(z.string().regex(/^[A-Z+*]{1,3}$/)).optional(),
    exempt_source: text(500).optional(),
    entry_type: z.enum(["formal", "informal"]).optional(),
    flat: decimal.optional(),
    entry_value_max: decimal.optional(),
    chapter99_article_max: decimal.optional(),
    estimated: z.boolean().optional(),
  })
  .strict()
  .refine(dated, DATES);

const Excise = z
  .object({
    country: iso2,
    code: text(40),
    name: text(200),
    hs_prefix: hsPrefix,
    rate: decimal,
    unit: z.enum(["proof_gallon", "wine_gallon", "barrel", "litre_alcohol", "litre", "kg", "thousand", "not_modelled"]),
    currency,
    abv_over: decimal.nullable(),
    abv_max: decimal.nullable(),
    abv_min: decimal.nullable().optional(),
    abv_below: decimal.nullable().optional(),
    valid_from: isoDate,
    valid_to: isoDate.nullable(),
    source_url: https,
    note: text(2000).optional(),
  })
  .strict()
  .refine(dated, DATES)
  .refine((r) => !(r.abv_over != null && r.abv_min != null) && !(r.abv_max != null && r.abv_below != null), {
    message: "an alcohol band has one lower end (abv_over or abv_min) and one upper end (abv_max or abv_below)",
  });

export const DE_MINIMIS_COLUMNS = [
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
];
export const FEE_COLUMNS = [
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
  "chapter99_article_max",
];
export const EXCISE_COLUMNS = [
  "country",
  "code",
  "name",
  "hs_prefix",
  "rate",
  "unit",
  "currency",
  "abv_over",
  "abv_max",
  "abv_min",
  "abv_below",
  "valid_from",
  "valid_to",
  "source_url",
  "note",
];

/** A row object to its table's values: JSON columns as text, absent optional fields as null, booleans 0/1. */
const values = (r: Record<string, unknown>, columns: string[], jsonColumns: string[] = []) =>
  columns.map((c) => {
    const v = r[c];
    if (jsonColumns.includes(c)) return json(v);
    if (typeof v === "boolean") return v ? 1 : 0;
    return v ?? (c === "estimated" ? 0 : null);
  });

/** The `customs_rules` dataset: `de_minimis`, `fees` and `excise` (data/customs/*.json). */
export function customsTables(
  files: { de_minimis: unknown; fees: unknown; excise: unknown },
  issues: ParseIssue[] = [],
): Record<string, TableRows> {
  const dm = validRows("de-minimis", objectDocument("de-minimis.json", files.de_minimis), DeMinimis, issues);
  const fees = validRows("fees", objectDocument("fees.json", files.fees), Fee, issues);
  const excise = validRows("excise", objectDocument("excise.json", files.excise), Excise, issues);
  return {
    calc_de_minimis: { columns: DE_MINIMIS_COLUMNS, rows: dm.map((r) => values(r, DE_MINIMIS_COLUMNS, ["origins"])) },
    calc_fees: { columns: FEE_COLUMNS, rows: fees.map((r) => values(r, FEE_COLUMNS, ["exempt_programs"])) },
    calc_excise: { columns: EXCISE_COLUMNS, rows: excise.map((r) => values(r, EXCISE_COLUMNS)) },
  };
}
