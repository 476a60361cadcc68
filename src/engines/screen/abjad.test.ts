import { describe, expect, it } from "vitest";
import { ABJAD_FULL, ABJAD_PARTIAL, abjadMatch, nameSkeletons } from "./abjad";
import { ScreenIndex, screen } from "./index";

const skeletons = (text: string) => nameSkeletons(text).map((w) => w.skeleton);
const readings = (text: string) => nameSkeletons(text).map((w) => w.variants);

describe("consonant skeletons", () => {
  it("gives an Arabic-script name and its romanizations the same consonants", () => {
    for (const latin of ["Muhammad", "Mohamed", "Mohammad", "MOHAMMED"])
      expect(skeletons(latin)).toEqual(skeletons("محمد"));
    expect(skeletons("صدام حسين التكريتي")).toEqual(skeletons("SADDAM HUSSEIN AL-TIKRITI"));
    // Ta marbuta and a final h; the article before a sun letter; "Abdul" is "Abd"; a French soft c.
    expect(skeletons("فاطمة")).toEqual(skeletons("Fatima"));
    expect(skeletons("Nasir ad-Din")).toEqual(skeletons("Nasir Din"));
    expect(skeletons("Abdul Rahman")).toEqual(skeletons("عبد الرحمن"));
    expect(skeletons("جمال لونيسي")).toEqual(skeletons("DJAMEL LOUNICI"));
    // Two letters side by side are not one sound: ك + ح is what "kh" writes, ز + ح not a "zh".
    expect(skeletons("محمد لكحل")).toEqual(skeletons("MOHAMED LAKHAL"));
    expect(skeletons("مزاحم")).toEqual(skeletons("MUZAHIM"));
  });

  it("reads the letters romanizations write two ways both ways (ث th or s, ق q, gh or g)", () => {
    expect(readings("ثاقب")[0]).toEqual(expect.arrayContaining(skeletons("SAQIB").concat(skeletons("THAQIB"))));
    expect(readings("قاسمي")[0]).toEqual(
      expect.arrayContaining([...skeletons("QASEMI"), ...skeletons("GHASEMI"), ...skeletons("GASMI")]),
    );
    // A Latin word has its one reading.
    expect(readings("Saqib")).toEqual([skeletons("Saqib")]);
  });

  it("reads nothing from another script", () => {
    expect(nameSkeletons("Иван Петров")).toEqual([]);
  });
});

describe("abjadMatch", () => {
  it("accounts for every word, joined or apart", () => {
    expect(abjadMatch(readings("صدام حسين التكريتي"), skeletons("SADDAM HUSSEIN AL-TIKRITI"))?.score).toBe(ABJAD_FULL);
    const joined = abjadMatch(readings("عبد الرحمن ياسين"), skeletons("ABDULRAHMAN YASIN"));
    expect(joined?.score).toBe(ABJAD_FULL);
    expect(joined?.pairs[0]).toEqual({ query: [0, 1], listed: [0] });
  });

  it("writes the letter two joined words meet on once, and lets a title the list does not carry stand aside", () => {
    // آخوند زاده is "Akhunzada": the d/z the words meet on is one letter.
    expect(abjadMatch(readings("محمد اسحاق آخوند زاده"), skeletons("MOHAMMAD ESHAQ AKHUNZADA"))?.score).toBe(
      ABJAD_FULL,
    );
    // Haji before the name: left over, reported, and no word of the name.
    const haji = abjadMatch(readings("حاجى مالك نورزى"), skeletons("MALIK NOORZAI"));
    expect(haji?.score).toBe(ABJAD_FULL);
    expect(haji?.unmatchedQuery).toEqual([0]);
    // A title and one name are not two words of a name.
    expect(abjadMatch(readings("حاجى نورزى"), skeletons("NOORZAI"))).toBeNull();
  });

  it("matches a Persian or Maghrebi reading of a letter", () => {
    expect(abjadMatch(readings("نور محمد ثاقب"), skeletons("NOOR MOHAMMAD SAQIB"))?.score).toBe(ABJAD_FULL);
    expect(abjadMatch(readings("رستم قاسمی"), skeletons("GHASEMI, Rostam"))?.score).toBe(ABJAD_FULL);
  });

  it("allows one listed word the query leaves out, only when the query has three", () => {
    expect(abjadMatch(readings("مبارك سند البذالي"), skeletons("MUBARAK MUSHAKHAS SANAD AL-BATHALI"))?.score).toBe(
      ABJAD_PARTIAL,
    );
    expect(abjadMatch(readings("مبارك البذالي"), skeletons("MUBARAK SANAD AL-BATHALI"))).toBeNull();
  });

  it("never leaves a query word unexplained, and needs two words and five consonants", () => {
    expect(abjadMatch(readings("مبارك سند البذالي"), skeletons("MUBARAK AL-BATHALI"))).toBeNull();
    expect(abjadMatch(readings("صدام"), skeletons("SADDAM"))).toBeNull();
    // "Tariq Aziz": four consonants (t r k z) fit too many names to say who.
    expect(abjadMatch(readings("طارق عزيز"), skeletons("TARIQ AZIZ"))).toBeNull();
  });
});

describe("Arabic-script queries against Latin-only entries", () => {
  const person = (id: string, name: string) => ({
    id,
    listCode: "UN",
    entryType: "individual" as const,
    name,
    altNames: [],
    remarks: null,
  });
  const index = ScreenIndex.build([
    person("UN:IQi.001", "SADDAM HUSSEIN AL-TIKRITI"),
    person("UN:QDi.037", "ABDULRAHMAN YASIN"),
    { ...person("UN:QDe.001", "HUSSEIN TIKRITI TRADING"), entryType: "entity" as const },
  ]);

  it("finds the listed Latin spelling, with an explanation an officer can read", () => {
    const [hit, ...rest] = screen(index, { name: "صدام حسين التكريتي" });
    expect(rest).toEqual([]);
    expect(index.entries[hit?.entry ?? -1]?.id).toBe("UN:IQi.001");
    expect(hit?.score).toBe(ABJAD_FULL);
    expect(hit?.explanation).toEqual({
      matched: [
        { query: "صدام", listed: "saddam", sim: ABJAD_FULL, feature: "transliteration" },
        { query: "حسين", listed: "hussein", sim: ABJAD_FULL, feature: "transliteration" },
        { query: "التكريتي", listed: "tikriti", sim: ABJAD_FULL, feature: "transliteration" },
      ],
      unmatched_query: [],
      unmatched_listed: [],
      features: ["transliteration"],
    });
    expect(screen(index, { name: "عبد الرحمن ياسين" }).map((h) => index.entries[h.entry]?.id)).toEqual(["UN:QDi.037"]);
  });

  it("keeps to the type asked for, and answers the same every time", () => {
    expect(screen(index, { name: "صدام حسين التكريتي", type: "entity" })).toEqual([]);
    expect(screen(index, { name: "عبد الرحمن ياسين" })).toEqual(screen(index, { name: "عبد الرحمن ياسين" }));
  });

  it("flags no other name", () => {
    expect(screen(index, { name: "محمد حسين" })).toEqual([]);
    expect(screen(index, { name: "صدام" })).toEqual([]);
  });
});
