import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, isUniqueViolation } from "../src/db/client";
import { consignments } from "../src/db/schema/index";

describe("createDb", () => {
  it("hands out one instance per D1 binding (building one walks the whole schema)", () => {
    const a = createDb(env.DB);
    expect(createDb(env.DB)).toBe(a);
    // A different binding object gets its own instance.
    const other = Object.create(env.DB) as D1Database;
    expect(createDb(other)).not.toBe(a);
  });

  it("the shared instance runs queries", async () => {
    const rows = await createDb(env.DB).select({ id: consignments.id }).from(consignments).limit(1);
    expect(Array.isArray(rows)).toBe(true);
  });
});

describe("isUniqueViolation", () => {
  it("finds the constraint failure through wrapped causes", () => {
    const inner = new Error("D1_ERROR: UNIQUE constraint failed: t.x");
    expect(isUniqueViolation(new Error("Failed query", { cause: inner }))).toBe(true);
    expect(isUniqueViolation(new Error("something else"))).toBe(false);
  });
});
