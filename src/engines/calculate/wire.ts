/** Puts engine results on the wire: amounts rounded once here, to the destination currency's minor unit. */
import type Big from "big.js";
import { moneyNumber } from "../../lib/money";
import type { CalcResult, DutyLine, StackResult } from "./engine";
import { dotted } from "./engine";
import type { CalcInput } from "./types";

const rate6 = (b: Big) => Number(b.round(6, 1).toString());

function dutyLineWire(d: DutyLine, ccy: string) {
  return {
    name: d.name,
    rate: d.rate,
    amount: moneyNumber(d.amount, ccy),
    type: d.type,
    ...(d.code ? { code: d.code } : {}),
    ...(d.estimated ? { estimated: true } : {}),
    ...(d.exempted ? { exempted: true, exclusion_code: d.exclusion_code, exclusion_name: d.exclusion_name } : {}),
    basis: d.basis,
  };
}

function feesWire(r: CalcResult, n: (b: Big) => number) {
  if (!r.fees.length) return undefined;
  return {
    ...Object.fromEntries(
      r.fees.map((f) => [
        f.code,
        {
          code: f.code,
          name: f.name,
          amount: n(f.amount),
          ...(f.estimated ? { estimated: true } : {}),
          basis: f.basis,
          source_url: f.source_url,
        },
      ]),
    ),
    total_fees: n(r.totalFees),
  };
}

/** US formal or informal entry, with the value compared and the rule (nothing where the data has no entry types). */
function entryWire(r: CalcResult, n: (b: Big) => number) {
  const e = r.entryType;
  return e
    ? {
        entry: {
          type: e.type,
          entered_value: n(e.value),
          informal_limit: n(e.limit),
          basis: e.basis,
          source_url: e.source_url,
        },
      }
    : {};
}

/** VAT/GST the seller charges at the sale (low-value UK and AU goods): not import VAT, outside the totals. */
function pointOfSaleWire(r: CalcResult, n: (b: Big) => number) {
  if (!r.pointOfSale) return {};
  return {
    point_of_sale_tax: {
      rate: Number(r.pointOfSale.rate.toString()),
      amount: n(r.pointOfSale.amount),
      name: r.pointOfSale.name,
      collected_by: "seller at the point of sale",
      basis: r.pointOfSale.basis,
      source_url: r.pointOfSale.sourceUrl,
    },
  };
}

/** IEEPA duties deposited on an entry of their time: refundable, on their own lines, never in the totals. */
function refundableWire(r: CalcResult, ccy: string) {
  if (!r.refundable) return {};
  return {
    refundable_duties: {
      status: "deposited_refundable" as const,
      authority: "IEEPA (HTSUS 9903.01, 9903.02)",
      reason:
        "Held unlawful by the Supreme Court in Learning Resources v. Trump (2026-02-20); removed from the HTS from 2026-02-24. Deposited on entries from 2025-02-04 to 2026-02-23 and refundable (post-summary correction before liquidation, protest after).",
      tariffs: r.refundable.lines.map((d) => dutyLineWire(d, ccy)),
      ...(r.refundable.conditional.length ? { conditional: r.refundable.conditional } : {}),
      total: moneyNumber(r.refundable.total, ccy),
    },
  };
}

/** Excise collected with the duty: each tax with its quantity, and what the request lacks the facts for. */
function exciseWire(r: CalcResult, n: (b: Big) => number) {
  if (!r.excise) return {};
  return {
    excise: {
      taxes: r.excise.lines.map((e) => ({
        code: e.code,
        name: e.name,
        rate: e.rate,
        quantity: e.quantity,
        amount: n(e.amount),
        basis: e.basis,
        source_url: e.sourceUrl,
      })),
      ...(r.excise.notComputed.length ? { not_computed: r.excise.notComputed } : {}),
      total: n(r.excise.total),
    },
  };
}

/** Totals: `excise` only where the goods carry excise, so other quotes keep their four keys. */
function totalsWire(r: CalcResult, n: (b: Big) => number) {
  return {
    duty: n(r.totals.duty),
    fees: n(r.totals.fees),
    vat: n(r.totals.vat),
    ...(r.excise ? { excise: n(r.totals.excise) } : {}),
    total: n(r.totals.total),
  };
}

export function calcWire(input: CalcInput, r: CalcResult) {
  const ccy = r.currencies.destination;
  const n = (b: Big) => moneyNumber(b, ccy);
  const tierKey = r.tier?.tier ?? "normal_tariff";
  const fees = feesWire(r, n);
  const dm = r.exemptions.deMinimis;
  const tdm = r.exemptions.taxDeMinimis;
  return {
    hs_code: input.hsCode,
    origin_country: input.origin,
    destination_country: input.destination,
    entry_date: input.entryDate,
    transport_mode: input.transportMode,
    shipping_terms: input.shippingTerms,
    quantity: Number(input.quantity),
    rate_found: r.rateFound,
    complete: r.complete,
    ...(r.incomplete.length ? { incomplete_reasons: r.incomplete } : {}),
    ...entryWire(r, n),
    tariff_line: r.line
      ? {
          code: dotted(r.line.code),
          schedule: r.line.schedule,
          description: r.line.description,
          resolution: r.resolution,
        }
      : null,
    currencies: {
      declared: r.currencies.declared,
      destination: ccy,
      exchange_rate: rate6(r.currencies.exchangeRate),
      source: r.currencies.source,
      rate_date: r.currencies.rateDate,
    },
    values: {
      declared_value_per_unit: n(r.values.perUnit),
      declared_value_total: n(r.values.total),
      customs_value: n(r.values.customsValue),
      shipping_cost: n(r.values.shipping),
      insurance_cost: n(r.values.insurance),
      customs_value_basis: r.values.customsBasis,
      basis: r.values.basis,
    },
    exemptions: {
      de_minimis_threshold: dm.threshold === null ? null : n(dm.threshold),
      de_minimis_exempt: dm.exempt,
      ...(dm.row ? { de_minimis_source_url: dm.row.sourceUrl } : {}),
      ...(tdm
        ? {
            tax_de_minimis_threshold: tdm.threshold === null ? null : n(tdm.threshold),
            tax_de_minimis_exempt: tdm.exempt,
          }
        : {}),
      tariff_exemptions: r.exemptions.fired,
      available_exemptions: r.exemptions.available,
    },
    estimated_duties: {
      tariffs: r.duties.map((d) => dutyLineWire(d, ccy)),
      ...(r.tier
        ? { [tierKey]: { tariffs: [dutyLineWire(r.tier.line, ccy)], total_duty: n(r.tier.line.amount) } }
        : {}),
      tier: r.tier ? tierKey : null,
      total_duty: n(r.totalDuty),
    },
    ...(fees ? { fees } : {}),
    ...(r.vat
      ? {
          vat: {
            rate: Number(r.vat.rate.toString()),
            amount: n(r.vat.amount),
            ...(r.vat.code ? { code: r.vat.code } : {}),
            name: r.vat.name,
            basis: r.vat.basis,
          },
        }
      : {}),
    ...pointOfSaleWire(r, n),
    ...refundableWire(r, ccy),
    ...exciseWire(r, n),
    additional_tariff_measures: r.conditional,
    notes: r.notes,
    totals: totalsWire(r, n),
  };
}

export function stackWire(r: StackResult) {
  return {
    rate_found: r.rateFound,
    ...(r.line
      ? {
          tariff_line: {
            code: dotted(r.line.code),
            schedule: r.line.schedule,
            description: r.line.description,
            resolution: r.resolution,
          },
        }
      : {}),
    tariffs: r.tiers,
    ...(r.potential.length ? { potential_exclusion_codes: r.potential } : {}),
    ...(r.conditional.length ? { conditional_measures: r.conditional } : {}),
  };
}
