import { describe, expect, it } from "vitest";
import { type Condition, computedFacts, evaluate, type Facts, holds } from "./evaluate";

const facts: Facts = {
  payload: {
    shipment_ref: "S-1",
    incoterm: "DDP",
    receiver: { country_code: "US" },
    sender: { country_code: "GB" },
    tags: ["vip", "fragile"],
    external_code: null,
  },
  computed: computedFacts({
    sender: { country_code: "GB" },
    receiver: { country_code: "US" },
    items: [
      { quantity: 2, unit_value: 450.5, currency_code: "GBP" },
      { quantity: 1, unit_value: 100, currency_code: "GBP" },
    ],
    parcelCount: 2,
    weightKg: "3.5",
  }),
};

describe("conditions", () => {
  it.each<[string, Condition, boolean]>([
    ["present", { field: "incoterm", op: "present" }, true],
    ["absent (null)", { field: "external_code", op: "absent" }, true],
    ["absent (missing)", { field: "carrier.service_id", op: "absent" }, true],
    ["equals, case-insensitive", { field: "receiver.country_code", op: "equals", value: "us" }, true],
    ["not_equals", { field: "incoterm", op: "not_equals", value: "DAP" }, true],
    ["in", { field: "receiver.country_code", op: "in", value: ["CA", "US"] }, true],
    ["not_in", { field: "receiver.country_code", op: "not_in", value: ["CA", "US"] }, false],
    ["country pair", { field: "route", op: "in", value: ["GB-US", "GB-CA"] }, true],
    ["tags contain", { field: "tags", op: "contains", value: "VIP" }, true],
    ["declared value total > 1000 (exact decimal)", { field: "totals.declared_value", op: "gt", value: 1000 }, true],
    ["declared value total = 1001", { field: "totals.declared_value", op: "lte", value: "1001" }, true],
    ["item count", { field: "totals.item_count", op: "equals", value: 2 }, true],
    ["weight", { field: "totals.weight_kg", op: "lt", value: 3 }, false],
    ["numeric op on text is false", { field: "shipment_ref", op: "gt", value: 1 }, false],
    [
      "all",
      {
        all: [
          { field: "route", op: "equals", value: "GB-US" },
          { field: "incoterm", op: "equals", value: "DDP" },
        ],
      },
      true,
    ],
    [
      "any",
      {
        any: [
          { field: "route", op: "equals", value: "FR-US" },
          { field: "incoterm", op: "equals", value: "DAP" },
        ],
      },
      false,
    ],
    ["not", { not: { field: "incoterm", op: "present" } }, false],
  ])("%s", (_n, condition, expected) => {
    expect(holds(condition, facts)).toBe(expected);
  });

  it("splits hits by severity", () => {
    const out = evaluate(
      [
        {
          id: 1,
          name: "no DDP to US",
          severity: "error",
          message: "DDP is not offered to the US",
          condition: {
            all: [
              { field: "incoterm", op: "equals", value: "DDP" },
              { field: "receiver.country_code", op: "equals", value: "US" },
            ],
          },
        },
        {
          id: 2,
          name: "high value",
          severity: "warning",
          message: "High value: check insurance",
          condition: { field: "totals.declared_value", op: "gte", value: 1000 },
        },
        {
          id: 3,
          name: "never",
          severity: "error",
          message: "x",
          condition: { field: "route", op: "equals", value: "FR-DE" },
        },
      ],
      facts,
    );
    expect(out.errors.map((h) => h.rule_id)).toEqual([1]);
    expect(out.warnings.map((h) => h.message)).toEqual(["High value: check insurance"]);
  });

  it("has no declared total when items mix currencies", () => {
    const mixed = computedFacts({
      items: [
        { quantity: 1, unit_value: 1, currency_code: "GBP" },
        { quantity: 1, unit_value: 1, currency_code: "EUR" },
      ],
      parcelCount: 1,
      weightKg: "0",
    });
    expect(mixed["totals.declared_value"]).toBeNull();
  });
});
