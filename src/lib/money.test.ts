import { describe, expect, it } from "vitest";
import { dec, formatMoney, moneyNumber, moneyString } from "./money";

describe("money", () => {
  it.each([
    ["0.1 + 0.2 is exact", dec("0.1").plus("0.2"), "USD", "0.30"],
    ["half away from zero", dec("2.345"), "USD", "2.35"],
    ["negative half away from zero", dec("-2.345"), "USD", "-2.35"],
    ["zero-decimal currency", dec("1234.5"), "JPY", "1235"],
    ["three-decimal currency", dec("1.2345"), "KWD", "1.235"],
    ["0.3464% of 1,000", dec("1000").times("0.003464"), "USD", "3.46"],
  ])("%s", (_n, value, ccy, expected) => {
    expect(moneyString(value, ccy)).toBe(expected);
  });

  it("formats for humans with grouping", () => {
    expect(formatMoney(dec("1234567.891"), "USD")).toBe("1,234,567.89 USD");
    expect(formatMoney(dec("-1000"), "EUR")).toBe("-1,000.00 EUR");
    expect(moneyNumber(dec("10.005"), "GBP")).toBe(10.01);
  });
});
