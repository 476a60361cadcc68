/** The official-format parsers: chunk boundaries anywhere, OFAC's three files joined, the UN XML streamed. */
import { describe, expect, it } from "vitest";
import add from "../../../test/fixtures/datasets/add.csv?raw";
import alt from "../../../test/fixtures/datasets/alt.csv?raw";
import sdn from "../../../test/fixtures/datasets/sdn.csv?raw";
import unXml from "../../../test/fixtures/datasets/un-consolidated.xml?raw";
import { chunks, collect } from "../../../test/streams";
import { CsvReader, parseCsvText } from "./csv";
import { entryHash, ofacEntries, type ParseIssue, type SanctionEntry, unEntries } from "./sanctions";

describe("CsvReader", () => {
  const text = 'a,"b ""quoted"", c",d\r\n"multi\r\nline",,x\n1,2,3';
  const whole = parseCsvText(text);

  it("parses quotes, doubled quotes, embedded newlines, CRLF and LF, and a last line without a newline", () => {
    expect(whole).toEqual([
      ["a", 'b "quoted", c', "d"],
      ["multi\r\nline", "", "x"],
      ["1", "2", "3"],
    ]);
  });

  it("gives the same records whatever the chunk boundaries", () => {
    for (let size = 1; size <= text.length; size++) {
      const r = new CsvReader();
      const out: string[][] = [];
      for (let i = 0; i < text.length; i += size) out.push(...r.push(text.slice(i, i + size)));
      out.push(...r.end());
      expect(out, `chunk size ${size}`).toEqual(whole);
    }
  });
});

describe("OFAC legacy CSV", () => {
  it("joins sdn.csv with its aliases and addresses, and keeps parties known only from alias rows", async () => {
    const issues: ParseIssue[] = [];
    const entries = await collect(
      ofacEntries({
        sdn: chunks(sdn, 977),
        alt: chunks(alt, 311),
        add: chunks(add, 503),
        issues,
        sdnDate: "2024-05-03",
      }),
    );
    expect(issues).toEqual([]);
    expect(entries).toHaveLength(62);
    const bnc = entries.find((e) => e.ref === "306") as SanctionEntry;
    expect(bnc).toMatchObject({ name: "BANCO NACIONAL DE CUBA", type: "entity", programs: ["CUBA"] });
    expect(bnc.remarks).toContain("a.k.a. 'BNC'");
    const gpb = entries.find((e) => e.ref === "17016") as SanctionEntry;
    expect(gpb.type).toBe("unknown");
    expect(gpb.alt_names.length).toBeGreaterThan(0);
    expect(gpb.addresses.length).toBeGreaterThan(0);
    expect(gpb.remarks).toContain("2024-05-03");
  });

  it("reports records that are not SDN rows instead of inventing entries", async () => {
    const issues: ParseIssue[] = [];
    const entries = await collect(ofacEntries({ sdn: chunks("name,price\nwidget,3\n", 64), issues }));
    expect(entries).toEqual([]);
    expect(issues.map((i) => i.record)).toEqual([1, 2]);
  });
});

describe("UN consolidated list XML", () => {
  it("streams individuals and entities, with the file's own date", async () => {
    const info = { dateGenerated: null as string | null };
    const entries = await collect(unEntries(chunks(unXml, 1000), info));
    expect(info.dateGenerated).toBe("2025-11-18T23:00:09.174Z");
    expect(entries).toHaveLength(12);
    expect(entries.filter((e) => e.type === "individual")).toHaveLength(8);
    expect(entries[0]).toMatchObject({ ref: "CDi.001", name: "ERIC BADEGE", programs: ["DRC"] });
    // The same entries whatever the chunk size (a tag or an entity reference cut in two).
    const small = await collect(unEntries(chunks(unXml, 7)));
    expect(small).toEqual(entries);
  });

  it("refuses a document that is not the UN list, and malformed XML", async () => {
    await expect(collect(unEntries(chunks("<root><a>1</a></root>", 5)))).rejects.toThrow(/root element is <root>/);
    await expect(
      collect(unEntries(chunks('<CONSOLIDATED_LIST dateGenerated="x"><INDIVIDUALS><INDIVIDUAL>', 8))),
    ).rejects.toThrow();
    await expect(collect(unEntries(chunks("", 8)))).rejects.toThrow(/root element/);
  });
});

describe("entryHash", () => {
  it("is stable for the same content and changes with any field", async () => {
    const [e] = await collect(unEntries(chunks(unXml, 4096)));
    const base = e as SanctionEntry;
    expect(entryHash({ ...base })).toBe(entryHash(base));
    expect(entryHash({ ...base, alt_names: [...base.alt_names, "X"] })).not.toBe(entryHash(base));
    expect(entryHash({ ...base, remarks: "changed" })).not.toBe(entryHash(base));
  });
});
