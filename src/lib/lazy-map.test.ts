/** The map that loads its entries a part at a time: what reads load which parts, and that it behaves as a Map. */
import { describe, expect, it } from "vitest";
import { PartitionedMap } from "./lazy-map";

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
