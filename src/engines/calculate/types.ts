/**
 * Types of the calculate engine: the request as the engine sees it, and the reference data the service resolves
 * for it (everything already filtered to the destination; dated rows may still need the entry-date check).
 * Rates are decimal strings so nothing passes through a float.
 */

/** A rate component: ad valorem fraction, or a specific amount per unit (per `per` units, default 1). */
/**
 * One part of a duty rate; a rate is the sum of its parts. `av`: a fraction of the customs value; `sp`: an amount in
 * the line's currency per unit (per `n` units when given; `LAL` is a litre of pure alcohol); `alt`: the higher (or
 * lower) of alternative rates, as the Japanese and Australian schedules state many ("3% or 18 JPY/kg, whichever is
 * higher").
 */
export type Component =
  | ["av", string]
  | ["sp", string, string | null]
  | ["sp", string, string | null, number]
  | ["alt", "max" | "min", Component[][]];

export interface TariffLine {
  schedule: string;
  code: string;
  validFrom: string;
  validTo: string | null;
  description: string;
  q1: string | null;
  q2: string | null;
  currency: string;
  mfnText: string;
  mfn: Component[] | null;
  col2Text: string | null;
  col2: Component[] | null;
  specialText: string | null;
  special: Record<string, Component[]> | null;
}

export interface Measure {
  program: string;
  code: string;
  name: string;
  hsPrefix: string;
  origins: string[] | null;
  originsExcluded: string[] | null;
  rate: string;
  /**
   * `value`: the customs value; `content`: the value of the metal content; `all_in`: the rate is the whole duty
   * (a negotiated ceiling such as the 15 % of U.S. note 33(m)), so the measure charges what the base duty leaves.
   */
  basis: "value" | "content" | "all_in";
  metal: string | null;
  validFrom: string;
  validTo: string | null;
  /** Set on measures that depend on where the metal was smelted, cast or melted and poured; null = none. */
  metalOrigin?: MetalOriginRule | null;
  /** Section 232 product sector other than a metal (`autos`, `auto_parts`, `mhd`, `mhd_parts`, `wood`). */
  sector?: string | null;
  /** What the goods must be for the measure to apply where the code does not settle it: reported as conditional. */
  useCondition?: string | null;
}

/** A declared metals-traceability fact: `smelt` (primary and secondary country of smelt), `cast`, `melt_pour`. */
export type MetalFact = "smelt" | "cast" | "melt_pour";

/**
 * A measure's condition on the metal's own origin (Section 232: aluminium smelted or cast in Russia; Mexican
 * steel melted and poured outside North America). `in`: met when a tested fact names one of `countries`;
 * `not_in`: met when a tested fact names a country outside them. A met measure replaces the programme's other
 * measures on the same metal; one whose facts were not given is reported as conditional.
 */
export interface MetalOriginRule {
  facts: MetalFact[];
  match: "in" | "not_in";
  countries: string[];
  /** The condition in words, for the conditional note (e.g. "the primary aluminum was smelted, or the article cast, in Russia"). */
  text: string;
}

/** The metals-traceability facts of a line, as declared (ISO alpha-2 or null). */
export interface MetalOrigins {
  meltPour: string | null;
  primarySmelt: string | null;
  secondarySmelt: string | null;
  cast: string | null;
}

/**
 * How an exclusion fires: `auto` on the code; `claim` only when its code is in `manual_claims`;
 * `auto_zero_content` when the metal share is 0; `auto_with_232` when a Section 232 measure applies to the line;
 * `preference` when the base duty is the `preference` programme's free rate, or, where the line has no rate for
 * that programme, when claimed.
 */
type ExclusionKind = "auto" | "claim" | "auto_zero_content" | "auto_with_232" | "preference";

export interface Exclusion {
  code: string;
  name: string;
  appliesTo: string;
  hsPrefix: string;
  kind: ExclusionKind;
  condition: string | null;
  validFrom: string;
  validTo: string | null;
  /** Origins the exclusion is limited to; null or absent = every origin. */
  origins?: string[] | null;
  /** `preference` kind: the special programme (General Note 3(c) code) the goods must enter free under. */
  preference?: string | null;
}

export interface OriginProgram {
  program: string;
  name: string;
  country: string;
  validFrom: string;
  validTo: string | null;
}

export interface DestinationRule {
  country: string;
  schedule: string | null;
  currency: string;
  customsBasis: "CIF" | "FOB";
  vatName: string | null;
  vatIncludesDuty: boolean;
  vatIncludesFees: boolean;
  vatIncludesFreight: boolean;
  sourceUrl: string;
}

export interface VatRate {
  country: string;
  region: string;
  name: string;
  validFrom: string;
  validTo: string | null;
  standard: string;
  reduced: Record<string, string> | null;
}

/** A reduced VAT rate on the goods under an HS prefix (books, newspapers, works of art...), percent. */
export interface VatReducedRow {
  country: string;
  category: string;
  label: string;
  hsPrefix: string;
  rate: string;
  validFrom: string;
  validTo: string | null;
  source: string;
}

export interface DeMinimisRow {
  country: string;
  /**
   * point_of_sale: up to the threshold the tax is the seller's, charged at sale, not import VAT; flat_duty: a flat
   * customs duty per item category (`amount`) on goods the duty de minimis would relieve.
   */
  kind: "duty" | "tax" | "point_of_sale" | "flat_duty";
  channel: "any" | "postal" | "courier";
  origins: string[] | null;
  currency: string;
  threshold: string | null;
  /** tax_amount: the threshold is on the tax itself (Switzerland: import VAT up to CHF 5 is not levied). */
  basis: "goods" | "customs_value" | "tax_amount";
  validFrom: string;
  validTo: string | null;
  sourceUrl: string;
  note: string | null;
  /** flat_duty: the amount per item category, in `currency`. */
  amount?: string | null;
}

export interface FeeRow {
  country: string;
  code: string;
  name: string;
  rate: string;
  min: string | null;
  max: string | null;
  currency: string;
  transportMode: string | null;
  validFrom: string;
  validTo: string | null;
  sourceUrl: string;
  note: string | null;
  /** Special programmes (General Note 3(c) codes) whose originating goods do not pay the fee (US MPF). */
  exemptPrograms?: string[] | null;
  /** Where those exemptions are set out (e.g. 19 CFR 24.23(c)). */
  exemptSource?: string | null;
  /** US entry type the row is for (19 CFR 143.21); null = every entry. */
  entryType?: string | null;
  /** Flat amount per entry, in place of `rate` (US informal MPF, 19 CFR 24.23(b)(1)(ii)). */
  flat?: string | null;
  /** Highest entered value of an informal entry (in `currency`). */
  entryValueMax?: string | null;
  /**
   * Informal entry only: the highest value of one article classified in Chapter 99, Subchapters III and IV (19 CFR
   * 143.21(a)'s parenthetical exception); null or absent when no such limit applies.
   */
  chapter99ArticleMax?: string | null;
  /** Carried forward from the last published period. */
  estimated?: number | boolean | null;
}

/** An excise tax collected at import on goods under an HS prefix, per unit, within an alcohol band. */
export interface ExciseRow {
  country: string;
  code: string;
  name: string;
  hsPrefix: string;
  rate: string;
  /** `not_modelled`: a tax the destination collects at import that the data does not price (the quote says so). */
  unit: "proof_gallon" | "wine_gallon" | "barrel" | "litre_alcohol" | "litre" | "kg" | "thousand" | "not_modelled";
  currency: string;
  /** The alcohol band: over `abvOver` or from `abvMin` (inclusive), up to `abvMax` (inclusive) or below `abvBelow`. */
  abvOver: string | null;
  abvMax: string | null;
  abvMin: string | null;
  abvBelow: string | null;
  validFrom: string;
  validTo: string | null;
  sourceUrl: string;
  note: string | null;
}

/** ECB reference rates of one day: units per EUR (EUR itself is 1). */
export interface FxTable {
  date: string | null;
  perEur: Record<string, string>;
  source: string;
  /** The day the destination's customs rate is taken on (EU: a penultimate Wednesday); absent = the entry date. */
  asOf?: string;
}

export interface CalcInput {
  hsCode: string;
  origin: string;
  destination: string;
  declaredValue: string;
  quantity: string;
  currency: string | null;
  weight: string | null;
  weightUnit: "kg" | "lb";
  shippingCost: string;
  insuranceCost: string;
  transportMode: "sea" | "air" | "road" | "rail";
  shippingTerms: "FOB" | "CIF" | "EXW" | "DDP";
  channel: "postal" | "courier" | null;
  /** The seller is registered in the EU's Import One-Stop Shop (default assumed; false = not). */
  ioss?: boolean | null;
  entryDate: string;
  components: { material: string; value: string }[];
  /** Alcohol by volume, percent (excise on wine and spirits); null = not given. */
  alcoholPercentage?: string | null;
  metalWeightPercentage: string | null;
  /** Where the metal was smelted, cast, or melted and poured; all null when not declared. */
  metalOrigins: MetalOrigins;
  manualClaims: string[];
  destinationRegion: string | null;
  volume: string | null;
  volumeUnit: "l" | "hl" | "ml";
}

export interface ResolvedData {
  rule: DestinationRule;
  /** Destination currency (the country's own, e.g. PLN for Poland though the schedule is the EU's). */
  currency: string;
  /** Tariff lines in force under the requested code (all of them for a 4/6-digit code). */
  lines: TariffLine[];
  measures: Measure[];
  exclusions: Exclusion[];
  programs: OriginProgram[];
  vat: VatRate | null;
  vatRegion: VatRate | null;
  /** The destination's reduced rates on goods (any code; the engine matches the line's). */
  vatReduced: VatReducedRow[];
  deMinimis: DeMinimisRow[];
  fees: FeeRow[];
  /** The destination's excise rows (any code; the engine matches the line's); absent = none. */
  excise?: ExciseRow[];
  fx: FxTable;
}
