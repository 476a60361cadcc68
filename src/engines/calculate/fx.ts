/**
 * Which day's exchange rate a customs authority converts at. Pure date arithmetic (UTC days), no data.
 *
 * The EU converts the customs value (and with it the import VAT base, VAT Directive art. 91(1)) at the rate the
 * ECB published on the penultimate Wednesday of the month before the month of acceptance of the declaration,
 * applied for the whole month; where none was published that day, the last rate published before it (Union
 * Customs Code art. 53(1)(a), Implementing Regulation (EU) 2015/2447 art. 146). HMRC's monthly rates are used for
 * the UK when the registry holds the month (modules/calculate/reference.ts); CBP's certified rates are not in any
 * source on hand: those quotes convert at the ECB rate of the day. Switzerland converts at the rate of the last
 * trading day before the import (BAZG,
 * https://bazg.admin.ch/bazg/en/home/information-individuals/online-shopping--mail-and-courier-consignments/importation-into-switzerland/receipt-of-letters-and-parcels.html).
 */

export interface RateDay {
  /** The rate of the last ECB publication on or before this day is used. */
  date: string;
  /** Why this day, for `currencies.source`. */
  rule: string;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The penultimate Wednesday of a month (month 1-12), as YYYY-MM-DD. */
export function penultimateWednesday(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0));
  // getUTCDay: 0 Sunday … 3 Wednesday; step back from the last day to the last Wednesday, then a week more.
  const back = (last.getUTCDay() - 3 + 7) % 7;
  return iso(new Date(Date.UTC(year, month - 1, last.getUTCDate() - back - 7)));
}

export function customsRateDay(country: string, entryDate: string): RateDay {
  if (country === "CH") {
    // The BAZG converts at the rate of the last trading day before the tax liability arises (the day before the
    // entry): its own forex sell rate, for which the ECB reference rate of that day stands in.
    const date = iso(new Date(Date.parse(`${entryDate}T00:00:00Z`) - 86_400_000));
    return {
      date,
      rule: `Swiss customs rate of the last trading day before ${entryDate} (BAZG: the forex sell rate of the preceding trading day; the ECB reference rate published on or before ${date} stands in for it)`,
    };
  }
  if (country !== "EU") return { date: entryDate, rule: "ECB reference rate of the entry date" };
  const [y, m] = entryDate.split("-").map(Number) as [number, number];
  const prevYear = m === 1 ? y - 1 : y;
  const prevMonth = m === 1 ? 12 : m - 1;
  const date = penultimateWednesday(prevYear, prevMonth);
  return {
    date,
    rule: `EU customs exchange rate for ${entryDate.slice(0, 7)}: the ECB rate of ${date}, the penultimate Wednesday of the month before (UCC art. 53(1)(a), Reg. (EU) 2015/2447 art. 146)`,
  };
}
