/** Strings as typed arrays: read back, looked up, restored from stored arrays, and damaged arrays refused. */
import { describe, expect, it } from "vitest";
import { HashedKeys, StringTable } from "./string-table";

const WORDS = ["putin", "vladimir", "", "gonzález", "путин", "金正恩", "imo 9187629", "a", "😀 emoji"];

describe("StringTable", () => {
  it("reads every string back, in order, whatever its script", () => {
    const t = StringTable.of(WORDS);
    expect(t.length).toBe(WORDS.length);
    expect(t.toArray()).toEqual(WORDS);
    expect(t.at(4)).toBe("путин");
    expect(t.at(8)).toBe("😀 emoji");
    expect(t.at(-1)).toBeUndefined();
    expect(t.at(WORDS.length)).toBeUndefined();
  });

  it("finds each string's position and answers -1 for strings it does not hold", () => {
    const t = StringTable.of(WORDS);
    expect(WORDS.map((w) => t.find(w))).toEqual(WORDS.map((_, i) => i));
    for (const absent of ["put", "putinn", "Putin", "путина", "金正", " "]) expect(t.find(absent)).toBe(-1);
    expect(t.has("a")).toBe(true);
    expect(t.has("b")).toBe(false);
  });

  it("answers the first position of a string listed twice", () => {
    const t = StringTable.of(["x", "y", "x"]);
    expect(t.find("x")).toBe(0);
    expect(t.at(2)).toBe("x");
  });

  it("stores UTF-8: one byte for ASCII, more for other letters", () => {
    expect(StringTable.of(["abc", "de"]).arrays().chars.length).toBe(5);
    expect(StringTable.of(["café", "Ωμέγα", "金"]).arrays().chars.length).toBe(5 + 10 + 3);
  });

  it("reads back strings longer than one chunk of characters", () => {
    const long = "ab".repeat(5000);
    const wide = "жи".repeat(5000);
    expect(StringTable.of(["x", long, wide]).toArray()).toEqual(["x", long, wide]);
  });

  it("makes no lookup slots when not searchable", () => {
    const t = StringTable.of(WORDS, { searchable: false });
    expect(t.arrays().slots.length).toBe(0);
    expect(t.find("putin")).toBe(-1);
    expect(t.at(0)).toBe("putin");
  });

  it("holds an empty list", () => {
    const t = StringTable.of([]);
    expect(t.length).toBe(0);
    expect(t.find("x")).toBe(-1);
  });

  it("is restored from its arrays (copies, as from a stored object) with the same answers", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `key${i * 7919}`);
    const a = StringTable.of(many).arrays();
    const restored = StringTable.restore({ chars: a.chars.slice(), start: a.start.slice(), slots: a.slots.slice() });
    expect(restored).not.toBeNull();
    expect(restored?.find("key7919")).toBe(1);
    expect(restored?.find("key7918")).toBe(-1);
    expect(restored?.at(4999)).toBe(many[4999]);
  });

  it("refuses arrays that do not describe a table", () => {
    const { chars, start, slots } = StringTable.of(["ab", "cd", "ef"]).arrays();
    const bad = [
      { chars: chars.slice(0, 5), start, slots }, // characters missing
      { chars, start: Int32Array.from([0, 4, 2, 6]), slots }, // offsets going back
      { chars, start: Int32Array.from([1, 2, 4, 6]), slots }, // not starting at 0
      { chars, start, slots: new Int32Array(6) }, // not a power of two
      { chars, start, slots: Int32Array.from([1, 2, 3, 1]) }, // no empty slot: a miss would never stop
      { chars, start, slots: Int32Array.from([0, 9, 0, 0, 0, 0, 0, 0]) }, // a position outside the table
      { chars, start: new Int32Array(0), slots }, // no offsets at all
    ];
    for (const arrays of bad) expect(StringTable.restore(arrays)).toBeNull();
  });
});

describe("HashedKeys", () => {
  it("names each key's position among its candidates, and none for most absent keys", () => {
    const keys = Array.from({ length: 3000 }, (_, i) => `name ${i} ${"ж".repeat(i % 3)}`);
    const h = HashedKeys.of(keys);
    expect(h.length).toBe(3000);
    keys.forEach((k, i) => {
      expect(h.candidates(k)).toContain(i);
    });
    const strays = Array.from({ length: 500 }, (_, i) => `absent ${i}`).filter((k) => h.candidates(k).length > 0);
    expect(strays.length).toBeLessThan(3);
  });

  it("is restored from its arrays, and refuses arrays that do not describe keys", () => {
    const { hashes, slots } = HashedKeys.of(["a", "b", "c"]).arrays();
    expect(HashedKeys.restore({ hashes: hashes.slice(), slots: slots.slice() })?.candidates("b")).toEqual([1]);
    expect(HashedKeys.restore({ hashes, slots: new Uint16Array(3) })).toBeNull();
    expect(HashedKeys.restore({ hashes, slots: Uint16Array.from([1, 2, 3, 1]) })).toBeNull();
    expect(HashedKeys.restore({ hashes, slots: Uint16Array.from([0, 7, 0, 0]) })).toBeNull();
  });
});
