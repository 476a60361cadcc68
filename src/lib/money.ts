/**
 * Money in exact decimal (big.js): amounts are computed unrounded and rounded once, at the edge, to the
 * currency's minor unit, half away from zero (the customs convention). Never use JS floats for money.
 */
import Big from "big.js";
import { minorUnits } from "./iso";

export const dec = (value: Big.BigSource): Big => new Big(value);

/** Rounds to the currency's minor unit, half away from zero (big.js ROUND_HALF_UP = 1). */
const roundMoney = (value: Big, currency: string): Big => value.round(minorUnits(currency), Big.roundHalfUp);

/** Wire form: a fixed-point string with exactly the currency's minor-unit digits. */
export const moneyString = (value: Big, currency: string): string =>
  roundMoney(value, currency).toFixed(minorUnits(currency));

/** Wire form as a JSON number (for fields the spec shows as numbers), from the rounded decimal. */
export const moneyNumber = (value: Big, currency: string): number => Number(moneyString(value, currency));

/** "1,234.50 USD": for human-readable bases such as "16.5% of 1,234.50 USD customs value". */
export function formatMoney(value: Big, currency: string): string {
  const [int = "0", frac] = moneyString(value, currency).split(".");
  const sign = int.startsWith("-") ? "-" : "";
  const digits = int.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${digits}${frac ? `.${frac}` : ""} ${currency}`;
}
