/**
 * ISO 3166-1 countries and ISO 4217 currencies (data/iso, bundled: validation runs on every request and must
 * not wait on D1). Codes are upper-case; callers upper-case input first where the spec says case-insensitive.
 */
import countryList from "../../data/iso/countries.json";
import currencyList from "../../data/iso/currencies.json";

interface Country {
  alpha2: string;
  alpha3: string;
  name: string;
  currency: string | null;
}

interface Currency {
  code: string;
  name: string;
  minor_unit: number | null;
}

const countries = new Map((countryList as Country[]).map((c) => [c.alpha2, c]));
const currencies = new Map((currencyList as Currency[]).map((c) => [c.code, c]));

export const isCountry = (code: string) => countries.has(code);
export const isCurrency = (code: string) => currencies.has(code);
export const country = (code: string) => countries.get(code);

/** Decimal places for amounts in this currency (2 when ISO gives none, e.g. for precious metals). */
export const minorUnits = (code: string) => currencies.get(code)?.minor_unit ?? 2;

/** The EU-27 member states, which share the Union's customs tariff. */
export const EU_MEMBERS = new Set([
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
]);
