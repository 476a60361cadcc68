/** The ECB reference rate parsers: the daily CSV, the historical CSV layout and the XML feed. */
import { describe, expect, it } from "vitest";
import dailyCsv from "../../../test/fixtures/datasets/eurofxref.csv?raw";
import dailyXml from "../../../test/fixtures/datasets/eurofxref-daily.xml?raw";
import { chunks, collect } from "../../../test/streams";
import { ecbCsvRates, ecbDate, ecbXmlRates, type FxRate } from "./fx";
import type { ParseIssue } from "./sanctions";

describe("ECB reference rates", () => {
  it("reads the daily CSV (long dates, spaces, trailing comma) and the XML feed to the same rates", async () => {
    const csv = await collect(ecbCsvRates(chunks(dailyCsv, 37)));
    const xml = await collect(ecbXmlRates(chunks(dailyXml, 29)));
    expect(csv).toHaveLength(29);
    expect(csv[0]).toEqual({ currency: "USD", date: "2026-04-13", rate: "1.1684" });
    expect(xml).toEqual(csv);
  });

  it("reads the historical CSV layout, skipping N/A and empty cells", async () => {
    const hist = "Date,USD,JPY,CYP,\n2026-04-13,1.1684,186.75,N/A,\n2026-04-10,1.1702,,N/A,\n";
    const rates = await collect(ecbCsvRates(chunks(hist, 5)));
    expect(rates).toEqual<FxRate[]>([
      { currency: "USD", date: "2026-04-13", rate: "1.1684" },
      { currency: "JPY", date: "2026-04-13", rate: "186.75" },
      { currency: "USD", date: "2026-04-10", rate: "1.1702" },
    ]);
  });

  it("reports unreadable rows and refuses what is not an ECB file", async () => {
    const issues: ParseIssue[] = [];
    const rates = await collect(ecbCsvRates(chunks("Date,USD\n31 February 2026,1.1\n2026-04-13,abc\n", 8), issues));
    expect(rates).toEqual([]);
    expect(issues).toHaveLength(2);
    await expect(collect(ecbCsvRates(chunks("name,price\nx,1\n", 8)))).rejects.toThrow(/first column/);
    await expect(collect(ecbXmlRates(chunks("<rates><rate/></rates>", 8)))).rejects.toThrow(/root element/);
    expect(ecbDate("13 April 2026")).toBe("2026-04-13");
    expect(ecbDate("2026-02-30")).toBeNull();
  });
});
