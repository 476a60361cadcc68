/**
 * Reference data for the calculate engine, read from D1. Small tables (destination rules, VAT, fees, de minimis,
 * programmes) are held per isolate and reloaded when a dataset version changes (checked at most every 60 s).
 * Tariff lines, measures, exclusions and FX rates are read per request through their indexes (code / prefix,
 * currency + date) in one D1 batch, and memoised per isolate by data version.
 */

import type {
  DeMinimisRow,
  DestinationRule,
  Exclusion,
  FeeRow,
  FxTable,
  Measure,
  OriginProgram,
  ResolvedData,
  TariffLine,
  VatRate,
  VatReducedRow,
} from "../../engines/calculate/types";
import type { Clock } from "../../lib/clock";
import { ApiError } from "../../lib/errors";
import { EU_MEMBERS, country as isoCountry } from "../../lib/iso";
import { TtlCache } from "../../lib/ttl-cache";

export interface DataSource {
  version: string;
  source: string;
  imported_at: string;
}

interface Small {
  key: string;
  sources: Record<string, DataSource>;
  rules: Map<string, DestinationRule>;
  vat: VatRate[];
  fees: FeeRow[];
  deMinimis: DeMinimisRow[];
  programs: OriginProgram[];
  /** Reduced VAT rates on goods, by destination country. */
  vatReduced: Map<string, VatReducedRow[]>;
}

const DATASETS = ["tariffs", "vat", "fx", "customs_rules"];
let small: Small | undefined;
let checkedAt = 0;
const lookups = new TtlCache<unknown>(10 * 60_000, 20_000);

const j = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (JSON.parse(v as string) as T));

function byCountry<T extends { country: string }>(list: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of list) {
    const rows = out.get(r.country);
    if (rows) rows.push(r);
    else out.set(r.country, [r]);
  }
  return out;
}

async function loadSmall(db: D1Database, clock: Clock): Promise<Small> {
  if (small && clock.now() - checkedAt < 60_000) return small;
  const { results } = await db
    .prepare(
      `SELECT dataset, version, source, imported_at FROM data_sources WHERE dataset IN (${DATASETS.map(() => "?").join(",")})`,
    )
    .bind(...DATASETS)
    .all<{ dataset: string; version: string; source: string; imported_at: string }>();
  const sources = Object.fromEntries(
    results.map((r) => [r.dataset, { version: r.version, source: r.source, imported_at: r.imported_at }]),
  );
  const key = DATASETS.map((d) => `${d}@${sources[d]?.version ?? "-"}:${sources[d]?.imported_at ?? ""}`).join("|");
  checkedAt = clock.now();
  if (small?.key === key) return small;
  const [rules, vat, fees, dm, programs, vatReduced] = await db.batch([
    db.prepare("SELECT * FROM calc_destination_rules"),
    db.prepare("SELECT * FROM calc_vat_rates"),
    db.prepare("SELECT * FROM calc_fees"),
    db.prepare("SELECT * FROM calc_de_minimis"),
    db.prepare("SELECT * FROM calc_origin_programs"),
    db.prepare("SELECT * FROM calc_vat_reduced"),
  ]);
  type Row = Record<string, unknown>;
  const rows = (r: D1Result) => r.results as Row[];
  small = {
    key,
    sources,
    rules: new Map(
      rows(rules!).map((r) => [
        r.country as string,
        {
          country: r.country as string,
          schedule: (r.schedule as string | null) ?? null,
          currency: r.currency as string,
          customsBasis: r.customs_basis as "CIF" | "FOB",
          vatName: (r.vat_name as string | null) ?? null,
          vatIncludesDuty: !!r.vat_includes_duty,
          vatIncludesFees: !!r.vat_includes_fees,
          vatIncludesFreight: !!r.vat_includes_freight,
          sourceUrl: r.source_url as string,
        },
      ]),
    ),
    vat: rows(vat!).map((r) => ({
      country: r.country as string,
      region: r.region as string,
      name: r.name as string,
      validFrom: r.valid_from as string,
      validTo: (r.valid_to as string | null) ?? null,
      standard: r.standard as string,
      reduced: j(r.reduced),
    })),
    fees: rows(fees!).map((r) => ({
      country: r.country as string,
      code: r.code as string,
      name: r.name as string,
      rate: r.rate as string,
      min: (r.min as string | null) ?? null,
      max: (r.max as string | null) ?? null,
      currency: r.currency as string,
      transportMode: (r.transport_mode as string | null) ?? null,
      validFrom: r.valid_from as string,
      validTo: (r.valid_to as string | null) ?? null,
      sourceUrl: r.source_url as string,
      note: (r.note as string | null) ?? null,
      exemptPrograms: j<string[]>(r.exempt_programs),
      exemptSource: (r.exempt_source as string | null) ?? null,
    })),
    deMinimis: rows(dm!).map((r) => ({
      country: r.country as string,
      kind: r.kind as "duty" | "tax",
      channel: r.channel as "any",
      origins: j<string[]>(r.origins),
      currency: r.currency as string,
      threshold: (r.threshold as string | null) ?? null,
      basis: r.basis as "goods",
      validFrom: r.valid_from as string,
      validTo: (r.valid_to as string | null) ?? null,
      sourceUrl: r.source_url as string,
      note: (r.note as string | null) ?? null,
    })),
    vatReduced: byCountry(
      rows(vatReduced!).map(
        (r): VatReducedRow => ({
          country: r.country as string,
          category: r.category as string,
          label: r.label as string,
          hsPrefix: r.hs_prefix as string,
          rate: r.rate as string,
          validFrom: r.valid_from as string,
          validTo: (r.valid_to as string | null) ?? null,
          source: r.source as string,
        }),
      ),
    ),
    programs: rows(programs!).map(
      (r) =>
        ({
          program: r.program as string,
          name: r.name as string,
          country: r.country as string,
          validFrom: r.valid_from as string,
          validTo: (r.valid_to as string | null) ?? null,
          schedule: r.schedule as string,
        }) as OriginProgram & { schedule: string },
    ),
  };
  lookups.clear();
  return small;
}

/** Destination rule: the country's own, or the EU's for a member state. */
export function destinationRule(s: Small, destination: string): DestinationRule | null {
  return s.rules.get(destination) ?? (EU_MEMBERS.has(destination) ? (s.rules.get("EU") ?? null) : null);
}

/** Null when the destination has rules, else the reason it is not supported. */
export async function unsupported(db: D1Database, clock: Clock, destination: string): Promise<string | null> {
  const s = await loadSmall(db, clock);
  return destinationRule(s, destination)
    ? null
    : `Destination ${destination} is not supported; supported: ${supportedDestinations(s)}`;
}

export const supportedDestinations = (s: Small) =>
  [...s.rules.keys()].map((k) => (k === "EU" ? "EU member states" : k)).join(", ");

const inForce = (r: { validFrom: string; validTo: string | null }, d: string) =>
  r.validFrom <= d && (r.validTo === null || r.validTo >= d);

type Row = Record<string, unknown>;
const toLine = (r: Row): TariffLine => ({
  schedule: r.schedule as string,
  code: r.code as string,
  validFrom: r.valid_from as string,
  validTo: (r.valid_to as string | null) ?? null,
  description: r.description as string,
  q1: (r.q1 as string | null) ?? null,
  q2: (r.q2 as string | null) ?? null,
  currency: r.currency as string,
  mfnText: r.mfn_text as string,
  mfn: j(r.mfn),
  col2Text: (r.col2_text as string | null) ?? null,
  col2: j(r.col2),
  specialText: (r.special_text as string | null) ?? null,
  special: j(r.special),
});
const toMeasure = (r: Row): Measure => ({
  program: r.program as string,
  code: r.code as string,
  name: r.name as string,
  hsPrefix: r.hs_prefix as string,
  origins: j(r.origins),
  originsExcluded: j(r.origins_excluded),
  rate: r.rate as string,
  basis: r.basis as "value" | "content",
  metal: (r.metal as string | null) ?? null,
  validFrom: r.valid_from as string,
  validTo: (r.valid_to as string | null) ?? null,
  metalOrigin: j(r.metal_origin),
});
const toExclusion = (r: Row): Exclusion => ({
  code: r.code as string,
  name: r.name as string,
  appliesTo: r.applies_to as string,
  hsPrefix: r.hs_prefix as string,
  kind: r.kind as Exclusion["kind"],
  condition: (r.condition as string | null) ?? null,
  validFrom: r.valid_from as string,
  validTo: (r.valid_to as string | null) ?? null,
  origins: j(r.origins),
  preference: (r.preference as string | null) ?? null,
});

interface CodeData {
  lines: TariffLine[];
  measures: Measure[];
  exclusions: Exclusion[];
}

/** Prefixes of a code that a measure or exclusion may be keyed on (2 digits up to the code itself; '' is added per lookup). */
const prefixesOf = (code: string) =>
  Array.from({ length: Math.max(0, code.length - 1) }, (_, i) => code.slice(0, i + 2));

const chunk = <T>(xs: T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/**
 * Statements for the tariff lines, measures and exclusions of many codes of one schedule, at most 100 bound
 * parameters each and few of them (a 500-item batch must stay far below D1's per-invocation query limit). Every
 * statement is an index lookup: equality on prefixes, or ranges on the code / prefix column (SQLite's multi-index
 * OR), never a scan; see the EXPLAIN QUERY PLAN test.
 */
function groupStatements(db: D1Database, schedule: string, codes: string[]) {
  const out: { kind: "lines" | "measures" | "exclusions"; st: D1PreparedStatement }[] = [];
  const lineRanges = [...new Set(codes.map((c) => c.slice(0, 8)))].map(
    (c) => [c.padEnd(8, "0"), c.padEnd(8, "9")] as const,
  );
  for (const part of chunk(lineRanges, 49))
    out.push({
      kind: "lines",
      st: db
        .prepare(
          `SELECT * FROM calc_tariff_lines WHERE schedule = ? AND (${part.map(() => "code BETWEEN ? AND ?").join(" OR ")})`,
        )
        .bind(schedule, ...part.flat()),
    });
  if (schedule !== "US") return out;
  const prefixes = [...new Set(codes.flatMap(prefixesOf))];
  const below = [...new Set(codes.filter((c) => c.length < 10))].map((c) => [c, `${c}~`] as const);
  for (const table of ["measures", "exclusions"] as const) {
    const name = table === "measures" ? "calc_measures" : "calc_exclusions";
    // '' = every product (the Section 122 surcharge and exclusions that do not depend on the code).
    const eq = ["", ...prefixes];
    for (const part of chunk(eq, 99))
      out.push({
        kind: table,
        st: db.prepare(`SELECT * FROM ${name} WHERE hs_prefix IN (${part.map(() => "?").join(",")})`).bind(...part),
      });
    for (const part of chunk(below, 49))
      out.push({
        kind: table,
        st: db
          .prepare(`SELECT * FROM ${name} WHERE ${part.map(() => "(hs_prefix > ? AND hs_prefix < ?)").join(" OR ")}`)
          .bind(...part.flat()),
      });
  }
  return out;
}

/** The rows of a group that belong to one code. */
function forCode(code: string, lines: TariffLine[], measures: Measure[], exclusions: Exclusion[]): CodeData {
  const lineCode = code.slice(0, 8);
  const related = (p: string) => (p.length <= code.length ? code.startsWith(p) : p.startsWith(code));
  return {
    lines: lines.filter((l) => l.code.startsWith(lineCode)),
    measures: measures.filter((m) => related(m.hsPrefix)),
    exclusions: exclusions.filter((e) => e.hsPrefix === "" || related(e.hsPrefix)),
  };
}

export interface LookupRequest {
  destination: string;
  hsCode: string;
  entryDate: string;
  origin: string;
  currencies: string[];
  destinationRegion: string | null;
}

export interface Resolved {
  data: ResolvedData;
  dataSource: DataSource | null;
  sources: Record<string, DataSource>;
}

/**
 * Resolves the reference data for many requests at once (one D1 batch for whatever is not memoised).
 * Throws 400 for a destination without rules. Per-request failures (no FX rate) come back as errors.
 */
export async function resolveMany(db: D1Database, clock: Clock, reqs: LookupRequest[]): Promise<Resolved[]> {
  const s = await loadSmall(db, clock);
  const codeKeys = new Map<string, { schedule: string; code: string }>();
  const fxKeys = new Map<string, { currency: string; date: string }>();
  const prepared = reqs.map((req) => {
    const rule = destinationRule(s, req.destination);
    if (!rule)
      throw new ApiError(
        "validation_failed",
        `Destination ${req.destination} is not supported; supported: ${supportedDestinations(s)}`,
        { errors: [{ field: "destination_country", message: `${req.destination} is not a supported destination` }] },
      );
    const currency = isoCountry(req.destination)?.currency ?? rule.currency;
    const lineCcy = rule.schedule === "US" ? "USD" : rule.schedule === "GB" ? "GBP" : "EUR";
    const deMinimis = s.deMinimis.filter((r) => r.country === rule.country && inForce(r, req.entryDate));
    const fees = s.fees.filter((r) => r.country === rule.country);
    const need = new Set([
      currency,
      lineCcy,
      ...req.currencies,
      ...deMinimis.map((r) => r.currency),
      ...fees.map((f) => f.currency),
    ]);
    need.delete("EUR");
    for (const c of need) fxKeys.set(`${c}|${req.entryDate}`, { currency: c, date: req.entryDate });
    if (rule.schedule) codeKeys.set(`${rule.schedule}|${req.hsCode}`, { schedule: rule.schedule, code: req.hsCode });
    return { req, rule, currency, deMinimis, fees, need };
  });

  const version = s.key;
  const statements: D1PreparedStatement[] = [];
  const missing = new Map<string, string[]>();
  for (const [k, { schedule, code }] of codeKeys) {
    if (lookups.get(`code|${version}|${k}`, clock)) continue;
    missing.set(schedule, [...(missing.get(schedule) ?? []), code]);
  }
  const groupJobs: {
    schedule: string;
    codes: string[];
    kinds: ("lines" | "measures" | "exclusions")[];
    start: number;
  }[] = [];
  for (const [schedule, codes] of missing) {
    const sts = groupStatements(db, schedule, codes);
    groupJobs.push({ schedule, codes, kinds: sts.map((x) => x.kind), start: statements.length });
    statements.push(...sts.map((x) => x.st));
  }
  const fxJobs: { key: string; start: number }[] = [];
  for (const [k, { currency, date }] of fxKeys) {
    if (lookups.get(`fx|${version}|${k}`, clock)) continue;
    fxJobs.push({ key: k, start: statements.length });
    statements.push(
      db
        .prepare(
          "SELECT currency, date, rate FROM fx_rates WHERE currency = ? AND date <= ? ORDER BY date DESC LIMIT 1",
        )
        .bind(currency, date),
    );
  }
  if (statements.length) {
    const results = await db.batch(statements);
    for (const job of groupJobs) {
      const lines: TariffLine[] = [];
      const measures: Measure[] = [];
      const exclusions: Exclusion[] = [];
      const seen = { measures: new Set<number>(), exclusions: new Set<number>() };
      job.kinds.forEach((kind, i) => {
        for (const row of results[job.start + i]!.results as Row[]) {
          if (kind === "lines") lines.push(toLine(row));
          else if (!seen[kind].has(row.id as number)) {
            // A row can come back from both its prefix lookup and a range lookup.
            seen[kind].add(row.id as number);
            if (kind === "measures") measures.push(toMeasure(row));
            else exclusions.push(toExclusion(row));
          }
        }
      });
      for (const code of job.codes)
        lookups.set(`code|${version}|${job.schedule}|${code}`, forCode(code, lines, measures, exclusions), clock);
    }
    for (const job of fxJobs) {
      const row = results[job.start]!.results[0] as { date: string; rate: string } | undefined;
      lookups.set(`fx|${version}|${job.key}`, { rate: row?.rate ?? null, date: row?.date ?? null }, clock);
    }
  }

  return prepared.map(({ req, rule, currency, deMinimis, fees, need }) => {
    const cd = rule.schedule
      ? (lookups.get(`code|${version}|${rule.schedule}|${req.hsCode}`, clock) as CodeData)
      : { lines: [], measures: [], exclusions: [] };
    const perEur: Record<string, string> = {};
    let date: string | null = null;
    for (const c of need) {
      const fx = lookups.get(`fx|${version}|${c}|${req.entryDate}`, clock) as {
        rate: string | null;
        date: string | null;
      };
      if (!fx?.rate) continue;
      perEur[c] = fx.rate;
      if (c !== "EUR" && (date === null || fx.date! < date)) date = fx.date;
    }
    const vat = s.vat.filter((v) => v.country === req.destination && inForce(v, req.entryDate));
    const data: ResolvedData = {
      rule,
      currency,
      lines: cd.lines,
      measures: cd.measures,
      exclusions: cd.exclusions,
      programs: s.programs.filter(
        (p) => (p as OriginProgram & { schedule: string }).schedule === rule.schedule && p.country === req.origin,
      ),
      vat: vat.find((v) => v.region === "") ?? null,
      vatRegion: req.destinationRegion
        ? (vat.find((v) => v.region.toUpperCase() === req.destinationRegion!.toUpperCase()) ?? null)
        : null,
      vatReduced: s.vatReduced.get(req.destination) ?? [],
      deMinimis,
      fees,
      fx: {
        date,
        perEur,
        source: "ECB euro foreign exchange reference rates (cross rates through EUR)",
      } satisfies FxTable,
    };
    return { data, dataSource: s.sources.tariffs ?? null, sources: s.sources };
  });
}

export const _resetReferenceCache = () => {
  small = undefined;
  lookups.clear();
};
