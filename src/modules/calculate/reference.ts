/**
 * Reference data for the calculate engine, read from D1. Small tables (destination rules, VAT, fees, de minimis,
 * programmes) are built once per isolate and dataset versions (a DatasetCache keyed on the versions of the four
 * datasets, re-read at most every 60 s). Tariff lines, measures, exclusions and FX rates are read per request
 * through their indexes (code / prefix, currency + date) in one D1 batch, and memoised with the build of the
 * versions they were read under.
 */

import { and, between, desc, eq, gt, gte, inArray, lt, lte, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ServiceContext } from "../../core/context";
import type { DataSource } from "../../core/data-source";
import { DatasetCache, onDatasetCachesReset } from "../../core/dataset-cache";
import { chunksFor } from "../../db/bulk";
import type { Db } from "../../db/client";
import {
  calcDeMinimis,
  calcDestinationRules,
  calcExcise,
  calcExclusions,
  calcFees,
  calcMeasures,
  calcOriginPrograms,
  calcTariffLines,
  calcVatRates,
  calcVatReduced,
  dataSources,
  fxCustomsRates,
  fxRates,
} from "../../db/schema/index";
import { lineDigits, SCHEDULES } from "../../engines/calculate/engine";
import { customsRateDay } from "../../engines/calculate/fx";
import type {
  DeMinimisRow,
  DestinationRule,
  ExciseRow,
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
import { dec } from "../../lib/money";
import { TtlCache } from "../../lib/ttl-cache";
import { onDatasetActivated } from "../datasets/service";
import { normalizeRegion } from "./regions";

/** What reading reference data needs: the database and the clock (for the version re-check and the memo). */
type ReferenceContext = Pick<ServiceContext, "db" | "deps">;

type ProgramRow = OriginProgram & { schedule: string };

interface Small {
  sources: Record<string, DataSource>;
  rules: Map<string, DestinationRule>;
  vat: VatRate[];
  fees: FeeRow[];
  deMinimis: DeMinimisRow[];
  programs: ProgramRow[];
  /** Reduced VAT rates on goods, by destination country. */
  vatReduced: Map<string, VatReducedRow[]>;
  /** Excise taxes collected at import, by country (`EU` for the members without rows of their own). */
  excise: Map<string, ExciseRow[]>;
  /** Per code and per currency and date: what earlier requests read under these versions. */
  memo: TtlCache<CodeData | FxHit | CustomsFxHit>;
}

interface FxHit {
  rate: string | null;
  date: string | null;
}

/**
 * A customs authority's own rates, where the registry holds them: HMRC's monthly rates for the UK (dataset
 * `fx-hmrc`, uploaded or fetched each month). Units of each currency per 1 GBP, for the period holding the date.
 */
const CUSTOMS_FX_DATASET = "fx-hmrc";
const CUSTOMS_FX: Record<string, { dataset: string; currency: string; name: string }> = {
  GB: { dataset: CUSTOMS_FX_DATASET, currency: "GBP", name: "HMRC monthly exchange rates for customs and VAT" },
};
interface CustomsFxHit {
  rates: Record<string, string>;
  start: string | null;
  end: string | null;
}

/**
 * `tariffs-us` is the US schedule when an edition of the USITC database was uploaded to the registry (its
 * data_sources row exists only then); the bundled US lines are part of `tariffs`.
 */
const DATASETS = ["tariffs", "tariffs-us", "vat", "fx", "customs_rules", CUSTOMS_FX_DATASET];
const VERSION_CHECK_MS = 60_000;
const smallCache = new DatasetCache<Small>("calculate-reference");
/**
 * The last read of the four versions: trusted for VERSION_CHECK_MS while the cache holds the build of those
 * versions, so a reset or a failed build re-reads them at once.
 */
let probe: { key: string; sources: Record<string, DataSource>; checkedAt: number } | undefined;

// A new version of one of these datasets activated in the registry: this isolate reads it on its next quote instead of after
// VERSION_CHECK_MS (other isolates follow within that interval).
onDatasetActivated((_ctx, event) => {
  if (DATASETS.includes(event.dataset)) probe = undefined;
});

const j = <T>(v: string | null): T | null => (v === null ? null : (JSON.parse(v) as T));

function byCountry<T extends { country: string }>(list: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of list) {
    const rows = out.get(r.country);
    if (rows) rows.push(r);
    else out.set(r.country, [r]);
  }
  return out;
}

const versionsQuery = (db: Db) =>
  db
    .select({
      dataset: dataSources.dataset,
      version: dataSources.version,
      source: dataSources.source,
      imported_at: dataSources.importedAt,
    })
    .from(dataSources)
    .where(inArray(dataSources.dataset, DATASETS));

type VersionRow = Awaited<ReturnType<typeof versionsQuery>>[number];

function probeOf(rows: VersionRow[], now: number) {
  const sources = Object.fromEntries(
    rows.map((r) => [r.dataset, { version: r.version, source: r.source, imported_at: r.imported_at }]),
  );
  const key = DATASETS.map((d) => `${d}@${sources[d]?.version ?? "-"}:${sources[d]?.imported_at ?? ""}`).join("|");
  return { key, sources, checkedAt: now };
}

/** A cold isolate's first read, shared by the requests that arrive before it answers. */
let coldLoad: Promise<Small> | undefined;
onDatasetCachesReset(() => {
  probe = undefined;
});

async function loadSmall(ctx: ReferenceContext): Promise<Small> {
  const now = ctx.deps.clock.now();
  let current = probe;
  if (!current && smallCache.version === undefined) {
    // Nothing read yet in this isolate: the versions and the tables in one batch, one round trip instead of
    // two on the cold path (the batch is one transaction, so the tables are those of the versions read).
    coldLoad ??= loadCold(ctx.db, now).finally(() => {
      coldLoad = undefined;
    });
    return coldLoad;
  }
  if (!current || current.key !== smallCache.version || now - current.checkedAt >= VERSION_CHECK_MS) {
    current = probeOf(await versionsQuery(ctx.db), now);
    probe = current;
  }
  const { key, sources } = current;
  return smallCache.get(key, () => buildSmall(ctx.db, sources));
}

async function loadCold(db: Db, now: number): Promise<Small> {
  const [versions, ...tables] = await db.batch([versionsQuery(db), ...smallQueries(db)]);
  const current = probeOf(versions, now);
  probe = current;
  const small = assembleSmall(tables, current.sources);
  return smallCache.get(current.key, async () => small);
}

/**
 * Starts reading the reference data a quote needs, so that a cold isolate reads it beside the workspace's
 * own rules rather than after them. Errors surface where the data is used.
 */
export function prefetchReference(ctx: ReferenceContext): void {
  loadSmall(ctx).catch(() => undefined);
}

const smallQueries = (db: Db) =>
  [
    db.select().from(calcDestinationRules),
    db.select().from(calcVatRates),
    db.select().from(calcFees),
    db.select().from(calcDeMinimis),
    db.select().from(calcOriginPrograms),
    db.select().from(calcVatReduced),
    db.select().from(calcExcise),
  ] as const;

type Rows<T extends { $inferSelect: unknown }> = T["$inferSelect"][];
type SmallTables = readonly [
  Rows<typeof calcDestinationRules>,
  Rows<typeof calcVatRates>,
  Rows<typeof calcFees>,
  Rows<typeof calcDeMinimis>,
  Rows<typeof calcOriginPrograms>,
  Rows<typeof calcVatReduced>,
  Rows<typeof calcExcise>,
];

async function buildSmall(db: Db, sources: Record<string, DataSource>): Promise<Small> {
  return assembleSmall(await db.batch(smallQueries(db)), sources);
}

function assembleSmall(tables: SmallTables, sources: Record<string, DataSource>): Small {
  const [rules, vat, fees, dm, programs, vatReduced, excise] = tables;
  return {
    sources,
    rules: new Map(
      rules.map((r) => [r.country, { ...r, customsBasis: r.customsBasis as DestinationRule["customsBasis"] }]),
    ),
    vat: vat.map(({ id: _, ...r }) => ({ ...r, reduced: j<Record<string, string>>(r.reduced) })),
    fees: fees.map(({ id: _, ...r }) => ({ ...r, exemptPrograms: j<string[]>(r.exemptPrograms) })),
    deMinimis: dm.map(({ id: _, ...r }) => ({
      ...r,
      kind: r.kind as DeMinimisRow["kind"],
      channel: r.channel as DeMinimisRow["channel"],
      basis: r.basis as DeMinimisRow["basis"],
      origins: j<string[]>(r.origins),
    })),
    vatReduced: byCountry(vatReduced.map(({ id: _, ...r }) => r)),
    excise: byCountry(excise.map(({ id: _, ...r }) => ({ ...r, unit: r.unit as ExciseRow["unit"] }))),
    programs: programs.map(({ id: _, ...r }) => r),
    memo: new TtlCache<CodeData | FxHit | CustomsFxHit>(10 * 60_000, 20_000),
  };
}

/** Destination rule: the country's own, or the EU's for a member state. */
function destinationRule(s: Small, destination: string): DestinationRule | null {
  return s.rules.get(destination) ?? (EU_MEMBERS.has(destination) ? (s.rules.get("EU") ?? null) : null);
}

/** Null when the destination has rules, else the reason it is not supported. */
export async function unsupported(ctx: ReferenceContext, destination: string): Promise<string | null> {
  const s = await loadSmall(ctx);
  return destinationRule(s, destination)
    ? null
    : `Destination ${destination} is not supported; supported: ${supportedDestinations(s)}`;
}

const supportedDestinations = (s: Small) =>
  [...s.rules.keys()].map((k) => (k === "EU" ? "EU member states" : k)).join(", ");

const inForce = (r: { validFrom: string; validTo: string | null }, d: string) =>
  r.validFrom <= d && (r.validTo === null || r.validTo >= d);

const toLine = ({ id: _, ...r }: typeof calcTariffLines.$inferSelect): TariffLine => ({
  ...r,
  mfn: j(r.mfn),
  col2: j(r.col2),
  special: j(r.special),
});
const toMeasure = ({ id: _, ...r }: typeof calcMeasures.$inferSelect): Measure => ({
  ...r,
  origins: j(r.origins),
  originsExcluded: j(r.originsExcluded),
  basis: r.basis as Measure["basis"],
  metalOrigin: j(r.metalOrigin),
});
const toExclusion = ({ id: _, ...r }: typeof calcExclusions.$inferSelect): Exclusion => ({
  ...r,
  kind: r.kind as Exclusion["kind"],
  origins: j(r.origins),
});

interface CodeData {
  lines: TariffLine[];
  measures: Measure[];
  exclusions: Exclusion[];
}

/** Prefixes of a code that a measure or exclusion may be keyed on (2 digits up to the code itself; '' is added per lookup). */
const prefixesOf = (code: string) =>
  Array.from({ length: Math.max(0, code.length - 1) }, (_, i) => code.slice(0, i + 2));

/**
 * One statement of a batch and what to do with its rows. `job` ties the handler's row type to the query's,
 * so a batch of different queries stays typed.
 */
interface Job {
  query: BatchItem<"sqlite">;
  take: (rows: unknown) => void;
}
function job<Q extends BatchItem<"sqlite">>(query: Q, take: (rows: Q["_"]["result"]) => void): Job {
  return { query, take: (rows) => take(rows as Q["_"]["result"]) };
}

/** Rows of one schedule's codes as the batch returns them; a measure or exclusion may come back twice. */
interface Group {
  lines: TariffLine[];
  measures: Map<number, Measure>;
  exclusions: Map<number, Exclusion>;
}

/**
 * Statements for the tariff lines, measures and exclusions of many codes of one schedule, at most 100 bound
 * parameters each and few of them (a 500-item batch must stay far below D1's per-invocation query limit). Every
 * statement is an index lookup: equality on prefixes, or ranges on the code / prefix column (SQLite's multi-index
 * OR), never a scan; see the EXPLAIN QUERY PLAN test.
 */
function groupJobs(db: Db, schedule: string, codes: string[], into: Group): Job[] {
  const out: Job[] = [];
  // National lines are stored at the schedule's line length; a longer code is priced on the line it falls under.
  // Where a schedule sets a rate two digits further down (UK and EU still wine by alcoholic strength), those
  // longer lines sort after their 8-digit prefix, so the range runs to the prefix's last 10-digit code.
  const digits = lineDigits(schedule);
  const lineRanges = [...new Set(codes.map((c) => c.slice(0, digits)))].map(
    (c) => [c.padEnd(digits, "0"), c.padEnd(digits + 2, "9")] as const,
  );
  // Two parameters per range, one for the schedule.
  for (const part of chunksFor(lineRanges, 2, 1)) {
    const ranges = part.map(([lo, hi]) => between(calcTariffLines.code, lo, hi));
    const query = db
      .select()
      .from(calcTariffLines)
      .where(and(eq(calcTariffLines.schedule, schedule), or(...ranges)));
    out.push(job(query, (rows) => into.lines.push(...rows.map(toLine))));
  }
  if (schedule !== "US") return out;
  // '' = every product (the Section 122 surcharge and exclusions that do not depend on the code).
  const prefixes = ["", ...new Set(codes.flatMap(prefixesOf))];
  const below = [...new Set(codes.filter((c) => c.length < 10))];
  const keepMeasures = (rows: (typeof calcMeasures.$inferSelect)[]) => {
    for (const r of rows) if (!into.measures.has(r.id)) into.measures.set(r.id, toMeasure(r));
  };
  const keepExclusions = (rows: (typeof calcExclusions.$inferSelect)[]) => {
    for (const r of rows) if (!into.exclusions.has(r.id)) into.exclusions.set(r.id, toExclusion(r));
  };
  // Keyed below a code: prefixes longer than the code, as a range on the prefix column (two parameters each).
  const under = (column: typeof calcMeasures.hsPrefix | typeof calcExclusions.hsPrefix, part: string[]) =>
    or(...part.map((c) => and(gt(column, c), lt(column, `${c}~`))));
  for (const part of chunksFor(prefixes))
    out.push(job(db.select().from(calcMeasures).where(inArray(calcMeasures.hsPrefix, part)), keepMeasures));
  for (const part of chunksFor(below, 2))
    out.push(job(db.select().from(calcMeasures).where(under(calcMeasures.hsPrefix, part)), keepMeasures));
  for (const part of chunksFor(prefixes))
    out.push(job(db.select().from(calcExclusions).where(inArray(calcExclusions.hsPrefix, part)), keepExclusions));
  for (const part of chunksFor(below, 2))
    out.push(job(db.select().from(calcExclusions).where(under(calcExclusions.hsPrefix, part)), keepExclusions));
  return out;
}

/** A prefix above the code (a heading over a line) or under it (a line under a heading). */
function prefixRelated(prefix: string, code: string): boolean {
  return prefix.length <= code.length ? code.startsWith(prefix) : prefix.startsWith(code);
}

/** The rows of a group that belong to one code. */
function forCode(schedule: string, code: string, group: Group): CodeData {
  const lineCode = code.slice(0, lineDigits(schedule));
  const related = (p: string) => prefixRelated(p, code);
  return {
    lines: group.lines.filter((l) => l.code.startsWith(lineCode)),
    measures: [...group.measures.values()].filter((m) => related(m.hsPrefix)),
    exclusions: [...group.exclusions.values()].filter((e) => e.hsPrefix === "" || related(e.hsPrefix)),
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
  /** Every dataset the quote read, by registry name (`data_sources` on the wire). */
  sources: Record<string, DataSource>;
}

/** The request's region in full ISO 3166-2 form; a 400 on `destination_region` when the destination has no such region. */
function regionOf(s: Small, req: LookupRequest): string {
  const given = req.destinationRegion ?? "";
  const known = s.vat.filter((v) => v.country === req.destination && v.region !== "").map((v) => v.region);
  const region = normalizeRegion(req.destination, given, known);
  if (region) return region;
  const list = [...new Set(known)].join(", ");
  throw new ApiError("validation_failed", `destination_region ${given} is not a region of ${req.destination}`, {
    errors: [
      {
        field: "destination_region",
        message: `${given} is not a region of ${req.destination}${list ? ` (regions with their own tax: ${list})` : ""}`,
      },
    ],
  });
}

/** A request with its destination's rule and what it needs: the tariff schedule's codes, FX rates. */
function prepare(s: Small, req: LookupRequest) {
  const rule = destinationRule(s, req.destination);
  if (!rule)
    throw new ApiError(
      "validation_failed",
      `Destination ${req.destination} is not supported; supported: ${supportedDestinations(s)}`,
      { errors: [{ field: "destination_country", message: `${req.destination} is not a supported destination` }] },
    );
  if (req.destinationRegion) regionOf(s, req);
  const currency = isoCountry(req.destination)?.currency ?? rule.currency;
  const lineCcy = SCHEDULES[rule.schedule ?? ""]?.currency ?? "EUR";
  const deMinimis = s.deMinimis.filter((r) => r.country === rule.country && inForce(r, req.entryDate));
  const fees = s.fees.filter((r) => r.country === rule.country);
  // The day the destination's customs authority takes its rate on (the EU's monthly rate), not always the entry date.
  const rateDay = customsRateDay(rule.country, req.entryDate);
  const need = new Set([
    currency,
    lineCcy,
    ...req.currencies,
    ...deMinimis.map((r) => r.currency),
    ...fees.map((f) => f.currency),
  ]);
  need.delete("EUR");
  return { req, rule, currency, deMinimis, fees, need, rateDay };
}

type Prepared = ReturnType<typeof prepare>;

/** What one call resolves: per schedule and code, per currency and date; from the memo or from the batch. */
interface Found {
  codes: Map<string, CodeData>;
  fx: Map<string, FxHit>;
  customs: Map<string, CustomsFxHit>;
}

const codeKey = (schedule: string, code: string) => `code|${schedule}|${code}`;
const fxKey = (currency: string, date: string) => `fx|${currency}|${date}`;
const customsKey = (country: string, date: string) => `cfx|${country}|${date}`;

/**
 * Fills `found` from this build's memo and returns the statements for the rest (a schedule's codes as one
 * group, one FX rate each) and the step that files a group's rows under its codes once the batch is back.
 */
function lookupJobs(db: Db, s: Small, prepared: Prepared[], clock: Clock, found: Found) {
  const missing = new Map<string, Set<string>>();
  const jobs: Job[] = [];
  for (const p of prepared) jobs.push(...customsFxJobs(db, s, p, clock, found));
  for (const { req, rule, need, rateDay } of prepared) {
    const schedule = rule.schedule;
    const ck = schedule ? codeKey(schedule, req.hsCode) : null;
    const hit = ck ? s.memo.get(ck, clock) : undefined;
    if (ck && hit && "lines" in hit) found.codes.set(ck, hit);
    else if (schedule) missing.set(schedule, (missing.get(schedule) ?? new Set()).add(req.hsCode));
    for (const currency of need) {
      const fk = fxKey(currency, rateDay.date);
      if (found.fx.has(fk)) continue;
      const fx = s.memo.get(fk, clock);
      if (fx && "rate" in fx) {
        found.fx.set(fk, fx);
        continue;
      }
      // A placeholder until the batch answers, so the same rate is asked for once.
      found.fx.set(fk, { rate: null, date: null });
      const query = db
        .select({ date: fxRates.date, rate: fxRates.rate })
        .from(fxRates)
        // The version this build was read under: a newer one activated meanwhile is used from the next build.
        .where(
          and(
            eq(fxRates.version, s.sources.fx?.version ?? ""),
            eq(fxRates.currency, currency),
            lte(fxRates.date, rateDay.date),
          ),
        )
        .orderBy(desc(fxRates.date))
        .limit(1);
      jobs.push(
        job(query, ([row]) => {
          const value = { rate: row?.rate ?? null, date: row?.date ?? null };
          found.fx.set(fk, value);
          s.memo.set(fk, value, clock);
        }),
      );
    }
  }
  const groups: { schedule: string; codes: string[]; group: Group }[] = [];
  for (const [schedule, codes] of missing) {
    const group: Group = { lines: [], measures: new Map(), exclusions: new Map() };
    groups.push({ schedule, codes: [...codes], group });
    jobs.push(...groupJobs(db, schedule, [...codes], group));
  }
  const fileGroups = () => {
    for (const { schedule, codes, group } of groups)
      for (const code of codes) {
        const data = forCode(schedule, code, group);
        found.codes.set(codeKey(schedule, code), data);
        s.memo.set(codeKey(schedule, code), data, clock);
      }
  };
  return { jobs, fileGroups };
}

/**
 * The statement reading the customs authority's rates for the entry date (every currency of that period, one
 * query), when the destination has such a dataset and a version of it is active; none otherwise.
 */
function customsFxJobs(db: Db, s: Small, p: Prepared, clock: Clock, found: Found): Job[] {
  const spec = CUSTOMS_FX[p.rule.country];
  const version = spec ? s.sources[spec.dataset]?.version : undefined;
  if (!spec || !version) return [];
  const key = customsKey(p.rule.country, p.req.entryDate);
  if (found.customs.has(key)) return [];
  const hit = s.memo.get(key, clock);
  if (hit && "rates" in hit) {
    found.customs.set(key, hit);
    return [];
  }
  found.customs.set(key, { rates: {}, start: null, end: null });
  const d = p.req.entryDate;
  const query = db
    .select({
      currency: fxCustomsRates.currency,
      rate: fxCustomsRates.rate,
      start: fxCustomsRates.periodStart,
      end: fxCustomsRates.periodEnd,
    })
    .from(fxCustomsRates)
    .where(
      and(
        eq(fxCustomsRates.dataset, spec.dataset),
        eq(fxCustomsRates.version, version),
        lte(fxCustomsRates.periodStart, d),
        gte(fxCustomsRates.periodEnd, d),
      ),
    );
  return [
    job(query, (rows) => {
      const value: CustomsFxHit = {
        rates: Object.fromEntries(rows.map((r) => [r.currency, r.rate])),
        start: rows[0]?.start ?? null,
        end: rows[0]?.end ?? null,
      };
      found.customs.set(key, value);
      s.memo.set(key, value, clock);
    }),
  ];
}

/**
 * The FX table from the customs authority's own rates, when its period holds every currency the request
 * needs (and the euro, through which the engine crosses); null otherwise, and the ECB rates are used.
 */
function customsFxTable(s: Small, p: Prepared, found: Found): FxTable | null {
  const spec = CUSTOMS_FX[p.rule.country];
  if (!spec) return null;
  const hit = found.customs.get(customsKey(p.rule.country, p.req.entryDate));
  const perHome = hit?.rates ?? {};
  const eur = perHome.EUR;
  if (!hit?.start || !eur) return null;
  const perEur: Record<string, string> = { [spec.currency]: dec(1).div(eur).toString() };
  for (const c of p.need) {
    if (c === spec.currency) continue;
    const r = perHome[c];
    if (!r) return null;
    perEur[c] = dec(r).div(eur).toString();
  }
  return {
    date: hit.start,
    perEur,
    source: `${spec.name}, period ${hit.start} to ${hit.end} (rates per 1 ${spec.currency}, crossed through EUR), ${spec.dataset} dataset version ${s.sources[spec.dataset]?.version ?? "none"}`,
    // The period's rate is the rate of the day: no staleness note for an entry later in the month.
    asOf: hit.start,
  };
}

/** One request's reference data from what was found. */
function assemble(s: Small, p: Prepared, found: Found): Resolved {
  const { req, rule, currency, deMinimis, fees, need, rateDay } = p;
  const cd = (rule.schedule ? found.codes.get(codeKey(rule.schedule, req.hsCode)) : undefined) ?? {
    lines: [],
    measures: [],
    exclusions: [],
  };
  const perEur: Record<string, string> = {};
  let date: string | null = null;
  for (const c of need) {
    const fx = found.fx.get(fxKey(c, rateDay.date));
    if (!fx?.rate) continue;
    perEur[c] = fx.rate;
    if (c !== "EUR" && fx.date !== null && (date === null || fx.date < date)) date = fx.date;
  }
  const vat = s.vat.filter((v) => v.country === req.destination && inForce(v, req.entryDate));
  const region = req.destinationRegion ? regionOf(s, req) : null;
  // The customs authority's own rates when it holds the period (HMRC for the UK), else the ECB's.
  const customsFx = customsFxTable(s, p, found);
  // Excise is national: an EU member with its own rows (Germany) is taxed by them, the others by the rows the
  // Union's destinations share (which name the member states' taxes the data does not price).
  const exciseRows = s.excise.get(req.destination) ?? s.excise.get(rule.country) ?? [];
  const data: ResolvedData = {
    rule,
    currency,
    lines: cd.lines,
    measures: cd.measures,
    exclusions: cd.exclusions,
    programs: s.programs.filter((p) => p.schedule === rule.schedule && p.country === req.origin),
    vat: vat.find((v) => v.region === "") ?? null,
    vatRegion: region ? (vat.find((v) => v.region.toUpperCase() === region) ?? null) : null,
    vatReduced: s.vatReduced.get(req.destination) ?? [],
    deMinimis,
    fees,
    // Rows under the code or above it: a heading's chosen line (2204 -> 2204.10) may fall under a longer prefix, and
    // the engine picks the most specific row for the line it decided on.
    excise: exciseRows.filter((e) => inForce(e, req.entryDate) && prefixRelated(e.hsPrefix, req.hsCode)),
    fx:
      customsFx ??
      ({
        date,
        perEur,
        // The FX dataset version the rates were read under (it changes without a redeploy, see the registry).
        source: `${rateDay.rule}; ECB euro foreign exchange reference rates (cross rates through EUR), fx dataset version ${s.sources.fx?.version ?? "none"}`,
        asOf: rateDay.date,
      } satisfies FxTable),
  };
  const schedule = rule.schedule ? s.sources[`tariffs-${rule.schedule.toLowerCase()}`] : undefined;
  const tariffs = schedule ?? s.sources.tariffs ?? null;
  // Every dataset this quote read, under its registry name: the tariff version (the schedule's own when an
  // edition was uploaded), VAT, the customs rules, and the FX series the conversion used.
  const fxDataset = customsFx ? (CUSTOMS_FX[rule.country]?.dataset ?? "fx") : "fx";
  const used: Record<string, DataSource> = {};
  const named: [string, DataSource | null | undefined][] = [
    [schedule ? `tariffs-${(rule.schedule as string).toLowerCase()}` : "tariffs", tariffs],
    ["vat", s.sources.vat],
    ["customs_rules", s.sources.customs_rules],
    [fxDataset, s.sources[fxDataset]],
  ];
  for (const [name, source] of named) if (source) used[name] = source;
  return { data, dataSource: tariffs, sources: used };
}

/**
 * Resolves the reference data for many requests at once (one D1 batch for whatever is not memoised).
 * Throws 400 for a destination without rules. Per-request failures (no FX rate) come back as errors.
 */
export async function resolveMany(ctx: ReferenceContext, reqs: LookupRequest[]): Promise<Resolved[]> {
  const s = await loadSmall(ctx);
  const prepared = reqs.map((req) => prepare(s, req));
  const found: Found = { codes: new Map(), fx: new Map(), customs: new Map() };
  const { jobs, fileGroups } = lookupJobs(ctx.db, s, prepared, ctx.deps.clock, found);
  const [first, ...rest] = jobs.map((x) => x.query);
  if (first) {
    const results: unknown[] = await ctx.db.batch([first, ...rest]);
    for (const [i, x] of jobs.entries()) x.take(results[i]);
    fileGroups();
  }
  return prepared.map((p) => assemble(s, p, found));
}
