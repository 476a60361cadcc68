import { describe, expect, it } from "vitest";
import { checkItem, compileRules, coverageByDestination, importCountries, jurisdictions, type Rule } from "./engine";
import { singular, tokens } from "./text";

const base: Omit<Rule, "id" | "imposingCountry" | "direction"> = {
  source: "platform",
  ruleType: "restriction",
  hsPrefix: null,
  keywords: null,
  originCountry: null,
  destinationCountries: null,
  title: "t",
  summary: "s",
  agency: null,
  agencyFlag: null,
  requirement: null,
  sourceUrl: "https://example.gov/rule",
  sourceRef: "ref",
  validFrom: null,
  validTo: null,
};
const rule = (id: string, over: Partial<Rule>): Rule => ({
  ...base,
  id,
  imposingCountry: "US",
  direction: "IMPORT",
  ...over,
});

const rules: Rule[] = [
  rule("restriction_1", { hsPrefix: "93", ruleType: "prohibition" }),
  rule("restriction_2", { hsPrefix: "850760" }),
  rule("restriction_3", {
    keywords: ["ivory", "rhino horn"],
    excludeKeywords: ["ivory coloured", "faux ivory", "ivory coast"],
    ruleType: "prohibition",
  }),
  rule("restriction_4", { originCountry: "KP", ruleType: "prohibition" }),
  rule("restriction_5", { hsPrefix: "2208", originCountry: "RU", ruleType: "prohibition" }),
  rule("restriction_6", { imposingCountry: "EU", hsPrefix: "0602" }),
  rule("restriction_7", { direction: "EXPORT", hsPrefix: "8542", ruleType: "observation" }),
  rule("restriction_8", {
    direction: "EXPORT",
    keywords: ["watch"],
    destinationCountries: ["RU"],
    ruleType: "prohibition",
  }),
  rule("restriction_9", { keywords: ["e-cigarette"], validFrom: "2024-03-01", validTo: "2026-12-31" }),
  rule("restriction_10", { keywords: ["battery"] }),
  rule("restriction_11", { imposingCountry: "GB", keywords: ["knife"] }),
];
const index = compileRules(rules);
const q = { destination: "US", origin: null as string | null, asOf: "2026-01-15" };
const ids = (item: Parameters<typeof checkItem>[2], query = q) =>
  checkItem([index], query, item).map((m) => `${m.id}:${m.confidence}`);

describe("text normalization", () => {
  it.each([
    ["Batteries", ["battery"]],
    ["KNIVES and Forks", ["knife", "and", "fork"]],
    ["Café crème", ["cafe", "creme"]],
    ["E-Cigarettes", ["e", "cigarette"]],
    ["glasses boxes", ["glass", "box"]],
    ["bus gas guns", ["bus", "gas", "gun"]],
    ["cigarrillos electrónicos", ["cigarrillo", "electronico"]],
    ["Einweg-E-Zigarette", ["einweg", "e", "zigarette"]],
    ["一次性电子烟", ["一", "次", "性", "电", "子", "烟"]],
    ["電子タバコ", ["電", "子", "タ", "バ", "コ"]],
    ["전자담배를", ["전", "자", "담", "배", "를"]],
    ["iqos电子烟", ["iqo", "电", "子", "烟"]],
    ["السجائر الإلكترونية", ["سجائر", "الكترونيه"]],
    ["سجائر إلكترونية", ["سجائر", "الكترونيه"]],
    ["Электронная СИГАРЕТА", ["электронная", "сигарета"]],
    ["Isıtılmış tütün", ["isitilmis", "tutun"]],
  ])("%s → %j", (input, expected) => expect(tokens(input)).toEqual(expected));
  it.each([
    ["is", "is"],
    ["ivories", "ivory"],
    ["watches", "watch"],
    ["status", "status"],
  ])("singular(%s) = %s", (w, s) => expect(singular(w)).toBe(s));
});

describe("HS prefix rules", () => {
  it.each([
    ["9303", ["restriction_1:HIGH"]],
    ["930320", ["restriction_1:HIGH"]],
    ["8507600010", ["restriction_2:HIGH"]],
    ["850760", ["restriction_2:HIGH"]],
    ["8507", ["restriction_2:MEDIUM"]],
    ["850710", []],
    ["9403", []],
  ])("item %s", (hs, expected) => expect(ids({ hs_code: hs })).toEqual(expected));
  it("ignores dots in the item's code", () => expect(ids({ hs_code: "8507.60" })).toEqual(["restriction_2:HIGH"]));
});

describe("keyword rules", () => {
  it.each([
    [{ title: "Carved IVORY figurine" }, ["restriction_3:MEDIUM"]],
    [{ description: "antique rhino horn cup" }, ["restriction_3:MEDIUM"]],
    [{ materials: "Ivories" }, ["restriction_3:MEDIUM"]],
    [{ title: "Ivorycoast souvenir" }, []],
    [{ title: "rhinoceros horn" }, []],
    [{ title: "rhino", description: "horn" }, []],
    [{ title: "Ivory-coloured linen tablecloth" }, []],
    [{ title: "Faux ivory bangle" }, []],
    [{ title: "Ivory Coast cocoa" }, []],
    [{ title: "Ivory-coloured box with an ivory inlay" }, ["restriction_3:MEDIUM"]],
    [{ title: "Faux ivory handle", description: "rhino horn" }, ["restriction_3:MEDIUM"]],
    [{ title: "AA Batteries 4-pack" }, ["restriction_10:MEDIUM"]],
    [{ brand: "Batterybox" }, []],
    [{ category: "E-Cigarettes" }, ["restriction_9:MEDIUM"]],
  ])("%j", (item, expected) => expect(ids(item)).toEqual(expected));
});

describe("rules with an HS prefix and keywords", () => {
  const both = compileRules([
    rule("restriction_30", {
      hsPrefix: "02",
      keywords: ["jerky", "sausage", "肉干", "육포"],
      excludeKeywords: ["* grater", "* thermometer", "toy *", "plant based *", "sausage dog"],
    }),
  ]);
  const got = (item: Parameters<typeof checkItem>[2]) =>
    checkItem([both], q, item).map((m) => `${m.id}:${m.confidence}`);
  it.each([
    [{ hs_code: "0210.20" }, ["restriction_30:HIGH"]],
    [{ title: "Beef jerky", hs_code: "1602.50" }, ["restriction_30:MEDIUM"]],
    [{ title: "Beef jerky", hs_code: "0210.20" }, ["restriction_30:HIGH"]],
    [{ title: "牛肉干 香辣" }, ["restriction_30:MEDIUM"]],
    [{ title: "수제 육포 세트" }, ["restriction_30:MEDIUM"]],
    [{ title: "Sausage thermometer" }, []],
    [{ title: "Toy sausage" }, []],
    [{ title: "Toy wooden sausage" }, []],
    [{ title: "Plant based sausage" }, []],
    [{ title: "Plant sausage" }, ["restriction_30:MEDIUM"]],
    [{ title: "Sausage dog plush" }, []],
    [{ title: "Jerky sausage thermometer" }, []],
    [{ title: "Sausage and jerky" }, ["restriction_30:MEDIUM"]],
    [{ title: "Toy", description: "sausage" }, ["restriction_30:MEDIUM"]],
    [{ title: "Toy sausage and a real sausage" }, ["restriction_30:MEDIUM"]],
  ])("%j", (item, expected) => expect(got(item)).toEqual(expected));
});

describe("coverage", () => {
  const set: Rule[] = [
    rule("restriction_40", { imposingCountry: "EU", hsPrefix: "02", family: "food_animal", reviewedOn: "2026-11-01" }),
    rule("restriction_41", { imposingCountry: "DE", hsPrefix: "93", family: "weapons", reviewedOn: "2026-11-24" }),
    rule("restriction_42", { imposingCountry: "KR", keywords: ["x"], family: "obscene", reviewedOn: "2026-10-01" }),
    rule("restriction_43", { imposingCountry: "KR", keywords: ["y"], family: "obscene", validTo: "2025-12-31" }),
    rule("restriction_44", { imposingCountry: "KR", direction: "EXPORT", hsPrefix: "85", family: "export_controls" }),
  ];
  it("leaves out a Union rule in the member states it excepts, in checks and in coverage", () => {
    const snus = compileRules([
      rule("restriction_50", { imposingCountry: "EU", keywords: ["snus"], exceptCountries: ["SE"], family: "tobacco" }),
    ]);
    const at = (destination: string) => checkItem([snus], { ...q, destination }, { title: "Snus portion" }).length;
    expect([at("SE"), at("FI"), at("DE")]).toEqual([0, 1, 1]);
    const c = coverageByDestination(
      [rule("restriction_50", { imposingCountry: "EU", keywords: ["snus"], exceptCountries: ["SE"] })],
      "2026-11-24",
    );
    expect([c.get("SE")?.rule_count, c.get("FI")?.rule_count]).toEqual([0, 1]);
  });

  it("counts a member state's own and the Union's import rules in force, by family, with the latest review", () => {
    const c = coverageByDestination(set, "2026-11-24");
    expect(c.get("DE")).toEqual({
      rule_count: 2,
      families: { food_animal: 1, weapons: 1 },
      last_reviewed: "2026-11-24",
    });
    expect(c.get("FR")).toEqual({ rule_count: 1, families: { food_animal: 1 }, last_reviewed: "2026-11-01" });
    expect(c.get("KR")).toEqual({ rule_count: 1, families: { obscene: 1 }, last_reviewed: "2026-10-01" });
    expect(c.has("US")).toBe(false);
    expect(coverageByDestination(set, "2025-06-01").get("KR")?.rule_count).toBe(2);
  });
});

describe("origin rules", () => {
  it.each([
    [{ country_of_origin: "KP" }, ["restriction_4:HIGH"]],
    [{ country_of_origin: "KR" }, []],
    [{ hs_code: "220860", country_of_origin: "RU" }, ["restriction_5:HIGH"]],
    [{ hs_code: "220860", country_of_origin: "PL" }, []],
    [{ hs_code: "220860" }, []],
  ])("%j", (item, expected) => expect(ids(item)).toEqual(expected));
});

describe("directions and jurisdictions", () => {
  it("applies export rules of the origin only when an origin country is given", () => {
    expect(ids({ hs_code: "854231" })).toEqual([]);
    expect(ids({ hs_code: "854231" }, { ...q, origin: "US", destination: "GB" })).toEqual(["restriction_7:HIGH"]);
  });
  it("limits destination-scoped export rules to their destinations", () => {
    expect(ids({ title: "Luxury watch" }, { ...q, origin: "US", destination: "RU" })).toEqual(["restriction_8:MEDIUM"]);
    expect(ids({ title: "Luxury watch" }, { ...q, origin: "US", destination: "CA" })).toEqual([]);
  });
  it("applies EU rules in every member state and reports the member state", () => {
    const m = checkItem([index], { ...q, destination: "DE" }, { hs_code: "060290" });
    expect(m.map((x) => [x.id, x.imposing_country_code])).toEqual([["restriction_6", "DE"]]);
    expect(ids({ hs_code: "060290" })).toEqual([]);
    expect(jurisdictions("FR")).toEqual(["FR", "EU"]);
    expect(jurisdictions("GB")).toEqual(["GB"]);
  });
  it("lists import countries, expanding the EU", () => {
    const c = importCountries(index);
    expect(c.has("US") && c.has("GB") && c.has("DE") && c.has("SE")).toBe(true);
    expect(c.has("CA")).toBe(false);
  });
});

describe("validity dates", () => {
  it.each([
    ["2024-02-29", []],
    ["2024-03-01", ["restriction_9:MEDIUM"]],
    ["2026-12-31", ["restriction_9:MEDIUM"]],
    ["2027-01-01", []],
  ])("as of %s", (asOf, expected) => expect(ids({ title: "e-cigarette kit" }, { ...q, asOf })).toEqual(expected));
});

describe("several indexes and ordering", () => {
  it("merges platform and org rules, prohibitions first, one match per rule", () => {
    const org = compileRules([rule("org_rule_1", { source: "org", keywords: ["figurine"], ruleType: "observation" })]);
    const m = checkItem([index, org], q, { title: "ivory figurine", description: "ivory", hs_code: "9303" });
    expect(m.map((x) => `${x.id}:${x.rule_type}`)).toEqual([
      "restriction_1:prohibition",
      "restriction_3:prohibition",
      "org_rule_1:observation",
    ]);
  });
  it("keeps the most confident way a rule matched", () => {
    const two = compileRules([
      rule("restriction_20", { hsPrefix: "8507" }),
      rule("restriction_21", { hsPrefix: "85076000" }),
    ]);
    expect(checkItem([two], q, { hs_code: "850760" }).map((x) => `${x.id}:${x.confidence}`)).toEqual([
      "restriction_20:HIGH",
      "restriction_21:MEDIUM",
    ]);
  });
});

describe("compiling a jurisdiction on first use", () => {
  it("knows its jurisdictions before compiling any, and compiles each once", () => {
    const fresh = compileRules(rules);
    expect([...fresh.bucketKeys]).toContain("IMPORT:US");
    expect(fresh.bucket("IMPORT:CA")).toBeUndefined();
    const us = fresh.bucket("IMPORT:US");
    expect(us).toBeDefined();
    expect(fresh.bucket("IMPORT:US")).toBe(us);
  });
  it("answers the same whatever order the jurisdictions are first used in", () => {
    const items = [
      { title: "ivory figurine" },
      { title: "artificial plant" },
      { hs_code: "060290" },
      { title: "e-cigarette kit" },
      { title: "Luxury watch" },
    ];
    const queries = [
      q,
      { ...q, destination: "DE" },
      { ...q, origin: "US", destination: "RU" },
      { ...q, destination: "GB" },
    ];
    const run = (order: typeof queries) => {
      const fresh = compileRules(rules);
      const out = new Map<string, string[]>();
      for (const query of order)
        for (const item of items)
          out.set(
            `${JSON.stringify(query)} ${JSON.stringify(item)}`,
            checkItem([fresh], query, item).map((m) => `${m.id}:${m.confidence}`),
          );
      return [...out].sort();
    };
    const forward = run(queries);
    expect(run([...queries].reverse())).toEqual(forward);
    expect(forward.some(([, ids]) => ids.length > 0)).toBe(true);
  });
});
