/** The EU, UK and US Consolidated Screening List parsers on format fixtures, at any chunk size. */
import { describe, expect, it } from "vitest";
import csl from "../../../test/fixtures/datasets/csl.csv?raw";
import eu from "../../../test/fixtures/datasets/eu-fsf.xml?raw";
import uk from "../../../test/fixtures/datasets/uk-sanctions-list.xml?raw";
import { chunks, collect } from "../../../test/streams";
import { cslEntries, euEntries, ukEntries } from "./lists";
import type { ParseIssue } from "./sanctions";

describe("EU consolidated list XML", () => {
  it("reads persons and enterprises: strong names screened, weak ones in remarks, ids and births kept", async () => {
    const info = { generated: null as string | null };
    const issues: ParseIssue[] = [];
    const entries = await collect(euEntries(chunks(eu, 97), info, issues));
    expect(info.generated).toBe("2026-08-05T16:47:04.449+02:00");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      ref: "EU.27.28",
      name: "Saddam Hussein Al-Tikriti",
      alt_names: [],
      type: "individual",
      programs: ["IRQ"],
    });
    expect(entries[0]?.remarks).toContain("Low-quality a.k.a. (exact match only): [Abu Ali]");
    expect(entries[0]?.remarks).toContain("DOB 1937-04-28");
    expect(entries[1]).toMatchObject({ ref: "EU.13875.42", type: "entity", programs: ["IRN"] });
    expect(entries[1]?.remarks).toContain("SWIFT BIC SCERIRTHKSH");
    expect(entries[1]?.addresses).toEqual([{ city: "Tehran", country: "IRAN (ISLAMIC REPUBLIC OF)" }]);
    expect(issues).toHaveLength(1);
    expect(await collect(euEntries(chunks(eu, 5)))).toEqual(entries);
  });
});

describe("UK Sanctions List XML", () => {
  it("joins name parts, keeps variations and non-Latin names as aliases, maps types", async () => {
    const info = { generated: null as string | null };
    const entries = await collect(ukEntries(chunks(uk, 61), info));
    expect(info.generated).toBe("08/10/2026");
    expect(entries.map((e) => [e.ref, e.name, e.type])).toEqual([
      ["AFG0006", "MOHAMMAD HASSAN AKHUND", "individual"],
      ["RUS0251", "Vladimir Vladimirovich PUTIN", "individual"],
      ["RUS3064", "PJSC Rosneft Oil Company", "entity"],
    ]);
    expect(entries[0]?.alt_names).toEqual(["Mullah Mohammad Hassan", "محمد حسن آخوند"]);
    expect(entries[0]?.remarks).toContain("UN reference TAi.002");
    expect(entries[1]?.addresses).toEqual([{ address: "The Kremlin", city: "Moscow", country: "Russia" }]);
    expect(entries[2]?.alt_names).toEqual(["ROSNEFT"]);
    expect(await collect(ukEntries(chunks(uk, 3)))).toEqual(entries);
  });
});

describe("US Consolidated Screening List CSV", () => {
  it("reads rows by header name, the source list first among the programmes", async () => {
    const entries = await collect(cslEntries(chunks(csl, 50)));
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      name: "ADRIAN MANUEL HERNANDEZ",
      type: "unknown",
      programs: ["Denied Persons List (DPL) - Bureau of Industry and Security"],
    });
    expect(entries[1]).toMatchObject({
      name: "Huawei Technologies Co., Ltd.",
      alt_names: ["Huawei", "Huawei Technologies"],
    });
    expect(entries[2]).toMatchObject({
      name: "BANCO NACIONAL DE CUBA",
      type: "entity",
      alt_names: ["NATIONAL BANK OF CUBA"],
    });
    expect(entries[2]?.programs).toEqual(["Specially Designated Nationals (SDN) - Treasury Department", "CUBA"]);
  });

  it("refuses files that are not what they claim", async () => {
    await expect(collect(cslEntries(chunks("a,b\n1,2\n", 4)))).rejects.toThrow(/no "source" column/);
    await expect(collect(euEntries(chunks("<Designations/>", 4)))).rejects.toThrow(/not <export>/);
    await expect(collect(ukEntries(chunks('<export xmlns="x"/>', 4)))).rejects.toThrow(/not <Designations>/);
  });
});
