import { describe, expect, it } from "vitest";
import {
  buildPrecedents,
  HEADING_SIMILARITY,
  likelyHeadings,
  likelySubheadings,
  MIN_SIMILARITY,
  nearestHeadings,
  nearestRulings,
  type RulingRow,
} from "./precedents";

const rows: RulingRow[] = [
  {
    rulingNumber: "N1",
    code: "3911902500",
    subject: "polyvinylphenol thermoplastic polymer white granular powder",
    url: "u1",
  },
  { rulingNumber: "N2", code: "6110303053", subject: "men's pullover of knit polyester jersey", url: "u2" },
  { rulingNumber: "N3", code: "8708995800", subject: "steel brake drum for a heavy truck", url: "u3" },
];

describe("nearestRulings", () => {
  const index = buildPrecedents(rows);

  it("cites the most similar rulings first, with their similarity", () => {
    const out = nearestRulings(index, "granular polyvinylphenol polymer powder");
    expect(out[0]).toMatchObject({ ruling_number: "N1", code: "3911902500", url: "u1" });
    expect(out[0]!.similarity).toBeGreaterThan(0.5);
    expect(out[0]!.similarity).toBeLessThanOrEqual(1);
    for (const p of out) expect(p.similarity).toBeGreaterThanOrEqual(MIN_SIMILARITY);
  });

  it("answers each text for itself when texts alternate (the last text's vector is kept for the centroids)", () => {
    const fresh = (text: string) => nearestRulings(buildPrecedents(rows), text);
    const a = "granular polyvinylphenol polymer powder";
    const b = "steel brake drum";
    expect(nearestRulings(index, a)).toEqual(fresh(a));
    expect(nearestHeadings(index, a)).toEqual(nearestHeadings(buildPrecedents(rows), a));
    expect(nearestRulings(index, b)).toEqual(fresh(b));
    expect(nearestRulings(index, a)).toEqual(fresh(a));
  });

  it("cites nothing for an unrelated product, an empty text, or the excluded ruling itself", () => {
    expect(nearestRulings(index, "ceramic coffee mug")).toEqual([]);
    expect(nearestRulings(index, "")).toEqual([]);
    expect(nearestRulings(index, rows[2]!.subject, { exclude: "N3" }).map((p) => p.ruling_number)).not.toContain("N3");
  });

  it("matches a ruling's description of the goods as well as its subject, without the letter's frame", () => {
    const withText = buildPrecedents([
      ...rows,
      {
        rulingNumber: "N4",
        code: "6802990090",
        subject: "The tariff classification of Desert Atlas stone from Brazil",
        description:
          "The merchandise under consideration is referred to as Desert Atlas stone. It is a quartzite slab, polished on one side, for countertops.",
        url: "u4",
      },
    ]);
    const [best] = nearestRulings(withText, "polished quartzite slab for kitchen countertops", { min: 0.2 });
    expect(best).toMatchObject({ ruling_number: "N4", code: "6802990090" });
    // The frame ("The tariff classification of", "from Brazil") is nobody's product.
    expect(nearestRulings(withText, "tariff classification from Brazil")).toEqual([]);
  });

  it("keeps at most `limit` and is deterministic", () => {
    const a = nearestRulings(index, "polymer jersey steel drum", { min: 0, limit: 2 });
    expect(a).toHaveLength(2);
    expect(nearestRulings(index, "polymer jersey steel drum", { min: 0, limit: 2 })).toEqual(a);
  });
});

describe("nearestHeadings", () => {
  // Three rulings of heading 6802, each on one part of the product; one of 6810 sharing a single word.
  const pooled = buildPrecedents([
    { rulingNumber: "A1", code: "6802990090", subject: "polished granite slab", url: "" },
    { rulingNumber: "A2", code: "6802930090", subject: "marble countertops cut to size", url: "" },
    { rulingNumber: "A3", code: "6802210000", subject: "veined travertine tiles, honed", url: "" },
    { rulingNumber: "B1", code: "6810199000", subject: "cement slab pavers", url: "" },
    { rulingNumber: "C1", code: "6110303053", subject: "men's pullover of knit polyester jersey", url: "" },
  ]);

  it("pools each heading's rulings: several partial matches of one heading outweigh one of another", () => {
    const text = "polished veined slab cut to size for countertops";
    const near = nearestRulings(pooled, text, { min: 0, limit: 5 });
    // No single ruling is as near as the heading they share.
    const heads = nearestHeadings(pooled, text);
    expect(heads[0]?.code).toBe("6802");
    expect(heads[0]!.similarity).toBeGreaterThan(Math.max(...near.map((p) => p.similarity)));
    for (const h of heads) expect(h.similarity).toBeGreaterThanOrEqual(HEADING_SIMILARITY);
    expect(heads.map((h) => h.code)).not.toContain("6110");
  });

  it("finds nothing for an unrelated or empty text, keeps at most `limit`, and is deterministic", () => {
    expect(nearestHeadings(pooled, "ceramic coffee mug")).toEqual([]);
    expect(nearestHeadings(pooled, "")).toEqual([]);
    expect(nearestHeadings(buildPrecedents([]), "polished slab")).toEqual([]);
    const all = nearestHeadings(pooled, "polished slab pullover", { min: 0, limit: 2 });
    expect(all).toHaveLength(2);
    expect(nearestHeadings(pooled, "polished slab pullover", { min: 0, limit: 2 })).toEqual(all);
  });
});

/** Rulings from (number, code, subject) triples. */
const rulingsOf = (list: [string, string, string][]): RulingRow[] =>
  list.map(([rulingNumber, code, subject]) => ({ rulingNumber, code, subject, url: "" }));

// T-shirts (6109) and sweaters (6110) share most of their words; "pullover" and "sweatshirt" are 6110's alone,
// "tank" and "t-shirt" 6109's. One chair (9401) is far from both.
const KNITS: [string, string, string][] = [
  ["T1", "6109100012", "men's knit cotton t-shirt with short sleeves and a crew neckline"],
  ["T2", "6109100027", "women's knit cotton tank top with a scoop neckline"],
  ["T3", "6109902007", "boys' knit polyester t-shirt with short hemmed sleeves"],
  ["S1", "6110202069", "men's knit cotton pullover with long sleeves and a crew neckline"],
  ["S2", "6110202079", "women's knit cotton sweatshirt with long sleeves and a hood"],
  ["S3", "6110303053", "boys' knit polyester pullover with long hemmed sleeves"],
  ["C1", "9401710011", "upholstered folding chair with a steel frame"],
];

describe("likelyHeadings", () => {
  const knits = rulingsOf(KNITS);
  const index = buildPrecedents(knits);

  it("learns which words tell neighbouring headings apart", () => {
    // Every word but "pullover" is shared with the T-shirts, or is the T-shirts' own ("short sleeves").
    const [first, second] = likelyHeadings(index, "women's knit cotton pullover with short sleeves");
    expect(first?.code).toBe("6110");
    expect(second?.code).toBe("6109");
    expect(first!.probability).toBeGreaterThan(second!.probability);
    const [tank] = likelyHeadings(index, "girls' knit polyester tank top");
    expect(tank?.code).toBe("6109");
    expect(tank!.probability).toBeGreaterThan(0.5);
  });

  it("gives probabilities over the headings the text's words reach, at most `limit`, deterministically", () => {
    const all = likelyHeadings(index, "knit cotton pullover on a steel chair frame", { limit: 5 });
    expect(all.map((h) => h.code).sort()).toEqual(["6109", "6110", "9401"]);
    const sum = all.reduce((s, h) => s + h.probability, 0);
    expect(sum).toBeCloseTo(1, 5);
    for (const h of all) expect(h.probability).toBeGreaterThan(0);
    expect(likelyHeadings(index, "knit cotton pullover on a steel chair frame", { limit: 2 })).toEqual(all.slice(0, 2));
    // Built again from the same rows, the same model.
    expect(likelyHeadings(buildPrecedents(knits), "knit cotton pullover on a steel chair frame", { limit: 5 })).toEqual(
      all,
    );
    expect(buildPrecedents(knits).modelWeights).toEqual(index.modelWeights);
  });

  it("finds nothing for words no ruling uses, an empty text, or no rulings", () => {
    expect(likelyHeadings(index, "ceramic coffee mug")).toEqual([]);
    expect(likelyHeadings(index, "")).toEqual([]);
    expect(likelyHeadings(buildPrecedents([]), "knit pullover")).toEqual([]);
  });
});

describe("likelySubheadings", () => {
  // The same knitted tops with one more of each heading in man-made fibres, so each heading has two subheadings by
  // fibre: "polyester" tells 6109.90 from 6109.10 and 6110.30 from 6110.20, whichever the heading.
  const knits = rulingsOf([
    ...KNITS,
    ["T4", "6109901007", "women's knit polyester tank top with a racer back"],
    ["S4", "6110303059", "women's knit polyester sweatshirt with a hood"],
  ]);
  const index = buildPrecedents(knits);

  it("shares each heading's probability among its subheadings, by the words that tell them apart", () => {
    const text = "women's knit polyester pullover";
    const headings = likelyHeadings(index, text);
    expect(headings[0]?.code).toBe("6110");
    const subs = likelySubheadings(index, text, headings);
    // Only subheadings of the headings given, each heading's shares summing to its probability.
    for (const h of headings) {
      const own = subs.filter((s) => s.code.startsWith(h.code));
      expect(own.length).toBeGreaterThan(0);
      expect(own.reduce((sum, s) => sum + s.probability, 0)).toBeCloseTo(h.probability, 5);
    }
    expect(subs.every((s) => s.code.length === 6 && headings.some((h) => s.code.startsWith(h.code)))).toBe(true);
    const share = (code: string) => subs.find((s) => s.code === code)?.probability ?? 0;
    expect(share("611030")).toBeGreaterThan(share("611020"));
    const tank = likelySubheadings(
      index,
      "girls' knit polyester tank top",
      likelyHeadings(index, "girls' knit polyester tank top"),
    );
    expect(tank[0]?.code).toBe("610990");
    // Cotton the other way round.
    const cotton = likelySubheadings(
      index,
      "men's knit cotton pullover",
      likelyHeadings(index, "men's knit cotton pullover"),
    );
    const cottonShare = (code: string) => cotton.find((s) => s.code === code)?.probability ?? 0;
    expect(cottonShare("611020")).toBeGreaterThan(cottonShare("611030"));
  });

  it("is learned the same way each time, and gives nothing for headings not given or words no ruling uses", () => {
    const text = "boys' knit polyester t-shirt";
    const headings = likelyHeadings(index, text);
    expect(likelySubheadings(buildPrecedents(knits), text, headings)).toEqual(likelySubheadings(index, text, headings));
    expect(buildPrecedents(knits).subheadingWeights).toEqual(index.subheadingWeights);
    expect(index.subheadings).toEqual(["610910", "610990", "611020", "611030", "940171"]);
    expect(likelySubheadings(index, text, [])).toEqual([]);
    expect(likelySubheadings(index, text, [{ code: "8471", probability: 0.9 }])).toEqual([]);
    expect(likelySubheadings(index, "ceramic coffee mug", [{ code: "6109", probability: 1 }])).toEqual([]);
    expect(likelySubheadings(buildPrecedents([]), text, headings)).toEqual([]);
  });
});
