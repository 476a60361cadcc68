/** OFAC's advanced XML: the legacy entry shape from the cross-referenced tables, in any chunking. */
import { describe, expect, it } from "vitest";
import xml from "../../../test/fixtures/datasets/sdn_advanced.xml?raw";
import { chunks, collect } from "../../../test/streams";
import { ofacAdvancedEntries } from "./ofac-advanced";
import type { ParseIssue } from "./sanctions";

describe("OFAC advanced XML", () => {
  it("reads parties with their programmes (listed after them), addresses, documents and scripts", async () => {
    const issues: ParseIssue[] = [];
    const info = { dateOfIssue: null as string | null };
    const entries = await collect(ofacAdvancedEntries(chunks(xml, 257), issues, info));
    expect(info.dateOfIssue).toBe("2024-05-03");
    expect(entries.map((e) => e.ref)).toEqual(["36", "2676", "17016"]);
    // The same entry as the legacy CSV trio gives for 36, so a switch of format diffs as unchanged.
    expect(entries[0]).toEqual({
      ref: "36",
      name: "AEROCARIBBEAN AIRLINES",
      alt_names: ["AERO-CARIBBEAN"],
      type: "entity",
      programs: ["CUBA"],
      addresses: [{ city: "Havana", country: "Cuba" }],
      remarks: null,
    });
    expect(entries[1]).toMatchObject({
      name: "AL ZAWAHIRI, Dr. Ayman",
      type: "individual",
      alt_names: [],
      remarks:
        "DOB 1951-06-19; POB Giza, Egypt; Passport 1084010 (Egypt); Passport 19820215; Low-quality a.k.a. (exact match only): [Abu Mohammed]",
    });
    expect(entries[2]?.alt_names).toEqual(["ГАЗПРОМБАНК", "GAZPROMBANK"]);
    expect(entries[2]?.programs).toEqual(["UKRAINE-EO13662", "RUSSIA-EO14024"]);
    expect(issues).toEqual([{ record: 4, message: "DistinctParty 99999: no name" }]);
    expect(await collect(ofacAdvancedEntries(chunks(xml, 4096)))).toEqual(entries);
  });

  it("refuses a document that is not OFAC's", async () => {
    await expect(collect(ofacAdvancedEntries(chunks("<CONSOLIDATED_LIST/>", 8)))).rejects.toThrow(/<Sanctions>/);
    await expect(collect(ofacAdvancedEntries(chunks("<Sanctions><DistinctParties>", 8)))).rejects.toThrow();
  });
});
