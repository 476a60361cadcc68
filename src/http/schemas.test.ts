import { describe, expect, it } from "vitest";
import { CountryCode, CurrencyCode, hsCode, IsoDate } from "./schemas";

describe("shared wire schemas", () => {
  it.each([
    [CountryCode, "us", "US"],
    [CountryCode, " gb ", "GB"],
    [CurrencyCode, "eur", "EUR"],
    [IsoDate, "2024-02-29", "2024-02-29"],
    [hsCode(4, 10), "6109.10.00", "61091000"],
  ])("accepts and normalizes %#", (schema, input, output) => {
    expect(schema.parse(input)).toBe(output);
  });

  it.each([
    [CountryCode, "XX"],
    [CountryCode, "USA"],
    [CurrencyCode, "ABC"],
    [IsoDate, "2023-02-29"],
    [IsoDate, "22-11-2026"],
    [hsCode(4, 10), "61a9"],
    [hsCode(4, 10), "610"],
    [hsCode(4, 10), "61091000001"],
  ])("rejects %#", (schema, input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });
});
