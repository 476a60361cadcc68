import { describe, expect, it } from "vitest";
import linesUs10 from "../../../data/hs/lines-us10.json";
import { pickStatistical, type StatisticalCandidate } from "./statistical";

type Line = [string, string, string];
const us10 = linesUs10 as unknown as Record<string, Line[]>;

/** The statistical lines of an 8-digit US line, as the engine would pass them. */
function us(line8: string): StatisticalCandidate[] {
  const lines = us10[line8];
  if (!lines) throw new Error(`no 10-digit lines for ${line8} in lines-us10.json`);
  return lines.map(([code, description]) => ({ code, description }));
}

const codeFor = (text: string, line8: string) => pickStatistical(text, line8, us(line8))?.code;

describe("lines-us10.json", () => {
  const entries = Object.entries(us10);

  it("maps 8-digit lines to their 10-digit lines", () => {
    expect(entries.length).toBeGreaterThan(11_000);
    for (const [key, lines] of entries) {
      expect(key).toMatch(/^\d{8}$/);
      expect(lines.length).toBeGreaterThan(0);
      for (const [code, description, units] of lines) {
        expect(code).toMatch(/^\d{10}$/);
        expect(code.startsWith(key)).toBe(true);
        expect(typeof description).toBe("string");
        expect(description.length).toBeGreaterThan(0);
        expect(typeof units).toBe("string");
      }
    }
  });

  it("carries the labels below the 8-digit line in the description", () => {
    const tees = new Map(us10["61091000"]?.map(([code, description]) => [code, description]));
    expect(tees.get("6109100012")).toBe("Men's or boys': Other T-shirts: Men's (338)");
    expect(tees.get("6109100040")).toBe("Women's or girls': Other: T-shirts: Women's (339)");
    expect(us10["01013000"]).toEqual([["0101300000", "Asses", "No."]]);
    expect(us10["85171300"]?.map(([code]) => code)).toEqual(["8517130000"]);
  });
});

describe("pickStatistical", () => {
  it("splits on gender: 6109.10.00 men's vs women's vs boys'", () => {
    const men = pickStatistical("Men's cotton crew neck T-shirt", "6109.10.00", us("61091000"));
    expect(men?.code).toBe("6109100012");
    expect(men?.attributes.join(" ")).toMatch(/gender: the text says "men"/);
    expect(codeFor("Women's cotton T-shirt", "61091000")).toBe("6109100040");
    expect(codeFor("Ladies basic tee shirt, cotton", "61091000")).toBe("6109100040");
    expect(codeFor("Boys cotton tank top", "61091000")).toBe("6109100023");
    expect(codeFor("Girls cotton tank top", "61091000")).toBe("6109100065");
  });

  it("treats unisex garments of chapter 61 as women's or girls' (note 9)", () => {
    const pick = pickStatistical("Unisex cotton T-shirt", "61091000", us("61091000"));
    expect(pick?.code).toBe("6109100040");
    expect(pick?.attributes.join(" ")).toMatch(/note 9/);
  });

  it("splits on fibre: 4202.22.40 silk, cotton, man-made, other", () => {
    const cotton = pickStatistical("Cotton canvas handbag", "42022240", us("42022240"));
    expect(cotton?.code).toBe("4202224020");
    expect(cotton?.attributes[0]).toMatch(/fibre: the text says "cotton"/);
    const poly = pickStatistical("Polyester tote handbag", "42022240", us("42022240"));
    expect(poly?.code).toBe("4202224030");
    expect(poly?.attributes[0]).toMatch(/"polyester" \(synthetic\).*man-made/);
    expect(codeFor("Silk evening bag", "42022240")).toBe("4202224010");
    expect(codeFor("Handbag, 90% silk 10% nylon", "42022240")).toBe("4202224010");
    // 60 % silk is short of the line's 85 %: neither silk, cotton nor man-made fits, so the residual line.
    expect(codeFor("Handbag, 60% silk 40% cotton", "42022240")).toBe("4202224040");
    expect(codeFor("Jute handbag", "42022240")).toBe("4202224040");
  });

  it("takes the chief fibre by the shares the text gives, man-made fibres counted together", () => {
    const lines = [
      { code: "9999990010", description: "Of cotton" },
      { code: "9999990020", description: "Of man-made fibers" },
      { code: "9999990090", description: "Other" },
    ];
    expect(pickStatistical("30% cotton 70% polyester", "99999900", lines)?.code).toBe("9999990020");
    expect(pickStatistical("cotton 70%, polyester 30%", "99999900", lines)?.code).toBe("9999990010");
    expect(pickStatistical("viscose scarf", "99999900", lines)?.code).toBe("9999990020");
    const wool = pickStatistical("wool scarf", "99999900", lines);
    expect(wool?.code).toBe("9999990090");
    expect(wool?.attributes[0]).toMatch(/rules out 2 of the 3 lines/);
  });

  it("splits on knitted vs woven when the lines do", () => {
    const lines = [
      { code: "9999990010", description: "Knitted or crocheted" },
      { code: "9999990020", description: "Not knitted or crocheted" },
    ];
    expect(pickStatistical("knitted scarf", "99999900", lines)?.code).toBe("9999990010");
    const woven = pickStatistical("woven scarf", "99999900", lines);
    expect(woven?.code).toBe("9999990020");
    expect(woven?.attributes[0]).toMatch(/construction: the text says woven/);
  });

  it("reads measure ranges: power, weight", () => {
    expect(codeFor("30W USB-C charger", "85044060")).toBe("8504406001");
    expect(codeFor("Laptop power supply 100 W", "85044060")).toBe("8504406007");
    expect(codeFor("Power supply 0.2 kW", "85044060")).toBe("8504406012");
    expect(codeFor("Power supply 750 W", "85044060")).toBe("8504406018");
    expect(codeFor("Dairy cow weighing 80 kg", "01022920")).toBe("0102292011");
    const heavy = pickStatistical("Dairy cow, 450 kg", "01022920", us("01022920"));
    expect(heavy?.code).toBe("0102292012");
    expect(heavy?.attributes[0]).toMatch(/weight: 450 kg fits "Weighing 90 kg or more each"/);
  });

  it("falls back to the residual 'Other' line when the text says nothing that splits the lines", () => {
    const pick = pickStatistical("Knitted garment", "61091000", us("61091000"));
    expect(pick?.code).toBe("6109100070");
    expect(pick?.attributes).toEqual(["no attribute in the text; the residual line 'Other (339)' was chosen"]);
    const shoes = pickStatistical("Kids leather shoes", "64039920", us("64039920"));
    expect(shoes?.code).toBe("6403992090");
    expect(shoes?.attributes[0]).toMatch(/residual line 'Other'/);
  });

  it("takes the first line when there is neither a fit nor a residual line", () => {
    const lines = [
      { code: "5208124020", description: "Poplin or broadcloth (314)" },
      { code: "5208124040", description: "Sheeting (313)" },
    ];
    const pick = pickStatistical("cotton fabric", "52081240", lines);
    expect(pick?.code).toBe("5208124020");
    expect(pick?.attributes[0]).toMatch(/no residual line; the first line was chosen/);
  });

  it("returns the single 10-digit line of an 8-digit line without a statistical split", () => {
    const asses = pickStatistical("live donkey", "0101.30.00", us("01013000"));
    expect(asses).toEqual({
      code: "0101300000",
      description: "Asses",
      attributes: ["the 8-digit line has a single statistical line (suffix 00)"],
    });
    expect(codeFor("Smartphone 128GB", "85171300")).toBe("8517130000");
  });

  it("reads colour and 'Not …' lines: white, certified organic wine", () => {
    const wine = pickStatistical("White wine, certified organic, 750 ml, 12% vol", "22042150", us("22042150"));
    expect(wine?.code).toBe("2204215050");
    expect(wine?.attributes.join(" ")).toMatch(/colour: the text says white/);
    expect(codeFor("Red wine 750 ml", "22042150")).not.toMatch(/35$/);
  });

  it("says when several lines fit equally", () => {
    const pick = pickStatistical("cotton T-shirt", "61091000", us("61091000"));
    expect(pick?.attributes.join(" ")).toMatch(/equally fitting: .*6109100040/);
  });

  it("returns null when no candidate belongs to the 8-digit line", () => {
    expect(pickStatistical("t-shirt", "61091000", us("42022240"))).toBeNull();
    expect(pickStatistical("t-shirt", "61091000", [])).toBeNull();
    expect(pickStatistical("t-shirt", "6109", us("61091000"))).toBeNull();
  });
});
