/** Wire-level zod schemas shared by modules: ISO codes, dates, HS codes, money. */
import { z } from "@hono/zod-openapi";
import { isCountry, isCurrency } from "../lib/iso";

/** ISO 3166-1 alpha-2, case-insensitive on input, upper-case after parsing. */
export const CountryCode = z
  .string()
  .trim()
  .length(2, "must be an ISO 3166-1 alpha-2 code")
  .transform((s) => s.toUpperCase())
  .refine(isCountry, "is not an ISO 3166-1 alpha-2 country code")
  .openapi({ example: "US", type: "string" });

/** ISO 4217 alphabetic code, case-insensitive on input. */
export const CurrencyCode = z
  .string()
  .trim()
  .length(3, "must be an ISO 4217 code")
  .transform((s) => s.toUpperCase())
  .refine(isCurrency, "is not an ISO 4217 currency code")
  .openapi({ example: "USD", type: "string" });

/** `YYYY-MM-DD` that is a real calendar date. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, "is not a calendar date")
  .openapi({ example: "2026-11-22" });

/** An HS / tariff code of `min`-`max` digits; dots and spaces allowed on input, digits only after parsing. */
export const hsCode = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^[0-9][0-9. ]*$/, "must be digits, optionally with dots")
    .transform((s) => s.replace(/[. ]/g, ""))
    .refine((s) => s.length >= min && s.length <= max, `must have ${min}-${max} digits`)
    .openapi({ example: "6109.10", type: "string" });

/**
 * An integer id in a path or query, in canonical decimal only: `0x4e`, `1e3`, `+7`, ` 7` and `007` are refused
 * (400) rather than coerced to another row's id. Up to 15 digits, so every accepted id is an exact JS number.
 */
export const intId = (example = 42) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, "must be a positive integer in decimal, without sign, leading zeros or exponent")
    .transform(Number)
    .openapi({ type: "integer", example });

/** `{id}` path parameter of an integer-keyed resource. */
export const IntIdParam = z.object({ id: intId() });

/**
 * Magnitude limits for amounts on the wire. Money: 0 to 1,000,000,000,000 with at most 6 decimal places;
 * quantities: above 0, at most 100,000,000; weights and volumes: 0 to 1,000,000. Within these every figure
 * we answer prints in plain decimal (JavaScript switches to exponent notation at 1e21 and below 1e-6), and a
 * 30-digit value is a 400 rather than a silently rounded figure.
 */
const MONEY_MAX = 1e12;
const QUANTITY_MAX = 1e8;
const MEASURE_MAX = 1e6;

/** At most `places` decimal places, and never a value JavaScript would print in exponent notation. */
const plainDecimal = (places: number) => (v: number) => {
  const text = String(v);
  if (/e/i.test(text)) return false;
  const dot = text.indexOf(".");
  return dot < 0 || text.length - dot - 1 <= places;
};

/** Plain decimal text: digits, an optional fraction; no sign, exponent, spaces or thousands separators. */
const DECIMAL_TEXT = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** Digits that carry the value: no leading zeros, no trailing zeros of the fraction. */
const significantDigits = (text: string) => {
  const [int = "", frac = ""] = text.split(".");
  const digits = (int + frac.replace(/0+$/, "")).replace(/^0+/, "");
  return digits.length;
};

/**
 * An amount sent as a JSON number or as a decimal string (`"19.99"`), the form many platforms keep money in.
 * A string becomes the same number the JSON would have given, and only when that is exact: at most 15
 * significant digits, which every IEEE double carries without change; more is a 400, never a rounded figure.
 */
const decimalInput = (inner: z.ZodType<number>, example: string) =>
  z
    .preprocess((v, ctx) => {
      if (typeof v !== "string") return v;
      if (!DECIMAL_TEXT.test(v)) {
        ctx.addIssue({
          code: "custom",
          message: 'must be a number, or a decimal string like "19.99" (no sign, exponent, spaces or separators)',
        });
        return z.NEVER;
      }
      if (significantDigits(v) > 15) {
        ctx.addIssue({
          code: "custom",
          message: "has more than 15 significant digits, more than can be carried exactly",
        });
        return z.NEVER;
      }
      return Number(v);
    }, inner)
    .openapi({
      type: ["number", "string"],
      pattern: DECIMAL_TEXT.source,
      description: `A number, or the same amount as a decimal string (e.g. "${example}")`,
    });

export const moneyNumber = () =>
  decimalInput(
    z
      .number()
      .finite()
      .min(0, "must be 0 or more")
      .max(MONEY_MAX, `must be at most ${MONEY_MAX.toLocaleString("en-US")}`)
      .refine(plainDecimal(6), "must have at most 6 decimal places"),
    "19.99",
  );

export const quantityNumber = () =>
  z
    .number()
    .finite()
    .positive("must be greater than 0")
    .max(QUANTITY_MAX, `must be at most ${QUANTITY_MAX.toLocaleString("en-US")}`)
    .refine(plainDecimal(6), "must have at most 6 decimal places");

export const measureNumber = () =>
  z
    .number()
    .finite()
    .min(0, "must be 0 or more")
    .max(MEASURE_MAX, `must be at most ${MEASURE_MAX.toLocaleString("en-US")}`)
    .refine(plainDecimal(6), "must have at most 6 decimal places");
