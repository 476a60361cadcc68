/** The HS nomenclature parser on UN Comtrade's classification labels. */
import { describe, expect, it } from "vitest";
import csv from "../../../test/fixtures/datasets/harmonized-system.csv?raw";
import { chunks } from "../../../test/streams";
import { hsNomenclature } from "./hs";
import type { ParseIssue } from "./sanctions";

describe("HS classification labels", () => {
  it("reads chapters, headings and subheadings in any chunking, without Comtrade's TOTAL rows", async () => {
    const rows = await hsNomenclature(chunks(csv, 61));
    expect(rows).toHaveLength(156);
    expect(rows[0]).toEqual(["61", null, "XI", "Apparel and clothing accessories; knitted or crocheted"]);
    expect(rows.find((r) => r[0] === "610910")?.[1]).toBe("6109");
    expect(rows.some((r) => r[0] === "99" || r[0] === "TOTAL")).toBe(false);
    expect(await hsNomenclature(chunks(csv, 4096))).toEqual(rows);
  });

  it("reports codes off the tree and refuses a file without the columns", async () => {
    const issues: ParseIssue[] = [];
    await hsNomenclature(chunks(csv.replace(",6109,6", ",6110,6"), 50), issues);
    expect(issues.map((i) => i.message)).toContain('610910: parent "6110" is not 6109');
    await expect(hsNomenclature(chunks("code,label\n01,Animals\n", 8))).rejects.toThrow(/no column section/);
  });
});
