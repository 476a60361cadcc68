/**
 * Calculate service (no Hono): turns validated requests into engine inputs, resolves the reference data from
 * D1 (reference.ts), checks the workspace's country rules, runs the pure engine and shapes the wire answer.
 * Rounding happens once, in the engine's wire module. Tenancy comes from the caller's context only.
 */

import type { z } from "@hono/zod-openapi";
import type Big from "big.js";
import { CalcError, calculate, computeFees, money, NO_METAL_ORIGINS, stack } from "../../engines/calculate/engine";
import type { CalcInput, MetalOrigins } from "../../engines/calculate/types";
import { calcWire, stackWire } from "../../engines/calculate/wire";
import { zodIssuesToFieldErrors } from "../../http/router";
import type { Clock } from "../../lib/clock";
import { ApiError } from "../../lib/errors";
import { dec, formatMoney, moneyNumber } from "../../lib/money";
import { type DataSource, resolveMany, unsupported } from "./reference";
import { type CountryRule, rulesFor } from "./rules";
import { type CalculateBody, type MultipleBody, MultipleLine, StackingBody } from "./schemas";

export interface CalcCtx {
  db: D1Database;
  clock: Clock;
  workspaceId: string;
}

/** A workspace country rule refused the request: 400 with exactly `{errors: [{code, description}]}`. */
export class RuleViolation extends Error {
  constructor(readonly errors: { code: string; description: string }[]) {
    super(errors.map((e) => e.description).join("; "));
  }
}

export const today = (clock: Clock) => new Date(clock.now()).toISOString().slice(0, 10);
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

export function toInput(b: CalcBody, clock: Clock): CalcInput {
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
    entryDate: b.entry_date ?? today(clock),
    components: b.components.map((c) => ({ material: c.material, value: String(c.value) })),
    metalWeightPercentage: s(b.metal_weight_percentage),
    metalOrigins: metalOrigins(b),
    manualClaims: b.manual_claims,
    destinationRegion: b.destination_region ?? null,
    volume: s(b.volume),
    volumeUnit: b.volume_unit,
  };
}

const lookup = (i: CalcInput, extra: string[] = []) => ({
  destination: i.destination,
  hsCode: i.hsCode,
  entryDate: i.entryDate,
  origin: i.origin,
  currencies: [...(i.currency ? [i.currency] : []), ...extra],
  destinationRegion: i.destinationRegion,
});

/** Evaluates the workspace's rules for one request; values are compared as line totals, converted at the ECB rate. */
function violations(
  rules: CountryRule[],
  body: Record<string, unknown>,
  input: CalcInput,
  toDest: (amount: Big, ccy: string) => Big,
  destCcy: string,
) {
  const out: { code: string; description: string }[] = [];
  const total = toDest(dec(input.declaredValue).times(input.quantity), input.currency ?? destCcy);
  for (const r of rules) {
    if (r.ruleType === "blocked_origins" && r.countries?.includes(input.origin))
      out.push({ code: r.code, description: r.description });
    if (r.ruleType === "required_fields") {
      const missing = r.fields!.filter(
        (f) => body[f] === undefined || (Array.isArray(body[f]) && (body[f] as unknown[]).length === 0),
      );
      if (missing.length) out.push({ code: r.code, description: `${r.description} (missing: ${missing.join(", ")})` });
    }
    if (r.ruleType === "min_declared_value" || r.ruleType === "max_declared_value") {
      const bound = toDest(dec(r.value!), r.currency ?? destCcy);
      const bad = r.ruleType === "min_declared_value" ? total.lt(bound) : total.gt(bound);
      if (bad)
        out.push({
          code: r.code,
          description: `${r.description} (declared ${formatMoney(total, destCcy)}, limit ${formatMoney(bound, destCcy)})`,
        });
    }
  }
  return out;
}

function engineError(e: unknown): never {
  if (e instanceof CalcError)
    throw new ApiError("validation_failed", e.message, { errors: [{ field: "currency", message: e.message }] });
  throw e;
}

export interface Outcome<T> {
  body: T;
  summary: {
    origin: string | null;
    destination: string | null;
    items: number;
    found: number;
    detail: Record<string, unknown>;
  };
}

/** POST /calculate. Throws RuleViolation (400 `{errors}`) or ApiError. */
export async function calculateOne(ctx: CalcCtx, b: CalcBody) {
  const input = toInput(b, ctx.clock);
  const rules = await rulesFor(ctx, input.destination);
  const [resolved] = await resolveMany(ctx.db, ctx.clock, [
    lookup(
      input,
      rules.flatMap((r) => (r.currency ? [r.currency] : [])),
    ),
  ]);
  const { data, dataSource } = resolved!;
  let m;
  try {
    m = money(data);
    const bad = violations(rules, b as Record<string, unknown>, input, m.toDest, m.currency);
    if (bad.length) throw new RuleViolation(bad);
    const result = calculate(input, data);
    const wire = calcWire(input, result);
    return {
      body: { message: result.message, ...wire, data_source: dataSource },
      summary: {
        origin: input.origin,
        destination: input.destination,
        items: 1,
        found: result.rateFound ? 1 : 0,
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
  } catch (e) {
    if (e instanceof RuleViolation) throw e;
    engineError(e);
  }
}

type MultiBody = z.output<typeof MultipleBody>;

/** POST /calculate/multiple: lines in request order; a failed line is reported in place; money rules per shipment. */
export async function calculateMultiple(ctx: CalcCtx, b: MultiBody) {
  const entryDate = b.entry_date ?? today(ctx.clock);
  const rules = await rulesFor(ctx, b.destination_country);
  type Parsed =
    | { index: number; ok: true; input: CalcInput; raw: Record<string, unknown> }
    | { index: number; ok: false; hs: unknown; origin: unknown; error: string };
  const parsed: Parsed[] = b.codes.map((raw, index) => {
    const r = MultipleLine.safeParse(raw);
    if (!r.success) {
      const fe = zodIssuesToFieldErrors(r.error.issues);
      return {
        index,
        ok: false,
        hs: raw.hs_code ?? null,
        origin: raw.origin_country ?? null,
        error: fe.map((f) => `${f.field}: ${f.message}`).join("; "),
      };
    }
    const l = r.data;
    const input: CalcInput = {
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
      entryDate,
      components: (l.components ?? []).map((c) => ({ material: c.material, value: String(c.value) })),
      metalWeightPercentage: s(l.metal_weight_percentage),
      metalOrigins: metalOrigins(l),
      manualClaims: l.manual_claims ?? [],
      destinationRegion: b.destination_region ?? null,
      volume: s(l.volume),
      volumeUnit: l.volume_unit ?? "l",
    };
    return { index, ok: true, input, raw: { ...b, ...l } as Record<string, unknown> };
  });
  const oks = parsed.filter((p): p is Extract<Parsed, { ok: true }> => p.ok);
  const ruleCcys = rules.flatMap((r) => (r.currency ? [r.currency] : []));
  const resolved = oks.length
    ? await resolveMany(
        ctx.db,
        ctx.clock,
        oks.map((p) => lookup(p.input, [...ruleCcys, ...(b.currency ? [b.currency] : [])])),
      )
    : [];
  const byIndex = new Map(oks.map((p, i) => [p.index, resolved[i]!] as const));

  // Partner rules reject the whole batch.
  const bad: { code: string; description: string }[] = [];
  const goods = new Map<number, Big>();
  const lineErrors = new Map<number, string>();
  for (const p of oks) {
    const r = byIndex.get(p.index)!;
    try {
      const m = money(r.data);
      for (const v of violations(rules, p.raw, p.input, m.toDest, m.currency))
        if (!bad.some((x) => x.code === v.code && x.description === v.description)) bad.push(v);
      goods.set(p.index, m.toDest(dec(p.input.declaredValue), p.input.currency ?? m.currency).times(p.input.quantity));
    } catch (e) {
      if (e instanceof CalcError) lineErrors.set(p.index, e.message);
      else throw e;
    }
  }
  if (bad.length) throw new RuleViolation(bad);
  const goodsValue = [...goods.values()].reduce((a, v) => a.plus(v), dec(0));

  const results: unknown[] = [];
  let duty = dec(0);
  let vat = dec(0);
  let customs = dec(0);
  let ccy: string | null = null;
  let feeRows = null as null | Parameters<typeof computeFees>[0];
  let feeInput: CalcInput | null = null;
  let anyDutyExempt = false;
  const feeBase = new Map<string, Big>();
  let dm: unknown = null;
  let found = 0;
  let dataSource: DataSource | null = null;
  for (const p of parsed) {
    if (!p.ok) {
      results.push({
        index: p.index,
        hs_code: typeof p.hs === "string" ? p.hs.replace(/[. ]/g, "") : p.hs,
        origin_country: p.origin,
        rate_found: false,
        error: p.error,
      });
      continue;
    }
    const r = byIndex.get(p.index)!;
    const err = lineErrors.get(p.index);
    if (err) {
      results.push({
        index: p.index,
        hs_code: p.input.hsCode,
        origin_country: p.input.origin,
        rate_found: false,
        error: err,
      });
      continue;
    }
    dataSource = r.dataSource;
    const result = calculate(p.input, r.data, { goodsValue, feesAtShipmentLevel: true });
    const wire = calcWire(p.input, result);
    if (result.rateFound) found++;
    ccy = result.currencies.destination;
    duty = duty.plus(result.totals.duty);
    vat = vat.plus(result.totals.vat);
    customs = customs.plus(result.values.customsValue);
    // Each fee's base: the lines not exempt from it (e.g. USMCA-originating lines pay no MPF).
    for (const code of new Set(r.data.fees.map((f) => f.code)))
      if (!result.exemptFees.includes(code))
        feeBase.set(code, (feeBase.get(code) ?? dec(0)).plus(result.values.customsValue));
    anyDutyExempt ||= result.exemptions.deMinimis.exempt;
    dm ??= {
      de_minimis_threshold: wire.exemptions.de_minimis_threshold,
      de_minimis_exempt: wire.exemptions.de_minimis_exempt,
      ...("tax_de_minimis_exempt" in wire.exemptions
        ? {
            tax_de_minimis_threshold: wire.exemptions.tax_de_minimis_threshold,
            tax_de_minimis_exempt: wire.exemptions.tax_de_minimis_exempt,
          }
        : {}),
    };
    feeRows ??= r.data.fees;
    feeInput ??= p.input;
    results.push({ index: p.index, message: result.message, ...wire });
  }
  // Entry-level money: freight (not spread), fees with their floor and cap on the whole entry.
  let shipment: Record<string, unknown> = {
    shipping_cost: b.shipping_cost,
    insurance_cost: b.insurance_cost,
    goods_value: null,
    customs_value: null,
    fees: null,
  };
  let fees = dec(0);
  if (ccy && feeInput && feeRows) {
    const first = oks.find((p) => !lineErrors.has(p.index))!;
    const m = money(byIndex.get(first.index)!.data);
    const declCcy = b.currency ?? ccy;
    const freight = m.toDest(dec(b.shipping_cost).plus(b.insurance_cost), declCcy);
    const cif = byIndex.get(first.index)!.data.rule.customsBasis === "CIF";
    const entryValue =
      cif && b.shipping_terms !== "CIF" && b.shipping_terms !== "DDP" ? customs.plus(freight) : customs;
    const feeCodes = [...new Set(feeRows.map((f) => f.code))].filter((code) => feeBase.has(code));
    const feeLines = anyDutyExempt
      ? []
      : feeCodes.flatMap((code) =>
          computeFees(
            feeRows!.filter((f) => f.code === code),
            feeInput!,
            feeBase.get(code)!,
            m,
          ),
        );
    fees = feeLines.reduce((a, f) => a.plus(f.amount), dec(0));
    shipment = {
      shipping_cost: moneyNumber(m.toDest(dec(b.shipping_cost), declCcy), ccy),
      insurance_cost: moneyNumber(m.toDest(dec(b.insurance_cost), declCcy), ccy),
      goods_value: moneyNumber(goodsValue, ccy),
      customs_value: moneyNumber(entryValue, ccy),
      customs_value_basis: cif ? "CIF" : "FOB",
      note: cif
        ? "Shipment-level shipping and insurance are part of the entry's customs value but are not spread over the lines, so line duties and VAT are on the goods alone"
        : "Shipment-level shipping and insurance are not part of a FOB customs value",
      exemptions: dm,
      fees: feeLines.length
        ? Object.fromEntries(
            feeLines.map((f) => [
              f.code,
              { code: f.code, name: f.name, amount: moneyNumber(f.amount, ccy), basis: f.basis },
            ]),
          )
        : null,
      total_fees: moneyNumber(fees, ccy),
    };
  }
  const c = ccy ?? "USD";
  const totals = {
    duty: moneyNumber(duty, c),
    fees: moneyNumber(fees, c),
    vat: moneyNumber(vat, c),
    total: moneyNumber(duty.plus(fees).plus(vat), c),
  };
  return {
    body: {
      reference: b.reference ?? null,
      destination_country: b.destination_country,
      currency: ccy,
      results,
      shipment,
      totals,
      data_source: dataSource,
    },
    summary: {
      origin: null,
      destination: b.destination_country,
      items: b.codes.length,
      found,
      detail: {
        endpoint: "calculate/multiple",
        reference: b.reference ?? null,
        entry_date: entryDate,
        lines: b.codes.length,
        currency: ccy,
        total: totals.total,
      },
    },
  };
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
export async function stacking(ctx: CalcCtx, b: StackBody) {
  const input = stackInput(b, ctx.clock);
  const [r] = await resolveMany(ctx.db, ctx.clock, [lookup(input)]);
  const { data, dataSource } = r!;
  const res = stack(input, data);
  return {
    body: {
      message: res.message,
      hs_code: input.hsCode,
      origin_country: input.origin,
      destination_country: input.destination,
      entry_date: input.entryDate,
      ...stackWire(res),
      data_source: dataSource,
    },
    summary: {
      origin: input.origin,
      destination: input.destination,
      items: 1,
      found: res.rateFound ? 1 : 0,
      detail: { endpoint: "calculate/stacking", hs_code: input.hsCode, entry_date: input.entryDate },
    },
  };
}

/** POST /calculate/stacking/bulk: each item validated and answered on its own. */
export async function stackingBulk(ctx: CalcCtx, items: Record<string, unknown>[]) {
  const parsed = items.map((raw, index) => {
    const { ref, ...rest } = raw;
    const r = StackingBody.safeParse(rest);
    const refOut = typeof ref === "string" ? ref : null;
    if (!r.success)
      return {
        index,
        ref: refOut,
        error: zodIssuesToFieldErrors(r.error.issues)
          .map((f) => `${f.field}: ${f.message}`)
          .join("; "),
      };
    return { index, ref: refOut, input: stackInput(r.data, ctx.clock) };
  });
  const valid = parsed.filter((p): p is { index: number; ref: string | null; input: CalcInput } => "input" in p);
  // A destination without rules fails its item, not the batch.
  const failed = new Map<number, string>();
  const ok: typeof valid = [];
  for (const p of valid) {
    const why = await unsupported(ctx.db, ctx.clock, p.input.destination);
    if (why) failed.set(p.index, why);
    else ok.push(p);
  }
  const resolved = ok.length
    ? await resolveMany(
        ctx.db,
        ctx.clock,
        ok.map((p) => lookup(p.input)),
      )
    : [];
  const byIndex = new Map(ok.map((p, i) => [p.index, resolved[i]!] as const));
  let found = 0;
  const results = parsed.map((p) => {
    const r = byIndex.get(p.index);
    if (!p.input || !r)
      return { index: p.index, ref: p.ref, success: false, error: p.error ?? failed.get(p.index) ?? "failed" };
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
    body: { results },
    summary: {
      origin: null,
      destination: null,
      items: items.length,
      found,
      detail: { endpoint: "calculate/stacking/bulk", items: items.length },
    },
  };
}
