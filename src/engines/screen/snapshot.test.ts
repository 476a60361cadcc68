/**
 * The stored screening index: restored from its bytes it answers exactly as the built one (names, entries,
 * identifiers), and an object whose arrays do not fit together is refused rather than trusted.
 */
import { describe, expect, it } from "vitest";
import { pack, unpack } from "../../lib/pack";
import { type IndexInput, ScreenIndex, screen } from "./index";
import { deserializeScreenIndex, serializeScreenIndex } from "./snapshot";

const INPUT: IndexInput[] = [
  {
    id: "SDN:1",
    listCode: "SDN",
    entryType: "individual",
    name: "IVANOV, Sergei Petrovich",
    altNames: ["ИВАНОВ Сергей Петрович"],
    remarks: "Passport 7706107510 (Russia)",
  },
  {
    id: "SDN:2",
    listCode: "SDN",
    entryType: "vessel",
    name: "OCEAN STAR",
    altNames: [],
    remarks: "IMO 9187629",
  },
  {
    id: "UN:3",
    listCode: "UN",
    entryType: "entity",
    name: "Banco Nacional de Cuba",
    altNames: ["BNC"],
    remarks: "Low-quality a.k.a. (exact match only): [La Banca]",
  },
];

const QUERIES = [
  "Sergei Petrovich Ivanov",
  "Сергей Иванов",
  "Ocean Star IMO 9187629",
  "passport 7706107510",
  "Banco Nacional",
  "La Banca",
];

const answers = (index: ScreenIndex) =>
  QUERIES.map((name) => screen(index, { name }).map((h) => [index.entries[h.entry]?.id, h.score, h.matchedName]));

describe("screening index snapshot", () => {
  const built = ScreenIndex.build(INPUT);
  const bytes = serializeScreenIndex(built, { lists: ["SDN", "UN"] }, "v1");

  it("restores to the same answers, entries and extra", () => {
    const restored = deserializeScreenIndex<{ lists: string[] }>(bytes.slice().buffer, "v1");
    if ("refused" in restored) throw new Error(restored.refused);
    expect(answers(restored.index)).toEqual(answers(built));
    for (const hits of answers(built)) expect(hits.length).toBeGreaterThan(0);
    expect(restored.index.entries).toEqual(INPUT.map(({ id, listCode, entryType }) => ({ id, listCode, entryType })));
    expect(restored.index.entryTypeOf(1)).toBe("vessel");
    expect(restored.extra).toEqual({ lists: ["SDN", "UN"] });
  });

  it("refuses another version", () => {
    expect(deserializeScreenIndex(bytes.slice().buffer, "v2")).toEqual({ refused: "version v1" });
  });

  /** The stored object with one array replaced. */
  function tampered(name: string, replace: (a: Int32Array | Uint8Array | Uint16Array) => typeof a): ArrayBuffer {
    const u = unpack(bytes.slice().buffer, "screen-index/9", "v1");
    if ("refused" in u) throw new Error(u.refused);
    const arrays = { ...u.arrays } as Record<string, Int32Array | Uint8Array | Uint16Array>;
    arrays[name] = replace((arrays[name] as Int32Array).slice());
    return pack("screen-index/9", "v1", u.meta, arrays).slice().buffer;
  }

  it.each([
    ["a posting naming a name that does not exist", "postingIds", (a: Int32Array) => a.fill(1e6)],
    ["a key table whose lengths do not cover its bytes", "keys.start", (a: Int32Array) => a.fill(0)],
    ["a name table missing its last characters", "nameText.chars", (a: Int32Array) => a.subarray(0, a.length - 1)],
    ["an entry type out of range", "entryType", (a: Int32Array) => a.fill(9)],
    ["lookup slots with none left empty", "exact.slots", (a: Int32Array) => a.fill(1)],
  ])("refuses %s", (_what, name, replace) => {
    const out = deserializeScreenIndex(tampered(name, replace as never), "v1");
    expect(out).toHaveProperty("refused");
  });

  it("restores which names are low-quality aliases, and refuses a boundary past the names", () => {
    const restored = deserializeScreenIndex(bytes.slice().buffer, "v1");
    if ("refused" in restored) throw new Error(restored.refused);
    expect(screen(restored.index, { name: "La Banca" })[0]?.score).toBe(0.75);
    const u = unpack(bytes.slice().buffer, "screen-index/9", "v1");
    if ("refused" in u) throw new Error(u.refused);
    const meta = { ...(u.meta as object), weakFrom: 1e6 };
    const out = deserializeScreenIndex(pack("screen-index/9", "v1", meta, u.arrays).slice().buffer, "v1");
    expect(out).toHaveProperty("refused");
  });

  it("refuses an object without one of its tables", () => {
    const u = unpack(bytes.slice().buffer, "screen-index/9", "v1");
    if ("refused" in u) throw new Error(u.refused);
    const { "grams.slots": _, ...rest } = u.arrays;
    const out = deserializeScreenIndex(pack("screen-index/9", "v1", u.meta, rest).slice().buffer, "v1");
    expect(out).toEqual({ refused: "table grams is missing" });
  });
});
