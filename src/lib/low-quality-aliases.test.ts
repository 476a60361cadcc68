import { describe, expect, it } from "vitest";
import { lowQualityAliases, lowQualitySegment } from "./low-quality-aliases";

describe("low-quality aliases in remarks", () => {
  it("are written in brackets and read back whatever follows them", () => {
    const segment = lowQualitySegment(["Abu Mohammed", "Hajji", "Abu Mohammed", " "]);
    expect(segment).toBe("Low-quality a.k.a. (exact match only): [Abu Mohammed] [Hajji]");
    const remarks = `DOB 1951-06-19; ${segment}; Passport 1084010 (Egypt); Arrested in 2005; seen in Kinshasa`;
    expect(lowQualityAliases(remarks)).toEqual(["Abu Mohammed", "Hajji"]);
  });
  it("keep a bracket out of a name, and are none without the segment", () => {
    expect(lowQualitySegment(["Chief [Kahwa]"])).toBe("Low-quality a.k.a. (exact match only): [Chief Kahwa]");
    expect(lowQualitySegment([])).toBeNull();
    expect(lowQualityAliases("Low-quality a.k.a. (not screened): Rumuli")).toEqual([]);
    expect(lowQualityAliases(null)).toEqual([]);
  });
});
