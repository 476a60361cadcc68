/** The USITC tariff database parser: the published pipe-delimited layout and the CSV, rates, dates, refusals. */
import { describe, expect, it } from "vitest";
import txt from "../../../test/fixtures/datasets/usitc-tariff.txt?raw";
import bad from "../../../test/fixtures/datasets/usitc-tariff-bad.txt?raw";
import { chunks, collect } from "../../../test/streams";
import { customsTables, vatTables } from "./reference";
import type { ParseIssue } from "./sanctions";
import { usitcComponents, usitcDate, usitcLines } from "./usitc";

/** The same records with commas (fields quoted where they hold one), as the CSV edition writes them. */
const asCsv = (text: string) =>
  text
    .split("\r\n")
    .map((l) =>
      l
        .split("|")
        .map((f) => (/[",]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f))
        .join(","),
    )
    .join("\n");

describe("USITC tariff database", () => {
  it("reads the pipe-delimited file in any chunking, and the CSV edition to the same lines", async () => {
    const lines = await collect(usitcLines(chunks(txt, 113)));
    expect(lines.map((l) => l.code).sort()).toEqual(["22042150", "61091000", "61099010", "64029990"]);
    const by = (code: string) => lines.find((l) => l.code === code);
    const tee = by("61091000");
    expect(tee).toMatchObject({ mfnText: "18%", mfn: [["av", "0.18"]], q1: "DOZ", validTo: null });
    expect(tee?.special?.AU).toEqual([]);
    expect(tee?.col2).toEqual([["av", "0.9"]]);
    // Wine: a specific rate per litre (rate type 1 on Q1).
    expect(by("22042150")?.mfn).toEqual([["sp", "0.063", "L"]]);
    expect(await collect(usitcLines(chunks(asCsv(txt), 97)))).toEqual(lines);
  });

  it("reports a record that does not read and refuses a file that is not the database", async () => {
    const issues: ParseIssue[] = [];
    const lines = await collect(usitcLines(chunks(bad, 500), issues));
    expect(lines).toHaveLength(4);
    expect(issues).toEqual([{ record: 5, message: 'hts8 "6109901" is not 8 digits' }]);
    await expect(collect(usitcLines(chunks("code,rate\n0101,Free\n", 10)))).rejects.toThrow(/no column hts8/);
    await expect(collect(usitcLines(chunks("", 10)))).rejects.toThrow(/empty/);
  });

  it("dates and rate components follow the database's own codes", () => {
    expect(usitcDate("1/1/21")).toBe("2021-01-01");
    expect(usitcDate("07/09/2025")).toBe("2025-07-09");
    expect(usitcDate("12/31/2050", true)).toBeNull();
    expect(() => usitcDate("2025/13/01")).toThrow(/not a date/);
    expect(usitcComponents("6", "0.05", "1.2", "0.3", "KG", "NO")).toEqual([
      ["sp", "1.2", "KG"],
      ["av", "0.05"],
      ["sp", "0.3", "NO"],
    ]);
    expect(usitcComponents("7", "9999.999999", "", "", "", "")).toBeNull();
    expect(usitcComponents("K", "", "", "", "", "")).toBeNull();
    expect(() => usitcComponents("7", "five", "", "", "", "")).toThrow(/not a rate/);
  });
});

describe("curated VAT and customs files", () => {
  it("maps rows to the live tables' columns and reports the rows that do not fit", () => {
    const issues: ParseIssue[] = [];
    const tables = vatTables(
      {
        rates: {
          columns: ["country", "region", "name", "valid_from", "valid_to", "standard", "reduced"],
          rows: [
            ["DE", "", "VAT", "2007-01-01", null, "19", { reduced: "7" }],
            ["FR", "", "TVA", "2014-01-01", "2013-01-01", "20", null],
          ],
        },
        rules: { rows: [] },
      },
      issues,
    );
    expect(tables.calc_vat_rates?.rows).toEqual([["DE", "", "VAT", "2007-01-01", null, "19", '{"reduced":"7"}']]);
    expect(issues[0]?.message).toMatch(/vat-rates row 2: row: valid_to is before valid_from/);
    expect(() => vatTables({ rates: { columns: ["country"], rows: [] }, rules: { rows: [] } })).toThrow(
      /columns must be/,
    );
    const customs = customsTables({
      de_minimis: { rows: [] },
      fees: {
        rows: [
          {
            country: "US",
            code: "MPF",
            name: "Merchandise Processing Fee",
            rate: "0.003464",
            min: "32.71",
            max: "634.62",
            currency: "USD",
            transport_mode: null,
            valid_from: "2025-10-01",
            valid_to: null,
            source_url: "https://www.ecfr.gov/current/title-19/section-24.23",
            exempt_programs: ["S", "AU"],
            estimated: true,
          },
        ],
      },
      excise: { rows: [] },
    });
    const row = customs.calc_fees?.rows[0] as unknown[];
    const col = (name: string) => row[(customs.calc_fees?.columns ?? []).indexOf(name)];
    expect([col("exempt_programs"), col("estimated"), col("note")]).toEqual(['["S","AU"]', 1, null]);
  });

  it("reads an excise band worded either way, and refuses a band with two lower ends", () => {
    const band = (extra: Record<string, unknown>) => ({
      country: "GB",
      code: "UK AD beer",
      name: "Alcohol Duty, beer",
      hs_prefix: "2203",
      rate: "22.58",
      unit: "litre_alcohol",
      currency: "GBP",
      abv_over: null,
      abv_max: null,
      valid_from: "2026-02-01",
      valid_to: null,
      source_url: "https://www.gov.uk/government/publications/alcohol-duty-rates-change",
      ...extra,
    });
    const read = (rows: unknown[]) => {
      const issues: ParseIssue[] = [];
      return { issues, t: customsTables({ de_minimis: { rows: [] }, fees: { rows: [] }, excise: { rows } }, issues) };
    };
    const { t, issues } = read([band({ abv_min: "3.5", abv_below: "8.5" })]);
    expect(issues).toEqual([]);
    const row = t.calc_excise?.rows[0] as unknown[];
    const col = (name: string) => row[(t.calc_excise?.columns ?? []).indexOf(name)];
    expect([col("abv_over"), col("abv_min"), col("abv_max"), col("abv_below"), col("unit")]).toEqual([
      null,
      "3.5",
      null,
      "8.5",
      "litre_alcohol",
    ]);
    const refused = read([band({ abv_over: "1.2", abv_min: "3.5" })]);
    expect(JSON.stringify(refused.issues)).toContain("one lower end");
    expect(refused.t.calc_excise?.rows).toEqual([]);
  });
});
