import { describe, expect, it } from "vitest";
import { buildPrecedents, MIN_SIMILARITY, nearestRulings, type RulingRow } from "./precedents";

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
