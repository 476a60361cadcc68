import { describe, expect, it } from "vitest";
import { customsRateDay, penultimateWednesday } from "./fx";

describe("customs exchange-rate day", () => {
  it.each([
    [2026, 2, "2026-02-18"], // Wednesdays 4, 11, 18, 25
    [2026, 3, "2026-03-18"], // 4, 11, 18, 25
    [2026, 4, "2026-04-22"], // 1, 8, 15, 22, 29
    [2025, 12, "2025-12-24"], // 3, 10, 17, 24, 31
    [2026, 9, "2026-09-23"], // 2, 9, 16, 23, 30 (the month ends on a Wednesday)
  ])("the penultimate Wednesday of %i-%i is %s", (y, m, want) => expect(penultimateWednesday(y, m)).toBe(want));

  it("EU: the month before's penultimate Wednesday, across a year end", () => {
    expect(customsRateDay("EU", "2026-03-02").date).toBe("2026-02-18");
    expect(customsRateDay("EU", "2026-03-31").date).toBe("2026-02-18");
    expect(customsRateDay("EU", "2026-01-05").date).toBe("2025-12-24");
    expect(customsRateDay("EU", "2026-03-02").rule).toMatch(/2015\/2447 art\. 146/);
    // Switzerland: the last trading day before the import; on a Monday, the rate published on or before Sunday.
    expect(customsRateDay("CH", "2026-06-02").date).toBe("2026-06-01");
    expect(customsRateDay("CH", "2026-03-01").date).toBe("2026-02-28");
    expect(customsRateDay("CH", "2026-01-01").date).toBe("2025-12-31");
    expect(customsRateDay("CH", "2026-06-02").rule).toMatch(/BAZG/);
    expect(customsRateDay("US", "2026-06-02").date).toBe("2026-06-02");
  });

  it("other destinations: the entry date", () => {
    expect(customsRateDay("US", "2026-03-02")).toEqual({
      date: "2026-03-02",
      rule: "ECB reference rate of the entry date",
    });
    expect(customsRateDay("GB", "2026-03-02").date).toBe("2026-03-02");
  });
});
