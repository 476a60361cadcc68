import { describe, expect, it } from "vitest";
import hs2022 from "../../../data/hs/hs2022.json";
import { analyze, buildIndex, INDEX_ONLY, label, type RankOptions, rank } from "./engine";
import { evaluationSet, fullIndex, rulingSet } from "./fixtures";
import { extractProduct, pageText, urlRefusal } from "./page";
import {
  fibreShareBounds,
  footwearUpper,
  headNouns,
  normalize,
  notesExclude,
  notesInclude,
  otherMaterialChapters,
  preciousExcludes,
  predominantFibre,
  preparedFoodChapters,
  quantityBounds,
  sentences,
  statedGender,
  statedQuantities,
  statedWeight,
  stripExclusions,
  tokens,
  weightBounds,
  withoutLetterFrame,
  words,
} from "./text";

/** The first suggestion's heading (4 digits) for a text, on the full index; the reason when refused. */
function topHeading(text: string): string | undefined {
  const r = rank(fullIndex(), text, { schedule: "US" });
  return r.ok ? r.suggestions[0]?.hs6.slice(0, 4) : r.reason;
}

/** The first suggestion's subheading (6 digits) for a text, on the full index; the reason when refused. */
function topCode(text: string): string | undefined {
  const r = rank(fullIndex(), text, { schedule: "US" });
  return r.ok ? r.suggestions[0]?.hs6 : r.reason;
}

describe("text", () => {
  it.each([
    ["Men's T-Shirts", ["man", "t", "shirt"]],
    ["Batteries & chargers", ["battery", "and", "charger"]],
    ["Crème brûlée dishes", ["creme", "brulee", "dish"]],
    ["Aluminium tyres, colour grey", ["aluminum", "tire", "color", "gray"]],
    ["16GB 5W-30 500ml", []],
    ["Glasses and dresses", ["glass", "and", "dress"]],
    ["Christmas canvas", ["christmas", "canvas"]],
  ])("words(%j)", (input, expected) => {
    expect(words(input)).toEqual(expected);
  });

  it.each([
    [
      "The merchandise under consideration is referred to as White Ice stone. This analysis has been completed. It is granite.",
      "White Ice stone. It is granite.",
    ],
    ["The instant item is described as a food industry emulsifier.", "a food industry emulsifier."],
    ["The products under consideration are fine metallic powders.", "fine metallic powders."],
    ["Style 89E03328 is a women's upper body garment of knit fabric", "a women's upper body garment of knit fabric"],
    [
      "An intake manifold gasket, part number 558436, which you state is used in an engine",
      "An intake manifold gasket, which is used in an engine",
    ],
    ["Sodium lauroyl isethionate (CAS No. 7381-01-3) in flakes", "Sodium lauroyl isethionate ( ) in flakes"],
    ["Men's cotton crew neck t-shirt", "Men's cotton crew neck t-shirt"],
    ["Stainless steel kitchen knife set with 5 knives", "Stainless steel kitchen knife set with 5 knives"],
    ["The tariff classification of a plastic water bottle from China", "plastic water bottle"],
    [
      "The tariff classification and country of origin marking of two gate latches from the Dominican Republic.",
      "two gate latches",
    ],
    ["The tariff classification of LED lamp boards from China. Correction to Ruling Number N337034", "LED lamp boards"],
    // Older letters' frames: "You have submitted five samples of", "The submitted ... is", "is comprised of".
    [
      "You have submitted five samples of mutilated, new woven cotton towels to be used as wiping rags",
      "mutilated, new woven cotton towels to be used as wiping rags",
    ],
    ["The submitted comforter cover is made of cotton fabric.", "The comforter cover is made of cotton fabric."],
    ["The merchandise is comprised of frozen veal bones.", "frozen veal bones."],
    ["The samples were examined and disposed of. The tea is green tea.", "The tea is green tea."],
    ["Your submitted sample, style 9969, is a woman's mitten.", "a woman's mitten."],
    [
      'The merchandise, described as "raspberry puree," is made from fresh fruit',
      '"raspberry puree," is made from fresh fruit',
    ],
    ["Samples of incense sticks were submitted with your inquiry.", "incense sticks ."],
    ["You describe the instant merchandise as a synthetic salt compound.", "a synthetic salt compound."],
    ["A sample of the Dragon Incense was submitted with your inquiry.", "Dragon Incense ."],
    ["A sample was submitted and will be retained for reference. It is a plastic film.", "It is a plastic film."],
    ["The material at issue is composed of garnetted fibers.", "garnetted fibers."],
    ["The items are four (4) models of utility vehicles", "four models of utility vehicles"],
    ["The sample article consists of a polypropylene cord.", "a polypropylene cord."],
    ["The three products in this case are toner cartridges.", "toner cartridges."],
    ["The product involved in these protests is avocados.", "avocados."],
    ["The submitted sample, style IS 16, is a garment set.", "a garment set."],
    ["The merchandise under consideration involves a mouse pad.", "a mouse pad."],
    ["Your query concerns the classification of cinnamon sugar.", "cinnamon sugar."],
    ["The ruling was requested on cork sheets in rolls.", "cork sheets in rolls."],
    // More of the letters' frames: an apposition after the subject, a bracket naming the article, the sample
    // sentences, "said to be", "at hand", "you submitted".
    ["The product, dog treats in two formulations, each of which", "dog treats in two formulations, each of which"],
    [
      "The article (a backpack) is designed to hold personal effects",
      "a backpack is designed to hold personal effects",
    ],
    ["Samples were included with your request. The subject merchandise is described as a candy.", "A candy."],
    ["The merchandise is said to be pistons for gasoline engines.", "pistons for gasoline engines."],
    ["The item at hand is a liquid-filled glass thermometer.", "a liquid-filled glass thermometer."],
    ["The sample you submitted is a hand-held battery operated shaver.", "a hand-held battery operated shaver."],
    ["You submitted a white pillowcase and fitted sheet.", "a white pillowcase and fitted sheet."],
    ["You submitted a sample and descriptive literature with your request. It is black tea.", "It is black tea."],
    ["In your letter, you indicated that the sample submitted is a rice starch.", "a rice starch."],
    ["You are requesting the tariff classification on roller skates.", "roller skates."],
    // A frame that opens a later sentence leaves it starting as a sentence does.
    [
      "Polyethylene resin pellets. The first product, Item 15313-003, is described as a low-density resin.",
      "Polyethylene resin pellets. A low-density resin.",
    ],
    // An apposition that names the goods stays; one that refers to them (a style, an item number) goes.
    ["The subject product, Dexamethasone, is a corticosteroid.", "Dexamethasone, a corticosteroid."],
    // What a frame leaves before the article: a list label, "described in your letter as", "As indicated by ...,",
    // "an item that is called", "the items as", a letter's date line; the article then opens the text.
    [
      "The merchandise is described in your letter as an AC adapter for a video game.",
      "an AC adapter for a video game.",
    ],
    [
      "An item identified as a paper chain garland, item number 45534701, which consists of strips of paper.",
      "a paper chain garland, which consists of strips of paper.",
    ],
    ["a) a ceramic bath set, which is comprised of a tumbler.", "a ceramic bath set, which is comprised of a tumbler."],
    ["Items 1 & 2) Each item is a spade.", "a spade."],
    [
      "As indicated by the submitted samples, the connectors consist of plastic housings.",
      "the connectors consist of plastic housings.",
    ],
    ["You are requesting the tariff classification on an item that is called a dipper.", "a dipper."],
    ["You wish to import the fresh edible fruit of the guava shrub.", "the fresh edible fruit of the guava shrub."],
    ["You have described the items as carbon steel square nuts.", "carbon steel square nuts."],
    [
      "In your letter dated June 7, 1995 you requested a tariff classification ruling for pyridine hydrochloride.",
      "pyridine hydrochloride.",
    ],
    [
      "You submitted descriptive literature with your request. Green Arabica coffee beans.",
      "Green Arabica coffee beans.",
    ],
    ["The products under consideration are all described as electric water heaters.", "electric water heaters."],
    // Only a subject line loses a "from ..." at its end: a title may name its material so.
    ["Tea Cup Made From Bone China", "Tea Cup Made From Bone China"],
  ])("withoutLetterFrame(%j)", (input, expected) => {
    expect(withoutLetterFrame(input)).toBe(expected);
  });

  it("splits a statement of facts into sentences, not at decimals or abbreviations inside them", () => {
    expect(sentences("A ceramic mug. It holds 0.35 l. The mug is packed in a box.")).toEqual([
      "A ceramic mug.",
      "It holds 0.35 l.",
      "The mug is packed in a box.",
    ]);
    expect(sentences("Men's cotton crew neck t-shirt")).toEqual(["Men's cotton crew neck t-shirt"]);
  });

  it("drops stopwords, colours and sizes from ranking tokens", () => {
    expect(tokens("New black cotton T-shirt for men, pack of 3, size XL")).toEqual(["cotton", "shirt", "man", "xl"]);
  });

  it.each([
    [
      "T-shirts, singlets and other vests; of textile materials (other than cotton), knitted or crocheted",
      "cotton",
      false,
    ],
    ["Trousers; men's or boys', of cotton (not knitted or crocheted)", "knitted", false],
    ["Jewellery; imitation, (excluding cuff links and studs), of base metal", "cuff", false],
    ["Cheese, n.e.c. in heading no. 0406", "cheese", true],
  ])("stripExclusions keeps what a code is, not what it is not: %s", (text, word, kept) => {
    expect(normalize(stripExclusions(text)).split(" ").includes(word)).toBe(kept);
  });
});

describe("engine", () => {
  const small = buildIndex(
    [
      { code: "61", parent: null, description: "Apparel and clothing accessories; knitted or crocheted" },
      { code: "6109", parent: "61", description: "T-shirts, singlets and other vests; knitted or crocheted" },
      {
        code: "610910",
        parent: "6109",
        description: "T-shirts, singlets and other vests; of cotton, knitted or crocheted",
      },
      {
        code: "610990",
        parent: "6109",
        description:
          "T-shirts, singlets and other vests; of textile materials (other than cotton), knitted or crocheted",
      },
      { code: "42", parent: null, description: "Articles of leather; handbags and similar containers" },
      { code: "4202", parent: "42", description: "Trunks, suitcases, handbags, wallets and similar containers" },
      {
        code: "420292",
        parent: "4202",
        description: "Cases and containers; with outer surface of plastics or textile materials",
      },
      { code: "84", parent: null, description: "Machinery and mechanical appliances" },
      { code: "8471", parent: "84", description: "Automatic data processing machines" },
      {
        code: "847130",
        parent: "8471",
        description: "Automatic data processing machines; portable, weighing not more than 10kg",
      },
    ],
    [
      {
        schedule: "US",
        code: "61091000",
        description: "T-shirts, singlets, tank tops and similar garments, knitted or crocheted, of cotton",
      },
      { schedule: "US", code: "61099010", description: "T-shirts, knitted or crocheted, of man-made fibers" },
      { schedule: "US", code: "61099080", description: "T-shirts, of other textile materials" },
    ],
    [
      { phrase: "t-shirt", codes: "6109" },
      { phrase: "laptop", codes: "847130" },
      { phrase: "backpack", codes: "420292" },
    ],
  );

  it.each([
    ["Cotton t-shirt", "610910", "61091000"],
    ["Polyester t-shirt, man-made fibers", "610990", "61099010"],
    ["Laptop 16GB", "847130", "847130"],
    ["Laptop backpack", "420292", "420292"],
  ])("%s → %s (%s for the US)", (text, hs6, code) => {
    const r = rank(small, text, { schedule: "US" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.suggestions[0]!.hs6).toBe(hs6);
    expect(r.suggestions[0]!.code).toBe(code);
  });

  it("treats a product term followed by another as a modifier", () => {
    const a = analyze(small, "laptop backpack");
    expect(a.synonyms.map((s) => [s.phrase, s.weight])).toEqual([
      ["laptop", 0.5],
      ["backpack", 1],
    ]);
  });

  it.each([
    ["", "no words"],
    ["!!! 1234 500ml", "no words"],
    ["xqzv wprtk blorft", "None of the words"],
  ])("refuses %j", (text, reason) => {
    const r = rank(small, text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(reason);
  });

  it("narrows to a partial code and drops blocked prefixes", () => {
    const narrowed = rank(small, "cotton t-shirt", { prefix: "610990" });
    expect(narrowed.ok && narrowed.suggestions.every((s) => s.hs6 === "610990")).toBe(true);
    const blocked = rank(small, "cotton t-shirt", { schedule: "US", blocked: ["610910"] });
    expect(blocked.ok && blocked.suggestions.map((s) => s.hs6)).not.toContain("610910");
    const all = rank(small, "cotton t-shirt", { blocked: ["61"] });
    expect(all.ok && all.blockedAll).toBe(true);
  });

  it.each([
    [0.95, "high"],
    [0.94, "medium"],
    [0.9, "medium"],
    [0.85, "medium"],
    [0.6, "medium"],
    [0.45, "medium"],
    [0.2, "low"],
  ] as const)("label(%s) = %s", (score, expected) => {
    expect(label(score)).toBe(expected);
  });
});

function measure(
  which: "eval" | "holdout" | "rulings-dev" | "rulings-test" | "rulings-cbp2026-dev" | "rulings-cbp2026-test",
) {
  const index = fullIndex();
  const items =
    which === "eval" || which === "holdout"
      ? evaluationSet(which)
      : rulingSet(
          which === "rulings-dev"
            ? "dev"
            : which === "rulings-test"
              ? "test"
              : (which.slice(8) as "cbp2026-dev" | "cbp2026-test"),
        );
  let top1h4 = 0;
  let top5h6 = 0;
  const chapters = new Set<string>();
  for (const { description, hs6 } of items) {
    chapters.add(hs6.slice(0, 2));
    const r = rank(index, description, { schedule: "US" });
    if (!r.ok) continue;
    if (r.suggestions[0]?.hs6.slice(0, 4) === hs6.slice(0, 4)) top1h4++;
    if (r.suggestions.some((s) => s.hs6 === hs6)) top5h6++;
  }
  return { n: items.length, chapters: chapters.size, top1h4: top1h4 / items.length, top5h6: top5h6 / items.length };
}
describe("accuracy (bench/data/*.tsv)", () => {
  it("evaluation set (197 titles, 54 chapters): top-1 at 4 digits ≥ 85 %, top-5 at 6 digits ≥ 90 %", () => {
    const m = measure("eval");
    expect(m.n).toBeGreaterThanOrEqual(150);
    expect(m.chapters).toBeGreaterThanOrEqual(40);
    expect(m.top1h4).toBeGreaterThanOrEqual(0.85);
    expect(m.top5h6).toBeGreaterThanOrEqual(0.9);
  });

  it("held-out set (never tuned on): top-1 at 4 digits ≥ 75 %, top-5 at 6 digits ≥ 80 %", () => {
    const m = measure("holdout");
    expect(m.n).toBeGreaterThanOrEqual(60);
    expect(m.top1h4).toBeGreaterThanOrEqual(0.75);
    expect(m.top5h6).toBeGreaterThanOrEqual(0.8);
  });
});

describe("ruling-grade set (bench/data/classify-rulings-*.tsv)", () => {
  const hs6 = new Set((hs2022 as [string, ...unknown[]][]).map(([code]) => code));
  const all = [...rulingSet("dev"), ...rulingSet("test")];

  it("every item names its ruling, date, source page and a 10-digit code under an HS2022 subheading", () => {
    expect(all.length).toBeGreaterThanOrEqual(220);
    expect(new Set(all.map((i) => i.ruling)).size).toBe(all.length);
    for (const i of all) {
      expect(i.ruling, i.description).toMatch(/^([A-Z]\d{5,6}|\d{6})$/);
      expect(i.date, i.ruling).toMatch(/^(19|20)\d\d(-\d\d-\d\d)?$/);
      expect(i.source, i.ruling).toMatch(/^https?:\/\/\S+$/);
      expect(i.code, i.ruling).toMatch(/^\d{10}$/);
      expect(hs6.has(i.hs6), `${i.ruling} ${i.code}`).toBe(true);
    }
    expect(new Set(all.map((i) => i.hs6.slice(0, 2))).size).toBeGreaterThanOrEqual(55);
  });

  // Regression floors just under the measured level (bench/results/classify.md), below the goal of 60 %.
  // Both splits grew from 38 / 45 to 114 / 112 rulings on 2026-11-27; the floors follow the larger sets.
  // The CBP-text splits (2026-11-27, 148 / 151 rulings), with this index (no US statistical wording): 23.6 % /
  // 30.4 % (dev) and 31.8 % / 37.1 % (test); bench/classify-eval.mjs, with it, measures 27.0 / 31.8 and 35.1 / 40.4.
  it.each([
    ["rulings-dev", 0.49, 0.5],
    ["rulings-test", 0.3, 0.37],
    ["rulings-cbp2026-dev", 0.23, 0.29],
    ["rulings-cbp2026-test", 0.31, 0.36],
  ] as const)("%s: top-1 at 4 digits ≥ %s, top-5 at 6 digits ≥ %s", (which, top1, top5) => {
    const m = measure(which);
    expect(m.top1h4).toBeGreaterThanOrEqual(top1);
    expect(m.top5h6).toBeGreaterThanOrEqual(top5);
  });
});

/**
 * A short title is not compared with the rulings: ranked with `votes`, "Women's silk blouse" keeps every suggestion
 * and raw score it has without them.
 */
function expectShortTitleUnmoved(votes: RankOptions): void {
  const title = "Women's silk blouse";
  const scored = (r: ReturnType<typeof rank>) => r.ok && r.suggestions.map((x) => [x.hs6, x.raw]);
  expect(scored(rank(fullIndex(), title, { schedule: "US", ...votes }))).toEqual(
    scored(rank(fullIndex(), title, { schedule: "US" })),
  );
}

describe("what the product is, not the words around it (full index)", () => {
  it("reads a ruling's statement of facts by its article: the letter's frame and the later sentences count less", () => {
    const index = fullIndex();
    const letter = rank(
      index,
      "The merchandise under consideration is referred to as a ceramic coffee mug. This analysis has been completed. The mug is packed in a printed paperboard box with a plastic spoon.",
      { schedule: "US" },
    );
    if (!letter.ok) throw new Error(letter.reason);
    expect(letter.suggestions[0]?.hs6.slice(0, 4)).toBe("6912");
    const gasket = rank(
      index,
      "The item, part number 558436, is a rubber gasket. You state that it is used in the intake manifold of a diesel engine of a truck.",
      { schedule: "US" },
    );
    if (!gasket.ok) throw new Error(gasket.reason);
    expect(gasket.suggestions[0]?.hs6).toBe("401693");
  });

  it("finds the head noun phrase before the first preposition or clause, and its material", () => {
    const a = analyze(fullIndex(), "steel lever for the closing ring of an open head drum");
    expect(a.head).toEqual(["steel", "lever"]);
    expect(a.materials).toEqual(["732690"]);
    expect(analyze(fullIndex(), "child's costume: woven pullover dress").head).toEqual(["child", "costume"]);
    // A participle followed by "by" opens a clause; before the noun it modifies it.
    expect(analyze(fullIndex(), "a fondue pot fueled by a denatured alcohol burner").head).toEqual(["fondue", "pot"]);
    expect(analyze(fullIndex(), "forklifts powered by internal combustion engines").head).toEqual(["forklift"]);
  });

  it("keeps a product named only in a qualifier clause from deciding the heading with confidence", () => {
    const r = rank(fullIndex(), "steel lever for the closing ring of an open head drum", { schedule: "US" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.suggestions[0]?.hs6.slice(0, 4)).not.toBe("9206");
    expect(r.suggestions[0]?.confidence).not.toBe("high");
  });

  it("reads a dosage form in a medical context as a medicament, and a tablet computer as a computer", () => {
    const drug = rank(fullIndex(), "prucalopride tablets 2 mg for treating chronic constipation", { schedule: "US" });
    expect(drug.ok && drug.suggestions[0]?.hs6).toBe("300490");
    const computer = rank(fullIndex(), "Samsung Galaxy tablet 10 inch 64GB", { schedule: "US" });
    expect(computer.ok && computer.suggestions[0]?.hs6).toBe("847130");
    expect(analyze(fullIndex(), "Vitamin D3 capsules 1000 IU").pharma).toBe(false);
  });

  it("reads a form word after a product term as the form it is put up in", () => {
    const a = analyze(fullIndex(), "laundry detergent sheets");
    expect(a.synonyms.map((s) => [s.phrase, s.weight])).toEqual([
      ["laundry detergent", 1],
      ["sheet", 0.5],
    ]);
    const r = rank(fullIndex(), "laundry detergent sheets");
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 2)).toBe("34");
  });

  it("keeps knitted goods out of the woven headings and woven goods out of the knitted ones", () => {
    expect(analyze(fullIndex(), "men's knit polo of cotton").excluded).toContain("6205");
    expect(analyze(fullIndex(), "men's woven shirt of cotton").excluded).toContain("61");
    expect(analyze(fullIndex(), "knit and woven remnants").excluded).toEqual([]);
    const r = rank(fullIndex(), "women's top of 100% cotton knit fabric", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 2)).toBe("61");
  });

  it("counts a product term after the head noun phrase at half weight", () => {
    const a = analyze(fullIndex(), "garden cart imported assembled, tyres fitted after import");
    expect(a.synonyms.find((s) => s.phrase === "tire")?.weight).toBe(0.5);
  });

  it("reads the tariff authority's search-term guidance as weaker product terms, curated ones first", () => {
    const index = fullIndex();
    // "airfryer": HMRC's guidance names heading 8516; it counts half a curated term.
    expect(analyze(index, "airfryer").synonyms).toEqual([
      expect.objectContaining({ phrase: "airfryer", codes: ["8516"], weight: 0.5 }),
    ]);
    expect(topHeading("airfryer 5.5 litre")).toBe("8516");
    // A guidance phrase ("cotton dress") gives way to a curated term inside it ("dress shirt").
    expect(analyze(index, "Men's cotton dress shirt long sleeve").synonyms.map((s) => s.phrase)).toEqual([
      "dress shirt",
    ]);
    expect(topHeading("Men's cotton dress shirt long sleeve")).toBe("6205");
  });

  it("reads a compound's Chapter 29 heading from its name when the text is about a compound", () => {
    const index = fullIndex();
    expect(
      analyze(index, "2-t-Butyl-4-methoxyphenol, a pharmaceutical intermediate imported in bulk form").organic,
    ).toBe("2909");
    expect(topHeading("2-t-Butyl-4-methoxyphenol, a pharmaceutical intermediate imported in bulk form")).toBe("2909");
    // A CAS number says the text is about a compound.
    expect(topHeading("Hexachloroacetone (CAS No. 116-16-5) from Germany in bulk form")).toBe("2914");
    // An article of a named plastic is no compound.
    expect(analyze(index, "cellulose acetate sunglasses").organic).toBeUndefined();
    // The CAS number counts though the letter's frame drops it as a reference; a polymer is no compound.
    expect(analyze(index, "The subject product, iron pentaacetic acid, CAS No. 12389-75-2, in bulk").organic).toBe(
      "2915",
    );
    expect(
      analyze(index, "The subject product, a fertilizer with iron pentaacetic acid, in bulk").organic,
    ).toBeUndefined();
    expect(
      analyze(index, "The subject product, a fertilizer with iron pentaacetic acid, CAS No. 12389-75-2, in bulk")
        .organic,
    ).toBe("2915");
    expect(analyze(index, "maleic anhydride modified propylene copolymer (CAS 25722-45-6)").organic).toBeUndefined();
  });

  it("keeps pet toys out of 9503 and handbag parts out of 4202 (the headings name neither)", () => {
    expect(notesExclude(words("cat toy"))).toEqual(["9503"]);
    expect(notesExclude(words("bone-shaped dog chew toy of natural rubber"))).toEqual(["9503"]);
    expect(notesExclude(words("toy car for children"))).toEqual([]);
    expect(notesExclude(words("replaceable handbag strap"))).toEqual(["4202"]);
    // A bag named after the part word is the article ("strap bag"), as is a purse "with charms".
    expect(notesExclude(words("coin purse with charms"))).toEqual([]);
    expect(notesExclude(words("shoulder strap bag"))).toEqual([]);
    const r = rank(fullIndex(), "bone-shaped dog toy of natural rubber", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 4)).not.toBe("9503");
  });

  it("puts coats, sweaters and the like for animals in 4201 ('dog coats and the like'), not apparel", () => {
    expect(notesExclude(words("dog raincoat with hood"))).toEqual(["61", "62"]);
    expect(notesInclude(words("a pullover knit sweater for dogs with a turtleneck collar"))).toEqual(["4201"]);
    // A person's garment with a dog printed on it, or for dog walking, stays apparel.
    expect(notesInclude(words("men's sweater with dog print"))).toEqual([]);
    expect(notesExclude(words("women's t-shirt with a cat print"))).toEqual([]);
    expect(topHeading("knit sweater for dogs with a turtleneck collar and leg openings")).toBe("4201");
    expect(topHeading("dog raincoat with hood")).toBe("4201");
  });

  it("sends a part to the parts subheading of its machine's heading (Section XVI note 2(b))", () => {
    expect(topCode("centrifugal pump replacement parts")).toBe("841391");
    expect(topCode("air compressor spare parts")).toBe("841490");
    expect(topCode("valve parts of brass")).toBe("848190");
  });

  it("reads a power source before 'powered' or 'operated' as a modifier, not the article", () => {
    const index = fullIndex();
    const weight = (text: string, term: string) => analyze(index, text).terms.find((t) => t.term === term)?.weight;
    expect(weight("a battery-operated sound reproducing apparatus", "battery")).toBe(0.5);
    expect(weight("a battery for a sound reproducing apparatus", "battery")).toBe(1);
    // "powered by" opens a clause: the word before it is the article.
    expect(weight("unfinished forklifts powered by internal combustion engines", "forklift")).toBe(1);
  });

  it("reads no footwear into a footwear word that modifies the head noun", () => {
    expect(analyze(fullIndex(), "plastic shoe tree").footwear).toBeUndefined();
    expect(analyze(fullIndex(), "women's plastic clogs").footwear).toBe("6402");
  });

  it("is never certain of a weak best match", () => {
    // "pizza" meets only "pizza ovens" (7321): far ahead of the next heading, but one word met once.
    const r = rank(fullIndex(), "Dr. Oetker Ristorante pizza", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.raw).toBeLessThan(20);
    expect(r.ok && r.suggestions[0]?.confidence).not.toBe("high");
  });

  it("weighs the rulings on similar products: their subheading and heading, by similarity and length", () => {
    const text = "polished natural stone slab with grey veining, to be cut to size for kitchen countertops";
    const plain = rank(fullIndex(), text, { schedule: "US" });
    const ruled = [{ code: "6802990090", similarity: 0.8 }];
    const voted = rank(fullIndex(), text, { schedule: "US", precedents: ruled });
    expect(plain.ok && plain.suggestions[0]?.hs6).not.toBe("680299");
    expect(voted.ok && voted.suggestions[0]?.hs6).toBe("680299");
    // At the floor a ruling does not vote; nor on a title of four words or fewer, whose likeness to a ruling's
    // text is as often chance as kind.
    const weak = rank(fullIndex(), text, { schedule: "US", precedents: [{ code: "6802990090", similarity: 0.15 }] });
    expect(weak.ok && weak.suggestions.map((x) => [x.hs6, x.raw])).toEqual(
      plain.ok && plain.suggestions.map((x) => [x.hs6, x.raw]),
    );
    // Farther rulings vote a little each: five that agree at 0.3 carry the subheading.
    const far = Array.from({ length: 5 }, () => ({ code: "6802990090", similarity: 0.3 }));
    const agreed = rank(fullIndex(), text, { schedule: "US", precedents: far });
    expect(agreed.ok && agreed.suggestions[0]?.hs6).toBe("680299");
    const title = "Women's silk blouse";
    const t0 = rank(fullIndex(), title, { schedule: "US" });
    const t1 = rank(fullIndex(), title, { schedule: "US", precedents: [{ code: "6106200010", similarity: 0.9 }] });
    expect(t1.ok && t1.suggestions.map((x) => [x.hs6, x.raw])).toEqual(
      t0.ok && t0.suggestions.map((x) => [x.hs6, x.raw]),
    );
  });

  it("weighs the headings whose rulings, pooled, read like the text: each votes for its heading", () => {
    const text = "polished natural stone slab with grey veining, to be cut to size for kitchen countertops";
    const plain = rank(fullIndex(), text, { schedule: "US" });
    const voted = rank(fullIndex(), text, { schedule: "US", headings: [{ code: "6802", similarity: 0.7 }] });
    const raw = (r: typeof plain, hs6: string) => (r.ok ? r.suggestions.find((x) => x.hs6 === hs6)?.raw : undefined);
    // As much as a ruling of the same similarity gives its subheading and heading together.
    const ruling = rank(fullIndex(), text, { schedule: "US", precedents: [{ code: "6802", similarity: 0.7 }] });
    const gain = (raw(voted, "680299") ?? 0) - (raw(plain, "680299") ?? 0);
    expect(gain).toBeGreaterThan(10);
    expect(gain).toBeCloseTo((raw(ruling, "680299") ?? 0) - (raw(plain, "680299") ?? 0), 6);
    expect(voted.ok && voted.suggestions[0]?.hs6.slice(0, 4)).toBe("6802");
    // At the floor, or for a short title, nothing changes.
    const floor = rank(fullIndex(), text, { schedule: "US", headings: [{ code: "6802", similarity: 0.15 }] });
    expect(floor.ok && floor.suggestions.map((x) => [x.hs6, x.raw])).toEqual(
      plain.ok && plain.suggestions.map((x) => [x.hs6, x.raw]),
    );
    expectShortTitleUnmoved({ headings: [{ code: "6106", similarity: 0.9 }] });
  });

  it("weighs the headings the rulings' model finds likely: each votes its probability for its heading", () => {
    const text = "polished natural stone slab with grey veining, to be cut to size for kitchen countertops";
    const plain = rank(fullIndex(), text, { schedule: "US" });
    const raw = (r: typeof plain, hs6: string) => (r.ok ? r.suggestions.find((x) => x.hs6 === hs6)?.raw : undefined);
    const voted = rank(fullIndex(), text, { schedule: "US", model: [{ code: "6802", probability: 0.8 }] });
    const half = rank(fullIndex(), text, { schedule: "US", model: [{ code: "6802", probability: 0.4 }] });
    const gain = (r: typeof plain) => (raw(r, "680299") ?? 0) - (raw(plain, "680299") ?? 0);
    expect(gain(voted)).toBeGreaterThan(10);
    // In proportion to the probability.
    expect(gain(half)).toBeCloseTo(gain(voted) / 2, 6);
    expect(voted.ok && voted.suggestions[0]?.hs6.slice(0, 4)).toBe("6802");
    expectShortTitleUnmoved({ model: [{ code: "6106", probability: 1 }] });
  });

  it("weighs the subheadings the rulings' subheading model shares a heading's probability among, at six digits", () => {
    const text = "polished natural stone slab with grey veining, to be cut to size for kitchen countertops";
    const plain = rank(fullIndex(), text, { schedule: "US", limit: 10 });
    const granite = (p: number) =>
      rank(fullIndex(), text, { schedule: "US", limit: 10, subheadings: [{ code: "680293", probability: p }] });
    const all = (r: typeof plain) => (r.ok ? new Map(r.suggestions.map((x) => [x.hs6, x.raw])) : new Map());
    const before = all(plain);
    const voted = granite(0.8);
    const gain = (r: typeof plain) => (all(r).get("680293") ?? 0) - (before.get("680293") ?? 0);
    expect(gain(voted)).toBeGreaterThan(10);
    // More for a likelier subheading.
    expect(gain(granite(0.4))).toBeGreaterThan(0);
    expect(gain(granite(0.4))).toBeLessThan(gain(voted));
    expect(voted.ok && voted.suggestions[0]?.hs6).toBe("680293");
    // The learned models' votes widen the lead at no better precision: the long texts' calibration knows they voted.
    expect(voted.ok && voted.evidence.learned).toBe(true);
    expect(plain.ok && plain.evidence.learned).toBe(false);
    // The subheading itself: it gains more than any of its neighbours under 6802.
    for (const [hs6, score] of all(voted))
      if (hs6 !== "680293" && before.has(hs6)) expect(score - before.get(hs6)).toBeLessThan(gain(voted));
    expectShortTitleUnmoved({ subheadings: [{ code: "610610", probability: 1 }] });
  });

  it("keeps women's garments out of the men's headings, and knitted out of woven, whatever the rulings vote", () => {
    expect(statedGender(words("a pair of women’s pants"))).toBe("women");
    expect(statedGender(words("boys' knit shorts"))).toBe("men");
    // Garments for either are classified with women's (Chapter 61 note 9); man-made fibres name no one.
    expect(statedGender(words("unisex trousers of man-made fibres"))).toBe("women");
    expect(statedGender(words("trousers of man-made fibres"))).toBeUndefined();
    expect(statedGender(words("men's and women's gloves"))).toBeUndefined();
    const text =
      "Style 7392387 is a pair of women's pants constructed from 100 percent cotton woven fabric, with a waistband";
    // Three rulings on men's cotton trousers, as near as such rulings are.
    const men = Array.from({ length: 3 }, () => ({ code: "6203424015", similarity: 0.6 }));
    const r = rank(fullIndex(), text, { schedule: "US", precedents: men });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 4)).toBe("6204");
    // Nor do rulings on woven goods carry knitted ones into Chapter 62.
    const knit = "Item C62A1103 is a pair of men's shorts constructed from 100 percent cotton, jersey knit fabric";
    const woven = Array.from({ length: 3 }, () => ({ code: "6203424015", similarity: 0.6 }));
    const k = rank(fullIndex(), knit, { schedule: "US", precedents: woven });
    expect(k.ok && k.suggestions[0]?.hs6.slice(0, 4)).toBe("6103");
  });

  it("is surer of a long statement's answer when the rulings that voted agree with it", () => {
    const text =
      "The merchandise is a polished natural granite stone slab with grey veining and a honed edge. It is cut to size for kitchen countertops, bathroom vanities and table tops, and is imported ready for installation in residential kitchens, measuring three centimeters thick.";
    // Votes just above the floor move the ranking by a fraction of a unit; what they say still counts.
    const near = (code: string) => ({
      precedents: Array.from({ length: 3 }, () => ({ code: `${code}000000`, similarity: 0.151 })),
      headings: [{ code, similarity: 0.151 }],
    });
    const a = rank(fullIndex(), text, { schedule: "US", ...near("6802") });
    const b = rank(fullIndex(), text, { schedule: "US", ...near("2516") });
    if (!a.ok || !b.ok) throw new Error("unranked");
    expect(a.suggestions[0]?.hs6.slice(0, 4)).toBe("6802");
    expect(b.suggestions[0]?.hs6.slice(0, 4)).toBe("6802");
    expect(a.evidence).toMatchObject({ votes: 1, centroid: true });
    expect(b.evidence).toMatchObject({ votes: 0, centroid: false });
    expect(Math.abs(a.suggestions[0]!.raw - b.suggestions[0]!.raw)).toBeLessThan(0.5);
    expect(a.suggestions[0]!.score - b.suggestions[0]!.score).toBeGreaterThan(0.15);
    // No votes, nothing to agree with.
    const plain = rank(fullIndex(), text, { schedule: "US" });
    expect(plain.ok && plain.evidence).toMatchObject({ votes: 0, centroid: false });
  });

  it("gives the shortlist's last place to the heading the rulings point to, when its words missed it", () => {
    const text =
      "The merchandise is a polished natural granite stone slab with grey veining and a honed edge. It is cut to size for kitchen countertops, bathroom vanities and table tops, and is imported ready for installation in residential kitchens, measuring three centimeters thick.";
    const plain = rank(fullIndex(), text, { schedule: "US" });
    if (!plain.ok) throw new Error("unranked");
    const shown = plain.suggestions.map((x) => x.hs6);
    expect(shown).toHaveLength(5);
    expect(shown.some((c) => c.startsWith("2515"))).toBe(false);
    // Centroid and nearest ruling agree on 2515 (marble and other calcareous stone, merely cut): just above the
    // floor, their votes move no score by as much as a unit, yet the last place becomes the heading's best
    // subheading.
    const rulings = (code: string) => ({
      headings: [{ code: "2515", similarity: 0.151 }],
      precedents: [{ code, similarity: 0.151 }],
    });
    const agreed = rank(fullIndex(), text, { schedule: "US", ...rulings("2515120000") });
    if (!agreed.ok) throw new Error("unranked");
    expect(agreed.suggestions.slice(0, 4).map((x) => x.hs6)).toEqual(shown.slice(0, 4));
    expect(agreed.suggestions[4]?.hs6.slice(0, 4)).toBe("2515");
    // A centroid that no near ruling bears out, or a short title, leaves the list as the words made it.
    const alone = rank(fullIndex(), text, { schedule: "US", ...rulings("6802930000") });
    expect(alone.ok && alone.suggestions.map((x) => x.hs6)).toEqual(shown);
    const title = "polished granite slab";
    const t0 = rank(fullIndex(), title, { schedule: "US" });
    const t1 = rank(fullIndex(), title, { schedule: "US", ...rulings("2515120000") });
    expect(t1.ok && t1.suggestions.map((x) => x.hs6)).toEqual(t0.ok && t0.suggestions.map((x) => x.hs6));
  });

  it("scores a long statement of the goods with the long-text weights, not as a doubtful short title", () => {
    const facts =
      "The submitted sample is a men's T-shirt constructed from 100 percent cotton finely knit jersey fabric. The " +
      "garment features a rib-knit crew neckline, short hemmed sleeves and a straight hemmed bottom. The outer " +
      "surface of the fabric measures more than nine stitches per two centimeters in the horizontal direction.";
    const r = rank(fullIndex(), facts, { schedule: "US" });
    expect(r.ok && r.evidence.words).toBeGreaterThan(15);
    expect(r.ok && r.suggestions[0]?.hs6).toBe("610910");
    // Under the short-text weights this scored 0.18 (`low`) while such answers are right about two times in three.
    expect(r.ok && r.suggestions[0]?.score).toBeGreaterThan(0.5);
  });

  it("is never certain of a best match its head noun does not name", () => {
    // "lanyard" names nothing in 8517: the phone is what the lanyard is for.
    const r = rank(fullIndex(), "cell phone lanyard", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.startsWith("8517")).toBe(true);
    expect(r.ok && r.evidence.headNoun).toBe(false);
    expect(r.ok && r.suggestions[0]?.confidence).not.toBe("high");
    const phone = rank(fullIndex(), "cell phone", { schedule: "US" });
    expect(phone.ok && phone.suggestions[0]?.confidence).toBe("high");
  });

  it("reads no goods into the country the goods come from", () => {
    expect(withoutLetterFrame("Calcium Lactate Pentahydrate USP from China")).toBe("Calcium Lactate Pentahydrate USP");
    expect(withoutLetterFrame("a knit shirt made in Turkey, of cotton")).toBe("a knit shirt, of cotton");
    expect(withoutLetterFrame("Fine bone china cup")).toBe("Fine bone china cup");
    expect(withoutLetterFrame("roast turkey slices")).toBe("roast turkey slices");
    // A bracketed abbreviation before the noun is no clause; a compound's own brackets stay.
    expect(withoutLetterFrame("a polyethylene vinyl acetate (PEVA) tablecloth")).toBe(
      "a polyethylene vinyl acetate tablecloth",
    );
    expect(withoutLetterFrame("vinyl tiles made from polyvinyl chloride (PVC)")).toBe(
      "vinyl tiles made from polyvinyl chloride (PVC)",
    );
    expect(analyze(fullIndex(), "an all-terrain vehicle (ATV) identified as the Outlander").head).toEqual([
      "terrain",
      "vehicle",
    ]);
  });

  it("is never certain of one heading for a text that joins two articles", () => {
    const index = fullIndex();
    expect(analyze(index, "a girls shirt and pullover from Indonesia").coordinated).toBe(true);
    expect(analyze(index, "a men's knit cardigan made from cotton and nylon").coordinated).toBe(false);
    const r = rank(index, "a girls shirt and pullover from Indonesia", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.confidence).not.toBe("high");
    const one = rank(index, "a girls knit pullover from Indonesia", { schedule: "US" });
    expect(one.ok && one.suggestions[0]?.confidence).toBe("high");
  });

  it("reports whether the head noun itself names the top suggestion", () => {
    const shirt = rank(fullIndex(), "men's shirt of woven cotton, with buttons", { schedule: "US" });
    expect(shirt.ok && shirt.evidence.headNoun).toBe(true);
    // A tyre named after the head noun phrase does not make the cart a tyre with confidence.
    const cart = rank(fullIndex(), "garden cart imported assembled, tyres fitted after import", { schedule: "US" });
    expect(cart.ok && cart.suggestions[0]?.hs6.startsWith("4011") && cart.evidence.headNoun).toBe(false);
    expect(cart.ok && cart.suggestions[0]?.confidence).not.toBe("high");
    // "cheese" names the heading, the head noun "knife" does not: the evidence says so.
    const knife = rank(fullIndex(), "cheese knife set of stainless steel with wooden board", { schedule: "US" });
    expect(knife.ok).toBe(true);
    if (knife.ok && knife.suggestions[0]?.hs6.startsWith("04")) expect(knife.evidence.headNoun).toBe(false);
  });

  it("sends a part of a vehicle or machine to its parts heading, not to the machine", () => {
    const index = fullIndex();
    expect(analyze(index, "slide rail assembly installed on the pickup truck cargo box").parts).toEqual(["8708"]);
    expect(topCode("aluminum crossbar component for a truck")?.slice(0, 4)).toBe("8708");
    expect(topCode("brake drum for a truck")?.slice(0, 4)).toBe("8708");
    expect(analyze(index, "main circuit board assembly for a television").parts).toEqual(["8529"]);
    expect(analyze(index, "contact assembly for a circuit breaker").parts).toEqual(["8538"]);
    // The makes and models between the use word and the machine do not hide it.
    expect(analyze(index, "a thermostat housing cover used on Cummins ISX 15 L diesel engines").parts).toEqual([
      "8409",
    ]);
    expect(topCode("mounting bracket assembly for motor vehicles")?.slice(0, 4)).toBe("8708");
    // The machine itself is not a part of it.
    expect(analyze(index, "pickup truck with a gasoline engine").parts).toEqual([]);
    expect(topCode("pickup truck with a gasoline engine")?.slice(0, 4)).not.toBe("8708");
    // Goods the section notes keep in their own heading stay there (seats, 9401).
    expect(analyze(index, "Car child seat").parts).toEqual(["8708"]);
    expect(topCode("Car child seat")?.slice(0, 4)).not.toBe("8708");
    // A head noun the parts heading names counts more: a clutch of a car is not a handbag.
    expect(topCode("clutch for a passenger car")?.slice(0, 4)).toBe("8708");
    // Watch and clock parts (Chapter 91): a dial is 9114; the watch itself, its material named after it, is a watch.
    expect(topCode("watch dial luminous for NH35 movement")?.slice(0, 4)).toBe("9114");
    expect(topCode("replacement steel watch crown for automatic watch movements")?.slice(0, 4)).toBe("9114");
    expect(analyze(index, "Men's quartz wrist watch stainless steel").parts).toEqual([]);
    expect(topCode("Men's quartz wrist watch stainless steel")?.slice(0, 4)).toBe("9102");
    expect(topCode("watch strap")?.slice(0, 4)).toBe("9113");
  });

  it("offers an article for the household its material's household heading before the residual one", () => {
    expect(analyze(fullIndex(), "white plastic laundry bin of polypropylene").materials).toEqual(["3924"]);
    expect(analyze(fullIndex(), "stainless steel kitchen utensil holder").materials).toEqual(["7323"]);
    expect(analyze(fullIndex(), "plastic storage box").materials).toEqual(["392690"]);
    const bin = rank(fullIndex(), "white plastic laundry bin of polypropylene", { schedule: "US" });
    expect(bin.ok && bin.suggestions[0]?.hs6.slice(0, 4)).toBe("3924");
  });

  it("never answers an ornament named without its material with `high`, and reads it as goods", () => {
    const figurine = rank(fullIndex(), "a figurine", { schedule: "US" });
    expect(figurine.ok && figurine.suggestions[0]?.confidence).not.toBe("high");
    // A product term naming the heading is not a guess: festive decorations are 9505 whatever they are made of.
    const ornament = rank(fullIndex(), "Christmas tree ornament", { schedule: "US" });
    expect(ornament.ok && ornament.suggestions[0]?.hs6.slice(0, 4)).toBe("9505");
    // "statue" is not a heading's own word, but an ornament is goods: ranked, not refused.
    expect(rank(fullIndex(), "decorative statue", { schedule: "US" }).ok).toBe(true);
  });

  it("classifies a textile by its predominant fibre, as Section XI note 2 does", () => {
    expect(predominantFibre("64 percent acrylic, 30 percent polyester, 6 percent cotton")).toEqual({
      fibre: "synthetic",
      minority: ["cotton"],
      share: 94,
    });
    // A tie goes to man-made fibres, the later chapter (5509 before 5205).
    expect(predominantFibre("30/1 (Ne) 50% Cotton and 50% Spun Polyester yarn")?.fibre).toBe("synthetic");
    // Man-made fibres together outweigh the rest; within them rayon outweighs nylon and spandex.
    expect(predominantFibre("70% rayon 26% nylon 4% spandex")?.fibre).toBe("artificial");
    expect(predominantFibre("84 percent modal, 9 percent cashmere, 7 percent elastane")).toEqual({
      fibre: "artificial",
      minority: ["cashmere", "elastane"],
      share: 84,
    });
    expect(predominantFibre("Women's cashmere sweater")?.fibre).toBe("cashmere");
    expect(predominantFibre("steel bolt with a nylon washer and a cotton pad")).toBeUndefined();
    expect(predominantFibre("steel bolt")).toBeUndefined();
    expect(topCode("men's woven trousers, 70% rayon 26% nylon 4% spandex")).toBe("620349");
    expect(topCode("Women's cashmere sweater")).toBe("611012");
    expect(topCode("Knitted acrylic winter gloves")).toBe("611693");
  });

  it("keeps the precious-metal headings for a precious metal, and 7116 for stones and pearls (Chapter 71)", () => {
    const metals = ["7106", "7107", "7108", "7109", "7110", "7111", "7112", "7113", "7114", "7115"];
    const all = [...metals, "7101", "7102", "7103", "7104", "7105", "7116"];
    expect(preciousExcludes(words("gold plated brass hoop earrings"))).toEqual(all);
    expect(preciousExcludes(words("silver-tone charm bracelet"))).toHaveLength(all.length);
    expect(preciousExcludes(words("14k gold ring with a diamond"))).toEqual([]);
    expect(preciousExcludes(words("freshwater pearl necklace"))).toEqual(metals);
    // A plating is not a cladding (Chapter 71 note 7): base metal plated with gold is imitation jewellery.
    expect(preciousExcludes(words("necklace of base metal plated with 22 karat gold"))).toHaveLength(all.length);
    expect(preciousExcludes(words("stainless steel posts plated in gold"))).toHaveLength(all.length);
    expect(preciousExcludes(words("sterling silver ring plated with gold"))).toEqual([]);
    // Stones without a precious metal: 7116's articles of stones and pearls, not 7113-7115's of precious metal.
    expect(preciousExcludes(words("agate bead bracelet on a steel chain"))).toEqual(metals);
    expect(preciousExcludes(words("imitation pearl necklace"))).toHaveLength(all.length);
    expect(preciousExcludes(words("synthetic sapphire pendant"))).toEqual(metals);
    // The metals and stones themselves need them named too: a drug "in bulk powder form" is not platinum's powder
    // (7110), pins "nickel plated with silver" not silver (7106).
    expect(topHeading("Fluralaner (CAS No. 864731-61-3) in bulk powder form")?.startsWith("71")).toBe(false);
    expect(topHeading("solder pins of brass, nickel plated with silver, for printed circuit boards")).not.toBe("7106");
    expect(topHeading("platinum in powder form")).toBe("7110");
    expect(topHeading("unworked natural sapphires")).toBe("7103");
    expect(topHeading("Fashion costume earrings")).toBe("7117");
    expect(
      topHeading(
        "necklace of base metal plated with 22 karat gold with a base metal and black-lipped mother of pearl pendant",
      ),
    ).toBe("7117");
    expect(topHeading("gold plated brass hoop earrings")).toBe("7117");
    expect(topHeading("Sterling silver pendant necklace")).toBe("7113");
  });

  it("reads the trade's words for worked human hair as 6704 (wigs, false hair and articles of human hair)", () => {
    expect(topHeading("Peruvian straight human hair bundles double weft 3 pieces")).toBe("6704");
    expect(topHeading("HD lace frontal 13x4 body wave human hair")).toBe("6704");
    expect(topHeading("Synthetic braiding hair for box braids")).toBe("6704");
  });

  it("puts jewellery with a stone or a pearl and no precious metal in 7116, not imitation jewellery (note 11)", () => {
    // A synthetic stone (zircon, cubic zirconia) or a semi-precious one is no imitation: 7116.20.
    expect(topCode("Dainty square zircon stone hoop earrings gold color")).toBe("711620");
    expect(topCode("Natural agate bead bracelet")).toBe("711620");
    expect(topHeading("Freshwater pearl necklace")).toBe("7116");
    // Glass rhinestones, a plating, mother of pearl and pearl shell are none of these.
    expect(topHeading("Rhinestone heart pendant necklace")).toBe("7117");
    expect(topHeading("Mother of pearl charm bracelet")).not.toBe("7116");
    expect(topHeading("Pearl shell pendant necklace stainless steel")).toBe("7117");
    // A precious metal named as such: jewellery of precious metal.
    expect(topHeading("925 silver ring with cubic zirconia")).toBe("7113");
  });

  it("classifies footwear by the material of its upper (Chapter 64)", () => {
    expect(footwearUpper(words("Men's genuine leather oxford dress shoes"))).toBe("6403");
    expect(footwearUpper(words("women's PU leather ankle boots"))).toBe("6402");
    expect(footwearUpper(words("running shoes, rubber sole with a textile upper"))).toBe("6404");
    // A fibre named as the upper is textile; the leather of the next clause is the sole's.
    expect(footwearUpper(words("open-toe sling-back shoe, polyester tulle upper, leather outer sole"))).toBe("6404");
    // Elsewhere a fibre is as often a lining: the leather upper decides.
    expect(footwearUpper(words("men's leather boots with cotton lining"))).toBe("6403");
    expect(footwearUpper(words("waterproof rain boots of PVC"))).toBe("6401");
    // Two upper materials and no "upper" to tell which, or no footwear at all: nothing.
    expect(footwearUpper(words("leather and canvas sneakers"))).toBeUndefined();
    expect(footwearUpper(words("plastic sterilizer bag with a flat bottom"))).toBeUndefined();
    expect(topHeading("Men's leather oxford dress shoes")).toBe("6403");
    expect(topHeading("Canvas sneakers")).toBe("6404");
    // The upper's material rules out the other headings by upper, even those a footwear word names.
    expect(topHeading("woman's waterproof boot above the ankle, rubber upper")).toBe("6401");
    // Other footwear (6405) takes the soles 6401-6404 do not name, so it is never ruled out.
    expect(topHeading("Wool felt slippers")).not.toBe("6401");
    // After the rulings' votes too: rulings on rubber- or plastic-upper shoes described alike do not carry a shoe
    // whose upper the text says is textile.
    const shoe =
      "The submitted sample is a men's lace-up athletic shoe with a rubber outer sole and an upper of textile " +
      "material. The shoe has a padded collar and a foam insole.";
    const votes = Array.from({ length: 4 }, () => ({ code: "6402993160", similarity: 0.6 }));
    const r = rank(fullIndex(), shoe, { schedule: "US", precedents: votes });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 4)).toBe("6404");
  });

  it("reads the material of an 'of' or 'from' phrase, and fibreboard and plywood as wood (Chapter 44 note 3)", () => {
    const index = fullIndex();
    expect(analyze(index, "placemat of medium density fiberboard").materials).toEqual(["442199"]);
    expect(analyze(index, "pumpkin decoration cut from plywood").materials).toEqual(["442019"]);
    // A material three words or more past the "of", or past another function word, is not the article's.
    expect(analyze(index, "bag of coffee beans for a steel grinder").materials).toEqual([]);
    expect(analyze(index, "silicone spatula for the kitchen").materials).toEqual(["3924"]);
    // A glass named last after another material is a drinking glass of that material: tableware, not glassware.
    expect(analyze(index, "plastic wine glass").materials).toEqual(["3924"]);
    expect(analyze(index, "plastic wine glass").otherMaterials).toContain("70");
    expect(analyze(index, "crystal wine glass").otherMaterials).not.toContain("70");
    expect(
      topHeading(
        "round body scrubber brush made wholly of molded silicone with small bristles and a finger-hole handle, for cleansing skin",
      ),
    ).toBe("9603");
    expect(
      topHeading("stoneware ceramic shot glass of 2 ounces, tapered tumbler shape, suitable for drink contact"),
    ).toBe("6912");
  });

  it("reads the figures that split paper and textile codes: weight per m2 and the main fibre's share", () => {
    expect(statedWeight("dyed twill, 276.7 g/m2, 147 cm wide")).toBe(276.7);
    expect(statedWeight("jersey of 164 gsm")).toBe(164);
    expect(statedWeight("a 12 m2 tarpaulin")).toBeUndefined();
    expect(
      weightBounds("Fabrics, woven; containing 85% or more by weight of cotton, weighing not more than 200g/m2"),
    ).toEqual({
      max: 200,
    });
    expect(
      weightBounds("Nonwovens; of man-made filaments, (weighing more than 25g/m2 but not more than 70g/m2)"),
    ).toEqual({
      min: 25,
      max: 70,
    });
    expect(weightBounds("Kraft paper and paperboard; uncoated, weight 225g/m2 or more, in rolls")).toEqual({
      min: 225,
    });
    expect(weightBounds("Fabrics, woven; of cotton, printed")).toBeUndefined();
    expect(fibreShareBounds("Fabrics, woven; containing 85% or more by weight of cotton")).toEqual({ min: 85 });
    expect(fibreShareBounds("Fabrics, woven; containing less than 85% by weight of such fibres")).toEqual({ max: 85 });
    expect(predominantFibre("95.8% polyester staple fibres and 4.2% linen")?.share).toBe(95.8);
    // A fibre named without a share states no share.
    expect(predominantFibre("Knitted acrylic winter gloves")?.share).toBeUndefined();
    // Over 200 g/m2 of cotton is 5209, not 5208; 95.8 % polyester staple is 5512 (85 % or more), not 5514.
    expect(topHeading("dyed 3x1 twill woven fabric of 100% cotton, 276.7 g/m2, 147 cm wide")).toBe("5209");
    expect(
      topHeading(
        "printed plain-woven upholstery fabric, 95.8% polyester staple fibres and 4.2% linen, 333 g/m2, thin plastic coating on the back",
      ),
    ).toBe("5512");
  });

  it("reads power, cylinder capacity and voltage against the bounds machines and vehicles are split by", () => {
    expect(statedQuantities("solar panel kit, 320 W, aluminium frame")).toEqual({ power: 320 });
    expect(statedQuantities("a 1,200 cc engine rated 12 V")).toEqual({ capacity: 1200, voltage: 12 });
    expect(statedQuantities("600 horsepower electric drive")?.power).toBeCloseTo(447420);
    // Watt-hours and ampere-hours are no power.
    expect(statedQuantities("100 Wh power bank, 20 Ah")).toEqual({});
    expect(
      quantityBounds("Electric motors; AC motors, multi-phase, of an output exceeding 750W but not exceeding 75kW"),
    ).toEqual({
      power: { min: 750, max: 75000 },
    });
    expect(quantityBounds("Vehicles; with only spark-ignition engine, cylinder capacity not over 1000cc")).toEqual({
      capacity: { max: 1000 },
    });
    expect(quantityBounds("Insulated electric conductors; for a voltage not exceeding 1000 volts")).toEqual({
      voltage: { max: 1000 },
    });
    const r = rank(fullIndex(), "diesel passenger car with a 2,993 cc engine", { schedule: "US" });
    if (!r.ok) throw new Error(r.reason);
    // Not "cylinder capacity not over 1500cc" (8703.31); "over 2500cc" (8703.33) among the suggestions.
    expect(r.suggestions[0]?.hs6).not.toBe("870331");
    expect(r.suggestions.map((x) => x.hs6)).toContain("870333");
  });

  it("reads a stated width against the widths flat-rolled steel, film, tape and paper are split by", () => {
    expect(statedQuantities("steel sheet in coils measuring 324 mm in width")).toEqual({ width: 324 });
    expect(statedQuantities("tape 2 inches wide")?.width).toBeCloseTo(50.8);
    expect(quantityBounds("Iron or non-alloy steel; flat-rolled, of a width less than 600mm, plated")).toEqual({
      width: { max: 600 },
    });
    expect(quantityBounds("Photographic film; in rolls, of a width exceeding 105mm but not exceeding 610mm")).toEqual({
      width: { min: 105, max: 610 },
    });
    // A clause that excludes goods of a width sets no bound; a length after the width is not read as one.
    expect(quantityBounds("Photographic film; (other than in rolls of a width exceeding 610mm)")).toEqual({});
    expect(quantityBounds("Film; of a width exceeding 610mm and of a length exceeding 200m")).toEqual({
      width: { min: 610 },
    });
    expect(topCode("flat-rolled steel sheet, 300 mm wide, electrolytically plated with tin")).toBe("721220");
    expect(topHeading("flat rolled stainless steel strip, width 150 mm, cold rolled")).toBe("7220");
  });

  it("sends prepared meat, fish, vegetables and fruit out of the raw-food chapters (Chapters 2, 3, 7, 8; 16, 20)", () => {
    expect(preparedFoodChapters(words("frozen breaded shrimp, battered and pan-fried"))).toEqual([
      "02",
      "03",
      "07",
      "08",
    ]);
    expect(preparedFoodChapters(words("cooked chicken breast slices"))).toEqual(["02", "03"]);
    // What the raw-food chapters allow: frozen, dried, smoked; crustaceans cooked in their shell.
    expect(preparedFoodChapters(words("frozen giant squid tentacles, diced and glazed"))).toEqual([]);
    expect(preparedFoodChapters(words("smoked salmon fillets"))).toEqual([]);
    expect(preparedFoodChapters(words("lobsters cooked in shell by boiling in water"))).toEqual([]);
    expect(topHeading("frozen breaded shrimp, peeled, deveined, battered and fried")).toBe("1605");
    expect(topHeading("Frozen Atlantic salmon fillets 1kg")).toBe("0304");
  });

  it("reads a product term before the head noun as its modifier: a phone case is not a phone", () => {
    // "t-shirt style bag": a product term followed by "style" describes the article, it is not the article.
    const styled = analyze(fullIndex(), "nonwoven t-shirt style bag").synonyms.find((x) => x.phrase === "t shirt");
    expect(styled?.weight).toBe(0.5);
    // "a pair of", "set of": the noun phrase after the "of" is the head.
    expect(analyze(fullIndex(), "a pair of leather work gloves").head).toEqual(["leather", "work", "glove"]);
    expect(analyze(fullIndex(), "set of six stainless steel steak knives").head.at(-1)).toBe("knife");
    expect(analyze(fullIndex(), "bag of coffee beans").head).toEqual(["bag", "coffee", "bean"]);
    // Other words of the compound may stand between the product term and the head noun; a count in words makes
    // a specification of the product instead ("double door").
    const weightOf = (text: string, phrase: string) =>
      analyze(fullIndex(), text).synonyms.find((x) => x.phrase === phrase)?.weight;
    expect(weightOf("refrigerator temperature sensor", "refrigerator")).toBe(0.5);
    expect(weightOf("Refrigerator double door", "refrigerator")).toBe(1);
    // "compatible" before a noun is its adjective: an HDMI-compatible cable is a cable.
    expect(topHeading("UGREEN High Speed HDMI-Compatible Cable for Xiaomi Mi Box")).toBe("8544");
    // A participle before a noun describes it; before a clause it ends the head phrase.
    expect(analyze(fullIndex(), "two-part fitted protective case for a phone").head).toEqual([
      "two",
      "part",
      "fitted",
      "protective",
      "case",
    ]);
    expect(analyze(fullIndex(), "vacuum packed coffee beans").head).toEqual(["vacuum", "packed", "coffee", "bean"]);
    expect(analyze(fullIndex(), "canned tuna packed in oil").head).toEqual(["canned", "tuna"]);
    expect(analyze(fullIndex(), "a women's upper body garment constructed from modal").head).toEqual([
      "woman",
      "upper",
      "body",
      "garment",
    ]);
    // A hyphenated adjective with a preposition or participle in it is one word, not the head phrase's end.
    expect(normalize("women's slip-on shoes of man-made fibres")).toBe("women slipon shoes of manmade fibres");
    expect(analyze(fullIndex(), "an in-line roller skate consisting of a boot").head).toEqual([
      "inline",
      "roller",
      "skate",
    ]);
    expect(analyze(fullIndex(), "a made-up fishing net of nylon").head).toEqual(["madeup", "fishing", "net"]);
    // A first clause of describing words runs on past its comma to the noun they describe.
    expect(analyze(fullIndex(), "highly detailed, non-functional miniature replicas of studio equipment").head).toEqual(
      ["highly", "detailed", "non", "functional", "miniature", "replicas"],
    );
    expect(analyze(fullIndex(), "men's woven trousers, 70% rayon").head).toEqual(["man", "woven", "trouser"]);
    // The head phrase ends with its sentence.
    expect(analyze(fullIndex(), "An oil bearing seed. An initial laboratory analysis found rapeseed.").head).toEqual([
      "oil",
      "bearing",
      "seed",
    ]);
    // A word may describe the collective one: "boiled pieces of beef" are beef.
    expect(analyze(fullIndex(), "boiled pieces of beef and gravy").head).toContain("beef");
    // "tights" is a garment; "air tight" containers are no hosiery.
    expect(analyze(fullIndex(), "beef stew in air tight containers").synonyms.map((x) => x.phrase)).not.toContain(
      "tight",
    );
    expect(topHeading("women's nylon tights")).toBe("6115");
    // After a food, a seasoning is its flavour: potato chips flavoured with sea salt are potato chips.
    expect(topHeading("Potato chips sea salt 150g")).toBe("2005");
    // "cell phone" gives way to the head noun's own product term, "phone case".
    expect(analyze(fullIndex(), "cell phone case").synonyms.map((s) => s.phrase)).toEqual(["phone case"]);
    expect(topHeading("cell phone case")).toBe("4202");
    expect(topHeading("The tariff classification of a cell phone case from China")).toBe("4202");
    // A watch strap is a part of a watch (9113), not a watch.
    expect(topHeading("watch strap")).toBe("9113");
    // A case is none of the goods it holds: heading 4202 names camera, musical instrument and gun cases "and
    // similar containers", whatever word the product or its material comes after.
    expect(topHeading("earphone case")).toBe("4202");
    expect(topHeading("violin case hard shell")).toBe("4202");
    expect(topHeading("pistol case")).toBe("4202");
    expect(analyze(fullIndex(), "violin case hard shell").synonyms.find((x) => x.phrase === "violin")?.weight).toBe(
      0.2,
    );
    // Gloves, aprons and ponchos of plastics are Chapter 39's articles of apparel (3926.20), of rubber 4015.
    expect(topCode("pair of transparent disposable gloves made of polyethylene")).toBe("392620");
    expect(topCode("plastic rain poncho")).toBe("392620");
    expect(topHeading("rubber apron")).toBe("4015");
    // Pruning and hedge shears are garden tools (8201), not scissors.
    expect(topCode("durable ratcheted pruning and lopping shears")).toBe("820160");
    expect(topCode("pruning shears")).toBe("820150");
    expect(topHeading("kitchen shears")).toBe("8213");
    // A word for what the case is used for is no such goods: packing cases of wood are 4415.
    expect(topHeading("packing cases, wood")).toBe("4415");
    // A phrase that only starts with the head noun ("strap bag") does not make it a product term of its own.
    expect(analyze(fullIndex(), "guitar strap").synonyms.find((x) => x.phrase === "guitar")?.weight).toBe(0.5);
    // Packing, form and material words after a product term are not its head: jam in a jar is jam.
    expect(topHeading("Strawberry jam 340g jar")).toBe("2007");
    // The liquid a food is put up in is its packing, not the goods: tuna in olive oil is prepared fish (1604), not
    // olive oil (1509), which keeps its heading when it is the goods.
    expect(topHeading("Canned tuna in olive oil")).toBe("1604");
    expect(topHeading("tuna in olive oil")).toBe("1604");
    expect(topHeading("extra virgin olive oil")).toBe("1509");
    // Numbers and sizes between them make a list of specifications, not a compound: a laptop with RAM.
    expect(topHeading("Laptop 15.6 inch 16GB RAM")).toBe("8471");
  });

  it("puts tableware named as such in its material's household heading, no kitchen or table word needed", () => {
    // The Explanatory Notes' examples of tableware and kitchenware (69.12 (A), (B)) are household articles by name.
    expect(topHeading("Porcelain teapot")).toBe("6911");
    expect(topHeading("Stainless steel teapot")).toBe("7323");
    expect(topHeading("Glass teacup")).toBe("7013");
    // An ornament stays an ornament; a pot is also a flower pot or a packing pot, so it is not tableware by name.
    expect(topHeading("Decorative porcelain plate figurine")).toBe("6913");
  });

  it("ends a title's head phrase at a figure after the goods are named: what follows is their specification", () => {
    // "Tablet 10 inch 64GB wifi" is a tablet computer; "wifi" after the figures is not the head noun (8517).
    const tablet = rank(fullIndex(), "Tablet 10 inch 64GB wifi", { schedule: "US" });
    expect(tablet.ok && tablet.suggestions[0]?.hs6).toBe("847130");
    expect(tablet.ok && tablet.suggestions[0]?.confidence).toBe("high");
    // With the head noun found, an answer the words agree on is certain, where the figures' words had left it open.
    for (const [title, code] of [
      ["Kids bicycle 16 inch", "871200"],
      ["Electric pressure cooker 6 quart", "851660"],
    ] as const) {
      const r = rank(fullIndex(), title, { schedule: "US" });
      expect(r.ok && [r.suggestions[0]?.hs6, r.suggestions[0]?.confidence], title).toEqual([code, "high"]);
    }
    // A figure before the goods are named is part of the phrase; prose keeps its figures inside the noun phrase.
    expect(topHeading("Men's 100% cotton knitted shirt")).toBe("6105");
    expect(
      topHeading(
        "The subject merchandise is a man's emerald green long sleeve 100% cotton woven shirt with two pockets.",
      ),
    ).toBe("6205");
  });

  it("puts a fabric of stated composition in its predominant fibre's chapter, whatever rulings alike say", () => {
    const text =
      "You have submitted a sample of plain woven flannel fabric that is composed of 85% cotton and 15% filament " +
      "polyester. The fabric weighs 180 g/m2 and is dyed.";
    expect(analyze(fullIndex(), text).otherFibres).toEqual(["50", "51", "53", "54", "55"]);
    // Five close rulings on a polyester filament fabric (their words alike, their fibre not) do not carry it to 5407.
    const votes = Array.from({ length: 5 }, () => ({ code: "5407520020", similarity: 0.6 }));
    const r = rank(fullIndex(), text, { schedule: "US", precedents: votes });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 2)).toBe("52");
    // Nor do rulings on heavy cotton fabrics of 85 % or more cotton (5209) carry a 271 g/m2 fabric of 66 % cotton,
    // which the share and weight bounds put in 5211.
    const mixed =
      "The submitted sample, designated as style #8246, is a 2X1 warp face twill woven fabric composed of 66% cotton, " +
      "30% staple polyester and 4% filament spandex. It contains 43.3 warp ends per centimeter and 18 filling picks " +
      "per centimeter. It is constructed using 16/1 c.c. yarns in the warp and 16/1 c.c. yarns in the filling. " +
      "Weighing approximately 271 g/m2, this fabric will be imported in 127 centimeter widths.";
    const heavy = Array.from({ length: 3 }, () => ({ code: "5209420000", similarity: 0.35 }));
    const m = rank(fullIndex(), mixed, { schedule: "US", precedents: heavy });
    expect(m.ok && m.suggestions[0]?.hs6.slice(0, 4)).toBe("5211");
    // A garment, or a fabric whose composition is not stated in shares, rules out no fibre chapter.
    expect(analyze(fullIndex(), "woman's dress of 85% cotton and 15% polyester knit fabric").otherFibres).toEqual([]);
    expect(analyze(fullIndex(), "plain woven cotton fabric").otherFibres).toEqual([]);
  });

  it("does not take a cover or shell for the stuffed article it covers (heading 9404)", () => {
    expect(analyze(fullIndex(), "comforter cover of 100% cotton woven fabric").covered).toEqual(["9404"]);
    expect(topHeading("comforter cover of 100% cotton woven fabric")).not.toBe("9404");
    expect(topHeading("pillow shell of polyester knit fabric")).not.toBe("9404");
    // The stuffed article itself, or one sold with its cover, is 9404.
    expect(analyze(fullIndex(), "throw pillow with removable cover").covered).toEqual([]);
    expect(topHeading("decorative throw pillow stuffed with polyester fiber")).toBe("9404");
  });

  it("keeps goods for industrial or commercial use out of the appliances of a domestic kind", () => {
    // 8516.71 and 8509 are "of a kind used for domestic purposes": an industrial coffee maker is machinery (8419.81).
    expect(topCode("coffee makers, industrial")).toBe("841981");
    expect(topHeading("industrial washing machines")).toBe("8451");
    expect(topHeading("electric drip coffee maker")).toBe("8516");
    expect(analyze(fullIndex(), "espresso machine for use in commercial kitchens").industrial).toBe(true);
    // A commercial invoice or a commercially available part says nothing of the goods' use.
    expect(analyze(fullIndex(), "coffee maker, see the commercial invoice").industrial).toBe(false);
  });

  it("rules out the chapters of materials other than the one the article is named of", () => {
    expect(otherMaterialChapters(["acrylic", "vase"])).toContain("70");
    expect(otherMaterialChapters(["acrylic", "vase"])).not.toContain("39");
    // Steel names chapters 72 and 73 alike; two materials, or none, rule out nothing.
    expect(otherMaterialChapters(["stainless", "steel", "bottle"])).not.toContain("72");
    expect(otherMaterialChapters(["ceramic", "coated", "steel", "pan"])).toEqual([]);
    expect(otherMaterialChapters(["vase"])).toEqual([]);
    const r = rank(fullIndex(), "acrylic vase", { schedule: "US" });
    // An ornament's product term ("vase": glass, ceramics) names the ornamental article of the named material.
    expect(r.ok && r.suggestions[0]?.hs6).toBe("392640");
    // An ornament of a named material: the ornaments subheading names the class of article (a household heading's
    // boost, not a residual's), ahead of what the ornament represents or lights.
    expect(topCode("decorative ceramic candle lantern")).toBe("691390");
    // A plastic named alone is a material, not a fibre, unless the text is about textiles.
    expect(predominantFibre("acrylic vase")).toBeUndefined();
    expect(predominantFibre("Knitted acrylic winter gloves")?.fibre).toBe("synthetic");
    // One non-textile material and no word of fibres, fabrics or garments: not a textile article (Section XI).
    expect(otherMaterialChapters(["plastic", "beaded", "door", "curtain"], "a plastic beaded door curtain")).toContain(
      "63",
    );
    expect(otherMaterialChapters(["plastic", "curtain"], "plastic curtain of woven strip")).not.toContain("63");
    // Tools (82) and the miscellaneous articles of 83 are of base metal: not a plastic rake or a resin photo frame,
    // unless the text names a metal too ("with a steel blade").
    expect(otherMaterialChapters(["plastic", "rake"], "plastic garden rake")).toEqual(
      expect.arrayContaining(["82", "83"]),
    );
    expect(otherMaterialChapters(["plastic", "rake"], "plastic rake with a steel blade")).not.toContain("82");
    expect(otherMaterialChapters(["steel", "rake"], "steel garden rake")).not.toContain("82");
    expect(analyze(fullIndex(), "melamine serving bowl").otherMaterials).toContain("69");
    const sheets = rank(fullIndex(), "polyethylene terephthalate-polyvinylidene chloride film sheets", {
      schedule: "US",
    });
    expect(sheets.ok && sheets.suggestions[0]?.hs6.slice(0, 2)).toBe("39");
  });

  it("keeps materials and semi-manufactures (primary forms, sheets, yarns, fabrics) for those forms, not articles", () => {
    expect(topHeading("vinyl tiles made from polyvinyl chloride (PVC)")).toBe("3918");
    expect(analyze(fullIndex(), "vinyl tiles made from polyvinyl chloride (PVC)").semiManufactures).toContain("3904");
    // A bulk form, a polymer's own name: still primary forms. A count before "grades of" leaves the head after it.
    expect(analyze(fullIndex(), "polyvinyl chloride powder").semiManufactures).not.toContain("3904");
    expect(analyze(fullIndex(), "five grades of ABS resin in pellet form").head.at(-1)).toBe("resin");
    expect(topHeading("five grades of acrylonitrile-butadiene-styrene (ABS) resin in pellet form")).toBe("3903");
    // The same for metals, wood, paper and textiles: flat washers are not flat-rolled steel, wire stays wire.
    expect(analyze(fullIndex(), "stainless steel flat washers").semiManufactures).toContain("7220");
    expect(topHeading("stainless steel flat washers")).toBe("7318");
    expect(analyze(fullIndex(), "stainless steel wire").semiManufactures).not.toContain("7223");
    expect(analyze(fullIndex(), "woven polyester fabric").semiManufactures).not.toContain("54");
    expect(analyze(fullIndex(), "apron of polyester woven fabric").semiManufactures).toContain("54");
    // The reverse within Section XI: a fabric is not a garment, whatever garment word describes its knit.
    expect(analyze(fullIndex(), "circular knit jersey fabric, 82% polyester 18% spandex").semiManufactures).toEqual([
      "61",
      "62",
      "63",
    ]);
    expect(topHeading("circular knit jersey fabric, 82% polyester 18% spandex, for making garments")?.slice(0, 2)).toBe(
      "60",
    );
  });

  it("names garments by the tariff's own words (vests, ponchos, ensembles, swimwear)", () => {
    // US "vests" are waistcoats (6110 "Vests, other than sweater vests"), not the singlets of 6109.
    expect(topHeading("a men's knit vest made from 55% acrylic and 45% cotton, featuring a V-neckline")).toBe("6110");
    // Ponchos are capes and cloaks of the coats headings.
    expect(topHeading("a women's poncho made of acrylic, wool, and nylon knit fabric")).toBe("6102");
    expect(topHeading("a knitted women's swim bottom made of 54% cotton, 36% polyester, and 10% spandex")).toBe("6112");
    expect(topHeading("a girl's knit ensemble consisting of a jacket and trousers of polyester fleece")).toBe("6104");
    // Babies' garments take precedence over the other garment headings (Chapter 61 note 6(a)).
    expect(topHeading("an infants short sleeve pullover made of 80% nylon and 20% spandex knit fabric")).toBe("6111");
    // Everyday foods and drinks by their heading: pizza is a baker's ware, tonic water a flavoured water.
    expect(topHeading("Dr. Oetker Ristorante pizza")).toBe("1905");
    expect(topHeading("Schweppes Tonic Water")).toBe("2202");
    // A blazer named alone stays woven.
    expect(topHeading("Men's wool blazer")).toBe("6203");
  });

  it.each([
    ["cell phone case", "4202"],
    ["silicone watch strap", "9113"],
    ["lamp shade", "9405"],
    ["vitamin capsules", "2106"],
    ["acrylic vase", "3926"],
    ["dog collar", "4201"],
  ])("%s is classified as what it is, not as the product its words name (%s)", (text, code) => {
    const r = rank(fullIndex(), text, { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.startsWith(code)).toBe(true);
  });

  it("reads vitamins as a food supplement unless the text claims a treatment (Chapter 30 note 1(a))", () => {
    expect(analyze(fullIndex(), "vitamin capsules").pharma).toBe(false);
    const r = rank(fullIndex(), "vitamin B12 injection for the treatment of deficiency", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 2)).toBe("30");
  });

  it("counts a one-word product term the tariff also uses for other goods for less", () => {
    const index = fullIndex();
    const entry = (w: string) => index.synonyms.get(w)?.find((s) => s.phrase.join(" ") === w);
    // "slides" are sandals and slide rails, "pumps" shoes and pumps for liquids; "sandals" are only footwear.
    expect(entry("slide")?.ambiguous).toBe(true);
    expect(entry("pump")?.ambiguous).toBe(true);
    expect(entry("sandal")?.ambiguous).toBeUndefined();
    const slide = analyze(index, "slide rail assembly installed on the pickup truck cargo box");
    expect(slide.synonyms.find((s) => s.phrase === "slide")?.ambiguous).toBe(true);
    const r = rank(index, "slide rail assembly installed on the pickup truck cargo box side walls", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 4)).toBe("8708");
    // Still a product term where nothing else competes.
    const shoes = rank(index, "women's leather pumps", { schedule: "US" });
    expect(shoes.ok && shoes.suggestions[0]?.hs6.slice(0, 2)).toBe("64");
  });

  it("reads a one-word product term after the material it is made of as the article, unless that material's chapter names it too", () => {
    const index = fullIndex();
    const hit = (text: string, phrase: string) => analyze(index, text).synonyms.find((s) => s.phrase === phrase);
    // Watch bracelets (9113) are the other sense of "bracelet"; steel does not make one of them.
    expect(hit("stainless steel bracelet for women", "bracelet")?.ambiguous).toBe(false);
    expect(topHeading("stainless steel bracelet for women")).toBe("7117");
    // Washers of steel are in steel's own chapter (7318): the term stays in doubt.
    expect(hit("steel washers", "washer")?.ambiguous).toBe(true);
    // Not when the material is named after the noun.
    expect(hit("bracelet of stainless steel links with a watch", "bracelet")?.ambiguous).toBe(true);
  });

  it("reads a trade's own word through the tariff's index phrases, which are never an answer's code", () => {
    const index = fullIndex();
    // "accelerometers" is a UK search reference (9031.80), in no legal text of the nomenclature.
    const r = rank(index, "accelerometer", { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.hs6.slice(0, 4)).toBe("9031");
    const tower = rank(index, "absorption tower for gases", { schedule: "US" });
    expect(tower.ok && tower.suggestions[0]?.hs6).toBe("842131");
    expect(index.lines.has(INDEX_ONLY)).toBe(false);
    // Asked for that "schedule", the answer is the HS subheading: no index phrase is a national line.
    const asRef = rank(index, "accelerometer", { schedule: INDEX_ONLY });
    expect(asRef.ok && asRef.suggestions[0]?.code).toBe("903180");
  });

  it("offers other headings among the five for a statement of the goods it is not sure of", () => {
    const text =
      "The merchandise consists of a solid state device, which has two or more thyristors or rectifier junctions " +
      "encapsulated in a plastic isolated housing. The device has the specific function of rectifying alternating " +
      "current to direct current while controlling large amounts of power.";
    const r = rank(fullIndex(), text, { schedule: "US" });
    expect(r.ok && r.suggestions[0]?.confidence).not.toBe("high");
    const headings = r.ok ? r.suggestions.map((s) => s.hs6.slice(0, 4)) : [];
    expect(headings).toHaveLength(5);
    expect(headings.filter((h) => h === headings[0]).length).toBeLessThanOrEqual(3);
    // Still in order of score.
    const raws = r.ok ? r.suggestions.map((s) => s.raw) : [];
    expect(raws).toEqual([...raws].sort((a, b) => b - a));
    // A title names its article: the first heading's subheadings are its alternatives.
    const title = rank(fullIndex(), "men's cotton woven trousers", { schedule: "US" });
    expect(title.ok && title.suggestions.filter((s) => s.hs6.startsWith("6203")).length).toBeGreaterThan(3);
  });

  it("offers the residual heading of a material for an article no heading names", () => {
    expect(analyze(fullIndex(), "aluminium spa cover lifter").materials).toEqual(["761699"]);
    expect(analyze(fullIndex(), "decorative ceramic lantern").materials).toEqual(["691390"]);
  });
});

describe("product pages", () => {
  const html = `<html><head><title>Shop &amp; Co | Trail Runner</title>
    <meta name="description" content="Lightweight trail running shoes with a mesh upper.">
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"BreadcrumbList"},
      {"@type":"Product","name":"Trail Runner 2","description":"Men&#39;s running shoes, textile upper, rubber sole","category":"Footwear > Running","brand":{"@type":"Brand","name":"Acme"}}]}</script>
    <script type="application/ld+json">{not json</script></head><body></body></html>`;

  it("reads the title, meta description and JSON-LD Product", () => {
    const p = extractProduct(html);
    expect(p.title).toBe("Shop & Co | Trail Runner");
    expect(p.metaDescription).toBe("Lightweight trail running shoes with a mesh upper.");
    expect(p.product).toEqual({
      name: "Trail Runner 2",
      description: "Men's running shoes, textile upper, rubber sole",
      category: "Footwear > Running",
      brand: "Acme",
    });
    expect(pageText(p)).toContain("Trail Runner 2. Footwear > Running. Men's running shoes");
  });

  it("falls back to title and meta without JSON-LD", () => {
    const p = extractProduct(
      `<title>Ceramic mug</title><meta property="og:description" content='Stoneware coffee mug'>`,
    );
    expect(pageText(p)).toBe("Ceramic mug. Stoneware coffee mug");
  });

  it.each([
    ["https://shop.example.com/p/1", true, null],
    ["http://shop.example.com/p/1", true, null],
    ["ftp://shop.example.com/p", true, "http or https"],
    ["file:///etc/passwd", false, "http or https"],
    ["http://localhost:8787/x", true, "local host"],
    ["http://localhost:8787/x", false, null],
    ["http://127.0.0.1/", true, "private"],
    ["http://10.1.2.3/", true, "private"],
    ["http://172.20.0.1/", true, "private"],
    ["http://192.168.1.1/", true, "private"],
    ["http://169.254.169.254/latest", true, "private"],
    ["http://[::1]/", true, "private"],
    ["http://[fd00::1]/", true, "private"],
    ["http://[::ffff:127.0.0.1]/", true, "private"],
    ["http://printer.local/", true, "local host"],
    ["http://intranet/", true, "local host"],
    ["https://user:pw@example.com/", true, "credentials"],
  ])("urlRefusal(%s, production=%s)", (url, production, expected) => {
    const r = urlRefusal(url, production);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toContain(expected);
  });

  it.each([
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://198.18.0.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://localhost./",
  ])("urlRefusal refuses the review's bypass %s in production", (url) => {
    expect(urlRefusal(url, true)).not.toBeNull();
  });

  it("urlRefusal allows public addresses", () => {
    expect(urlRefusal("http://8.8.8.8/", true)).toBeNull();
    expect(urlRefusal("https://[2606:4700::1111]/", true)).toBeNull();
  });
});

describe("texts that name no goods (full index)", () => {
  it("a description's phrases give their head nouns, not their qualifiers or coordinated modifiers", () => {
    expect(headNouns("Registers, account books, note books, order books, receipt books")).toEqual([
      "register",
      "book",
      "book",
      "book",
      "book",
    ]);
    expect(headNouns("Dog or cat food; put up for retail sale")).toEqual(["food"]);
    expect(headNouns("Tableware and kitchenware, of plastics")).toEqual(["kitchenware"]);
    expect(headNouns("Of fox, whole, with or without head")).not.toContain("fox");
  });

  it.each(["see attached", "order for the account", "delivery address", "see the attached order"])(
    "%s (words the tariff knows, none naming an article, a material or a product) is unclassifiable",
    (text) => {
      const r = rank(fullIndex(), text, { schedule: "US" });
      expect(r.ok, JSON.stringify(r)).toBe(false);
      expect(!r.ok && r.reason).toContain("does not name goods");
    },
  );

  it.each([
    "thank you for your business",
    "order #4411 for John Smith",
    "What is the weather today?",
    "return to sender",
    "pay on delivery",
  ])("%s (with a word the tariff does not know) is ranked, but never above low", (text) => {
    const r = rank(fullIndex(), text, { schedule: "US" });
    if (!r.ok) throw new Error(r.reason);
    expect(r.evidence.namesGoods).toBe(false);
    for (const s of r.suggestions) expect(s.confidence).toBe("low");
  });

  it.each([
    ["porcelain teapot", true],
    ["indomethacin suppositories", true],
    ["men's cotton t-shirt", true],
    ["stainless steel water bottle", true],
  ])("%s names goods (an article, a material, a chemical or a product term)", (text, names) => {
    const r = rank(fullIndex(), text, { schedule: "US" });
    expect(r.ok && r.evidence.namesGoods).toBe(names);
  });
});

describe("descriptions that do not say what the goods are (full index)", () => {
  it.each(["gift", "Samples", "misc items", "various goods", "personal effects", "stuff", "test", "souvenir"])(
    "%s is unclassifiable, with what to give instead",
    (text) => {
      const r = rank(fullIndex(), text, { schedule: "US" });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.reason).toContain("does not say what the goods are");
    },
  );

  it.each([
    ["gift box of cardboard", "4819"],
    ["ceramic souvenir mug", "6912"],
    ["glass test tube", null],
    ["product samples of cotton fabric", null],
  ])("a vague word beside a product word is classified: %s", (text, heading) => {
    const r = rank(fullIndex(), text, { schedule: "US" });
    expect(r.ok).toBe(true);
    if (heading) expect(r.ok && r.suggestions.slice(0, 5).some((s) => s.heading.code === heading)).toBe(true);
  });
});
