/**
 * The duty, fees and VAT engine: pure (no Hono, no bindings, no clock). Given a request and the reference data
 * resolved for it, it produces every line with its basis text so a broker can follow the arithmetic. Amounts
 * stay exact (big.js) and are rounded once, when the result is put on the wire (see `wire.ts`).
 *
 * Order of work: currency → values → customs value (CIF/FOB) → tariff line → duty tier (punitive column 2,
 * preferential programme, normal MFN) → additional measures (exclusions, claims, content) → de minimis → fees →
 * VAT (on value + duty + fees where the destination says so) → totals.
 */
import type Big from "big.js";
import { dec, formatMoney } from "../../lib/money";
import type {
  CalcInput,
  Component,
  DeMinimisRow,
  ExciseRow,
  Exclusion,
  FeeRow,
  Measure,
  MetalFact,
  MetalOriginRule,
  MetalOrigins,
  ResolvedData,
  TariffLine,
  VatReducedRow,
} from "./types";

export class CalcError extends Error {}

const ZERO = dec(0);
const LB_TO_KG = "0.45359237";
const inForce = (row: { validFrom: string; validTo: string | null }, date: string) =>
  row.validFrom <= date && (row.validTo === null || row.validTo >= date);

/** "16.5%" from "0.165". */
const pctText = (fraction: string | Big) => `${dec(fraction).times(100).toString()}%`;
/** "6109.10.00" from "61091000"; 10 digits "8483.50.90.40"; Japan's 9-digit statistical codes "6101.20.000". */
export const dotted = (code: string) =>
  code.length <= 4
    ? code
    : code.length <= 6
      ? `${code.slice(0, 4)}.${code.slice(4)}`
      : code.length === 9
        ? `${code.slice(0, 4)}.${code.slice(4, 6)}.${code.slice(6)}`
        : `${code.slice(0, 4)}.${code.slice(4, 6)}.${code.slice(6, 8)}${code.length > 8 ? `.${code.slice(8)}` : ""}`;

/** Origins with no UK or EU preference (see SCHEDULES). */
const NO_UK_EU_PREFERENCE = ["US", "CN", "HK", "TW", "RU", "BY"] as const;

/**
 * The tariff schedules: how a duty line names each, the currency its specific rates are stated in, and the digits
 * of its national line (Japan sets its rates on 9-digit statistical codes, the 6-digit subheading + 3; the free
 * ports' schedules, SG and HK, are kept per 6-digit subheading; the others use 8). A longer code is priced on the
 * line it falls under.
 */
export const SCHEDULES: Record<
  string,
  {
    label: string;
    currency: string;
    digits: number;
    /** False where the data holds the general rate only: a dutiable line may pay less under a preference. */
    preferences?: false;
    /**
     * Origins the destination grants no preferential tariff to (no trade agreement, no GSP): their general rate
     * is the rate, so the quote stays complete.
     */
    withoutPreference?: readonly string[];
  }
> = {
  US: { label: "HTS", currency: "USD", digits: 8 },
  // The UK's and the EU's preferential tariffs (their trade agreements, the UK's DCTS, the EU's GSP) are not in the
  // data. Neither has an agreement with the United States, China, Hong Kong or Taiwan, none of which is a
  // beneficiary of their schemes for developing countries (China left the EU's GSP in 2015 and is outside the
  // DCTS), and their preferences for Russia and Belarus are withdrawn.
  GB: { label: "UK tariff", currency: "GBP", digits: 8, preferences: false, withoutPreference: NO_UK_EU_PREFERENCE },
  EU: { label: "EU CET", currency: "EUR", digits: 8, preferences: false, withoutPreference: NO_UK_EU_PREFERENCE },
  AU: { label: "Australian Customs Tariff", currency: "AUD", digits: 8 },
  CA: { label: "Canadian Customs Tariff", currency: "CAD", digits: 8 },
  JP: { label: "Japan tariff", currency: "JPY", digits: 9 },
  // Switzerland has no trade agreement with the United States, which is no beneficiary of its GSP.
  CH: { label: "Swiss customs tariff", currency: "CHF", digits: 8, preferences: false, withoutPreference: ["US"] },
  SG: { label: "Singapore Customs", currency: "SGD", digits: 6 },
  HK: { label: "Hong Kong Customs", currency: "HKD", digits: 6 },
};

export const lineDigits = (schedule: string | null) => SCHEDULES[schedule ?? ""]?.digits ?? 8;

/** A rate's unit as a reader writes it: the engine's codes, but kilograms gross for Switzerland's `KGB`. */
const unitName = (unit: string | null) => (unit === "KGB" ? "kg gross" : (unit ?? "unit"));

export function componentsText(comps: Component[] | null, currency: string): string {
  if (!comps) return "";
  if (comps.length === 0) return "Free";
  return comps
    .map((c) =>
      c[0] === "av"
        ? pctText(c[1])
        : c[0] === "alt"
          ? `the ${c[1] === "max" ? "higher" : "lower"} of ${c[2].map((a) => componentsText(a, currency)).join(" or ")}`
          : `${c[1]} ${currency}/${c[3] && c[3] !== 1 ? `${c[3]} ` : ""}${unitName(c[2])}`,
    )
    .join(" + ");
}

export interface Money {
  currency: string;
  /** Converts an amount in `from` to the destination currency (exact up to 20 decimal places). */
  toDest(amount: Big, from: string): Big;
  /** Destination units per one unit of `from`. */
  rate(from: string): Big;
}

export function money(data: ResolvedData): Money {
  const dest = data.currency;
  const per = (ccy: string) => {
    if (ccy === "EUR") return dec(1);
    const r = data.fx.perEur[ccy];
    if (!r)
      throw new CalcError(`No ECB reference rate for ${ccy}${data.fx.date ? ` on or before ${data.fx.date}` : ""}`);
    return dec(r);
  };
  return {
    currency: dest,
    rate: (from) => (from === dest ? dec(1) : per(dest).div(per(from))),
    toDest: (amount, from) => (from === dest ? amount : amount.times(per(dest)).div(per(from))),
  };
}

/** Quantity of a tariff unit from the request facts; null when the facts do not give it. */
export function unitQuantity(unit: string | null, input: CalcInput): { qty: Big; text: string } | null {
  const u = (unit ?? "").toUpperCase();
  const kg =
    input.weight === null ? null : input.weightUnit === "lb" ? dec(input.weight).times(LB_TO_KG) : dec(input.weight);
  const litres =
    input.volume === null
      ? null
      : input.volumeUnit === "hl"
        ? dec(input.volume).times(100)
        : input.volumeUnit === "ml"
          ? dec(input.volume).div(1000)
          : dec(input.volume);
  const q = dec(input.quantity);
  switch (u) {
    case "KG":
      return kg && { qty: kg, text: `${kg.toString()} kg` };
    case "KGB": {
      // Gross kilograms, Switzerland's basis (Customs Tariff Act, SR 632.10, art. 2): rates per 100 kg are
      // assessed on the weight rounded up to the next 100 g (art. 2(3)). The line's weight is taken as gross.
      if (!kg) return null;
      const rounded = kg.times(10).round(0, 3 /* Big.roundUp */).div(10);
      return {
        qty: rounded,
        text: rounded.eq(kg)
          ? `${kg.toString()} kg gross`
          : `${kg.toString()} kg gross, rounded up to ${rounded.toString()} kg`,
      };
    }
    case "G":
    case "GM":
      return kg && { qty: kg.times(1000), text: `${kg.times(1000).toString()} g` };
    case "T":
      return kg && { qty: kg.div(1000), text: `${kg.div(1000).toString()} t` };
    case "NO":
    case "PCS":
    case "PRS":
    case "ITEM":
      return { qty: q, text: `${q.toString()} ${u === "PRS" ? "pairs" : "units"}` };
    case "DOZ":
    case "DPR":
      return { qty: q.div(12), text: `${q.toString()} units = ${q.div(12).toString()} dozen` };
    case "L":
      return litres && { qty: litres, text: `${litres.toString()} l` };
    case "LAL": {
      // Litres of pure alcohol: the volume at the declared strength.
      if (!litres || input.alcoholPercentage == null) return null;
      const lal = litres.times(input.alcoholPercentage).div(100);
      return {
        qty: lal,
        text: `${litres.toString()} l at ${input.alcoholPercentage}% = ${lal.toString()} l of alcohol`,
      };
    }
    default:
      return null;
  }
}

export interface DutyLine {
  name: string;
  rate: string;
  amount: Big;
  type: "ad_valorem" | "specific" | "compound" | "free" | "additional" | "text";
  code?: string;
  estimated?: boolean;
  basis: string;
  exempted?: boolean;
  exclusion_code?: string;
  exclusion_name?: string;
}

/** Duty of one set of rate components on the customs value and the quantities. */
function applyComponents(
  comps: Component[] | null,
  rateText: string,
  lineCurrency: string,
  customsValue: Big,
  input: CalcInput,
  m: Money,
): { amount: Big; basis: string; type: DutyLine["type"]; estimated: boolean } {
  if (comps === null)
    return { amount: ZERO, basis: `Rate stated in words ("${rateText}"): not computed`, type: "text", estimated: true };
  if (comps.length === 0) return { amount: ZERO, basis: "Free", type: "free", estimated: false };
  let amount = ZERO;
  let estimated = false;
  const parts: string[] = [];
  for (const c of comps) {
    if (c[0] === "alt") {
      const r = alternative(c[1], c[2], lineCurrency, customsValue, input, m);
      amount = amount.plus(r.amount);
      estimated ||= r.estimated;
      parts.push(r.basis);
    } else if (c[0] === "av") {
      const a = customsValue.times(c[1]);
      amount = amount.plus(a);
      parts.push(`${pctText(c[1])} of ${formatMoney(customsValue, m.currency)} customs value`);
    } else {
      const per = c[3] ?? 1;
      const q = unitQuantity(c[2], input);
      const unitText = `${c[1]} ${lineCurrency}/${per !== 1 ? `${per} ` : ""}${unitName(c[2])}`;
      if (!q) {
        estimated = true;
        parts.push(
          `${unitText}: not computed (${c[2] === "KG" || c[2] === "KGB" || c[2] === "G" || c[2] === "T" ? "weight" : c[2] === "L" ? "volume" : `quantity in ${c[2]}`} not given)`,
        );
        continue;
      }
      const inLineCcy = dec(c[1]).times(q.qty).div(per);
      const a = m.toDest(inLineCcy, lineCurrency);
      amount = amount.plus(a);
      parts.push(
        `${unitText} × ${q.text} = ${formatMoney(inLineCcy, lineCurrency)}${lineCurrency !== m.currency ? ` = ${formatMoney(a, m.currency)}` : ""}`,
      );
    }
  }
  const type =
    comps.length > 1 || comps[0]?.[0] === "alt" ? "compound" : comps[0]?.[0] === "av" ? "ad_valorem" : "specific";
  return { amount, basis: parts.join(" + "), type, estimated };
}

/**
 * The higher (or lower) of alternative rates. When one alternative cannot be computed (its unit is not given), the
 * choice between them cannot be made either: the computable ones are shown and the amount is marked estimated.
 */
function alternative(
  pick: "max" | "min",
  options: Component[][],
  lineCurrency: string,
  customsValue: Big,
  input: CalcInput,
  m: Money,
): { amount: Big; basis: string; estimated: boolean } {
  const results = options.map((o) => applyComponents(o, "", lineCurrency, customsValue, input, m));
  const known = results.filter((r) => !r.estimated);
  let chosen = known[0];
  for (const r of known)
    if (chosen && (pick === "max" ? r.amount.gt(chosen.amount) : r.amount.lt(chosen.amount))) chosen = r;
  const word = pick === "max" ? "higher" : "lower";
  const listed = results.map((r) => `${r.basis} = ${formatMoney(r.amount, m.currency)}`).join("; ");
  return {
    amount: chosen?.amount ?? ZERO,
    estimated: known.length < results.length,
    basis: `the ${word} of (${listed})${known.length < results.length ? ": not decided, an alternative is not computed" : ""}`,
  };
}

interface TierResult {
  tier: "normal_tariff" | "preferential_tariff" | "punitive_tariff";
  line: DutyLine;
  program: string | null;
  note: string | null;
}

/** Picks the tier for the origin: column 2 (punitive) where the origin is listed, else the best preference, else MFN. */
function dutyTier(line: TariffLine, input: CalcInput, data: ResolvedData, customsValue: Big, m: Money): TierResult {
  const programs = data.programs.filter((p) => p.country === input.origin && inForce(p, input.entryDate));
  const label = `${SCHEDULES[line.schedule]?.label ?? line.schedule} ${dotted(line.code)}`;
  const column2 = programs.find((p) => p.program === "column2");
  if (column2 && line.col2Text !== null) {
    const r = applyComponents(line.col2, line.col2Text, line.currency, customsValue, input, m);
    return {
      tier: "punitive_tariff",
      program: "column2",
      note: `Goods of ${input.origin} pay the ${column2.name} rate`,
      line: {
        name: `Column 2 duty (${label})`,
        rate: componentsText(line.col2, line.currency) || line.col2Text,
        amount: r.amount,
        type: r.type,
        code: dotted(line.code),
        basis: r.basis,
        ...(r.estimated ? { estimated: true } : {}),
      },
    };
  }
  const mfn = applyComponents(line.mfn, line.mfnText, line.currency, customsValue, input, m);
  let best: TierResult = {
    tier: "normal_tariff",
    program: null,
    note: null,
    line: {
      name: `MFN duty (${label})`,
      rate: componentsText(line.mfn, line.currency) || line.mfnText,
      amount: mfn.amount,
      type: mfn.type,
      code: dotted(line.code),
      basis: mfn.basis,
      ...(mfn.estimated ? { estimated: true } : {}),
    },
  };
  for (const p of programs) {
    const comps = line.special?.[p.program];
    if (!comps) continue;
    const r = applyComponents(comps, "", line.currency, customsValue, input, m);
    if (r.estimated) continue;
    if (best.tier === "normal_tariff" && !mfn.estimated && r.amount.gt(mfn.amount)) continue;
    if (best.tier === "preferential_tariff" && r.amount.gte(best.line.amount)) continue;
    best = {
      tier: "preferential_tariff",
      program: p.program,
      note: `${p.name} (special programme "${p.program}"): the preference needs a claim with proof of origin`,
      line: {
        name: `Preferential duty, ${p.name} (${label})`,
        rate: componentsText(comps, line.currency),
        amount: r.amount,
        type: r.type,
        code: dotted(line.code),
        basis: r.basis,
      },
    };
  }
  return best;
}

interface DecisionBase {
  measure: Measure;
  amount: Big;
  basis: string;
  estimated: boolean;
  /** The value the duty fell on (the metal content for a content-basis Section 232 measure). */
  base?: Big;
}

/**
 * applied: in the totals; exempted: an exclusion or claim zeroed it (which one is named); conditional: needs
 * facts, not in the totals (what is missing is said).
 */
type MeasureDecision =
  | (DecisionBase & { status: "applied" })
  | (DecisionBase & { status: "exempted"; exclusion: Exclusion; claimed: boolean })
  | (DecisionBase & { status: "conditional"; condition: string });

/** A measure that needs facts the request did not give: listed with what is missing, outside the totals. */
const conditional = (measure: Measure, condition: string): MeasureDecision => ({
  measure,
  status: "conditional",
  amount: ZERO,
  basis: "",
  estimated: false,
  condition,
});

const METALS: Record<string, string> = {
  steel: "steel",
  iron: "steel",
  iron_or_steel: "steel",
  "iron and steel": "steel",
  aluminum: "aluminum",
  aluminium: "aluminum",
  copper: "copper",
};
const metalOf = (material: string) => METALS[material.trim().toLowerCase()] ?? null;

const exclusionMatches = (e: Exclusion, m: Measure) =>
  e.appliesTo === m.code ||
  e.appliesTo === m.program ||
  (m.metal !== null && e.appliesTo === `${m.program}:${m.metal}`);

/**
 * IEEPA duties (programmes `ieepa_*`): void since Learning Resources v. Trump (2026-02-20), so never duty owed. They
 * are decided on their own, beside the Section 232 measures they yield to, to show what an entry of their time
 * deposited and may reclaim.
 */
const isEmergency = (m: Measure) => m.program.startsWith("ieepa");
const IEEPA_FROM = "2025-02-04";
const IEEPA_TO = "2026-02-23";

/** Section 122 surcharge (HTSUS 9903.03.01): stacks on the others, so it is listed after them. */
const LAST_PROGRAMS = ["122"];
const listOrder = (m: Measure) => (LAST_PROGRAMS.includes(m.program) ? 1 : 0);

export const NO_METAL_ORIGINS: MetalOrigins = { meltPour: null, primarySmelt: null, secondarySmelt: null, cast: null };

/** The request fields behind each metals-traceability fact. */
const FACT_FIELDS: Record<MetalFact, [keyof MetalOrigins, string][]> = {
  smelt: [
    ["primarySmelt", "primary_country_of_smelt"],
    ["secondarySmelt", "secondary_country_of_smelt"],
  ],
  cast: [["cast", "country_of_cast"]],
  melt_pour: [["meltPour", "country_of_melt_pour"]],
};

/** Whether a declared country satisfies the rule (`in`: one of its countries; `not_in`: none of them). */
const satisfies = (rule: MetalOriginRule, country: string) =>
  rule.countries.includes(country) === (rule.match === "in");

const declaredFacts = (rule: MetalOriginRule, o: MetalOrigins) =>
  rule.facts.flatMap((f) =>
    FACT_FIELDS[f].flatMap(([k, field]) => (o[k] === null || o[k] === undefined ? [] : [{ field, country: o[k] }])),
  );

/**
 * Whether a measure's metal-origin condition holds on the facts declared: `unknown` when none of the facts it tests
 * was given (the caller is told which to give), otherwise decided on those given (an omitted secondary country of
 * smelt means there was none).
 */
function metalOriginState(rule: MetalOriginRule, o: MetalOrigins): "met" | "not_met" | "unknown" {
  const given = declaredFacts(rule, o);
  if (!given.length) return "unknown";
  return given.some((g) => satisfies(rule, g.country)) ? "met" : "not_met";
}

/** The facts that made a metal-origin measure apply, for its basis text ("country_of_cast RU"). */
const metFactsText = (rule: MetalOriginRule, o: MetalOrigins) =>
  declaredFacts(rule, o)
    .filter((g) => satisfies(rule, g.country))
    .map((g) => `${g.field} ${g.country}`)
    .join(", ");

/**
 * Measures that apply to the origin on the date, after the stacking rules between them. `facts` are the declared
 * smelt, cast and melt-and-pour countries: a measure conditioned on them is dropped when they rule it out, kept
 * (to be reported as conditional) when they were not given, and when met it replaces the programme's other
 * measures on that metal (Russian aluminium's 9903.85.67/.68 instead of 9903.85.02 or 9903.82.02). Where two are
 * met the higher rate is kept: the Russian headings "continue to apply" over the Mexican ones (U.S. note 19(a)(viii)).
 */
export function applicableMeasures(
  data: ResolvedData,
  origin: string,
  date: string,
  facts: MetalOrigins = NO_METAL_ORIGINS,
  code?: string,
  emergency = false,
): Measure[] {
  const ms = data.measures
    .filter(
      (m) =>
        (emergency ? isEmergency(m) || m.program === "232" : !isEmergency(m)) &&
        inForce(m, date) &&
        (m.origins === null || m.origins.includes(origin)) &&
        !(m.originsExcluded ?? []).includes(origin),
    )
    .sort((a, b) => a.code.localeCompare(b.code));
  const met = new Map<string, Measure>();
  const unknown = new Map<string, Measure>();
  for (const m of ms) {
    if (!m.metalOrigin) continue;
    const state = metalOriginState(m.metalOrigin, facts);
    if (state === "not_met") continue;
    const key = `${m.program}|${m.metal ?? ""}`;
    if (state === "met") {
      const prev = met.get(key);
      const rate = dec(m.rate);
      if (!prev || rate.gt(prev.rate) || (rate.eq(prev.rate) && m.hsPrefix.length > prev.hsPrefix.length))
        met.set(key, m);
    } else {
      const k = `${key}|${m.metalOrigin.text}`;
      const prev = unknown.get(k);
      if (!prev || m.hsPrefix.length > prev.hsPrefix.length) unknown.set(k, m);
    }
  }
  const replaced = (m: Measure) => met.has(`${m.program}|${m.metal ?? ""}`);
  const plain = ms.filter((m) => !m.metalOrigin && !replaced(m));
  // Section 301: a four-year-review heading (9903.91/9903.92) replaces the original list heading for its products.
  // Only a review heading covering all of the goods of the code does: one keyed at a longer statistical number
  // (8507.60.00.10 of 8507.60.00) leaves the list heading on the rest.
  const has301Review = plain.some(
    (m) =>
      m.program === "301" && !m.code.startsWith("9903.88") && (code === undefined || m.hsPrefix.length <= code.length),
  );
  const kept = plain.filter((m) => !(m.program === "301" && has301Review && m.code.startsWith("9903.88")));
  // One line per programme and metal (the most specific prefix wins), so overlapping lists never double-charge.
  // The 9903.82 headings (Section 232 from 2026-04-06) are mutually exclusive whatever the metal (U.S. note 16(a)):
  // an article on two lists (steel and aluminium derivatives) pays one of them.
  const byKey = new Map<string, Measure>();
  for (const m of kept) {
    const key =
      m.program === "232" && m.code.startsWith("9903.82.")
        ? "232|note16"
        : `${m.program}|${m.metal ?? ""}|${m.sector ?? ""}|${m.code.startsWith("9903.88") || m.program !== "301" ? "" : m.code}|${m.basis}`;
    const prev = byKey.get(key);
    if (!prev || m.hsPrefix.length > prev.hsPrefix.length) byKey.set(key, m);
  }
  const conditional = [...unknown.values()].filter((m) => !replaced(m));
  return bySector([...byKey.values()], code)
    .concat(...met.values(), ...conditional)
    .sort((a, b) => listOrder(a) - listOrder(b) || a.program.localeCompare(b.program) || a.code.localeCompare(b.code));
}

/**
 * Section 232 sectors in the order the proclamations give way to each other: an article is charged under one
 * sector only (autos before wood, Proclamation 10976 cl. 4; vehicles before their parts), and a vehicle or
 * vehicle-parts duty replaces the steel, aluminium and copper duties and the wood duties (U.S. note 33(a)(1),
 * 33(f)(1)-(4); note 38(a)(1), 38(h)(1)-(4) to subchapter III of chapter 99).
 */
const SECTOR_ORDER = ["autos", "mhd", "auto_parts", "mhd_parts", "wood"];
const DISPLACES_METAL = new Set(["autos", "mhd", "auto_parts", "mhd_parts"]);

/**
 * Keeps one Section 232 sector measure per article: the first in SECTOR_ORDER that covers the whole code and
 * does not hang on a use the code leaves open; when it is a vehicle or parts sector, the metal duties go. A
 * sector measure that depends on the use, or covers only longer codes, is kept to be shown as conditional when
 * no other sector applies.
 */
function bySector(measures: Measure[], code?: string): Measure[] {
  const sectors = measures.filter((m) => m.program === "232" && m.sector);
  if (!sectors.length) return measures;
  const rank = (m: Measure) => SECTOR_ORDER.indexOf(m.sector ?? "");
  const whole = (m: Measure) => code === undefined || m.hsPrefix.length <= code.length;
  const firm = sectors.filter((m) => whole(m) && !m.useCondition).sort((a, b) => rank(a) - rank(b));
  const chosen = firm[0];
  if (!chosen) {
    const open = [...sectors].sort((a, b) => rank(a) - rank(b))[0];
    return measures.filter((m) => !(m.program === "232" && m.sector) || m === open);
  }
  const dropMetal = DISPLACES_METAL.has(chosen.sector ?? "");
  return measures.filter((m) => {
    if (m.program !== "232") return true;
    if (m.sector) return m === chosen;
    return !(dropMetal && m.metal);
  });
}

type Decided = MeasureDecision;

/** Every Section 232 measure on the code falls on a metal content (none on the full value). */
const onlyContent = (s232: Decided[], code: string) =>
  s232.filter((d) => d.measure.hsPrefix.length <= code.length).every((d) => d.measure.basis !== "value");

/**
 * The customs value outside the Section 232 metal content, and that content: null when a content is not yet
 * known (conditional) or in stacking mode. Null remainder and content mean "cannot be computed".
 */
function portionOutside232(
  s232: Decided[],
  code: string,
  customsValue: Big | null,
): { remainder: Big | null; content: Big | null } | null {
  const on = s232.filter((d) => d.measure.hsPrefix.length <= code.length);
  if (customsValue === null || on.some((d) => d.status !== "applied" || !d.base))
    return { remainder: null, content: null };
  const content = on.reduce((s, d) => s.plus(d.base ?? ZERO), ZERO);
  const remainder = customsValue.minus(content);
  // All of the value is metal content: the exemption covers the whole article.
  if (remainder.lte(0)) return null;
  return { remainder, content };
}

/** How the base duty is paid: the special programme whose rate the tier uses (null for MFN and column 2), and the line's special rates. */
interface EntryBasis {
  program: string | null;
  special: Record<string, Component[]> | null;
  /** The duty under the tariff line itself, which an all-in measure tops up; null when not computed. */
  baseDuty?: Big | null;
}

/**
 * Section 232 from 2026-04-06 (U.S. note 16(c) to subchapter III): outside chapters 72, 73, 74 and 76, headings
 * 9903.82.02 and 9903.82.04-9903.82.17 apply only where the listed metal is at least 15% of the article's weight.
 * With `metal_weight_percentage` under 15 the article enters under 9903.82.03 ("no change"); without it
 * the article is taken to meet the threshold, as the listed derivatives mostly do.
 */
const NOTE_16C_CODES = new Set([
  "9903.82.02",
  ...Array.from({ length: 14 }, (_, i) => `9903.82.${String(i + 4).padStart(2, "0")}`),
]);
const METAL_CHAPTERS = ["72", "73", "74", "76"];

function belowWeightThreshold(measure: Measure, input: CalcInput): Exclusion | null {
  if (measure.program !== "232" || !NOTE_16C_CODES.has(measure.code)) return null;
  if (METAL_CHAPTERS.includes(input.hsCode.slice(0, 2)) || input.metalWeightPercentage === null) return null;
  if (dec(input.metalWeightPercentage).gte(15)) return null;
  return {
    code: "9903.82.03",
    name: `${measure.metal ?? "metal"} under 15% of the article's weight (metal_weight_percentage ${input.metalWeightPercentage})`,
    appliesTo: measure.code,
    hsPrefix: "",
    kind: "auto",
    condition: null,
    validFrom: measure.validFrom,
    validTo: measure.validTo,
  };
}

/**
 * Decides every additional measure: exclusions that fire on the code, claims filed in `manual_claims`, content
 * bases, and measures that cover only some statistical suffixes of a shorter code (conditional).
 * `customsValue` null = stacking mode (no values): content-based measures are conditional there.
 * `entry` says how the base duty is paid, for exclusions that hold only for goods entered free under a
 * preference (Section 122 for USMCA and CAFTA-DR goods). Claims are offered only for measures still charged.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one pass per Chapter 99 measure in the legal order of the stacking rules (scope, metal origin, exclusions and claims, Section 232 content, Section 122 carve-outs); each step reads the decisions made before it, and the table tests walk it top to bottom
function decideMeasures(
  input: CalcInput,
  data: ResolvedData,
  customsValue: Big | null,
  m: Money | null,
  entry: EntryBasis = { program: null, special: null },
  emergency = false,
): { decisions: MeasureDecision[]; available: Exclusion[]; fired: Exclusion[] } {
  const code = input.hsCode;
  const claims = new Set(input.manualClaims.map((c) => c.replace(/\s/g, "")));
  const available = new Map<string, Exclusion>();
  const fired: Exclusion[] = [];
  const decisions: MeasureDecision[] = [];
  const facts = input.metalOrigins;
  const measures = applicableMeasures(data, input.origin, input.entryDate, facts, code, emergency);
  const exclusionsOf = (measure: Measure) =>
    data.exclusions.filter(
      (e) =>
        inForce(e, input.entryDate) && exclusionMatches(e, measure) && (!e.origins || e.origins.includes(input.origin)),
    );
  // A measure that yields to Section 232 is decided once the 232 measures are.
  const after232 = (measure: Measure) => exclusionsOf(measure).some((e) => e.kind === "auto_with_232");
  for (const measure of [...measures.filter((x) => !after232(x)), ...measures.filter(after232)]) {
    const rate = dec(measure.rate);
    const rateText = pctText(rate);
    const light = belowWeightThreshold(measure, input);
    if (light) {
      fired.push(light);
      decisions.push({
        measure,
        status: "exempted",
        amount: ZERO,
        basis: `${rateText} ${measure.name} not charged: under 9903.82.03, as U.S. note 16(c) applies it outside chapters 72, 73, 74 and 76 only where the ${measure.metal ?? "metal"} is at least 15% of the article's weight (metal_weight_percentage ${input.metalWeightPercentage})`,
        estimated: false,
        exclusion: light,
        claimed: false,
      });
      continue;
    }
    // A measure listed at a longer code than the one given covers only some of the goods under it.
    if (measure.hsPrefix.length > code.length) {
      decisions.push(
        conditional(measure, `Applies only to goods of ${dotted(measure.hsPrefix)}; give the full code to apply it`),
      );
      continue;
    }
    // A measure on the metal's own origin whose facts were not given: the other measures stand, this one is shown.
    if (measure.metalOrigin && metalOriginState(measure.metalOrigin, facts) === "unknown") {
      const fields = measure.metalOrigin.facts.flatMap((f) => FACT_FIELDS[f].map(([, field]) => field)).join(", ");
      const instead = measure.metal
        ? `, in place of the other ${measure.program === "232" ? "Section 232" : measure.program} ${measure.metal} duties,`
        : "";
      decisions.push(conditional(measure, `Applies${instead} when ${measure.metalOrigin.text}: give ${fields}`));
      continue;
    }
    // A measure on goods of one use the code does not settle (a part of a passenger vehicle, not of a machine):
    // shown with its condition, and charged once the importer enters it under its heading (manual_claims).
    if (measure.useCondition && !claims.has(measure.code)) {
      decisions.push(
        conditional(
          measure,
          `Applies when ${measure.useCondition}; list ${measure.code} in manual_claims to enter the goods under it`,
        ),
      );
      continue;
    }
    // Section 232 on these goods: charged, or owed on a metal content not yet given. One keyed at a longer code
    // covers only some of them. A metal-origin or use-dependent measure not yet decided is neither.
    const s232 = decisions.filter(
      (d) =>
        d.measure.program === "232" &&
        d.status !== "exempted" &&
        !(d.status === "conditional" && (d.measure.metalOrigin || d.measure.useCondition)),
    );
    const on232 = s232.find((d) => d.measure.hsPrefix.length <= code.length);
    const under232 = s232.find((d) => d.measure.hsPrefix.length > code.length);
    let exempt: { e: Exclusion; claimed: boolean } | null = null;
    let portion: { e: Exclusion; remainder: Big | null; content: Big | null } | null = null;
    const offers: Exclusion[] = [];
    const claimOrOffer = (e: Exclusion) => {
      if (claims.has(e.code)) exempt ??= { e, claimed: true };
      else offers.push(e);
    };
    for (const e of exclusionsOf(measure)) {
      if (e.kind === "auto_zero_content") {
        if (input.metalWeightPercentage !== null && dec(input.metalWeightPercentage).eq(0))
          exempt ??= { e, claimed: false };
        continue;
      }
      if (e.kind === "auto_with_232") {
        // Section 232 on the metal content only: the exemption covers that content, and the value not subject to
        // Section 232 (entered on its own line, CSMS #64348411) still pays this measure.
        const split = on232 && onlyContent(s232, code) ? portionOutside232(s232, code, customsValue) : null;
        if (split) {
          portion = { e, ...split };
          continue;
        }
        if (on232)
          exempt ??= { e: { ...e, name: `${e.name}: ${on232.measure.code} ${on232.measure.name}` }, claimed: false };
        else if (under232)
          claimOrOffer({
            ...e,
            hsPrefix: under232.measure.hsPrefix,
            condition: `goods of ${dotted(under232.measure.hsPrefix)} are subject to ${under232.measure.code} ${under232.measure.name}`,
          });
        continue;
      }
      const onCode = e.hsPrefix === "" || code.startsWith(e.hsPrefix);
      const underCode = e.hsPrefix.length > code.length && e.hsPrefix.startsWith(code);
      if (!onCode && !underCode) continue;
      if (e.kind === "preference") {
        // "Entered free of duty under" the programme: the base line is that programme's free rate. Where the
        // line has no rate for it (most lines free under MFN list none), entering under it is the importer's
        // claim; a line whose rate under it is not free never qualifies.
        const underProgram = e.preference ? entry.special?.[e.preference] : undefined;
        if (onCode && entry.program === e.preference && underProgram?.length === 0) exempt ??= { e, claimed: false };
        else if (underProgram === undefined) claimOrOffer(e);
        continue;
      }
      if (e.kind === "auto" && onCode) {
        exempt ??= { e, claimed: false };
        continue;
      }
      // Claim-only exclusions, and exclusions of a longer statistical number than the code given, are never applied
      // on their own: they are offered, and applied once the code appears in manual_claims.
      claimOrOffer(e);
    }
    if (exempt) {
      fired.push(exempt.e);
      decisions.push({
        measure,
        status: "exempted",
        amount: ZERO,
        basis: `${rateText} ${measure.name} not charged: ${exempt.claimed ? "claimed" : "excluded"} under ${exempt.e.code} (${exempt.e.name})`,
        estimated: false,
        exclusion: exempt.e,
        claimed: exempt.claimed,
      });
      continue;
    }
    for (const e of offers) if (!available.has(`${e.code}|${e.name}`)) available.set(`${e.code}|${e.name}`, e);
    if (portion && measure.basis === "value") {
      const { e, remainder, content } = portion;
      if (remainder === null || content === null || customsValue === null || m === null) {
        decisions.push(
          conditional(
            measure,
            `Applies to the value not subject to Section 232 (${e.code} covers the metal content): give the metal content to compute it`,
          ),
        );
        continue;
      }
      fired.push(e);
      decisions.push({
        measure,
        status: "applied",
        amount: remainder.times(rate),
        basis: `${rateText} of ${formatMoney(remainder, m.currency)} value not subject to Section 232 (${formatMoney(customsValue, m.currency)} customs value less ${formatMoney(content, m.currency)} metal content, which ${e.code} exempts)`,
        estimated: s232.some((d) => d.estimated),
        base: remainder,
      });
      continue;
    }
    if (measure.basis === "all_in") {
      // The rate is the whole duty on the article: the measure charges what the tariff line's own duty leaves.
      if (customsValue === null || m === null || entry.baseDuty === undefined || entry.baseDuty === null) {
        decisions.push({
          measure,
          status: "applied",
          amount: ZERO,
          basis: `${rateText} all-in: the duty under the subheading, raised to ${rateText} of the customs value`,
          estimated: false,
        });
        continue;
      }
      const whole = customsValue.times(rate);
      const topUp = whole.gt(entry.baseDuty) ? whole.minus(entry.baseDuty) : ZERO;
      decisions.push({
        measure,
        status: "applied",
        amount: topUp,
        basis: topUp.gt(0)
          ? `${rateText} all-in: ${rateText} of ${formatMoney(customsValue, m.currency)} customs value (${formatMoney(whole, m.currency)}) less ${formatMoney(entry.baseDuty, m.currency)} duty under the subheading`
          : `${rateText} all-in: the duty under the subheading (${formatMoney(entry.baseDuty, m.currency)}) is already at least ${rateText} of the customs value, so nothing is added`,
        estimated: false,
      });
      continue;
    }
    if (measure.basis === "value") {
      const why = measure.metalOrigin ? ` (${metFactsText(measure.metalOrigin, facts)})` : "";
      if (customsValue === null || m === null)
        decisions.push({
          measure,
          status: "applied",
          amount: ZERO,
          basis: `${rateText} of the customs value${why}`,
          estimated: false,
        });
      else
        decisions.push({
          measure,
          status: "applied",
          amount: customsValue.times(rate),
          basis: `${rateText} of ${formatMoney(customsValue, m.currency)} customs value${why}`,
          estimated: false,
        });
      continue;
    }
    // Content basis: the duty falls on the value of the metal content.
    const metal = measure.metal ?? "metal";
    const condition = `Duty on the value of the ${metal} content: give components [{material: "${metal}", value}] or metal_weight_percentage`;
    if (customsValue === null || m === null) {
      decisions.push(conditional(measure, condition));
      continue;
    }
    const parts = input.components.filter((c) => metalOf(c.material) === measure.metal);
    const declared = m.toDest(dec(1), input.currency ?? m.currency);
    if (parts.length) {
      const perUnit = parts.reduce((s, c) => s.plus(c.value), ZERO);
      const content = perUnit.times(input.quantity).times(declared);
      decisions.push({
        measure,
        status: "applied",
        amount: content.times(rate),
        basis: `${rateText} of ${formatMoney(content, m.currency)} ${metal} content value (from components)`,
        estimated: false,
        base: content,
      });
    } else if (input.metalWeightPercentage !== null) {
      const share = dec(input.metalWeightPercentage).div(100);
      const content = customsValue.times(share);
      decisions.push({
        measure,
        status: "applied",
        amount: content.times(rate),
        basis: `${rateText} of ${formatMoney(content, m.currency)} ${metal} content value (estimated as ${input.metalWeightPercentage}% of ${formatMoney(customsValue, m.currency)} customs value from metal_weight_percentage)`,
        estimated: true,
        base: content,
      });
    } else {
      decisions.push(conditional(measure, condition));
    }
  }
  // Back in list order (the Section 232-dependent ones were decided last).
  decisions.sort((a, b) => measures.indexOf(a.measure) - measures.indexOf(b.measure));
  if (emergency)
    return {
      decisions: decisions.filter((d) => isEmergency(d.measure)),
      available: [...available.values()].filter((e) => e.appliesTo.startsWith("ieepa")),
      fired: fired.filter((e) => e.appliesTo.startsWith("ieepa")),
    };
  return { decisions, available: [...available.values()], fired };
}

interface Refundable {
  lines: DutyLine[];
  /** Measures that hang on facts not given (a metal content), outside the sum. */
  conditional: { name: string; code: string; rate: string; type: string; note: string }[];
  total: Big;
}

/** A decided measure as a duty line, or as a conditional entry when it needs facts the request did not give. */
function decisionLine(
  d: MeasureDecision,
): { line: DutyLine; conditional?: undefined } | { line?: undefined; conditional: ConditionalLine } {
  const base = {
    name: d.measure.name,
    code: d.measure.code,
    rate: pctText(d.measure.rate),
    type: "additional" as const,
  };
  if (d.status === "conditional") return { conditional: { ...base, note: d.condition } };
  if (d.status === "exempted")
    return {
      line: {
        ...base,
        rate: "0%",
        amount: ZERO,
        basis: d.basis,
        exempted: true,
        exclusion_code: d.exclusion.code,
        exclusion_name: d.exclusion.name,
      },
    };
  return { line: { ...base, amount: d.amount, basis: d.basis, ...(d.estimated ? { estimated: true } : {}) } };
}

type ConditionalLine = { name: string; code: string; rate: string; type: string; note: string };

/** The IEEPA lines of an entry, waived like the other duties where de minimis waived them. */
function refundableDuties(
  decisions: MeasureDecision[],
  waived: boolean,
  goodsValue: Big,
  threshold: Big | null,
  m: Money,
): Refundable {
  const lines: DutyLine[] = [];
  const conditional: Refundable["conditional"] = [];
  for (const d of decisions) {
    const { line, conditional: c } = decisionLine(d);
    if (c) conditional.push(c);
    else if (line && !line.exempted && waived && line.amount.gt(0))
      lines.push({
        ...line,
        amount: ZERO,
        basis: `${line.basis}; waived: goods value ${formatMoney(goodsValue, m.currency)} is within the ${formatMoney(threshold ?? ZERO, m.currency)} de minimis`,
      });
    else if (line) lines.push(line);
  }
  return { lines, conditional, total: lines.reduce((s, l) => s.plus(l.amount), ZERO) };
}

/**
 * A flat customs duty per item category on goods the duty de minimis would relieve (the EU's 3 EUR from
 * 2026-07-01, on goods of sellers registered in the IOSS): one charge per 6-digit subheading of the shipment.
 */
function flatDuty(
  data: ResolvedData,
  input: CalcInput,
  ctx: ShipmentContext,
  goodsValue: Big,
  m: Money,
): DutyLine | null {
  const row = deMinimisRow(data.deMinimis, "flat_duty", input);
  if (!row?.amount || row.threshold === null || input.ioss === false) return null;
  if (goodsValue.gt(m.toDest(dec(row.threshold), row.currency))) return null;
  const category = input.hsCode.replace(/\D/g, "").slice(0, 6);
  const per = m.toDest(dec(row.amount), row.currency);
  const rate = `${formatMoney(dec(row.amount), row.currency)} per item category`;
  const name = "Flat customs duty on low-value goods";
  if (ctx.flatDutyCategories?.has(category))
    return {
      name,
      rate,
      amount: ZERO,
      type: "specific",
      basis: `${rate}: subheading ${dotted(category)} is already charged on another line of the shipment`,
    };
  ctx.flatDutyCategories?.add(category);
  return {
    name,
    rate,
    amount: per,
    type: "specific",
    basis: `${rate} (subheading ${dotted(category)}) in place of the relief for goods of ${formatMoney(goodsValue, m.currency)}, within ${formatMoney(dec(row.threshold), row.currency)}; for a seller registered in the IOSS (ioss: false if not)`,
  };
}

/** Alcoholic beverages (22.03-22.08) and tobacco (chapter 24): outside the low-value reliefs (see `calculate`). */
const LOW_VALUE_EXCLUDED = /^(220[3-8]|24)/;

/** One excise tax on the line: rate per unit, the quantity in that unit, the amount in the destination currency. */
interface ExciseLine {
  code: string;
  name: string;
  rate: string;
  quantity: string;
  amount: Big;
  basis: string;
  sourceUrl: string;
}

interface ExciseResult {
  lines: ExciseLine[];
  /** Excise the data holds for the goods but the request does not give the facts for (volume, alcohol). */
  notComputed: { code: string; name: string; reason: string }[];
  total: Big;
}

const US_GALLON_L = "3.785411784";
const UNIT_TEXT: Record<ExciseRow["unit"], string> = {
  proof_gallon: "proof gallon",
  wine_gallon: "wine gallon",
  barrel: "barrel of 31 gallons",
  litre_alcohol: "litre of pure alcohol",
  litre: "litre",
  kg: "kg",
  thousand: "thousand",
  not_modelled: "unit",
};

// Statutes word their bands both ways ("over 14 % up to 21 %", "at least 3.5 % but less than 8.5 %").
const inBand = (r: ExciseRow, abv: Big) =>
  (r.abvOver === null || abv.gt(r.abvOver)) &&
  (r.abvMin === null || abv.gte(r.abvMin)) &&
  (r.abvMax === null || abv.lte(r.abvMax)) &&
  (r.abvBelow === null || abv.lt(r.abvBelow));
const banded = (r: ExciseRow) => r.abvOver !== null || r.abvMax !== null || r.abvMin !== null || r.abvBelow !== null;
const bandText = (r: ExciseRow) =>
  [
    r.abvOver === null ? null : `over ${r.abvOver}%`,
    r.abvMin === null ? null : `at least ${r.abvMin}%`,
    r.abvMax === null ? null : `not over ${r.abvMax}%`,
    r.abvBelow === null ? null : `less than ${r.abvBelow}%`,
  ]
    .filter(Boolean)
    .join(" and ");

/** The quantity of an excise unit from the line's volume, alcohol and count; a reason when the facts are missing. */
function exciseQuantity(row: ExciseRow, input: CalcInput, abv: Big | null): { qty: Big; text: string } | string {
  if (row.unit === "thousand") {
    const q = dec(input.quantity);
    return { qty: q.div(1000), text: `${q.toString()} pieces (quantity) = ${q.div(1000).toString()} thousand` };
  }
  if (row.unit === "kg") return unitQuantity("KG", input) ?? "weight not given: give the line's net weight";
  const litres = unitQuantity("L", input);
  if (!litres) return "volume not given: give the line's volume (total, in l, hl or ml)";
  if (row.unit === "litre") return litres;
  if (row.unit === "litre_alcohol") {
    if (!abv) return "alcohol_percentage not given: litres of pure alcohol depend on the alcohol content";
    const lpa = litres.qty.times(abv).div(100);
    return {
      qty: lpa,
      text: `${litres.text} at ${abv.toString()}% alcohol = ${lpa.round(4).toString()} l of pure alcohol`,
    };
  }
  const gallons = litres.qty.div(US_GALLON_L);
  if (row.unit === "wine_gallon")
    return { qty: gallons, text: `${litres.text} = ${gallons.round(4).toString()} wine gallons` };
  if (row.unit === "barrel") {
    const barrels = gallons.div(31);
    return { qty: barrels, text: `${litres.text} = ${barrels.round(6).toString()} barrels` };
  }
  if (!abv) return "alcohol_percentage not given: proof gallons depend on the alcohol content";
  const proof = gallons.times(abv).div(50);
  return {
    qty: proof,
    text: `${litres.text} at ${abv.toString()}% alcohol = ${proof.round(4).toString()} proof gallons`,
  };
}

/**
 * Excise taxes collected at import on the line (US federal excise on beer, wine, spirits and cigarettes, which CBP
 * collects with the duty). The most specific HS prefix wins (sparkling wine over wine); within it the alcohol band.
 * What the request lacks the facts for is named and the quote is not complete.
 */
function exciseTaxes(data: ResolvedData, input: CalcInput, code: string, m: Money): ExciseResult | null {
  const rows = (data.excise ?? []).filter((r) => code.startsWith(r.hsPrefix));
  if (!rows.length) return null;
  const longest = Math.max(...rows.map((r) => r.hsPrefix.length));
  const own = rows.filter((r) => r.hsPrefix.length === longest);
  const [first] = own;
  if (!first) return null;
  const abv = input.alcoholPercentage == null ? null : dec(input.alcoholPercentage);
  const out: ExciseResult = { lines: [], notComputed: [], total: ZERO };
  // A tax collected at import whose rates the data does not hold: the quote names it and is not complete.
  if (first.unit === "not_modelled") {
    out.notComputed.push({ code: first.code, name: first.name, reason: first.note ?? "its rates are not in the data" });
    return out;
  }
  // Alcohol decides the rate among several bands, and the proof gallons of spirits; a single band is assumed met.
  if (abv === null && (own.length > 1 || first.unit === "proof_gallon" || first.unit === "litre_alcohol")) {
    out.notComputed.push({
      code: first.code,
      name: first.name,
      reason: `alcohol_percentage not given: the excise rate on HS ${dotted(first.hsPrefix)} depends on the alcohol content`,
    });
    return out;
  }
  const row = abv === null ? first : own.find((r) => inBand(r, abv));
  if (!row) {
    out.notComputed.push({
      code: first.code,
      name: first.name,
      reason: `no excise rate under HS ${dotted(first.hsPrefix)} for ${abv?.toString()}% alcohol in the data${first.country === "US" ? " (over 24% the goods are taxed as distilled spirits)" : ""}`,
    });
    return out;
  }
  const q = exciseQuantity(row, input, abv);
  if (typeof q === "string") {
    out.notComputed.push({ code: row.code, name: row.name, reason: q });
    return out;
  }
  // A rate set to more than cents (the UK wine easement's 3.5625 GBP a litre) is shown as the statute sets it.
  const rateAmount = dec(row.rate).round(2).eq(row.rate)
    ? formatMoney(dec(row.rate), row.currency)
    : `${row.rate} ${row.currency}`;
  const rate = `${rateAmount} per ${UNIT_TEXT[row.unit]}`;
  const assumed = abv === null && banded(row) ? `; alcohol_percentage not given: taken as ${bandText(row)}` : "";
  const amount = m.toDest(q.qty.times(row.rate), row.currency);
  out.lines.push({
    code: row.code,
    name: row.name,
    rate,
    quantity: q.text,
    amount,
    basis: `${rate} × ${q.text}${assumed}${row.note ? `; ${row.note}` : ""}`,
    sourceUrl: row.sourceUrl,
  });
  out.total = amount;
  return out;
}

/** The most specific de minimis row: origin-limited over general, channel-specific over `any`. */
export function deMinimisRow(rows: DeMinimisRow[], kind: DeMinimisRow["kind"], input: CalcInput): DeMinimisRow | null {
  const candidates = rows.filter(
    (r) =>
      r.kind === kind &&
      inForce(r, input.entryDate) &&
      (r.channel === "any" || r.channel === input.channel) &&
      (r.origins === null || r.origins.includes(input.origin)),
  );
  const score = (r: DeMinimisRow) => (r.origins ? 2 : 0) + (r.channel !== "any" ? 1 : 0);
  candidates.sort((a, b) => score(b) - score(a));
  return candidates[0] ?? null;
}

export interface FeeLine {
  code: string;
  name: string;
  amount: Big;
  basis: string;
  source_url: string;
  estimated?: boolean;
}

interface FeeExemption {
  fee: string;
  code: string;
  name: string;
  claimed: boolean;
  condition: string;
}

/**
 * Fees that originating goods of a trade programme do not pay (US MPF for the FTAs of 19 CFR 24.23(c)). Applied
 * when the duty tier already enters the goods under such a programme (the preference, like the tier, assumes
 * origin is claimed and proven). Goods of a covered origin entered otherwise (free under MFN, or a line with no
 * rate for the programme) are exempt only if the importer declares them originating under the programme's
 * special program indicator, so that is offered as a claim under the indicator's code and applied once it is
 * in `manual_claims`.
 */
function feeExemptions(
  data: ResolvedData,
  input: CalcInput,
  tierProgram: string | null,
): { exempt: FeeExemption[]; offers: FeeExemption[] } {
  const exempt: FeeExemption[] = [];
  const offers: FeeExemption[] = [];
  const claims = new Set(input.manualClaims.map((c) => c.replace(/\s/g, "").toUpperCase()));
  const seen = new Set<string>();
  for (const f of data.fees) {
    if (!f.exemptPrograms?.length || seen.has(f.code) || !inForce(f, input.entryDate)) continue;
    if (f.transportMode !== null && f.transportMode !== input.transportMode) continue;
    seen.add(f.code);
    const exemptPrograms = f.exemptPrograms;
    const covered = data.programs.filter(
      (p) => p.country === input.origin && inForce(p, input.entryDate) && exemptPrograms.includes(p.program),
    );
    const entered = covered.find((p) => p.program === tierProgram);
    const source = f.exemptSource ? ` (${f.exemptSource})` : "";
    const of = (p: (typeof covered)[number], claimed: boolean): FeeExemption => ({
      fee: f.code,
      code: p.program,
      name: `${f.code} exemption: goods originating under the ${p.name}${source}`,
      claimed,
      condition: `The goods originate under the ${p.name} and are entered with its special program indicator ${p.program}`,
    });
    if (entered) exempt.push(of(entered, false));
    else {
      const claimed = covered.find((p) => claims.has(p.program.toUpperCase()));
      if (claimed) exempt.push(of(claimed, true));
      else offers.push(...covered.map((p) => of(p, false)));
    }
  }
  return { exempt, offers };
}

/** The reduced VAT row for a code on a date: the most specific prefix in force, or null (standard rate). */
export function vatReducedRow(rows: VatReducedRow[], code: string, date: string): VatReducedRow | null {
  let best: VatReducedRow | null = null;
  for (const r of rows)
    if (code.startsWith(r.hsPrefix) && inForce(r, date) && (!best || r.hsPrefix.length > best.hsPrefix.length))
      best = r;
  return best;
}

export interface EntryType {
  type: "formal" | "informal";
  /** The entered value compared and the informal ceiling, in the destination currency. */
  value: Big;
  limit: Big;
  basis: string;
  source_url: string;
}

/**
 * The US entry type for an entered value: informal up to the ceiling of the informal fee row in force (2,500 USD,
 * 19 CFR 143.21(a)), formal above it. Null where the destination's fees have no entry types.
 */
export function entryTypeOf(
  fees: FeeRow[],
  input: CalcInput,
  value: Big,
  m: Money,
  chapter99: Big | null = null,
): EntryType | null {
  const row = fees.find((f) => f.entryType === "informal" && f.entryValueMax && inForce(f, input.entryDate));
  if (!row?.entryValueMax) return null;
  const limit = m.toDest(dec(row.entryValueMax), row.currency);
  const source_url = "https://www.ecfr.gov/current/title-19/chapter-I/part-143/subpart-C/section-143.21";
  // 19 CFR 143.21(a)'s parenthetical: an article classified in Chapter 99, Subchapters III and IV (an additional
  // duty heading applies to it) valued over its limit cannot be entered informally, whatever the entry's value.
  const articleLimit = row.chapter99ArticleMax ? m.toDest(dec(row.chapter99ArticleMax), row.currency) : null;
  if (value.lte(limit) && articleLimit && chapter99?.gt(articleLimit))
    return {
      type: "formal",
      value,
      limit,
      basis: `An article of ${formatMoney(chapter99, m.currency)} classified in Chapter 99, Subchapters III and IV (an additional duty applies to it) exceeds the ${formatMoney(dec(row.chapter99ArticleMax ?? "0"), row.currency)} such an article may have in an informal entry (19 CFR 143.21(a)), so the entry is formal although its value does not exceed ${formatMoney(dec(row.entryValueMax), row.currency)}`,
      source_url,
    };
  const informal = value.lte(limit);
  return {
    type: informal ? "informal" : "formal",
    value,
    limit,
    basis: `Entered value ${formatMoney(value, m.currency)} ${informal ? "does not exceed" : "exceeds"} the ${formatMoney(dec(row.entryValueMax), row.currency)} informal entry limit (19 CFR 143.21(a)); de minimis release is not available`,
    source_url,
  };
}

/**
 * The value of an article classified in Chapter 99, Subchapters III and IV: the line's customs value when an
 * additional duty heading (9903, 9904) charges it something; null otherwise (19 CFR 143.21(a)).
 */
function chapter99Article(duties: DutyLine[], customsValue: Big): Big | null {
  return duties.some((d) => /^990[34]/.test(d.code ?? "") && d.amount.gt(0) && !d.exempted) ? customsValue : null;
}

/**
 * Fees in force for the mode and entry type; MPF-style floor and cap in the fee's currency, converted, or a flat
 * amount per entry (informal MPF). `value` is the entry's customs value.
 */
export function computeFees(
  fees: FeeRow[],
  input: CalcInput,
  value: Big,
  m: Money,
  entryType: EntryType["type"] | null = null,
): FeeLine[] {
  const out: FeeLine[] = [];
  for (const f of fees) {
    if (!inForce(f, input.entryDate)) continue;
    if (f.transportMode !== null && f.transportMode !== input.transportMode) continue;
    if (f.entryType && entryType && f.entryType !== entryType) continue;
    const estimated = Boolean(f.estimated);
    const flagged = estimated ? `; ${f.note ?? "carried forward from the last published period"}` : "";
    if (f.flat) {
      const amount = m.toDest(dec(f.flat), f.currency);
      out.push({
        code: f.code,
        name: f.name,
        amount,
        basis: `Flat ${formatMoney(dec(f.flat), f.currency)} per ${f.entryType ?? ""} entry${flagged}`.replace(
          "per  entry",
          "per entry",
        ),
        source_url: f.sourceUrl,
        ...(estimated ? { estimated } : {}),
      });
      continue;
    }
    let amount = value.times(f.rate);
    let basis = `${pctText(f.rate)} of ${formatMoney(value, m.currency)} customs value${f.transportMode ? ` (${f.transportMode} only)` : ""}`;
    const min = f.min === null ? null : m.toDest(dec(f.min), f.currency);
    const max = f.max === null ? null : m.toDest(dec(f.max), f.currency);
    if (min && amount.lt(min)) {
      basis += ` = ${formatMoney(amount, m.currency)}, raised to the minimum ${formatMoney(dec(f.min ?? 0), f.currency)}`;
      amount = min;
    } else if (max && amount.gt(max)) {
      basis += ` = ${formatMoney(amount, m.currency)}, capped at the maximum ${formatMoney(dec(f.max ?? 0), f.currency)}`;
      amount = max;
    }
    out.push({
      code: f.code,
      name: f.name,
      amount,
      basis: basis + flagged,
      source_url: f.sourceUrl,
      ...(estimated ? { estimated } : {}),
    });
  }
  return out;
}

interface Incomplete {
  code:
    | "no_tariff"
    | "unknown_code"
    | "estimated_duty"
    | "conditional_measure"
    | "estimated_fee"
    | "excise_not_computed"
    | "preference_not_modelled";
  message: string;
}

export interface CalcResult {
  /** False when any part of the duty, fees or taxes could not be determined; `incomplete` says which. */
  complete: boolean;
  incomplete: Incomplete[];
  rateFound: boolean;
  message: string;
  line: TariffLine | null;
  resolution: {
    requested: string;
    method: "exact" | "national_line" | "highest_of_range";
    lines_considered: number;
    range: string | null;
    chosen: string | null;
    description: string | null;
  } | null;
  currencies: {
    declared: string;
    destination: string;
    exchangeRate: Big;
    source: string | null;
    rateDate: string | null;
  };
  values: {
    perUnit: Big;
    total: Big;
    customsValue: Big;
    shipping: Big;
    insurance: Big;
    customsBasis: string;
    basis: string;
    /** The line's value when it is an article classified in Chapter 99, Subchapters III and IV (entry type). */
    chapter99Article: Big | null;
  };
  exemptions: {
    deMinimis: { threshold: Big | null; exempt: boolean; row: DeMinimisRow | null; value: Big };
    taxDeMinimis: { threshold: Big | null; exempt: boolean; row: DeMinimisRow | null } | null;
    fired: { code: string; name: string; applies_to: string; claimed: boolean }[];
    available: { code: string; name: string; applies_to: string; condition: string | null }[];
  };
  tier: TierResult | null;
  duties: DutyLine[];
  totalDuty: Big;
  conditional: { name: string; code: string; rate: string; type: string; note: string }[];
  fees: FeeLine[];
  /** US formal or informal entry (null where the destination has no entry types in the data). */
  entryType: EntryType | null;
  /** Fee codes the goods' trade programme exempts them from (a batch leaves the line out of that fee's base). */
  exemptFees: string[];
  totalFees: Big;
  vat: { rate: Big; amount: Big; code: string | null; name: string; basis: string } | null;
  /** A tax the seller charges at the sale (not at import), outside the totals. */
  pointOfSale: { rate: Big; amount: Big; code: string | null; name: string; basis: string; sourceUrl: string } | null;
  /** IEEPA duties an entry of 2025-02-04..2026-02-23 deposited, refundable, never in the totals; null outside it. */
  refundable: Refundable | null;
  /** Excise taxes collected at import (null when the data holds none for the goods); in the totals. */
  excise: ExciseResult | null;
  totals: { duty: Big; fees: Big; vat: Big; excise: Big; total: Big };
  notes: string[];
}

export interface ShipmentContext {
  /** Goods value of the whole shipment in the destination currency, for shipment-level de minimis. */
  goodsValue?: Big;
  /** When the caller applies fee floors and caps to the whole entry itself (calculate/multiple). */
  feesAtShipmentLevel?: boolean;
  /** Entered value of the whole entry (calculate/multiple), which decides formal or informal entry. */
  entryValue?: Big;
  /**
   * Item categories (6-digit subheadings) of the shipment already charged a flat low-value duty: the EU's 3 EUR
   * falls once per category, so later lines of the same subheading add nothing (calculate/multiple fills it).
   */
  flatDutyCategories?: Set<string>;
  /**
   * The whole declaration's import tax before any minimum-amount rule (calculate/multiple, on its second pass):
   * where the data sets a limit on the tax amount (Switzerland's CHF 5), it is this total that is compared.
   */
  taxTotal?: Big;
}

/** Why a quote is not final: each part of the duty, fees or taxes that could not be determined from the request. */
function incompleteReasons(
  data: ResolvedData,
  input: CalcInput,
  line: TariffLine | null,
  duties: DutyLine[],
  conditional: CalcResult["conditional"],
  fees: FeeLine[],
): Incomplete[] {
  const out: Incomplete[] = [];
  if (!data.rule.schedule)
    out.push({
      code: "no_tariff",
      message: `No tariff schedule for ${input.destination} in the data: duty is not computed and taxes are on the value without it`,
    });
  else if (!line)
    out.push({
      code: "unknown_code",
      message: `No ${data.rule.schedule} tariff line for ${dotted(input.hsCode)} in force on ${input.entryDate}: nothing is charged`,
    });
  for (const d of duties) if (d.estimated) out.push({ code: "estimated_duty", message: `${d.name}: ${d.basis}` });
  const schedule = SCHEDULES[data.rule.schedule ?? ""];
  if (
    line &&
    schedule?.preferences === false &&
    !schedule.withoutPreference?.includes(input.origin) &&
    duties.some((d) => d.amount.gt(0))
  )
    out.push({
      code: "preference_not_modelled",
      message: `The ${schedule.label}'s general rate is charged: its preferential rates (free trade agreements, GSP) are not in the data, and goods originating in ${input.origin} may pay less under one`,
    });
  for (const c of conditional)
    out.push({ code: "conditional_measure", message: `${c.code} ${c.name} (${c.rate}) not in the totals: ${c.note}` });
  for (const f of fees) if (f.estimated) out.push({ code: "estimated_fee", message: `${f.name}: ${f.basis}` });
  return out;
}

/** "6109.10.00-6109.90.90": the first and last code of a sorted range of lines. */
const codeRange = (lines: { code: string }[]) =>
  `${dotted(lines[0]?.code ?? "")}-${dotted(lines[lines.length - 1]?.code ?? "")}`;

/**
 * The lines a code can be priced on: the line of the schedule's length it falls under (`exact`), or, for a shorter
 * code or an 8-digit code whose rate the schedule sets two digits further down (UK and EU still wine by alcoholic
 * strength), the lines under it.
 */
function linesFor(
  code: string,
  lines: TariffLine[],
  digits: number,
): { exact: TariffLine | null; under: TariffLine[] } {
  if (code.length >= digits) {
    const exact = lines.find((l) => l.code === code.slice(0, digits));
    if (exact) return { exact, under: [] };
    const longer = lines.find((l) => l.code.length > digits && l.code === code);
    if (longer) return { exact: longer, under: [] };
    return {
      exact: null,
      under: lines.filter((l) => l.code.length > digits && l.code.startsWith(code.slice(0, digits))),
    };
  }
  return { exact: null, under: lines.filter((l) => l.code.startsWith(code)) };
}

const VOL_MAX = /not exceeding (\d+(?:[.,]\d+)?) ?% vol/i;
const VOL_OVER = /(?<!not )exceeding (\d+(?:[.,]\d+)?) ?% vol/i;
/** Lines whose description bounds the alcoholic strength ("exceeding 13 % vol but not exceeding 15 % vol") and admit `abv`. */
function byStrength(lines: TariffLine[], abv: string | null | undefined): TariffLine[] {
  if (abv == null) return lines;
  const strength = dec(abv);
  const fits = lines.filter((l) => {
    const max = VOL_MAX.exec(l.description)?.[1];
    const over = VOL_OVER.exec(l.description)?.[1];
    if (max === undefined && over === undefined) return false;
    return (
      (max === undefined || strength.lte(max.replace(",", "."))) &&
      (over === undefined || strength.gt(over.replace(",", ".")))
    );
  });
  return fits.length ? fits : lines;
}

/**
 * Chooses the national line for the code: the line itself (8 digits, 9 for Japan), or for a shorter code the
 * highest-duty line under it (among the lines whose alcoholic strength fits the line's, where they say).
 */
function chooseLine(
  input: CalcInput,
  lines: TariffLine[],
  customsValue: Big,
  data: ResolvedData,
  m: Money,
): { line: TariffLine | null; resolution: CalcResult["resolution"] } {
  const code = input.hsCode;
  const inDate = lines.filter((l) => inForce(l, input.entryDate));
  const digits = lineDigits(data.rule.schedule);
  const { exact, under: all } = linesFor(code, inDate, digits);
  if (exact) {
    return {
      line: exact,
      resolution: {
        requested: code,
        method: code.length === exact.code.length ? "exact" : "national_line",
        lines_considered: 1,
        range: null,
        chosen: dotted(exact.code),
        description: exact.description,
      },
    };
  }
  const sorted = all.sort((a, b) => a.code.localeCompare(b.code));
  const under = byStrength(sorted, input.alcoholPercentage);
  const [first] = under;
  if (!first) return { line: null, resolution: null };
  let best = first;
  let bestDuty: Big | null = null;
  for (const l of under) {
    const d = dutyTier(l, input, data, customsValue, m).line.amount;
    if (bestDuty === null || d.gt(bestDuty)) {
      best = l;
      bestDuty = d;
    }
  }
  return {
    line: best,
    resolution: {
      requested: code,
      method: under.length === 1 ? "national_line" : "highest_of_range",
      lines_considered: sorted.length,
      range: codeRange(sorted),
      chosen: dotted(best.code),
      description: best.description,
    },
  };
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the order of a customs computation (value, duty tiers, measures, de minimis, fees, taxes on value plus duty, totals) is the order a broker checks it in; its parts are separate functions, and what remains is that sequence
export function calculate(input: CalcInput, data: ResolvedData, ctx: ShipmentContext = {}): CalcResult {
  const m = money(data);
  const declaredCcy = input.currency ?? m.currency;
  const notes: string[] = [];
  const qty = dec(input.quantity);
  const perUnit = m.toDest(dec(input.declaredValue), declaredCcy);
  const total = perUnit.times(qty);
  const shipping = m.toDest(dec(input.shippingCost), declaredCcy);
  const insurance = m.toDest(dec(input.insuranceCost), declaredCcy);
  const freight = shipping.plus(insurance);
  const priceIncludesFreight = input.shippingTerms === "CIF" || input.shippingTerms === "DDP";
  let customsValue: Big;
  let valueBasis: string;
  if (data.rule.customsBasis === "CIF") {
    customsValue = priceIncludesFreight ? total : total.plus(freight);
    valueBasis = priceIncludesFreight
      ? `CIF: ${input.shippingTerms} price ${formatMoney(total, m.currency)} already includes freight and insurance`
      : `CIF: ${formatMoney(total, m.currency)} goods + ${formatMoney(shipping, m.currency)} shipping + ${formatMoney(insurance, m.currency)} insurance`;
  } else {
    customsValue = priceIncludesFreight ? total.minus(freight) : total;
    if (customsValue.lt(0)) customsValue = ZERO;
    valueBasis = priceIncludesFreight
      ? `FOB: ${input.shippingTerms} price ${formatMoney(total, m.currency)} less ${formatMoney(freight, m.currency)} shipping and insurance`
      : `FOB: ${formatMoney(total, m.currency)} goods; shipping and insurance are not part of the customs value`;
  }
  const rateDay = data.fx.asOf ?? input.entryDate;
  if (declaredCcy !== m.currency && data.fx.date && Date.parse(rateDay) - Date.parse(data.fx.date) > 7 * 86_400_000)
    notes.push(
      `FX: the latest ECB reference rate in the data is of ${data.fx.date}; it is used for a rate due on ${rateDay} (entry on ${input.entryDate})`,
    );
  if (input.shippingTerms === "DDP")
    notes.push("DDP: the price is treated like CIF; duties included in a DDP price are not deducted");

  const { line, resolution } = data.rule.schedule
    ? chooseLine(input, data.lines, customsValue, data, m)
    : { line: null, resolution: null };
  const rateFound = line !== null;
  let message = "";
  if (!data.rule.schedule)
    message = `No tariff schedule for ${input.destination} in the data: duty is not computed; fees, taxes and de minimis are.`;
  else if (!line)
    message = `No ${data.rule.schedule} tariff line for ${dotted(input.hsCode)} in force on ${input.entryDate}.`;

  const tier = line ? dutyTier(line, input, data, customsValue, m) : null;
  if (tier?.note) notes.push(tier.note);
  // IEEPA duties (fentanyl and "reciprocal", 9903.01 / 9903.02) were collected from 2025-02-04 until the Supreme
  // Court held them unlawful (Learning Resources v. Trump, 2026-02-20; out of the HTS from Rev 4, 2026-02-24). An
  // entry of that window deposited them: they are shown on their own lines as refundable, outside the duty owed.
  const ieepaWindow =
    line !== null && data.rule.schedule === "US" && input.entryDate >= IEEPA_FROM && input.entryDate <= IEEPA_TO;
  // The Section 122 surcharge is limited to 150 days; the data has no extension, so a later quote says it ended.
  const s122 =
    line && data.rule.schedule === "US"
      ? data.measures.find((x) => x.program === "122" && x.validTo !== null && x.validTo < input.entryDate)
      : undefined;
  if (s122)
    notes.push(
      `${s122.name} (HTSUS ${s122.code}) not charged: it ran from ${s122.validFrom} to ${s122.validTo} (150 days) and no extension is in the data`,
    );
  if (line && data.rule.schedule !== "US")
    notes.push(
      `${data.rule.schedule === "GB" ? "UK Global Tariff as published for 2021-01-01" : "EU CET third-country duty as published beside the UK Global Tariff (2020)"}; preferential rates for ${data.rule.schedule} are not in the data`,
    );
  const duties: DutyLine[] = tier ? [tier.line] : [];
  const conditional: CalcResult["conditional"] = [];
  // A 4/6-digit code is assessed as the national line chosen for it.
  const entry: EntryBasis = {
    program: tier?.tier === "preferential_tariff" ? tier.program : null,
    special: line?.special ?? null,
    baseDuty: tier && tier.line.type !== "text" ? tier.line.amount : null,
  };
  const onLine = line && input.hsCode.length < 8 ? { ...input, hsCode: line.code } : input;
  const { decisions, available } = line
    ? decideMeasures(onLine, data, customsValue, m, entry)
    : { decisions: [], available: [] };
  const emergency = ieepaWindow ? decideMeasures(onLine, data, customsValue, m, entry, true) : null;
  for (const d of decisions) {
    const { line, conditional: c } = decisionLine(d);
    if (c) conditional.push(c);
    else if (line) duties.push(line);
  }

  // De minimis, on the shipment's goods value (the caller aggregates across lines). Alcoholic beverages and tobacco
  // are outside the low-value reliefs: the EU's (Regulation (EC) No 1186/2009 art. 24; the IOSS, VAT Directive
  // art. 369l, excludes excise goods), the UK's 135 GBP relief and point-of-sale VAT (HMRC: excise goods are not
  // part of the model), and likewise the US, Australian and Japanese low-value reliefs.
  const goodsValue = ctx.goodsValue ?? total;
  const reliefExcluded = LOW_VALUE_EXCLUDED.test(line?.code ?? input.hsCode);
  const dutyRow = deMinimisRow(data.deMinimis, "duty", input);
  const taxRows = data.deMinimis.some((r) => r.kind === "tax");
  const taxRow = taxRows ? deMinimisRow(data.deMinimis, "tax", input) : null;
  const threshold = (r: DeMinimisRow | null) =>
    r && r.threshold !== null ? m.toDest(dec(r.threshold), r.currency) : null;
  const dutyThreshold = threshold(dutyRow);
  const taxThreshold = threshold(taxRow);
  // The threshold that waived a charge, or null when it did not apply (its text goes into the basis).
  const dutyWaivedBy =
    !reliefExcluded && dutyThreshold !== null && goodsValue.lte(dutyThreshold) ? dutyThreshold : null;
  if (reliefExcluded && dutyThreshold !== null && goodsValue.lte(dutyThreshold))
    notes.push(
      "Alcoholic beverages and tobacco are outside the low-value relief: duty, excise and import VAT are due whatever the value",
    );
  // A limit on the tax amount is applied once the tax is known (below), not to the goods' value.
  const taxByAmount = taxRow?.basis === "tax_amount";
  const taxWaivedBy =
    !taxByAmount && !reliefExcluded && taxThreshold !== null && goodsValue.lte(taxThreshold) ? taxThreshold : null;
  const dutyExempt = dutyWaivedBy !== null;
  const taxExempt = taxWaivedBy !== null;
  if (dutyRow?.note) notes.push(`De minimis (duty): ${dutyRow.note}`);
  if (taxRow?.note) notes.push(`De minimis (tax): ${taxRow.note}`);
  if (dutyExempt) {
    for (const d of duties) {
      if (d.amount.gt(0))
        d.basis += `; waived: goods value ${formatMoney(goodsValue, m.currency)} is within the ${formatMoney(dutyWaivedBy ?? ZERO, m.currency)} de minimis`;
      d.amount = ZERO;
    }
  }
  const flat = dutyExempt ? flatDuty(data, input, ctx, goodsValue, m) : null;
  if (flat) duties.push(flat);
  const totalDuty = duties.reduce((s, d) => s.plus(d.amount), ZERO);
  const refundable = emergency ? refundableDuties(emergency.decisions, dutyExempt, goodsValue, dutyWaivedBy, m) : null;
  if (refundable)
    notes.push(
      refundable.lines.length
        ? `IEEPA duties deposited on an entry of ${input.entryDate} are in refundable_duties, not in the totals: the Supreme Court held them unlawful (Learning Resources v. Trump, 2026-02-20) and they left the HTS on 2026-02-24`
        : `No IEEPA duty applied to these goods on ${input.entryDate}, so nothing is refundable (Learning Resources v. Trump, 2026-02-20)`,
    );

  // Fees: US MPF/HMF. Low-value shipments released under de minimis pay no entry fees.
  // In a batch the floor and cap apply to the entry as a whole, so lines carry the plain ad valorem part.
  // A fee the goods' trade programme exempts them from is left out and listed with the exemptions.
  const feeEx = feeExemptions(data, input, tier?.tier === "preferential_tariff" ? tier.program : null);
  const exemptFees = new Set(feeEx.exempt.map((e) => e.fee));
  const liveFees = data.fees.filter((f) => !exemptFees.has(f.code));
  if (!dutyExempt)
    for (const e of feeEx.exempt)
      notes.push(`${e.fee} not charged: ${e.claimed ? "claimed" : "exempt"} under ${e.code} (${e.name})`);
  // IEEPA duties deposited at entry (refundable now) were Chapter 99 classifications of the article all the same.
  const chapter99 = chapter99Article([...duties, ...(refundable?.lines ?? [])], customsValue);
  const entryType = dutyExempt ? null : entryTypeOf(data.fees, input, ctx.entryValue ?? customsValue, m, chapter99);
  // In a batch a line carries the ad valorem part of a formal entry's MPF; the flat informal fee is the entry's.
  const feeRows = ctx.feesAtShipmentLevel
    ? liveFees.filter((f) => !f.flat).map((f) => ({ ...f, min: null, max: null }))
    : liveFees;
  // No entry fee on a code the tariff does not hold: the goods cannot be entered under it as given.
  const unknownCode = Boolean(data.rule.schedule) && !line;
  const fees = dutyExempt || unknownCode ? [] : computeFees(feeRows, input, customsValue, m, entryType?.type ?? null);
  const totalFees = fees.reduce((s, f) => s.plus(f.amount), ZERO);
  // Excise (alcohol, tobacco) is collected with the duty; no de minimis rule in the data waives it.
  const excise = unknownCode ? null : exciseTaxes(data, input, line?.code ?? input.hsCode, m);
  const totalExcise = excise?.total ?? ZERO;
  if (excise?.lines.length && dutyExempt)
    notes.push("Excise is charged although the duty is within the de minimis: the data holds no de minimis for excise");

  // VAT / GST on the customs value (+ freight for FOB destinations that tax it) + duty + fees, per the destination.
  let vat: CalcResult["vat"] = null;
  let taxWaivedByAmount = false;
  const vatRow = data.vatRegion ?? data.vat;
  if (data.rule.vatName && vatRow) {
    // A reduced rate on these goods (books, newspapers, works of art...), matched on the national line's code;
    // a regional rate (Canary Islands, an HST province) is the region's own and stands as it is.
    const reduced = data.vatRegion ? null : vatReducedRow(data.vatReduced, line?.code ?? input.hsCode, input.entryDate);
    const rate = dec(reduced ? reduced.rate : vatRow.standard);
    const parts = [`customs value ${formatMoney(customsValue, m.currency)}`];
    let base = customsValue;
    if (data.rule.vatIncludesFreight && data.rule.customsBasis === "FOB" && freight.gt(0)) {
      base = base.plus(freight);
      parts.push(`shipping and insurance ${formatMoney(freight, m.currency)}`);
    }
    if (data.rule.vatIncludesDuty && totalDuty.gt(0)) {
      base = base.plus(totalDuty);
      parts.push(`duty ${formatMoney(totalDuty, m.currency)}`);
    }
    if (data.rule.vatIncludesDuty && totalExcise.gt(0)) {
      base = base.plus(totalExcise);
      parts.push(`excise ${formatMoney(totalExcise, m.currency)}`);
    }
    if (data.rule.vatIncludesFees && totalFees.gt(0)) {
      base = base.plus(totalFees);
      parts.push(`fees ${formatMoney(totalFees, m.currency)}`);
    }
    let amount = base.times(rate).div(100);
    let basis = `${rate.toString()}% of ${formatMoney(base, m.currency)} (${parts.join(" + ")})`;
    if (reduced)
      basis += `; reduced rate for ${reduced.label} (HS ${reduced.hsPrefix}; ${reduced.source}), standard rate ${vatRow.standard}%`;
    if (!data.rule.schedule) basis += "; duty unknown for this destination, so not in the base";
    if (taxExempt) {
      basis += `; waived: goods value ${formatMoney(goodsValue, m.currency)} is within the ${formatMoney(taxWaivedBy ?? ZERO, m.currency)} tax de minimis`;
      amount = ZERO;
    }
    // The declaration's tax is compared: the batch passes its total (ctx.taxTotal); a single quote is the declaration.
    const compared = ctx.taxTotal ?? (ctx.feesAtShipmentLevel ? null : amount);
    if (taxByAmount && taxThreshold !== null && compared?.lte(taxThreshold)) {
      basis += `; not levied: the declaration's ${vatRow.name} ${formatMoney(compared, m.currency)} is within the ${formatMoney(taxThreshold, m.currency)} minimum amount`;
      amount = ZERO;
      taxWaivedByAmount = true;
    }
    vat = {
      rate,
      amount,
      code: data.vatRegion ? data.vatRegion.region : null,
      name: reduced ? `${vatRow.name} (reduced rate)` : vatRow.name,
      basis,
    };
    if (input.destinationRegion && !data.vatRegion)
      notes.push(`No regional tax for ${input.destinationRegion} in the data: the national rate applies`);
  } else if (input.destinationRegion && data.rule.country === "US") {
    notes.push("US state sales taxes are not collected at import and are not computed");
  }
  // Up to a point-of-sale threshold (UK 135 GBP, AU 1,000 AUD) the tax is the seller's, charged at the sale: it
  // is shown on its own, outside the import totals, so it is never read as import VAT.
  let pointOfSale: CalcResult["pointOfSale"] = null;
  // The EU's point-of-sale collection is the Import One-Stop Shop, which a seller opts into: `ioss: false` keeps
  // the VAT at import (absent, the seller is taken as registered, as for the flat duty).
  const posRow =
    vat && !reliefExcluded && !(data.rule.country === "EU" && input.ioss === false)
      ? deMinimisRow(data.deMinimis, "point_of_sale", input)
      : null;
  const posLimit = threshold(posRow);
  if (vat && posRow && posLimit !== null && goodsValue.lte(posLimit) && !taxExempt) {
    pointOfSale = {
      ...vat,
      basis: `${vat.basis}; goods value ${formatMoney(goodsValue, m.currency)} is within the ${formatMoney(dec(posRow.threshold ?? 0), posRow.currency)} point-of-sale limit: charged by the seller at the sale, not at import`,
      sourceUrl: posRow.sourceUrl,
    };
    vat = null;
    if (posRow.note) notes.push(`Point of sale: ${posRow.note}`);
  }
  const vatAmount = vat?.amount ?? ZERO;
  const incomplete = incompleteReasons(data, input, line, duties, conditional, fees);
  for (const e of excise?.notComputed ?? [])
    incomplete.push({ code: "excise_not_computed", message: `${e.code} ${e.name} not in the totals: ${e.reason}` });
  return {
    complete: incomplete.length === 0,
    incomplete,
    rateFound,
    message,
    line,
    resolution,
    currencies: {
      declared: declaredCcy,
      destination: m.currency,
      exchangeRate: m.rate(declaredCcy),
      source: declaredCcy === m.currency ? null : data.fx.source,
      rateDate: declaredCcy === m.currency ? null : data.fx.date,
    },
    values: {
      perUnit,
      total,
      customsValue,
      shipping,
      insurance,
      customsBasis: data.rule.customsBasis,
      basis: valueBasis,
      chapter99Article: chapter99,
    },
    exemptions: {
      deMinimis: { threshold: dutyThreshold, exempt: dutyExempt, row: dutyRow, value: goodsValue },
      taxDeMinimis: taxRows ? { threshold: taxThreshold, exempt: taxExempt || taxWaivedByAmount, row: taxRow } : null,
      fired: [
        ...decisions.flatMap((d) =>
          d.status === "exempted"
            ? [{ code: d.exclusion.code, name: d.exclusion.name, applies_to: d.measure.code, claimed: d.claimed }]
            : [],
        ),
        ...(dutyExempt
          ? []
          : feeEx.exempt.map((e) => ({ code: e.code, name: e.name, applies_to: e.fee, claimed: e.claimed }))),
      ],
      available: [
        ...available.map((e) => ({ code: e.code, name: e.name, applies_to: e.appliesTo, condition: e.condition })),
        ...(dutyExempt
          ? []
          : feeEx.offers.map((e) => ({ code: e.code, name: e.name, applies_to: e.fee, condition: e.condition }))),
      ],
    },
    tier,
    duties,
    totalDuty,
    conditional,
    fees,
    entryType,
    exemptFees: [...exemptFees],
    totalFees,
    vat,
    pointOfSale,
    refundable,
    excise,
    totals: {
      duty: totalDuty,
      fees: totalFees,
      vat: vatAmount,
      excise: totalExcise,
      total: totalDuty.plus(totalFees).plus(totalExcise).plus(vatAmount),
    },
    notes,
  };
}

export interface StackResult {
  rateFound: boolean;
  message: string;
  line: TariffLine | null;
  resolution: { requested: string; method: string; lines_considered: number; range: string; chosen: string } | null;
  tiers: {
    name: string;
    rate: string;
    type: string;
    code?: string;
    exempted?: boolean;
    exclusion_code?: string;
    exclusion_name?: string;
  }[];
  potential: { code: string; name: string; applied: false; reason: string }[];
  conditional: { name: string; rate: string; type: string; code: string; condition: string }[];
}

/** The duty stack for a code and origin, without values: base rate first, then the additional measures. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: builds the rate stack in the same sequence as calculate (line, tiers, measures) so the two answers can be read side by side
export function stack(input: CalcInput, data: ResolvedData): StackResult {
  const code = input.hsCode;
  const digits = lineDigits(data.rule.schedule);
  const { exact, under } = linesFor(
    code,
    data.lines.filter((l) => inForce(l, input.entryDate)),
    digits,
  );
  const inDate = exact ? [exact] : byStrength(under, input.alcoholPercentage);
  inDate.sort((a, b) => a.code.localeCompare(b.code));
  // Without values, a shorter code is shown as the line with the highest MFN ad valorem rate under it (ties: lowest code).
  const av = (l: TariffLine) => (l.mfn ?? []).reduce((s, c) => (c[0] === "av" ? s.plus(c[1]) : s), ZERO);
  const line = inDate.reduce<TariffLine | null>((best, l) => (best === null || av(l).gt(av(best)) ? l : best), null);
  const resolution =
    line && code.length < digits
      ? {
          requested: code,
          method: inDate.length === 1 ? "national_line" : "highest_ad_valorem_of_range",
          lines_considered: inDate.length,
          range: codeRange(inDate),
          chosen: dotted(line.code),
        }
      : null;
  if (!line)
    return {
      rateFound: false,
      message: `No ${data.rule.schedule ?? input.destination} tariff line for ${dotted(code)} in force on ${input.entryDate}.`,
      line: null,
      resolution: null,
      tiers: [],
      potential: [],
      conditional: [],
    };
  const programs = data.programs.filter((p) => p.country === input.origin && inForce(p, input.entryDate));
  const tiers: StackResult["tiers"] = [];
  const col2 = programs.some((p) => p.program === "column2") && line.col2Text !== null;
  const pref = !col2 ? programs.find((p) => line.special?.[p.program]) : undefined;
  const prefRate = pref ? line.special?.[pref.program] : undefined;
  const kind = (comps: Component[] | null) =>
    comps === null
      ? "text"
      : comps.length === 0
        ? "free"
        : comps.length > 1 || comps[0]?.[0] === "alt"
          ? "compound"
          : comps[0]?.[0] === "av"
            ? "ad_valorem"
            : "specific";
  if (col2)
    tiers.push({
      name: "Column 2 duty",
      rate: componentsText(line.col2, line.currency) || (line.col2Text ?? ""),
      type: kind(line.col2),
      code: dotted(line.code),
    });
  else if (pref && prefRate)
    tiers.push({
      name: `Preferential duty, ${pref.name}`,
      rate: componentsText(prefRate, line.currency),
      type: kind(prefRate),
      code: dotted(line.code),
    });
  else
    tiers.push({
      name: "MFN duty",
      rate: componentsText(line.mfn, line.currency) || line.mfnText,
      type: kind(line.mfn),
      code: dotted(line.code),
    });
  const { decisions, available } = decideMeasures(
    { ...input, hsCode: code.length >= digits ? code : line.code },
    data,
    null,
    null,
    { program: pref?.program ?? null, special: line.special },
  );
  const conditional: StackResult["conditional"] = [];
  for (const d of decisions) {
    const base = { name: d.measure.name, rate: pctText(d.measure.rate), type: "additional", code: d.measure.code };
    if (d.status === "conditional") conditional.push({ ...base, condition: d.condition });
    else if (d.status === "exempted")
      tiers.push({
        ...base,
        rate: "0%",
        exempted: true,
        exclusion_code: d.exclusion.code,
        exclusion_name: d.exclusion.name,
      });
    else tiers.push(base);
  }
  const potential = available.map((e) => ({
    code: e.code,
    name: e.name,
    applied: false as const,
    reason:
      e.kind === "claim" || e.kind === "preference"
        ? `Claim-only: ${e.condition ?? "file the claim"} (send it in manual_claims on /calculate)`
        : `Applies to ${e.hsPrefix.length >= 10 ? "statistical reporting number" : "goods of"} ${dotted(e.hsPrefix)} only${e.condition ? ` (${e.condition})` : ""}`,
  }));
  return { rateFound: true, message: "", line, resolution, tiers, potential, conditional };
}
