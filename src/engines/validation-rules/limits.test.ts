import { describe, expect, it } from "vitest";
import type { Condition } from "./evaluate";
import { conditionLimitProblem, MAX_CONDITION_BYTES, MAX_CONDITION_DEPTH, MAX_CONDITION_NODES } from "./limits";

const leaf: Condition = { field: "incoterm", op: "present" };
/** The shortest leaf (28 bytes), so the node limit is reached well within the byte limit. */
const tiny: Condition = { field: "a", op: "present" };
const nested = (levels: number): unknown => {
  let c: unknown = leaf;
  for (let i = 1; i < levels; i++) c = { not: c };
  return c;
};

describe("condition limits", () => {
  it("accepts a condition at the depth limit and refuses one level more", () => {
    expect(conditionLimitProblem(nested(MAX_CONDITION_DEPTH))).toBeNull();
    expect(conditionLimitProblem(nested(MAX_CONDITION_DEPTH + 1))).toMatch(/more than 32 levels/);
  });

  it("walks a million levels without recursing (refused, no stack overflow)", () => {
    expect(conditionLimitProblem(nested(1_000_000))).toMatch(/more than 32 levels/);
  });

  it("counts every leaf and group, and refuses a huge group without walking it", () => {
    const groupOf = (n: number) => ({ all: Array.from({ length: n }, () => tiny) });
    expect(conditionLimitProblem(groupOf(MAX_CONDITION_NODES - 1))).toBeNull(); // 499 leaves + the group
    expect(conditionLimitProblem(groupOf(MAX_CONDITION_NODES))).toMatch(/more than 500 conditions/);
    expect(conditionLimitProblem(groupOf(1_000_000))).toMatch(/more than 500 conditions/);
    const wide = { any: [groupOf(300), groupOf(300)] };
    expect(conditionLimitProblem(wide)).toMatch(/more than 500 conditions/);
  });

  it("refuses a condition over the byte limit, counting UTF-8 bytes", () => {
    const within = { field: "incoterm", op: "in", value: ["x".repeat(MAX_CONDITION_BYTES - 100)] };
    expect(conditionLimitProblem(within)).toBeNull();
    const over = { field: "incoterm", op: "in", value: ["é".repeat(MAX_CONDITION_BYTES / 2)] };
    expect(conditionLimitProblem(over)).toMatch(/bytes as JSON \(the limit is 16384 bytes\)/);
  });

  it("leaves malformed shapes to the schema", () => {
    expect(conditionLimitProblem({ all: "not a list" })).toBeNull();
    expect(conditionLimitProblem(42)).toBeNull();
  });
});
