/**
 * Calculate service (no Hono): turns validated requests into engine inputs, resolves the reference data from
 * D1 (reference.ts), checks the workspace's country rules, runs the pure engine and shapes the wire answer.
 * Rounding happens once, in the engine's wire module. Tenancy comes from the caller's context only.
 */

import type { z } from "@hono/zod-openapi";
import type Big from "big.js";
import type { Call, ServiceContext, WorkspaceScopedContext } from "../../core/context";
import type { DataSource } from "../../core/data-source";
import { recordUsage, type UsageSummary } from "../../core/usage";
import {
  CalcError,
  calculate,
  computeFees,
  entryTypeOf,
  type FeeLine,
  type Money,
  money,
  NO_METAL_ORIGINS,
  stack,
} from "../../engines/calculate/engine";
import type { CalcInput, FeeRow, MetalOrigins, ResolvedData } from "../../engines/calculate/types";
import { calcWire, stackWire } from "../../engines/calculate/wire";
import type { Match } from "../../engines/restrict/engine";
import { zodIssuesToFieldErrors } from "../../http/router";
import { type Clock, isoAt } from "../../lib/clock";
import { ApiError, CountryRuleError, type CountryRuleFailure } from "../../lib/errors";
import { dec, formatMoney, moneyNumber } from "../../lib/money";
import { importProhibitions } from "../restrict/service";
import { type LookupRequest, prefetchReference, type Resolved, resolveMany, unsupported } from "./reference";
import { type CountryRule, rulesFor } from "./rules";
import { type CalculateBody, type MultipleBody, MultipleLine, StackingBody } from "./schemas";

/**
 * What pricing needs from a request's context: the database, the clock and the workspace whose country rules
 * apply. A ServiceContext qualifies; so does the context of a caller pricing on a workspace's behalf
 * without logging a calculate call (a consignment's duty assessment).
 */
export type PricingContext = Pick<WorkspaceScopedContext, "db" | "deps" | "workspace">;

export const today = (clock: Clock) => isoAt(clock.now()).slice(0, 10);
const s = (n: number | undefined | null) => (n === undefined || n === null ? null : String(n));

type CalcBody = z.output<typeof CalculateBody>;

type MetalOriginWire = {
  country_of_melt_pour?: string;
  primary_country_of_smelt?: string;
  secondary_country_of_smelt?: string;
  country_of_cast?: string;
};
const metalOrigins = (b: MetalOriginWire): MetalOrigins => ({
  meltPour: b.country_of_melt_pour ?? null,
  primarySmelt: b.primary_country_of_smelt ?? null,
  secondarySmelt: b.secondary_country_of_smelt ?? null,
  cast: b.country_of_cast ?? null,
});

function toInput(b: CalcBody, clock: Clock): CalcInput {
  return {
    hsCode: b.hs_code,
    origin: b.origin_country,
    destination: b.destination_country,
    declaredValue: String(b.declared_value),
    quantity: String(b.quantity),
    currency: b.currency ?? null,
    weight: s(b.weight),
    weightUnit: b.weight_unit,
    shippingCost: String(b.shipping_cost),
    insuranceCost: String(b.insurance_cost),
    transportMode: b.transport_mode,
    shippingTerms: b.shipping_terms,
    channel: b.shipment_channel ?? null,
    ioss: b.ioss ?? null,
    entryDate: b.entry_date ?? today(clock),
    components: b.components.map((c) => ({ material: c.material, value: String(c.value) })),
    metalWeightPercentage: s(b.metal_weight_percentage),
    metalOrigins: metalOrigins(b),
    manualClaims: b.manual_claims,
    destinationRegion: b.destination_region ?? null,
    volume: s(b.volume),
    volumeUnit: b.volume_unit,
    alcoholPercentage: s(b.alcohol_percentage),
  };
}

const lookup = (i: CalcInput, extra: string[] = []): LookupRequest => ({
  destination: i.destination,
  hsCode: i.hsCode,
  entryDate: i.entryDate,
  origin: i.origin,
  currencies: [...(i.currency ? [i.currency] : []), ...extra],
  destinationRegion: i.destinationRegion,
});

const ruleCurrencies = (rules: CountryRule[]) => rules.flatMap((r) => (r.currency ? [r.currency] : []));

const isMissing = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);

/** One rule against one request; values are compared as line totals, converted at the ECB rate. */
function violation(
  r: CountryRule,
  body: Record<string, unknown>,
  input: CalcInput,
  m: Money,
  total: Big,
): CountryRuleFailure | null {
  if (r.ruleType === "blocked_origins")
    return r.countries?.includes(input.origin) ? { code: r.code, description: r.description } : null;
  if (r.ruleType === "required_fields") {
    const missing = (r.fields ?? []).filter((f) => isMissing(body[f]));
    return missing.length ? { code: r.code, description: `${r.description} (missing: ${missing.join(", ")})` } : null;
  }
  if (r.value === null) return null;
  const bound = m.toDest(dec(r.value), r.currency ?? m.currency);
  const bad = r.ruleType === "min_declared_value" ? total.lt(bound) : total.gt(bound);
  if (!bad) return null;
  const declared = `declared ${formatMoney(total, m.currency)}, limit ${formatMoney(bound, m.currency)}`;
  return { code: r.code, description: `${r.description} (${declared})` };
}

/** The workspace's rules that one request breaks. */
function violations(rules: CountryRule[], body: Record<string, unknown>, input: CalcInput, m: Money) {
  const total = m.toDest(dec(input.declaredValue).times(input.quantity), input.currency ?? m.currency);
  return rules.flatMap((r) => violation(r, body, input, m, total) ?? []);
}

/** A refused calculation: its usage row is recorded (as `rejected`) before the 400 `{errors}` is thrown. */
function reject(ctx: ServiceContext, endpoint: string, destination: string | null, e: CountryRuleError): never {
  recordUsage(ctx, {
    kind: "calculate",
    senderCountryCode: null,
    receiverCountryCode: destination,
    itemCount: 0,
    matchCount: 0,
    detail: { endpoint, rejected: e.failures },
  });
  throw e;
}

/** Runs a calculate verb's pricing and records its usage row, a refused one too. */
async function logged<T>(
  ctx: ServiceContext,
  endpoint: string,
  destination: string | null,
  price: () => Promise<{ quote: T; summary: Omit<UsageSummary, "kind"> }>,
): Promise<{ quote: T; durationMs: number }> {
  try {
    const { quote, summary } = await price();
    const row = recordUsage(ctx, { kind: "calculate", ...summary });
    return { quote, durationMs: row.durationMs ?? 0 };
  } catch (e) {
    if (e instanceof CountryRuleError) reject(ctx, endpoint, destination, e);
    throw e;
  }
}

const onlyOne = (resolved: Resolved[]): Resolved => {
  const [r] = resolved;
  if (!r) throw new Error("reference lookup returned no answer");
  return r;
};

/** POST /calculate. Throws CountryRuleError (400 `{errors}`) or ApiError (400 validation). */
export async function calculateOne({ ctx, input: b }: Call<CalcBody>) {
  return logged(ctx, "calculate", b.destination_country, async () => {
    const input = toInput(b, ctx.deps.clock);
    // The prohibitions and the reference tables do not depend on the workspace's rules: on a cold isolate
    // they are read beside them, so the quote waits for two round trips of D1 rather than four.
    const prohibitions = started(prohibitionsOf(ctx, input.destination, input.origin, input.entryDate, [input.hsCode]));
    prefetchReference(ctx);
    const rules = await rulesFor(ctx, input.destination);
    const [resolved, [prohibited]] = await Promise.all([
      resolveMany(ctx, [lookup(input, ruleCurrencies(rules))]),
      prohibitions,
    ]);
    const { data, dataSource, sources } = onlyOne(resolved);
    const { result, wire } = priceOne(rules, b, input, data);
    return {
      quote: {
        message: result.message,
        ...wire,
        warnings: warningsOf(prohibited ?? []),
        data_source: dataSource,
        data_sources: sources,
      },
      summary: {
        senderCountryCode: input.origin,
        receiverCountryCode: input.destination,
        itemCount: 1,
        matchCount: result.rateFound ? 1 : 0,
        detail: {
          endpoint: "calculate",
          hs_code: input.hsCode,
          entry_date: input.entryDate,
          currency: wire.currencies.destination,
          total: wire.totals.total,
          rate_found: result.rateFound,
        },
      },
    };
  });
}

/**
 * The restricted-goods prohibitions the platform rules hold for each code, origin and destination on the entry
 * date: a quote for goods that cannot lawfully be imported says so (it is still priced).
 */
/** A promise awaited later: its rejection is not reported as unhandled while the caller awaits something else first. */
function started<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

function prohibitionsOf(ctx: PricingContext, destination: string, origin: string, entryDate: string, codes: string[]) {
  return importProhibitions(ctx.db, ctx.deps.clock, { destination, origin, asOf: entryDate }, codes);
}

const warningsOf = (ms: Match[]) =>
  ms.map((m) => ({
    code: "prohibited" as const,
    rule_id: m.id,
    title: m.title,
    summary: m.summary,
    imposing_country: m.imposing_country_code,
    agency: m.agency,
    source_url: m.source_url,
  }));

/** The rules check and the engine for one request; an engine refusal (no FX rate) is a 400 on `currency`. */
function priceOne(rules: CountryRule[], b: CalcBody, input: CalcInput, data: ResolvedData) {
  try {
    const m = money(data);
    const bad = violations(rules, b, input, m);
    if (bad.length) throw new CountryRuleError(bad);
    const result = calculate(input, data);
    return { result, wire: calcWire(input, result) };
  } catch (e) {
    if (e instanceof CalcError)
      throw new ApiError("validation_failed", e.message, { errors: [{ field: "currency", message: e.message }] });
    throw e;
  }
}

type MultiBody = z.output<typeof MultipleBody>;
type Parsed =
  | { index: number; ok: true; input: CalcInput; raw: Record<string, unknown> }
  | { index: number; ok: false; hs: unknown; origin: unknown; error: string };
type ParsedOk = Extract<Parsed, { ok: true }>;

/** A line of calculate/multiple as an engine input; lines inherit the shipment's defaults. */
function lineInput(b: MultiBody, l: z.output<typeof MultipleLine>, entryDate: string): CalcInput {
  return {
    hsCode: l.hs_code,
    origin: l.origin_country,
    destination: b.destination_country,
    declaredValue: String(l.declared_value),
    quantity: String(l.quantity ?? b.quantity ?? 1),
    currency: l.currency ?? b.currency ?? null,
    weight: s(l.weight ?? b.weight),
    weightUnit: l.weight_unit ?? b.weight_unit,
    // Shipment-level costs stay at shipment level: they are not spread over the lines' customs values.
    shippingCost: "0",
    insuranceCost: "0",
    transportMode: b.transport_mode,
    shippingTerms: b.shipping_terms,
    channel: b.shipment_channel ?? null,
    ioss: b.ioss ?? null,
    entryDate,
    components: (l.components ?? []).map((c) => ({ material: c.material, value: String(c.value) })),
    metalWeightPercentage: s(l.metal_weight_percentage),
    metalOrigins: metalOrigins(l),
    manualClaims: l.manual_claims ?? [],
    destinationRegion: b.destination_region ?? null,
    volume: s(l.volume),
    volumeUnit: l.volume_unit ?? "l",
    alcoholPercentage: s(l.alcohol_percentage),
  };
}

/** Each line validated on its own: a failed line is reported in place. */
function parseLines(b: MultiBody, entryDate: string): Parsed[] {
  return b.codes.map((raw, index) => {
    const r = MultipleLine.safeParse(raw);
    if (r.success) return { index, ok: true, input: lineInput(b, r.data, entryDate), raw: { ...b, ...r.data } };
    const error = zodIssuesToFieldErrors(r.error.issues)
      .map((f) => `${f.field}: ${f.message}`)
      .join("; ");
    return { index, ok: false, hs: raw.hs_code ?? null, origin: raw.origin_country ?? null, error };
  });
}

/** The reference data of every valid line, by line index. */
async function resolveLines(ctx: PricingContext, b: MultiBody, oks: ParsedOk[], rules: CountryRule[]) {
  const extra = [...ruleCurrencies(rules), ...(b.currency ? [b.currency] : [])];
  const resolved = oks.length
    ? await resolveMany(
        ctx,
        oks.map((p) => lookup(p.input, extra)),
      )
    : [];
  const byIndex = new Map<number, Resolved>();
  oks.forEach((p, i) => {
    const r = resolved[i];
    if (r) byIndex.set(p.index, r);
  });
  return byIndex;
}

/**
 * The workspace's rules over every line (any violation refuses the whole shipment, each named once) and
 * each line's goods value in the destination currency; a line the engine cannot value fails in place.
 */
function checkLines(rules: CountryRule[], oks: ParsedOk[], byIndex: Map<number, Resolved>) {
  const bad: CountryRuleFailure[] = [];
  const goods = new Map<number, Big>();
  const lineErrors = new Map<number, string>();
  for (const p of oks) {
    const r = byIndex.get(p.index);
    if (!r) continue;
    try {
      const m = money(r.data);
      for (const v of violations(rules, p.raw, p.input, m))
        if (!bad.some((x) => x.code === v.code && x.description === v.description)) bad.push(v);
      goods.set(p.index, m.toDest(dec(p.input.declaredValue), p.input.currency ?? m.currency).times(p.input.quantity));
    } catch (e) {
      if (e instanceof CalcError) lineErrors.set(p.index, e.message);
      else throw e;
    }
  }
  return { goodsValue: [...goods.values()].reduce((a, v) => a.plus(v), dec(0)), lineErrors, refused: bad };
}

/** Running sums over the priced lines, for the entry-level money. */
interface Entry {
  duty: Big;
  vat: Big;
  /** Excise of the lines; null while no line carries any (the totals then have no excise key). */
  excise: Big | null;
  customs: Big;
  /** The most valuable line that is an article classified in Chapter 99, Subchapters III and IV (entry type). */
  chapter99: Big | null;
  ccy: string | null;
  found: number;
  anyDutyExempt: boolean;
  /** Each fee's base: the lines not exempt from it (e.g. USMCA-originating lines pay no MPF). */
  feeBase: Map<string, Big>;
  dm: unknown;
  dataSource: DataSource | null;
  dataSources: Record<string, DataSource>;
  /** The first priced line: its reference data and input carry the entry's fees. */
  first: { data: ResolvedData; input: CalcInput } | null;
}

const failedLine = (index: number, hs: unknown, origin: unknown, error: string) => ({
  index,
  hs_code: typeof hs === "string" ? hs.replace(/[. ]/g, "") : hs,
  origin_country: origin,
  rate_found: false,
  error,
});

/** The de minimis part of a line's exemptions, stated once for the entry. */
function entryDeMinimis(wire: ReturnType<typeof calcWire>) {
  const x = wire.exemptions;
  return {
    de_minimis_threshold: x.de_minimis_threshold,
    de_minimis_exempt: x.de_minimis_exempt,
    ...("tax_de_minimis_exempt" in x
      ? { tax_de_minimis_threshold: x.tax_de_minimis_threshold, tax_de_minimis_exempt: x.tax_de_minimis_exempt }
      : {}),
  };
}

/**
 * The lines priced as one declaration. Where the destination sets a minimum on the import tax itself
 * (Switzerland: VAT up to CHF 5 is not levied), that is the declaration's whole tax: the lines are priced once to
 * know it, and again with it only when it is within such a minimum (above every one, nothing would change).
 */
function pricedEntry(
  parsed: Parsed[],
  byIndex: Map<number, Resolved>,
  lineErrors: Map<number, string>,
  goodsValue: Big,
) {
  const first = priceLines(parsed, byIndex, lineErrors, goodsValue);
  const within = [...byIndex.values()].some((r) =>
    r.data.deMinimis.some(
      (d) =>
        d.kind === "tax" &&
        d.basis === "tax_amount" &&
        d.threshold !== null &&
        first.entry.vat.lte(money(r.data).toDest(dec(d.threshold), d.currency)),
    ),
  );
  return within ? priceLines(parsed, byIndex, lineErrors, goodsValue, first.entry.vat) : first;
}

/** Prices every line in request order (failed lines in place) and sums what the entry needs. */
function priceLines(
  parsed: Parsed[],
  byIndex: Map<number, Resolved>,
  lineErrors: Map<number, string>,
  goodsValue: Big,
  taxTotal?: Big,
) {
  const results: unknown[] = [];
  const entry: Entry = {
    duty: dec(0),
    vat: dec(0),
    excise: null,
    customs: dec(0),
    chapter99: null,
    ccy: null,
    found: 0,
    anyDutyExempt: false,
    feeBase: new Map(),
    dm: null,
    dataSource: null,
    dataSources: {},
    first: null,
  };
  // The EU's flat low-value duty falls once per item category of the whole shipment.
  const flatDutyCategories = new Set<string>();
  for (const p of parsed) {
    if (!p.ok) {
      results.push(failedLine(p.index, p.hs, p.origin, p.error));
      continue;
    }
    const r = byIndex.get(p.index);
    const err = lineErrors.get(p.index) ?? (r ? undefined : "failed");
    if (err !== undefined || !r) {
      results.push(failedLine(p.index, p.input.hsCode, p.input.origin, err ?? "failed"));
      continue;
    }
    entry.dataSource = r.dataSource;
    Object.assign(entry.dataSources, r.sources);
    const result = calculate(p.input, r.data, {
      goodsValue,
      feesAtShipmentLevel: true,
      entryValue: goodsValue,
      flatDutyCategories,
      ...(taxTotal ? { taxTotal } : {}),
    });
    // A code the destination's tariff does not hold is a failed line: no duty, no share of the entry's fees.
    if (r.data.rule.schedule && !result.rateFound) {
      results.push(failedLine(p.index, p.input.hsCode, p.input.origin, result.message));
      continue;
    }
    const wire = calcWire(p.input, result);
    if (result.rateFound) entry.found++;
    entry.ccy = result.currencies.destination;
    entry.duty = entry.duty.plus(result.totals.duty);
    entry.vat = entry.vat.plus(result.totals.vat);
    if (result.excise) entry.excise = (entry.excise ?? dec(0)).plus(result.excise.total);
    entry.customs = entry.customs.plus(result.values.customsValue);
    const article = result.values.chapter99Article;
    if (article && (!entry.chapter99 || article.gt(entry.chapter99))) entry.chapter99 = article;
    for (const code of new Set(r.data.fees.map((f) => f.code)))
      if (!result.exemptFees.includes(code))
        entry.feeBase.set(code, (entry.feeBase.get(code) ?? dec(0)).plus(result.values.customsValue));
    entry.anyDutyExempt ||= result.exemptions.deMinimis.exempt;
    entry.dm ??= entryDeMinimis(wire);
    entry.first ??= { data: r.data, input: p.input };
    results.push({ index: p.index, message: result.message, ...wire });
  }
  return { results, entry };
}

/** The entry's fees, each with its floor and cap on the whole entry, on its own base. */
function entryFees(entry: Entry, fees: FeeRow[], input: CalcInput, m: Money): FeeLine[] {
  if (entry.anyDutyExempt) return [];
  const type = entryTypeOf(fees, input, entry.customs, m, entry.chapter99)?.type ?? null;
  const codes = [...new Set(fees.map((f) => f.code))];
  return codes.flatMap((code) => {
    const base = entry.feeBase.get(code);
    return base
      ? computeFees(
          fees.filter((f) => f.code === code),
          input,
          base,
          m,
          type,
        )
      : [];
  });
}

/** Entry-level money: freight (not spread), fees with their floor and cap on the whole entry. */
function shipmentMoney(b: MultiBody, entry: Entry, goodsValue: Big) {
  const { ccy, first } = entry;
  if (!ccy || !first)
    return {
      fees: dec(0),
      shipment: {
        shipping_cost: b.shipping_cost,
        insurance_cost: b.insurance_cost,
        goods_value: null,
        customs_value: null,
        fees: null,
      } as Record<string, unknown>,
    };
  const m = money(first.data);
  const declCcy = b.currency ?? ccy;
  const freight = m.toDest(dec(b.shipping_cost).plus(b.insurance_cost), declCcy);
  const cif = first.data.rule.customsBasis === "CIF";
  const entryValue =
    cif && b.shipping_terms !== "CIF" && b.shipping_terms !== "DDP" ? entry.customs.plus(freight) : entry.customs;
  const feeLines = entryFees(entry, first.data.fees, first.input, m);
  const fees = feeLines.reduce((a, f) => a.plus(f.amount), dec(0));
  const feeWire = (f: FeeLine) => ({
    code: f.code,
    name: f.name,
    amount: moneyNumber(f.amount, ccy),
    ...(f.estimated ? { estimated: true } : {}),
    basis: f.basis,
  });
  const entryType = entryTypeOf(first.data.fees, first.input, entry.customs, m, entry.chapter99);
  return {
    fees,
    shipment: {
      shipping_cost: moneyNumber(m.toDest(dec(b.shipping_cost), declCcy), ccy),
      insurance_cost: moneyNumber(m.toDest(dec(b.insurance_cost), declCcy), ccy),
      goods_value: moneyNumber(goodsValue, ccy),
      customs_value: moneyNumber(entryValue, ccy),
      customs_value_basis: cif ? "CIF" : "FOB",
      ...(entryType ? { entry_type: entryType.type, entry_type_basis: entryType.basis } : {}),
      note: cif
        ? "Shipment-level shipping and insurance are part of the entry's customs value but are not spread over the lines, so line duties and VAT are on the goods alone"
        : "Shipment-level shipping and insurance are not part of a FOB customs value",
      exemptions: entry.dm,
      fees: feeLines.length ? Object.fromEntries(feeLines.map((f) => [f.code, feeWire(f)])) : null,
      total_fees: moneyNumber(fees, ccy),
    } as Record<string, unknown>,
  };
}

/**
 * Prices one shipment of 1-50 lines without logging it: lines in request order, a failed line reported in
 * place, money rules per shipment. The step POST /calculate/multiple logs, and the one a consignment's duty
 * assessment runs. Throws CountryRuleError when a workspace country rule refuses any line.
 */
export async function priceShipment({ ctx, input: b }: Call<MultiBody, PricingContext>) {
  const entryDate = b.entry_date ?? today(ctx.deps.clock);
  prefetchReference(ctx);
  const rules = await rulesFor(ctx, b.destination_country);
  const parsed = parseLines(b, entryDate);
  const oks = parsed.filter((p): p is ParsedOk => p.ok);
  const [byIndex, warned] = await Promise.all([
    resolveLines(ctx, b, oks, rules),
    Promise.all(
      oks.map(async (p) => {
        const [ms] = await prohibitionsOf(ctx, b.destination_country, p.input.origin, entryDate, [p.input.hsCode]);
        return [p.index, warningsOf(ms ?? [])] as const;
      }),
    ),
  ]);
  const { goodsValue, lineErrors, refused } = checkLines(rules, oks, byIndex);
  if (refused.length) throw new CountryRuleError(refused);
  const { results, entry } = pricedEntry(parsed, byIndex, lineErrors, goodsValue);
  const warnings = new Map(warned);
  for (const r of results as { index: number; warnings?: unknown }[]) r.warnings = warnings.get(r.index) ?? [];
  const { shipment, fees } = shipmentMoney(b, entry, goodsValue);
  const c = entry.ccy ?? "USD";
  const totals = {
    duty: moneyNumber(entry.duty, c),
    fees: moneyNumber(fees, c),
    vat: moneyNumber(entry.vat, c),
    ...(entry.excise ? { excise: moneyNumber(entry.excise, c) } : {}),
    total: moneyNumber(
      entry.duty
        .plus(fees)
        .plus(entry.vat)
        .plus(entry.excise ?? 0),
      c,
    ),
  };
  const quote = {
    reference: b.reference ?? null,
    destination_country: b.destination_country,
    currency: entry.ccy,
    results,
    shipment,
    complete: results.every((r) => (r as { complete?: boolean }).complete === true),
    totals,
    data_source: entry.dataSource,
    data_sources: entry.dataSources,
  };
  return { quote, entryDate, found: entry.found };
}

/**
 * The workspace's country-rule failures for a shipment, without pricing it: a caller whose contract answers a
 * refusal with its own body (a consignment assessment's 422) asks first instead of catching CountryRuleError.
 */
export async function countryRuleFailures({
  ctx,
  input: b,
}: Call<MultiBody, PricingContext>): Promise<CountryRuleFailure[]> {
  const rules = await rulesFor(ctx, b.destination_country);
  if (!rules.length) return [];
  const oks = parseLines(b, b.entry_date ?? today(ctx.deps.clock)).filter((p): p is ParsedOk => p.ok);
  return checkLines(rules, oks, await resolveLines(ctx, b, oks, rules)).refused;
}

/** POST /calculate/multiple: priceShipment, logged. */
export async function calculateMultiple({ ctx, input: b }: Call<MultiBody>) {
  return logged(ctx, "calculate/multiple", b.destination_country, async () => {
    const { quote, entryDate, found } = await priceShipment({ ctx, input: b });
    return {
      quote,
      summary: {
        senderCountryCode: null,
        receiverCountryCode: b.destination_country,
        itemCount: b.codes.length,
        matchCount: found,
        detail: {
          endpoint: "calculate/multiple",
          reference: b.reference ?? null,
          entry_date: entryDate,
          lines: b.codes.length,
          currency: quote.currency,
          total: quote.totals.total,
        },
      },
    };
  });
}

type StackBody = z.output<typeof StackingBody>;

function stackInput(b: StackBody, clock: Clock): CalcInput {
  return {
    hsCode: b.hs_code,
    origin: b.origin_country,
    destination: b.destination_country,
    declaredValue: "0",
    quantity: "1",
    currency: null,
    weight: null,
    weightUnit: "kg",
    shippingCost: "0",
    insuranceCost: "0",
    transportMode: "sea",
    shippingTerms: "FOB",
    channel: null,
    entryDate: b.entry_date ?? today(clock),
    components: [],
    metalWeightPercentage: null,
    metalOrigins: NO_METAL_ORIGINS,
    manualClaims: [],
    destinationRegion: null,
    volume: null,
    volumeUnit: "l",
  };
}

/** POST /calculate/stacking. */
export async function stacking({ ctx, input: b }: Call<StackBody>) {
  return logged(ctx, "calculate/stacking", b.destination_country, async () => {
    const input = stackInput(b, ctx.deps.clock);
    const { data, dataSource } = onlyOne(await resolveMany(ctx, [lookup(input)]));
    const res = stack(input, data);
    return {
      quote: {
        message: res.message,
        hs_code: input.hsCode,
        origin_country: input.origin,
        destination_country: input.destination,
        entry_date: input.entryDate,
        ...stackWire(res),
        data_source: dataSource,
      },
      summary: {
        senderCountryCode: input.origin,
        receiverCountryCode: input.destination,
        itemCount: 1,
        matchCount: res.rateFound ? 1 : 0,
        detail: { endpoint: "calculate/stacking", hs_code: input.hsCode, entry_date: input.entryDate },
      },
    };
  });
}

type BulkItem =
  | { index: number; ref: string | null; input: CalcInput }
  | { index: number; ref: string | null; error: string };

/** Each bulk item validated on its own; a destination without rules fails its item, not the batch. */
async function parseBulk(ctx: ServiceContext, items: Record<string, unknown>[]): Promise<BulkItem[]> {
  const out: BulkItem[] = [];
  for (const [index, raw] of items.entries()) {
    const { ref, ...rest } = raw;
    const refOut = typeof ref === "string" ? ref : null;
    const r = StackingBody.safeParse(rest);
    if (!r.success) {
      const error = zodIssuesToFieldErrors(r.error.issues)
        .map((f) => `${f.field}: ${f.message}`)
        .join("; ");
      out.push({ index, ref: refOut, error });
      continue;
    }
    const input = stackInput(r.data, ctx.deps.clock);
    const why = await unsupported(ctx, input.destination);
    out.push(why ? { index, ref: refOut, error: why } : { index, ref: refOut, input });
  }
  return out;
}

/** POST /calculate/stacking/bulk: each item validated and answered on its own. */
export async function stackingBulk({ ctx, input: items }: Call<Record<string, unknown>[]>) {
  return logged(ctx, "calculate/stacking/bulk", null, async () => {
    const parsed = await parseBulk(ctx, items);
    const ok = parsed.flatMap((p) => ("input" in p ? [p] : []));
    const resolved = ok.length
      ? await resolveMany(
          ctx,
          ok.map((p) => lookup(p.input)),
        )
      : [];
    const byIndex = new Map(ok.flatMap((p, i) => (resolved[i] ? [[p.index, resolved[i]] as const] : [])));
    let found = 0;
    const results = parsed.map((p) => {
      const r = byIndex.get(p.index);
      if (!("input" in p) || !r)
        return { index: p.index, ref: p.ref, success: false, error: "error" in p ? p.error : "failed" };
      const res = stack(p.input, r.data);
      if (res.rateFound) found++;
      return {
        index: p.index,
        ref: p.ref,
        success: true,
        hs_code: p.input.hsCode,
        origin_country: p.input.origin,
        destination_country: p.input.destination,
        entry_date: p.input.entryDate,
        ...(res.message ? { message: res.message } : {}),
        ...stackWire(res),
      };
    });
    return {
      quote: { results },
      summary: {
        senderCountryCode: null,
        receiverCountryCode: null,
        itemCount: items.length,
        matchCount: found,
        detail: { endpoint: "calculate/stacking/bulk", items: items.length },
      },
    };
  });
}
