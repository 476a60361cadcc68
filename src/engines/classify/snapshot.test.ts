import { describe, expect, it } from "vitest";
import { PartitionedMap } from "../../lib/lazy-map";
import { buildIndex, rank } from "./engine";
import { evaluationSet, fullIndex, rulingSet } from "./fixtures";
import { buildPrecedents, likelyHeadings, likelySubheadings, nearestHeadings, nearestRulings } from "./precedents";
import {
  attachPart,
  type ClassifyIndexes,
  deserializeIndexes,
  partNames,
  partsFor,
  serializeIndexes,
  serializePart,
} from "./snapshot";

const VERSION = "hs-test@2026-01-01T00:00:00.000Z";

function indexes(): ClassifyIndexes {
  const rulings = rulingSet("dev").map((r) => ({
    rulingNumber: r.ruling,
    code: r.code,
    subject: r.description,
    url: r.source,
  }));
  return {
    index: fullIndex(),
    statistical: new Map([["61091000", [{ code: "6109100012", description: "Men's or boys'" }]]]),
    precedents: buildPrecedents(rulings),
  };
}

/** The main object restored, with every part attached (copies of the bytes, as separate R2 reads give). */
function restored(bytes: Uint8Array, parts: Map<string, Uint8Array>, version = VERSION): ClassifyIndexes {
  const out = deserializeIndexes(bytes.slice().buffer, version);
  if ("refused" in out) throw new Error(out.refused);
  for (const part of out.parts) {
    const refused = attachPart(out, part, (parts.get(part) as Uint8Array).slice().buffer, version);
    if (refused) throw new Error(refused.refused);
  }
  return out;
}

describe("classify index snapshot", () => {
  const built = indexes();
  const bytes = serializeIndexes(built, VERSION);
  const parts = new Map(partNames(built).map((p) => [p, serializePart(built, p, VERSION)]));

  it("keeps each schedule's lines and the statistical lines in parts of their own", () => {
    expect([...parts.keys()]).toEqual(["lines-US", "lines-GB", "stat"]);
    expect(partsFor("US")).toEqual(["lines-US", "stat"]);
    expect(partsFor("GB")).toEqual(["lines-GB"]);
    expect(partsFor(undefined)).toEqual([]);
    const main = deserializeIndexes(bytes.slice().buffer, VERSION);
    if ("refused" in main) throw new Error(main.refused);
    expect(main.index.lines.size).toBe(0);
    expect(main.statistical.size).toBe(0);
    expect(attachPart(main, "lines-GB", (parts.get("lines-GB") as Uint8Array).slice().buffer, VERSION)).toBeNull();
    expect([...main.index.lines.keys()]).toEqual(["GB"]);
    // A part is only ever the one asked for, of the same version.
    const us = (parts.get("lines-US") as Uint8Array).slice().buffer;
    expect(attachPart(main, "lines-EU", us, VERSION)).toEqual({ refused: "part lines-US" });
    expect(attachPart(main, "lines-US", us, "hs-test@2026-02-01T00:00:00.000Z")).toEqual({
      refused: expect.stringMatching(/version/),
    });
    expect(attachPart(main, "stat", new Uint8Array([1, 2, 3]).buffer, VERSION)).toEqual({
      refused: expect.stringMatching(/short|packed/),
    });
  });

  it("ranks every evaluation text as the built index does", () => {
    const back = restored(bytes, parts);
    const texts = evaluationSet("eval")
      .filter((_, i) => i % 3 === 0)
      .map((e) => e.description);
    texts.push("", "qwertyuiop", "Men's cotton crew neck t-shirt");
    for (const text of texts) {
      for (const schedule of ["US", "GB", "EU"] as const)
        expect(rank(back.index, text, { schedule, limit: 5 })).toEqual(rank(built.index, text, { schedule, limit: 5 }));
      expect(nearestRulings(back.precedents, text)).toEqual(nearestRulings(built.precedents, text));
      expect(nearestHeadings(back.precedents, text)).toEqual(nearestHeadings(built.precedents, text));
      expect(likelyHeadings(back.precedents, text)).toEqual(likelyHeadings(built.precedents, text));
      const likely = likelyHeadings(built.precedents, text);
      expect(likelySubheadings(back.precedents, text, likely)).toEqual(
        likelySubheadings(built.precedents, text, likely),
      );
    }
    expect(new Map(back.statistical)).toEqual(built.statistical);
    // The lines are parsed a chapter at a time when first read: loaded whole here, they equal the built ones.
    expect(back.index.lines.get("US")).toBeInstanceOf(PartitionedMap);
    expect(back.statistical).toBeInstanceOf(PartitionedMap);
    expect(new Map([...back.index.lines].map(([schedule, byHs6]) => [schedule, new Map(byHs6)]))).toEqual(
      built.index.lines,
    );
    expect(back.index.stats).toEqual(built.index.stats);
    const words = [...(built.index.vocabulary as Set<string>)];
    expect(words.length).toBeGreaterThan(1000);
    expect(words.filter((w) => !back.index.vocabulary.has(w))).toEqual([]);
    expect(back.index.vocabulary.has("qwertyuiop")).toBe(false);
    const goods = [...(built.index.goods as Set<string>)];
    expect(goods.length).toBeGreaterThan(1000);
    expect(goods.filter((w) => !back.index.goods.has(w))).toEqual([]);
    expect(back.index.goods.has("account")).toBe(false);
    // A restored index stores again as the built one does.
    expect(serializeIndexes(back, VERSION)).toEqual(bytes);
    // The restored lookup maps read alike, walked whole or entry by entry.
    expect(new Map(back.index.nodes)).toEqual(built.index.nodes);
    expect(new Map(back.index.idf)).toEqual(built.index.idf);
    expect([...back.index.postings.keys()]).toEqual([...built.index.postings.keys()]);
    expect(back.index.postings.get("cotton")).toEqual(built.index.postings.get("cotton"));
    expect(back.index.postings.get("qwertyuiop")).toBeUndefined();
  });

  it("stores the postings in the narrowest widths the index fits, and wider ones when it does not", () => {
    // The full nomenclature: fewer than 65,536 documents and no word 256 times in one field.
    const [first] = built.index.postings.values();
    expect(first?.docs).toBeInstanceOf(Uint16Array);
    expect(first?.tf).toBeInstanceOf(Uint8Array);
    // A word 300 times in one description needs two-byte counts, for every term of that index.
    const nomenclature = [
      { code: "39", parent: null, description: "Plastics and articles thereof" },
      { code: "3926", parent: "39", description: "Other articles of plastics" },
      { code: "392690", parent: "3926", description: `Other: ${"widget ".repeat(300)}` },
      { code: "392610", parent: "3926", description: "Office or school supplies" },
    ];
    const wide = { index: buildIndex(nomenclature, [], []), statistical: new Map(), precedents: buildPrecedents([]) };
    expect(wide.index.postings.get("widget")?.tf).toBeInstanceOf(Uint16Array);
    expect(wide.index.postings.get("office")?.tf).toBeInstanceOf(Uint16Array);
    const back = restored(
      serializeIndexes(wide, VERSION),
      new Map(partNames(wide).map((p) => [p, serializePart(wide, p, VERSION)])),
    );
    expect(back.index.postings.get("widget")).toEqual(wide.index.postings.get("widget"));
    expect(Math.max(...(back.index.postings.get("widget")?.tf ?? []))).toBe(300);
    for (const text of ["plastic widget", "school supplies"])
      expect(rank(back.index, text, { limit: 5 })).toEqual(rank(wide.index, text, { limit: 5 }));
  });

  it.each([
    ["another dataset version", (b: Uint8Array) => b, "hs-test@2026-02-01T00:00:00.000Z", /version/],
    ["a truncated object", (b: Uint8Array) => b.subarray(0, b.length - 8), VERSION, /size/],
    ["not a packed index", () => new TextEncoder().encode("<html>not found</html>"), VERSION, /not a packed/],
    [
      "a damaged header",
      (b: Uint8Array) => {
        const c = b.slice();
        c[20] = 0xff;
        return c;
      },
      VERSION,
      /malformed|kind|version/,
    ],
  ])("refuses %s", (_, damage, version, reason) => {
    const out = deserializeIndexes(damage(bytes).slice().buffer, version);
    expect(out).toEqual({ refused: expect.stringMatching(reason) });
  });
});
