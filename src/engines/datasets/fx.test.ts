/** The ECB reference rate parsers: the daily CSV, the historical CSV layout and the XML feed. */
import { describe, expect, it } from "vitest";
import dailyCsv from "../../../test/fixtures/datasets/eurofxref.csv?raw";
import dailyXml from "../../../test/fixtures/datasets/eurofxref-daily.xml?raw";
import hmrcXml from "../../../test/fixtures/datasets/hmrc-exrates-monthly-0626.xml?raw";
import { chunks, collect } from "../../../test/streams";
import { type CustomsRate, ecbCsvRates, ecbDate, ecbXmlRates, type FxRate, hmrcXmlRates } from "./fx";
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

describe("HMRC monthly exchange rates", () => {
  it("reads the month's period and one rate per currency (a currency quoted for several countries once)", async () => {
    const issues: ParseIssue[] = [];
    const rates = await collect(hmrcXmlRates(chunks(hmrcXml, 23), issues));
    const june = { periodStart: "2026-06-01", periodEnd: "2026-06-30" };
    expect(rates).toEqual<CustomsRate[]>([
      { currency: "EUR", rate: "1.1800", ...june },
      { currency: "USD", rate: "1.2500", ...june },
      { currency: "JPY", rate: "200.00", ...june },
      { currency: "CNY", rate: "9.0000", ...june },
    ]);
    expect(issues).toEqual([]);
  });

  it("reports an unreadable or conflicting rate and refuses what is not HMRC's layout", async () => {
    const doc = (rows: string) =>
      `<exchangeRateMonthList Period="01/Jul/2026 to 31/Jul/2026">${rows}</exchangeRateMonthList>`;
    const row = (code: string, rate: string) =>
      `<exchangeRate><countryName>X</countryName><currencyCode>${code}</currencyCode><rateNew>${rate}</rateNew></exchangeRate>`;
    const issues: ParseIssue[] = [];
    const rates = await collect(
      hmrcXmlRates(chunks(doc(row("USD", "1.3") + row("USD", "1.4") + row("XX", "2") + row("JPY", "n/a")), 7), issues),
    );
    expect(rates).toEqual([{ currency: "USD", rate: "1.3", periodStart: "2026-07-01", periodEnd: "2026-07-31" }]);
    expect(issues.map((i) => i.message)).toEqual([
      "USD quoted twice (1.3, 1.4): the first is kept",
      'X XX: unreadable rate "2"',
      'X JPY: unreadable rate "n/a"',
    ]);
    await expect(collect(hmrcXmlRates(chunks("<gesmes:Envelope/>", 5)))).rejects.toThrow(/root element/);
    await expect(
      collect(hmrcXmlRates(chunks('<exchangeRateMonthList Period="June 2026"></exchangeRateMonthList>', 9))),
    ).rejects.toThrow(/unreadable Period/);
  });
});
