/** The maps that load their entries on demand: what reads load what, and that they behave as Maps. */
import { describe, expect, it } from "vitest";
import { PartitionedMap, TableMap } from "./lazy-map";
import { StringTable } from "./string-table";

function byFirstLetter() {
  const loaded: string[] = [];
  const part = (name: string, entries: [string, number][]) =>
    [
      name,
      () => {
        loaded.push(name);
        return entries;
      },
    ] as [string, () => [string, number][]];
  const map = new PartitionedMap(
    (k: string) => k[0] ?? "",
    [
      part("a", [
        ["apple", 1],
        ["avocado", 2],
      ]),
      part("b", [["banana", 3]]),
      part("c", [["cherry", 4]]),
    ],
  );
  return { map, loaded };
}

describe("PartitionedMap", () => {
  it("loads only the part a get or has needs, once", () => {
    const { map, loaded } = byFirstLetter();
    expect(loaded).toEqual([]);
    expect(map.get("banana")).toBe(3);
    expect(map.has("blueberry")).toBe(false);
    expect(map.get("apple")).toBe(1);
    expect(loaded).toEqual(["b", "a"]);
    expect(map.get("zucchini")).toBeUndefined(); // no such part: nothing loaded
    expect(loaded).toEqual(["b", "a"]);
  });

  it("walks every part when iterated or counted, in the parts' order after those already loaded", () => {
    const { map, loaded } = byFirstLetter();
    map.get("cherry");
    expect(map.size).toBe(4);
    expect([...map.keys()].sort()).toEqual(["apple", "avocado", "banana", "cherry"]);
    expect(new Map(map)).toEqual(
      new Map([
        ["cherry", 4],
        ["apple", 1],
        ["avocado", 2],
        ["banana", 3],
      ]),
    );
    expect(loaded).toEqual(["c", "a", "b"]);
  });

  it("keeps a set or a delete against the part's loaded entries", () => {
    const { map } = byFirstLetter();
    map.set("apricot", 5);
    map.delete("avocado");
    expect([...map.entries()].filter(([k]) => k.startsWith("a"))).toEqual([
      ["apple", 1],
      ["apricot", 5],
    ]);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get("banana")).toBeUndefined();
  });
});

describe("TableMap", () => {
  function squares() {
    const made: number[] = [];
    const map = new TableMap(StringTable.of(["one", "two", "three"]), (i) => {
      made.push(i);
      return (i + 1) ** 2;
    });
    return { map, made };
  }

  it("makes an entry on its first read, once, and nothing for keys the table lacks", () => {
    const { map, made } = squares();
    expect(map.get("two")).toBe(4);
    expect(map.get("two")).toBe(4);
    expect(map.has("three")).toBe(true);
    expect(map.get("four")).toBeUndefined();
    expect(map.has("four")).toBe(false);
    expect(made).toEqual([1, 2]);
  });

  it("walks as a Map of every entry, in the table's order", () => {
    const { map, made } = squares();
    map.get("three");
    expect([...map]).toEqual([
      ["one", 1],
      ["two", 4],
      ["three", 9],
    ]);
    expect(map.size).toBe(3);
    expect(made.sort()).toEqual([0, 1, 2]);
  });

  it("keeps writes: a deleted entry is not made again, a replaced one keeps its value", () => {
    const { map } = squares();
    map.delete("one");
    map.set("two", 40);
    expect(map.has("one")).toBe(false);
    expect([...map]).toEqual([
      ["two", 40],
      ["three", 9],
    ]);
    map.clear();
    expect(map.get("three")).toBeUndefined();
    expect(map.size).toBe(0);
  });
});
