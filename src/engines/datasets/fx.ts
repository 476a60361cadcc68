/**
 * Parsers for the ECB euro foreign exchange reference rates as the ECB publishes them
 * (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html),
 * shared by the dataset registry (uploads and the scheduled fetch) and usable by the build:
 *
 * - CSV: `eurofxref-hist.csv` (header `Date,USD,JPY,…`, ISO dates, `N/A` where a currency was not quoted) and
 *   the daily `eurofxref.csv` (the same columns, the date written `13 April 2026`, spaces after commas);
 * - XML: `eurofxref-daily.xml`, `eurofxref-hist-90d.xml`, `eurofxref-hist.xml` (gesmes envelope; a
 *   `<Cube time="…">` per day holding `<Cube currency="USD" rate="1.1684"/>` per currency).
 *
 * Rates are kept as the decimal strings the ECB writes (money stays exact downstream): units of the currency
 * per 1 EUR.
 */
import { SaxesParser } from "saxes";
import { csvRecords } from "./csv";
import type { ParseIssue } from "./sanctions";
import { saxStream } from "./sax";

export interface FxRate {
  currency: string;
  date: string;
  rate: string;
}

const CURRENCY = /^[A-Z]{3}$/;
const RATE = /^\d+(\.\d+)?$/;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** `2026-04-13` or `13 April 2026` → `2026-04-13`; null for anything else (or an impossible date). */
export function ecbDate(text: string): string | null {
  const t = text.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const long = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (long) [d, m, y] = [Number(long[1]), MONTHS.indexOf((long[2] as string).toLowerCase()) + 1, Number(long[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

function rateOf(raw: string): string | null {
  const v = raw.trim();
  if (v === "" || v.toUpperCase() === "N/A") return null;
  return RATE.test(v) && Number(v) > 0 ? v : "invalid";
}

/** The rates of an ECB CSV file (historical or daily), row by row. */
export async function* ecbCsvRates(chunks: AsyncIterable<string>, issues: ParseIssue[] = []): AsyncGenerator<FxRate> {
  let header: string[] | null = null;
  let record = 0;
  for await (const r of csvRecords(chunks)) {
    record++;
    const cells = r.map((c) => c.trim());
    if (cells.every((c) => c === "")) continue;
    if (!header) {
      if ((cells[0] ?? "").toLowerCase() !== "date")
        throw new Error(
          `not an ECB reference rate CSV: the first column is ${JSON.stringify(cells[0] ?? "")}, not Date`,
        );
      header = cells;
      continue;
    }
    const date = ecbDate(cells[0] ?? "");
    if (!date) {
      issues.push({ record, message: `unreadable date ${JSON.stringify(cells[0])}` });
      continue;
    }
    for (let i = 1; i < cells.length; i++) {
      const currency = header[i] ?? "";
      if (currency === "") continue; // the ECB's trailing comma
      const rate = rateOf(cells[i] ?? "");
      if (rate === null) continue;
      if (!CURRENCY.test(currency) || rate === "invalid") {
        issues.push({ record, message: `${date} ${currency}: unreadable rate ${JSON.stringify(cells[i])}` });
        continue;
      }
      yield { currency, date, rate };
    }
  }
  if (!header) throw new Error("not an ECB reference rate CSV: the file is empty");
}

/** The rates of an ECB XML file (daily, 90 days or full history), as each `<Cube currency=…>` is read. */
export async function* ecbXmlRates(chunks: AsyncIterable<string>, issues: ParseIssue[] = []): AsyncGenerator<FxRate> {
  const parser = new SaxesParser();
  const ready: FxRate[] = [];
  let day: string | null = null;
  let root: string | null = null;
  let seen = 0;
  let error: Error | null = null;
  parser.on("error", (e) => {
    error ??= e;
  });
  // Namespaces are not resolved (the ECB's prefixes are fixed): an element is known by its local name.
  const local = (name: string) => name.slice(name.indexOf(":") + 1);
  parser.on("opentag", (tag) => {
    if (root === null) {
      root = tag.name;
      if (local(tag.name) !== "Envelope")
        error ??= new Error(`not an ECB reference rate XML: the root element is <${tag.name}>`);
      return;
    }
    if (local(tag.name) !== "Cube") return;
    const attr = (name: string) => {
      const v = tag.attributes[name];
      return typeof v === "string" ? v : undefined;
    };
    const time = attr("time");
    if (time !== undefined) {
      day = ecbDate(time);
      if (!day) issues.push({ record: seen + 1, message: `unreadable date ${JSON.stringify(time)}` });
      return;
    }
    const currency = attr("currency");
    const raw = attr("rate");
    if (currency === undefined || raw === undefined) return;
    seen++;
    const rate = rateOf(raw);
    if (!day || !CURRENCY.test(currency) || rate === null || rate === "invalid") {
      issues.push({ record: seen, message: `${day ?? "?"} ${currency}: unreadable rate ${JSON.stringify(raw)}` });
      return;
    }
    ready.push({ currency, date: day, rate });
  });
  const finish = { failure: () => error, rooted: () => root !== null, what: "not an ECB reference rate XML" };
  yield* saxStream(parser, chunks, ready, finish);
}

/** A customs authority's rate for a period: units of `currency` per 1 unit of the authority's currency. */
export interface CustomsRate {
  currency: string;
  periodStart: string;
  periodEnd: string;
  rate: string;
}

const MONTH_ABBR = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** HMRC's `01/Jun/2026` → `2026-06-01`; null for anything else. */
function hmrcDate(text: string): string | null {
  const m = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const month = MONTH_ABBR.indexOf((m[2] as string).toLowerCase()) + 1;
  if (month < 1) return null;
  return ecbDate(`${m[3]}-${String(month).padStart(2, "0")}-${(m[1] as string).padStart(2, "0")}`);
}

/**
 * HMRC's monthly exchange rates for customs and VAT as published
 * (https://www.gov.uk/government/collections/exchange-rates-for-customs-and-vat; the monthly XML served by the
 * Online Trade Tariff): `<exchangeRateMonthList Period="01/Jun/2026 to 30/Jun/2026">` holding an
 * `<exchangeRate>` per country with `<currencyCode>` and `<rateNew>` (units of the currency per 1 GBP). A
 * currency quoted for several countries (the US dollar for Ecuador, El Salvador…) is one rate: the first; a
 * different figure for it is reported.
 */
export async function* hmrcXmlRates(
  chunks: AsyncIterable<string>,
  issues: ParseIssue[] = [],
): AsyncGenerator<CustomsRate> {
  const parser = new SaxesParser();
  const ready: CustomsRate[] = [];
  const seen = new Map<string, string>();
  let root: string | null = null;
  let period: { start: string; end: string } | null = null;
  let field: string | null = null;
  let current: Record<string, string> = {};
  let record = 0;
  let error: Error | null = null;
  parser.on("error", (e) => {
    error ??= e;
  });
  parser.on("opentag", (tag) => {
    if (root === null) {
      root = tag.name;
      if (tag.name !== "exchangeRateMonthList")
        error ??= new Error(`not an HMRC monthly exchange rate XML: the root element is <${tag.name}>`);
      const raw = tag.attributes.Period ?? tag.attributes.period;
      const [from, to] = (typeof raw === "string" ? raw : "").split(/\s+to\s+/);
      const start = hmrcDate(from ?? "");
      const end = hmrcDate(to ?? "");
      if (!start || !end || end < start)
        error ??= new Error(`not an HMRC monthly exchange rate XML: unreadable Period ${JSON.stringify(raw ?? "")}`);
      else period = { start, end };
      return;
    }
    if (tag.name === "exchangeRate") current = {};
    else field = tag.name;
  });
  parser.on("text", (text) => {
    if (field) current[field] = (current[field] ?? "") + text;
  });
  parser.on("closetag", (tag) => {
    field = null;
    if (tag.name !== "exchangeRate" || !period) return;
    record++;
    const currency = (current.currencyCode ?? "").trim();
    const raw = (current.rateNew ?? "").trim();
    const rate = rateOf(raw);
    if (!CURRENCY.test(currency) || rate === null || rate === "invalid") {
      issues.push({
        record,
        message: `${current.countryName ?? "?"} ${currency}: unreadable rate ${JSON.stringify(raw)}`,
      });
      return;
    }
    const before = seen.get(currency);
    if (before !== undefined) {
      if (before !== rate)
        issues.push({ record, message: `${currency} quoted twice (${before}, ${rate}): the first is kept` });
      return;
    }
    seen.set(currency, rate);
    ready.push({ currency, periodStart: period.start, periodEnd: period.end, rate });
  });
  const finish = { failure: () => error, rooted: () => root !== null, what: "not an HMRC monthly exchange rate XML" };
  yield* saxStream(parser, chunks, ready, finish);
}
