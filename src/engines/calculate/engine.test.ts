/** The pure engine on hand-made data: tiers, units, measures, exclusions, de minimis, fees, VAT, rounding. */
import { describe, expect, it } from "vitest";
import { dec } from "../../lib/money";
import {
  applicableMeasures,
  calculate,
  componentsText,
  computeFees,
  deMinimisRow,
  dotted,
  NO_METAL_ORIGINS,
  stack,
  unitQuantity,
  vatReducedRow,
} from "./engine";
import type { CalcInput, DeMinimisRow, Exclusion, Measure, ResolvedData, TariffLine, VatReducedRow } from "./types";

const input = (over: Partial<CalcInput> = {}): CalcInput => ({
  hsCode: "12345678",
  origin: "VN",
  destination: "US",
  declaredValue: "1000",
  quantity: "1",
  currency: "USD",
  weight: null,
  weightUnit: "kg",
  shippingCost: "0",
  insuranceCost: "0",
  transportMode: "air",
  shippingTerms: "FOB",
  channel: null,
  entryDate: "2026-01-15",
  components: [],
  metalWeightPercentage: null,
  metalOrigins: NO_METAL_ORIGINS,
  manualClaims: [],
  destinationRegion: null,
  volume: null,
  volumeUnit: "l",
  ...over,
});

const line = (over: Partial<TariffLine> = {}): TariffLine => ({
  schedule: "US",
  code: "12345678",
  validFrom: "2020-01-01",
  validTo: null,
  description: "Widgets",
  q1: "KG",
  q2: null,
  currency: "USD",
  mfnText: "10%",
  mfn: [["av", "0.1"]],
  col2Text: "50%",
  col2: [["av", "0.5"]],
  specialText: "Free (KR)",
  special: { KR: [] },
  ...over,
});

const measure = (over: Partial<Measure> = {}): Measure => ({
  program: "301",
  code: "9903.88.03",
  name: "Section 301",
  hsPrefix: "12345678",
  origins: ["CN"],
  originsExcluded: null,
  rate: "0.25",
  basis: "value",
  metal: null,
  validFrom: "2019-05-10",
  validTo: null,
  ...over,
});

const data = (over: Partial<ResolvedData> = {}): ResolvedData => ({
  rule: {
    country: "US",
    schedule: "US",
    currency: "USD",
    customsBasis: "FOB",
    vatName: null,
    vatIncludesDuty: false,
    vatIncludesFees: false,
    vatIncludesFreight: false,
    sourceUrl: "",
  },
  currency: "USD",
  lines: [line()],
  measures: [],
  exclusions: [],
  programs: [
    { program: "KR", name: "KORUS", country: "KR", validFrom: "2012-03-15", validTo: null },
    { program: "column2", name: "Column 2", country: "KP", validFrom: "1951-09-01", validTo: null },
  ],
  vat: null,
  vatRegion: null,
  vatReduced: [],
  deMinimis: [],
  fees: [],
  fx: { date: "2026-01-15", perEur: { USD: "1.2", GBP: "0.9" }, source: "ECB" },
  ...over,
});

describe("tiers", () => {
  it.each([
    ["VN pays MFN", "VN", "normal_tariff", "100"],
    ["KR gets the KORUS preference", "KR", "preferential_tariff", "0"],
    ["KP pays column 2", "KP", "punitive_tariff", "500"],
  ])("%s", (_n, origin, tier, duty) => {
    const r = calculate(input({ origin }), data());
    expect(r.tier?.tier).toBe(tier);
    expect(r.totalDuty.toString()).toBe(duty);
  });
});

describe("units", () => {
  it.each([
    ["KG from kg", "KG", { weight: "2.5" }, "2.5"],
    ["KG from lb", "KG", { weight: "1", weightUnit: "lb" as const }, "0.45359237"],
    ["dozen", "DOZ", { quantity: "24" }, "2"],
    ["litres from ml", "L", { volume: "500", volumeUnit: "ml" as const }, "0.5"],
    ["litres from hl", "L", { volume: "1.5", volumeUnit: "hl" as const }, "150"],
    ["tonnes", "T", { weight: "2500" }, "2.5"],
    // weight and volume are the line's totals: quantity does not multiply them
    ["litres for twelve bottles", "L", { quantity: "12", volume: "9" }, "9"],
    ["kilograms for ten units", "KG", { quantity: "10", weight: "4" }, "4"],
  ])("%s", (_n, unit, over, expected) => {
    expect(unitQuantity(unit, input(over))?.qty.toString()).toBe(expected);
  });
  it("an unknown unit or a missing fact gives null", () => {
    expect(unitQuantity("M2", input())).toBeNull();
    expect(unitQuantity("KG", input())).toBeNull();
  });
});

describe("rate text and codes", () => {
  it.each([
    [[["av", "0.165"]], "16.5%"],
    [[], "Free"],
    [
      [
        ["sp", "1.104", "KG"],
        ["av", "0.149"],
      ],
      "1.104 USD/KG + 14.9%",
    ],
    [[["sp", "77", "KG", 100]], "77 USD/100 KG"],
  ] as const)("%j → %s", (comps, text) => {
    expect(componentsText(comps as never, "USD")).toBe(text);
  });
  it.each([
    ["6109", "6109"],
    ["610910", "6109.10"],
    ["61091000", "6109.10.00"],
    ["8483509040", "8483.50.90.40"],
  ])("%s → %s", (code, out) => expect(dotted(code)).toBe(out));
});

describe("measures", () => {
  it("a four-year-review 301 heading replaces the list heading", () => {
    const ms = applicableMeasures(
      data({ measures: [measure(), measure({ code: "9903.91.01", rate: "0.5" })] }),
      "CN",
      "2026-01-15",
    );
    expect(ms.map((m) => m.code)).toEqual(["9903.91.01"]);
  });
  it("origin scope and exclusions of origins", () => {
    const ms = [
      measure({ program: "232", code: "A", origins: null, originsExcluded: ["GB"] }),
      measure({ program: "232", code: "B", origins: ["GB"], metal: "x" }),
    ];
    expect(applicableMeasures(data({ measures: ms }), "GB", "2026-01-15").map((m) => m.code)).toEqual(["B"]);
    expect(applicableMeasures(data({ measures: ms }), "VN", "2026-01-15").map((m) => m.code)).toEqual(["A"]);
  });
  describe("metal-origin conditions (smelt, cast, melt and pour)", () => {
    const ru = {
      facts: ["smelt", "cast"] as ("smelt" | "cast")[],
      match: "in" as const,
      countries: ["RU"],
      text: "smelted or cast in Russia",
    };
    const general = measure({ program: "232", code: "G", origins: null, metal: "aluminum", rate: "0.5" });
    const russian = measure({
      program: "232",
      code: "R",
      origins: null,
      metal: "aluminum",
      rate: "2",
      metalOrigin: ru,
    });
    const mexican = measure({
      program: "232",
      code: "M",
      origins: null,
      metal: "aluminum",
      rate: "0.1",
      metalOrigin: { ...ru, countries: ["CN", "RU"], text: "smelted or cast in CN or RU" },
    });
    const d = data({ measures: [general, russian, mexican] });
    const facts = (o: Partial<CalcInput["metalOrigins"]>) => ({ ...NO_METAL_ORIGINS, ...o });
    const codes = (o: Partial<CalcInput["metalOrigins"]>) =>
      applicableMeasures(d, "VN", "2026-01-15", facts(o)).map((m) => m.code);

    it("met: replaces the programme's other measures on the metal; the higher rate wins between two met", () => {
      expect(codes({ primarySmelt: "RU" })).toEqual(["R"]);
      expect(codes({ cast: "RU", primarySmelt: "CN" })).toEqual(["R"]);
      expect(codes({ primarySmelt: "CN" })).toEqual(["M"]);
      expect(codes({ secondarySmelt: "CN", primarySmelt: "CA" })).toEqual(["M"]);
    });
    it("ruled out by the facts given: dropped; not given: kept beside the general measure", () => {
      expect(codes({ primarySmelt: "CA", cast: "VN" })).toEqual(["G"]);
      expect(codes({ meltPour: "RU" })).toEqual(["G", "M", "R"]);
    });
    it("not_in: met by a country outside the list", () => {
      const mx = measure({
        program: "232",
        code: "S",
        origins: null,
        metal: "steel",
        metalOrigin: {
          facts: ["melt_pour"],
          match: "not_in",
          countries: ["US", "MX", "CA"],
          text: "melted and poured outside North America",
        },
      });
      const dd = data({ measures: [mx] });
      expect(applicableMeasures(dd, "MX", "2026-01-15", facts({ meltPour: "BR" })).map((m) => m.code)).toEqual(["S"]);
      expect(applicableMeasures(dd, "MX", "2026-01-15", facts({ meltPour: "CA" }))).toEqual([]);
    });
    it("calculate: charged on the full value with the fact in its basis; conditional with the fields to give", () => {
      const charged = calculate(input({ metalOrigins: facts({ cast: "RU" }) }), d);
      expect(charged.totalDuty.toString()).toBe("2100");
      expect(charged.duties[1]).toMatchObject({
        code: "R",
        basis: "200% of 1,000.00 USD customs value (country_of_cast RU)",
      });
      const open = calculate(input(), d);
      expect(open.totalDuty.toString()).toBe("600");
      expect(open.conditional.map((c) => c.code)).toEqual(["M", "R"]);
      expect(open.conditional[1]?.note).toBe(
        "Applies, in place of the other Section 232 aluminum duties, when smelted or cast in Russia: give primary_country_of_smelt, secondary_country_of_smelt, country_of_cast",
      );
    });
  });
  it("a measure keyed below the given code is conditional", () => {
    const r = calculate(input({ origin: "CN" }), data({ measures: [measure({ hsPrefix: "1234567890" })] }));
    expect(r.conditional[0]?.note).toMatch(/1234\.56\.78\.90/);
    expect(r.totalDuty.toString()).toBe("100");
  });
  it("an auto exclusion fires; a claim is offered and applied only when claimed", () => {
    const d = data({
      measures: [measure()],
      exclusions: [
        {
          code: "9903.88.69",
          name: "Claimable",
          appliesTo: "9903.88.03",
          hsPrefix: "12345678",
          kind: "claim",
          condition: "c",
          validFrom: "2024-01-01",
          validTo: null,
        },
      ],
    });
    expect(calculate(input({ origin: "CN" }), d).exemptions.available[0]?.code).toBe("9903.88.69");
    expect(calculate(input({ origin: "CN" }), d).totalDuty.toString()).toBe("350");
    const claimed = calculate(input({ origin: "CN", manualClaims: ["9903.88.69"] }), d);
    expect(claimed.totalDuty.toString()).toBe("100");
    expect(claimed.exemptions.fired[0]).toMatchObject({ code: "9903.88.69", claimed: true });
    const auto = data({ measures: [measure()], exclusions: [{ ...d.exclusions[0]!, kind: "auto" }] });
    expect(calculate(input({ origin: "CN" }), auto).exemptions.fired[0]).toMatchObject({ claimed: false });
  });
  it("content basis: components, share, or conditional", () => {
    const d = data({
      measures: [measure({ program: "232", origins: null, basis: "content", metal: "steel", rate: "0.5" })],
    });
    // MFN 10% of 2,000 + 50% of (100 steel per unit × 2)
    expect(
      calculate(input({ components: [{ material: "Steel", value: "100" }], quantity: "2" }), d).totalDuty.toString(),
    ).toBe("300");
    expect(calculate(input({ metalWeightPercentage: "10" }), d).duties[1]?.estimated).toBe(true);
    expect(calculate(input(), d).conditional).toHaveLength(1);
  });
});

describe("de minimis", () => {
  const rows: DeMinimisRow[] = [
    {
      country: "CA",
      kind: "duty",
      channel: "any",
      origins: null,
      currency: "CAD",
      threshold: "20",
      basis: "goods",
      validFrom: "2000-01-01",
      validTo: null,
      sourceUrl: "",
      note: null,
    },
    {
      country: "CA",
      kind: "duty",
      channel: "courier",
      origins: ["US", "MX"],
      currency: "CAD",
      threshold: "150",
      basis: "goods",
      validFrom: "2020-07-01",
      validTo: null,
      sourceUrl: "",
      note: null,
    },
  ];
  it.each([
    ["courier US origin", { channel: "courier" as const, origin: "US" }, "150"],
    ["postal US origin", { channel: "postal" as const, origin: "US" }, "20"],
    ["courier CN origin", { channel: "courier" as const, origin: "CN" }, "20"],
    ["before CUSMA", { channel: "courier" as const, origin: "US", entryDate: "2020-06-30" }, "20"],
  ])("%s", (_n, over, threshold) => {
    expect(deMinimisRow(rows, "duty", input(over))?.threshold).toBe(threshold);
  });
  it("the shipment value decides, not the line's", () => {
    const d = data({ deMinimis: [{ ...rows[0]!, country: "US", currency: "USD", threshold: "800" }] });
    expect(calculate(input({ declaredValue: "500" }), d).exemptions.deMinimis.exempt).toBe(true);
    expect(calculate(input({ declaredValue: "500" }), d, { goodsValue: dec(900) }).exemptions.deMinimis.exempt).toBe(
      false,
    );
  });
});

describe("fees", () => {
  const mpf = {
    country: "US",
    code: "MPF",
    name: "MPF",
    rate: "0.003464",
    min: "33.58",
    max: "651.50",
    currency: "USD",
    transportMode: null,
    validFrom: "2025-10-01",
    validTo: "2026-09-30",
    sourceUrl: "",
    note: null,
  };
  const hmf = { ...mpf, code: "HMF", rate: "0.00125", min: null, max: null, transportMode: "sea" };
  const m = { currency: "USD", toDest: (a: ReturnType<typeof dec>) => a, rate: () => dec(1) };
  it.each([
    ["floor", "1000", "air", "33.58"],
    ["ad valorem", "50000", "air", "173.2"],
    ["cap", "500000", "air", "651.5"],
    ["HMF by sea", "1000", "sea", "34.83"],
  ])("%s", (_n, value, mode, total) => {
    const fees = computeFees([mpf, hmf], input({ transportMode: mode as "sea" }), dec(value), m);
    expect(fees.reduce((s, f) => s.plus(f.amount), dec(0)).toString()).toBe(total);
  });
});

describe("VAT and CIF", () => {
  const eu = data({
    rule: {
      country: "EU",
      schedule: "EU",
      currency: "EUR",
      customsBasis: "CIF",
      vatName: "VAT",
      vatIncludesDuty: true,
      vatIncludesFees: true,
      vatIncludesFreight: true,
      sourceUrl: "",
    },
    currency: "EUR",
    lines: [line({ schedule: "EU", currency: "EUR", special: null })],
    vat: {
      country: "DE",
      region: "",
      name: "VAT",
      validFrom: "2021-01-01",
      validTo: null,
      standard: "19",
      reduced: null,
    },
  });
  it("VAT on CIF value + duty, rounded once", () => {
    const r = calculate(
      input({ destination: "DE", currency: "EUR", declaredValue: "99.99", shippingCost: "0.01" }),
      eu,
    );
    expect(r.values.customsValue.toString()).toBe("100");
    expect(r.totalDuty.toString()).toBe("10");
    expect(r.vat?.amount.toString()).toBe("20.9");
  });
  it("converts through EUR", () => {
    const r = calculate(input({ destination: "DE", currency: "USD", declaredValue: "120" }), eu);
    expect(r.values.customsValue.toString()).toBe("100");
    expect(r.currencies.exchangeRate.toFixed(6)).toBe("0.833333");
  });
});

describe("stack", () => {
  it("base first, exempted lines zeroed, claims offered, content measures conditional", () => {
    const d = data({
      measures: [
        measure(),
        measure({
          program: "232",
          code: "9903.85.08",
          origins: null,
          basis: "content",
          metal: "aluminum",
          rate: "0.5",
        }),
      ],
      exclusions: [
        {
          code: "9903.88.69",
          name: "Excluded",
          appliesTo: "9903.88.03",
          hsPrefix: "12345678",
          kind: "auto",
          condition: null,
          validFrom: "2024-01-01",
          validTo: null,
        },
      ],
    });
    const s = stack(input({ origin: "CN" }), d);
    expect(s.tiers[0]).toMatchObject({ name: "MFN duty", rate: "10%" });
    expect(s.tiers[1]).toMatchObject({ code: "9903.88.03", exempted: true, rate: "0%", exclusion_code: "9903.88.69" });
    expect(s.conditional[0]).toMatchObject({ code: "9903.85.08" });
  });
});

describe("notes", () => {
  it("says when the FX data ends before the entry date", () => {
    const r = calculate(
      input({ currency: "GBP", entryDate: "2026-11-20" }),
      data({ fx: { date: "2026-04-13", perEur: { USD: "1.2", GBP: "0.9" }, source: "ECB" } }),
    );
    expect(r.notes.join(" ")).toMatch(/latest ECB reference rate in the data is of 2026-04-13/);
  });
});

describe("Section 122 surcharge (9903.03.01)", () => {
  const s122 = measure({
    program: "122",
    code: "9903.03.01",
    name: "Section 122 balance-of-payments surcharge",
    hsPrefix: "",
    origins: null,
    rate: "0.1",
    validFrom: "2026-02-24",
    validTo: "2026-07-23",
  });
  const x = (over: Partial<Exclusion>): Exclusion => ({
    code: "9903.03.03",
    name: "Listed",
    appliesTo: "9903.03.01",
    hsPrefix: "",
    kind: "auto",
    condition: null,
    validFrom: "2026-02-24",
    validTo: "2026-07-23",
    ...over,
  });
  const with232 = x({ code: "9903.03.06", name: "Article subject to Section 232", kind: "auto_with_232" });
  const usmca = [
    x({ code: "9903.03.07", name: "Canada, USMCA", kind: "preference", origins: ["CA"], preference: "S" }),
    x({ code: "9903.03.08", name: "Mexico, USMCA", kind: "preference", origins: ["MX"], preference: "S" }),
  ];
  const cafta = x({
    code: "9903.03.09",
    name: "CAFTA-DR textile",
    hsPrefix: "12",
    kind: "preference",
    origins: ["GT"],
    preference: "P",
  });
  const steel = measure({
    program: "232",
    code: "9903.81.87",
    name: "Section 232 steel",
    origins: null,
    rate: "0.5",
    metal: "steel",
    validFrom: "2025-06-04",
    validTo: "2026-04-05",
  });
  const programs = [
    { program: "S", name: "USMCA", country: "MX", validFrom: "2020-07-01", validTo: null },
    { program: "P", name: "CAFTA-DR", country: "GT", validFrom: "2006-07-01", validTo: null },
  ];
  const d = (over: Partial<ResolvedData> = {}) =>
    data({ measures: [s122, measure()], exclusions: [with232, ...usmca, cafta], programs, ...over });
  const on = (entryDate: string, over: Partial<CalcInput> = {}) => input({ origin: "CN", entryDate, ...over });
  const codes = (r: ReturnType<typeof calculate>) => r.duties.map((l) => `${l.code}${l.exempted ? " exempted" : ""}`);

  // MFN 10% of 1,000 = 100; Section 301 25% = 250; Section 122 10% = 100.
  it.each([
    ["first day: MFN + 301 + 122, the surcharge last", "2026-02-24", "450", ["1234.56.78", "9903.88.03", "9903.03.01"]],
    ["last day of the 150", "2026-07-23", "450", ["1234.56.78", "9903.88.03", "9903.03.01"]],
    ["the day before: no surcharge", "2026-02-23", "350", ["1234.56.78", "9903.88.03"]],
    ["the day after: no surcharge", "2026-07-24", "350", ["1234.56.78", "9903.88.03"]],
  ])("%s", (_n, date, duty, lines) => {
    const r = calculate(on(date), d());
    expect(r.totalDuty.toString()).toBe(duty);
    expect(codes(r)).toEqual(lines);
  });

  it("notes: IEEPA refundable (none on these data) before the surcharge; the surcharge's end after it", () => {
    const before = calculate(on("2026-02-23"), d()).notes.join(" ");
    expect(before).toMatch(/No IEEPA duty applied .* nothing is refundable \(Learning Resources v\. Trump/);
    expect(before).not.toMatch(/Section 122/);
    expect(calculate(on("2026-03-02"), d()).notes.join(" ")).not.toMatch(/IEEPA|Section 122/);
    expect(calculate(on("2026-07-24"), d()).notes.join(" ")).toMatch(
      /Section 122 .* ran from 2026-02-24 to 2026-07-23 .* no extension/,
    );
  });

  it("a product on the exemption list: the surcharge is zeroed, 301 stays", () => {
    const r = calculate(on("2026-03-02"), d({ exclusions: [x({ hsPrefix: "12345678" }), with232] }));
    expect(r.totalDuty.toString()).toBe("350");
    expect(r.duties[2]).toMatchObject({ code: "9903.03.01", exempted: true, exclusion_code: "9903.03.03" });
    expect(r.exemptions.fired).toEqual([
      { code: "9903.03.03", name: "Listed", applies_to: "9903.03.01", claimed: false },
    ]);
  });

  it("a claim-only product exemption is offered, applied when claimed, and not offered once excluded otherwise", () => {
    const claim = x({
      code: "9903.03.05",
      name: "Civil aircraft",
      hsPrefix: "12345678",
      kind: "claim",
      condition: "For civil aircraft",
    });
    const r = calculate(on("2026-03-02"), d({ exclusions: [claim] }));
    expect(r.totalDuty.toString()).toBe("450");
    expect(r.exemptions.available.map((e) => e.code)).toEqual(["9903.03.05"]);
    expect(
      calculate(on("2026-03-02", { manualClaims: ["9903.03.05"] }), d({ exclusions: [claim] })).totalDuty.toString(),
    ).toBe("350");
    expect(
      calculate(on("2026-03-02"), d({ exclusions: [x({ hsPrefix: "12345678" }), claim] })).exemptions.available,
    ).toEqual([]);
  });

  it.each([
    // 232 steel 50% of 1,000 = 500 on top of MFN 100; no 301 here (VN).
    ["232 charged: no surcharge", { origin: "VN" }, [steel], "600", "9903.03.06"],
    [
      "232 excluded (no metal content): the surcharge is due",
      { origin: "VN", metalWeightPercentage: "0" },
      [steel],
      "200",
      null,
    ],
  ])("%s", (_n, over, extra, duty, exclusion) => {
    const zero = x({
      code: "9903.82.01",
      name: "No metal",
      appliesTo: "232",
      kind: "auto_zero_content",
      validFrom: "2025-01-01",
      validTo: null,
    });
    const r = calculate(on("2026-03-02", over), d({ measures: [s122, ...extra], exclusions: [with232, zero] }));
    expect(r.totalDuty.toString()).toBe(duty);
    const line = r.duties.find((l) => l.code === "9903.03.01");
    if (exclusion) {
      expect(line).toMatchObject({ exempted: true, exclusion_code: exclusion });
      expect(line?.exclusion_name).toMatch(/9903\.81\.87 Section 232 steel/);
    } else expect(line?.amount.toString()).toBe("100");
  });

  it("232 on the metal content only: the surcharge falls on the rest of the value, conditional while the content is unknown", () => {
    const content = { ...steel, basis: "content" as const };
    const dd = d({ measures: [s122, content], exclusions: [with232] });
    // Unknown content: 232 and the surcharge on the non-metal value are both conditional; only MFN 100 is charged.
    const unknown = calculate(on("2026-03-02", { origin: "VN" }), dd);
    expect(unknown.totalDuty.toString()).toBe("100");
    expect(unknown.conditional.map((c) => c.code)).toEqual(["9903.81.87", "9903.03.01"]);
    expect(unknown.conditional[1]?.note).toMatch(/value not subject to Section 232/);
    // 40% steel by metal_weight_percentage: 232 50% × 400 = 200, surcharge 10% × (1,000 − 400) = 60, MFN 100.
    const known = calculate(on("2026-03-02", { origin: "VN", metalWeightPercentage: "40" }), dd);
    expect(known.totalDuty.toString()).toBe("360");
    expect(known.duties.find((l) => l.code === "9903.03.01")).toMatchObject({ estimated: true });
    // All of the value is steel: the exemption covers the whole article.
    const all = calculate(on("2026-03-02", { origin: "VN", metalWeightPercentage: "100" }), dd);
    expect(all.totalDuty.toString()).toBe("600");
    expect(all.duties.find((l) => l.code === "9903.03.01")).toMatchObject({ exempted: true });
  });

  it("a 232 measure on a longer code: the surcharge stays, the exemption is offered and can be claimed", () => {
    const dd = d({ measures: [s122, { ...steel, hsPrefix: "1234567890" }], exclusions: [with232] });
    const r = calculate(on("2026-03-02", { origin: "VN" }), dd);
    expect(r.totalDuty.toString()).toBe("200");
    expect(r.conditional.map((c) => c.code)).toEqual(["9903.81.87"]);
    expect(r.exemptions.available[0]).toMatchObject({
      code: "9903.03.06",
      condition: expect.stringMatching(/1234\.56\.78\.90/),
    });
    expect(calculate(on("2026-03-02", { origin: "VN", manualClaims: ["9903.03.06"] }), dd).totalDuty.toString()).toBe(
      "100",
    );
  });

  it.each([
    // Line 12345678 has "Free (KR)" only unless the case gives it S or P rates.
    ["MX entered free under USMCA: exempt on its own", "MX", { S: [] }, [], "0", "exempted", []],
    [
      "MX on a line with no USMCA rate: charged, the exemption offered",
      "MX",
      null,
      [],
      "200",
      "charged",
      ["9903.03.08"],
    ],
    ["MX on a line with no USMCA rate, claimed: exempt", "MX", null, ["9903.03.08"], "100", "exempted", []],
    [
      "MX on a line whose USMCA rate is not free: charged, nothing to claim",
      "MX",
      { S: [["av", "0.05"]] },
      [],
      "150",
      "charged",
      [],
    ],
    ["CA does not get Mexico's exemption", "CA", null, [], "200", "charged", ["9903.03.07"]],
    ["GT textile entered free under CAFTA-DR: exempt", "GT", { P: [] }, [], "0", "exempted", []],
    ["VN: no preference exemption", "VN", { S: [], P: [] }, [], "200", "charged", []],
  ] as const)("%s", (_n, origin, special, claims, duty, status, offered) => {
    const r = calculate(
      on("2026-03-02", { origin, manualClaims: [...claims] }),
      d({ measures: [s122], lines: [line({ special: special as TariffLine["special"] })] }),
    );
    expect(r.totalDuty.toString()).toBe(duty);
    expect(r.duties.find((l) => l.code === "9903.03.01")?.exempted ?? false).toBe(status === "exempted");
    expect(r.exemptions.available.map((e) => e.code)).toEqual(offered);
  });

  it("the CAFTA-DR exemption is for textiles only (chapters of its rows)", () => {
    const r = calculate(
      on("2026-03-02", { origin: "GT", hsCode: "23456789" }),
      d({ measures: [s122], lines: [line({ code: "23456789", special: { P: [] } })] }),
    );
    expect(r.totalDuty.toString()).toBe("100");
  });

  it("stack: the surcharge after 301, the USMCA exemption zeroed, claims offered", () => {
    const cn = stack(on("2026-03-02"), d());
    expect(cn.tiers.map((t) => t.code)).toEqual(["1234.56.78", "9903.88.03", "9903.03.01"]);
    expect(cn.tiers[2]).toMatchObject({ rate: "10%", type: "additional" });
    const mx = stack(on("2026-03-02", { origin: "MX" }), d({ lines: [line({ special: { S: [] } })] }));
    expect(mx.tiers[0]).toMatchObject({ name: "Preferential duty, USMCA", rate: "Free" });
    expect(mx.tiers[1]).toMatchObject({ code: "9903.03.01", rate: "0%", exempted: true, exclusion_code: "9903.03.08" });
    const noRate = stack(on("2026-03-02", { origin: "MX" }), d({ lines: [line({ special: null })] }));
    expect(noRate.tiers[1]).toMatchObject({ code: "9903.03.01", rate: "10%" });
    expect(noRate.potential[0]).toMatchObject({
      code: "9903.03.08",
      applied: false,
      reason: expect.stringMatching(/^Claim-only/),
    });
  });
});

describe("reduced VAT rows", () => {
  const row = (hsPrefix: string, rate: string, over: Partial<VatReducedRow> = {}): VatReducedRow => ({
    country: "DE",
    category: "books",
    label: "books",
    hsPrefix,
    rate,
    validFrom: "2025-08-27",
    validTo: null,
    source: "EC TEDB",
    ...over,
  });
  it("the most specific prefix in force on the date, else none", () => {
    const rows = [row("49", "10"), row("4901", "7"), row("4902", "5", { validTo: "2025-12-31" })];
    expect(vatReducedRow(rows, "49019900", "2026-01-15")?.rate).toBe("7");
    expect(vatReducedRow(rows, "49020000", "2026-01-15")?.rate).toBe("10");
    expect(vatReducedRow(rows, "49020000", "2025-10-01")?.rate).toBe("5");
    expect(vatReducedRow(rows, "61091000", "2026-01-15")).toBeNull();
    expect(vatReducedRow(rows, "49019900", "2025-08-26")).toBeNull();
  });
});

describe("alternative rates, alcohol litres and 9-digit national lines", () => {
  // Japan: "3% or 18 JPY/kg, whichever is higher"; Australia: "5%, or, if lower, 0.45 AUD/kg".
  const higher = [["alt", "max", [[["av", "0.03"]], [["sp", "18", "KG"]]]]] as const;
  const jp = (over: Partial<TariffLine> = {}) =>
    line({
      schedule: "JP",
      code: "123456100",
      currency: "JPY",
      mfnText: "3%又は18円/kgのうちいずれか高い税率",
      mfn: higher as never,
      col2Text: null,
      col2: null,
      special: { EU: [] },
      ...over,
    });
  const jpData = (lines: TariffLine[]) =>
    data({
      rule: { ...data().rule, country: "JP", schedule: "JP", currency: "JPY", customsBasis: "CIF" },
      currency: "JPY",
      lines,
      programs: [{ program: "EU", name: "Japan-EU EPA", country: "FR", validFrom: "2019-02-01", validTo: null }],
      fx: { date: "2026-05-01", perEur: { JPY: "160" }, source: "ECB" },
    });
  const jpInput = (over: Partial<CalcInput> = {}) =>
    input({ destination: "JP", currency: "JPY", hsCode: "123456100", entryDate: "2026-05-01", ...over });

  it("the higher alternative is charged, with both in the basis", () => {
    // 3% of 100,000 = 3,000 against 18 × 250 kg = 4,500: the specific rate is higher.
    const r = calculate(jpInput({ declaredValue: "100000", weight: "250" }), jpData([jp()]));
    expect(r.totalDuty.toString()).toBe("4500");
    expect(r.duties[0]?.type).toBe("compound");
    expect(r.duties[0]?.basis).toMatch(/^the higher of \(3% of .*; 18 JPY\/KG × 250 kg/);
    // 3% of 1,000,000 = 30,000 is higher than 4,500.
    expect(calculate(jpInput({ declaredValue: "1000000", weight: "250" }), jpData([jp()])).totalDuty.toString()).toBe(
      "30000",
    );
  });

  it("an alternative that cannot be computed leaves the duty estimated, not guessed", () => {
    const r = calculate(jpInput({ declaredValue: "100000" }), jpData([jp()]));
    expect(r.duties[0]?.estimated).toBe(true);
    expect(r.duties[0]?.basis).toContain("not decided");
  });

  it("the lower alternative, and its text", () => {
    const lower = [["alt", "min", [[["av", "0.05"]], [["sp", "0.45", "KG"]]]]] as never;
    expect(componentsText(lower, "AUD")).toBe("the lower of 5% or 0.45 AUD/KG");
    const r = calculate(
      input({ destination: "AU", currency: "AUD", weight: "100", declaredValue: "1000" }),
      data({
        rule: { ...data().rule, country: "AU", schedule: "AU", currency: "AUD" },
        currency: "AUD",
        lines: [line({ schedule: "AU", currency: "AUD", mfn: lower, col2: null, col2Text: null, special: null })],
        fx: { date: "2026-01-15", perEur: { AUD: "1.6" }, source: "ECB" },
      }),
    );
    // 5% of 1,000 = 50 against 0.45 × 100 = 45.
    expect(r.totalDuty.toString()).toBe("45");
  });

  it("litres of alcohol from the volume and strength", () => {
    expect(unitQuantity("LAL", input({ volume: "9", alcoholPercentage: "13.5" }))?.qty.toString()).toBe("1.215");
    expect(unitQuantity("LAL", input({ volume: "9" }))).toBeNull();
  });

  it("a Japanese 9-digit code is its own line; a 6-digit code takes the highest-duty line under it", () => {
    const a = jp({ code: "123456100", mfnText: "3%", mfn: [["av", "0.03"]] });
    const b = jp({ code: "123456200", mfnText: "5%", mfn: [["av", "0.05"]] });
    const exact = calculate(jpInput({ hsCode: "123456100", declaredValue: "100000" }), jpData([a, b]));
    expect(exact.resolution?.method).toBe("exact");
    expect(exact.resolution?.chosen).toBe("1234.56.100");
    expect(exact.totalDuty.toString()).toBe("3000");
    const range = calculate(jpInput({ hsCode: "123456", declaredValue: "100000" }), jpData([a, b]));
    expect(range.resolution?.chosen).toBe("1234.56.200");
    expect(range.totalDuty.toString()).toBe("5000");
    expect(range.duties[0]?.name).toBe("MFN duty (Japan tariff 1234.56.200)");
  });

  it("an agreement's rate applies to its partner's goods", () => {
    const r = calculate(jpInput({ origin: "FR", declaredValue: "100000", weight: "250" }), jpData([jp()]));
    expect(r.tier?.tier).toBe("preferential_tariff");
    expect(r.tier?.program).toBe("EU");
    expect(r.totalDuty.toString()).toBe("0");
  });
});
