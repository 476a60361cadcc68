/** Validates every rule of the curated platform rule set (data/restrictions/rules.json) and its shared vocabulary. */
import { describe, expect, it } from "vitest";
import lexicon from "../data/restrictions/lexicon.json";
import rules from "../data/restrictions/rules.json";
import { expandRules } from "../src/engines/restrict/lexicon";
import { tokens } from "../src/engines/restrict/text";
import { EU_MEMBERS, isCountry } from "../src/lib/iso";

interface RuleFile {
  id: number;
  imposing_country: string;
  direction: string;
  rule_type: string;
  hs_prefix: string | null;
  keywords: string[] | null;
  exclude_keywords: string[] | null;
  origin_country: string | null;
  destination_countries: string[] | null;
  except_countries: string[] | null;
  title: string;
  summary: string;
  agency: string | null;
  agency_flag: string | null;
  requirement: string | null;
  source_url: string;
  source_ref: string;
  valid_from: string | null;
  valid_to: string | null;
  family: string;
  reviewed_on: string;
}

const all = rules as RuleFile[];
const expanded = expandRules(all, lexicon);
const FAMILIES = [
  "food_animal",
  "food_plant",
  "wildlife",
  "weapons",
  "tobacco",
  "drugs",
  "medicines",
  "dangerous_goods",
  "counterfeit",
  "currency",
  "obscene",
  "alcohol",
  "national_ban",
  "telecom",
  "cultural",
  "sanctions",
  "export_controls",
  "other",
];
const isDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

describe("platform rule set", () => {
  it.each(all.map((r) => [r.id, r] as const))("rule %i is well-formed", (_id, r) => {
    expect(Object.keys(r).sort()).toEqual(
      [
        "id",
        "imposing_country",
        "direction",
        "rule_type",
        "hs_prefix",
        "keywords",
        "exclude_keywords",
        "origin_country",
        "destination_countries",
        "except_countries",
        "title",
        "summary",
        "agency",
        "agency_flag",
        "requirement",
        "source_url",
        "source_ref",
        "valid_from",
        "valid_to",
        "family",
        "reviewed_on",
      ].sort(),
    );
    expect(Number.isInteger(r.id) && r.id > 0).toBe(true);
    expect(r.imposing_country === "EU" || isCountry(r.imposing_country)).toBe(true);
    expect(["IMPORT", "EXPORT"]).toContain(r.direction);
    expect(["prohibition", "restriction", "observation"]).toContain(r.rule_type);
    expect([null, "required", "may_be_required"]).toContain(r.requirement);
    // An HS prefix, keywords (either matches when a rule has both), or an origin alone.
    expect(r.hs_prefix !== null || r.keywords !== null || r.origin_country !== null).toBe(true);
    expect(FAMILIES).toContain(r.family);
    expect(isDate(r.reviewed_on)).toBe(true);
    if (r.hs_prefix !== null) expect(r.hs_prefix).toMatch(/^\d{2,10}$/);
    if (r.keywords !== null) expect(r.keywords.length).toBeGreaterThan(0);
    if (r.exclude_keywords !== null) expect(r.keywords).not.toBeNull();
    // As loaded: every concept reference resolved, every phrase has words, every pattern has a side.
    const loaded = expanded.find((x) => x.id === r.id);
    for (const k of loaded?.keywords ?? []) {
      expect(k.startsWith("@")).toBe(false);
      expect(tokens(k).length).toBeGreaterThan(0);
    }
    for (const k of loaded?.exclude_keywords ?? []) {
      expect(k.startsWith("@")).toBe(false);
      expect(tokens(k).length).toBeGreaterThan(0);
      expect(k.startsWith("* ") && k.endsWith(" *")).toBe(false);
    }
    if (r.origin_country !== null) expect(isCountry(r.origin_country)).toBe(true);
    if (r.except_countries !== null) {
      expect(r.imposing_country).toBe("EU");
      for (const c of r.except_countries) expect(EU_MEMBERS.has(c)).toBe(true);
    }
    if (r.destination_countries !== null) {
      expect(r.direction).toBe("EXPORT");
      for (const c of r.destination_countries) expect(isCountry(c)).toBe(true);
    }
    expect(r.title.trim().length).toBeGreaterThan(3);
    expect(r.summary.trim().length).toBeGreaterThan(20);
    expect(r.source_ref.trim().length).toBeGreaterThan(2);
    expect(new URL(r.source_url).protocol).toBe("https:");
    if (r.valid_from !== null) expect(isDate(r.valid_from)).toBe(true);
    if (r.valid_to !== null) expect(isDate(r.valid_to)).toBe(true);
    if (r.valid_from && r.valid_to) expect(r.valid_to >= r.valid_from).toBe(true);
  });

  it("resolves every concept a rule names, and throws on an unknown one", () => {
    expect(() => expandRules([{ id: 1, keywords: ["@no_such_concept"], exclude_keywords: null }], lexicon)).toThrow(
      /unknown concept/,
    );
    for (const [name, c] of Object.entries(lexicon.concepts)) {
      expect(c.terms.length, name).toBeGreaterThan(0);
      expect(new Set(c.terms).size, name).toBe(c.terms.length);
    }
  });

  it("covers at least 30 destinations (EU members through the Union's rules) across the main families", () => {
    const importers = new Set(all.filter((r) => r.direction === "IMPORT").map((r) => r.imposing_country));
    const destinations = new Set([...importers].filter((c) => c !== "EU"));
    if (importers.has("EU")) for (const m of EU_MEMBERS) destinations.add(m);
    expect(destinations.size).toBeGreaterThanOrEqual(30);
    for (const c of ["KR", "CH", "NO", "ZA", "TR", "IL", "SG", "AE", "SA", "NZ"])
      expect(importers.has(c), c).toBe(true);
    const families = new Set(all.filter((r) => r.direction === "IMPORT").map((r) => r.family));
    for (const f of ["food_animal", "food_plant", "wildlife", "weapons", "tobacco", "drugs", "medicines"])
      expect(families.has(f), f).toBe(true);
    for (const f of ["dangerous_goods", "counterfeit", "currency", "obscene"]) expect(families.has(f), f).toBe(true);
  });

  it("has unique ids, at least 150 rules, 12 importing and 10 exporting jurisdictions and all three kinds", () => {
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(150);
    const importers = new Set(all.filter((r) => r.direction === "IMPORT").map((r) => r.imposing_country));
    const exporters = new Set(all.filter((r) => r.direction === "EXPORT").map((r) => r.imposing_country));
    expect(importers.size).toBeGreaterThanOrEqual(12);
    expect(exporters.size).toBeGreaterThanOrEqual(10);
    expect(all.some((r) => r.hs_prefix)).toBe(true);
    expect(all.some((r) => r.keywords)).toBe(true);
    expect(all.some((r) => r.origin_country && !r.hs_prefix && !r.keywords)).toBe(true);
    expect([...importers].every((c) => c === "EU" || !EU_MEMBERS.has(c) || importers.has("EU"))).toBe(true);
  });
});
