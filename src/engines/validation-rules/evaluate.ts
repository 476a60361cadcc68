/**
 * Workspace validation rules for consignments: a condition over the create payload (plus a few computed
 * facts) that, when true, produces the rule's message as an error (blocks the create) or a warning.
 *
 * Condition: `{field, op, value?}` or `{all: [...]}` / `{any: [...]}` / `{not: condition}`.
 * Fields are dotted paths into the payload (`receiver.country_code`, `incoterm`, `tags`), or computed facts:
 * `route` ("GB-US"), `totals.item_count`, `totals.quantity`, `totals.parcel_count`, `totals.declared_value`
 * (sum of quantity × unit_value, only when every item shares one currency), `totals.weight_kg`.
 */
import Big from "big.js";

type Op = "present" | "absent" | "equals" | "not_equals" | "in" | "not_in" | "gt" | "gte" | "lt" | "lte" | "contains";

export type Condition =
  | { field: string; op: Op; value?: unknown }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

export interface Rule {
  id: number;
  name: string;
  severity: "error" | "warning";
  message: string;
  condition: Condition;
}

export interface Facts {
  payload: Record<string, unknown>;
  computed: Record<string, unknown>;
}

function lookup(facts: Facts, field: string): unknown {
  if (field in facts.computed) return facts.computed[field];
  let node: unknown = facts.payload;
  for (const part of field.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

const isPresent = (v: unknown) => v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);
const norm = (v: unknown) => (typeof v === "string" ? v.toUpperCase() : v);

function compare(a: unknown, b: unknown): number | null {
  try {
    if (a === null || a === undefined || b === null || b === undefined) return null;
    return new Big(a as Big.BigSource).cmp(new Big(b as Big.BigSource));
  } catch {
    return null; // not numbers: numeric comparisons are false
  }
}

/**
 * Recursive on purpose: stored conditions passed the limits of ./limits (≤ 32 levels, ≤ 500 nodes, ≤ 16 KB),
 * so the recursion is shallow and one evaluation visits at most 500 nodes.
 */
export function holds(c: Condition, facts: Facts): boolean {
  if ("all" in c) return c.all.every((x) => holds(x, facts));
  if ("any" in c) return c.any.some((x) => holds(x, facts));
  if ("not" in c) return !holds(c.not, facts);
  const v = lookup(facts, c.field);
  switch (c.op) {
    case "present":
      return isPresent(v);
    case "absent":
      return !isPresent(v);
    case "equals":
      return norm(v) === norm(c.value);
    case "not_equals":
      return norm(v) !== norm(c.value);
    case "in":
      return Array.isArray(c.value) && c.value.map(norm).includes(norm(v));
    case "not_in":
      return Array.isArray(c.value) && !c.value.map(norm).includes(norm(v));
    case "contains":
      return Array.isArray(v)
        ? v.map(norm).includes(norm(c.value))
        : typeof v === "string" && typeof c.value === "string" && v.toUpperCase().includes(c.value.toUpperCase());
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const r = compare(v, c.value);
      if (r === null) return false;
      return c.op === "gt" ? r > 0 : c.op === "gte" ? r >= 0 : c.op === "lt" ? r < 0 : r <= 0;
    }
  }
}

export interface Hit {
  rule_id: number;
  name: string;
  severity: "error" | "warning";
  message: string;
}

export function evaluate(rules: Rule[], facts: Facts): { errors: Hit[]; warnings: Hit[] } {
  const hits = rules
    .filter((r) => holds(r.condition, facts))
    .map((r) => ({ rule_id: r.id, name: r.name, severity: r.severity, message: r.message }));
  return { errors: hits.filter((h) => h.severity === "error"), warnings: hits.filter((h) => h.severity === "warning") };
}

interface ItemLike {
  quantity: number;
  unit_value: number;
  currency_code?: string | null | undefined;
}

/** The computed facts rules may name, from a create payload's items and parcels. */
export function computedFacts(input: {
  sender?: { country_code?: string | null | undefined } | undefined;
  receiver?: { country_code?: string | null | undefined } | undefined;
  items: ItemLike[];
  parcelCount: number;
  weightKg: string;
}): Record<string, unknown> {
  const currencies = new Set(input.items.map((i) => i.currency_code ?? null));
  const sameCurrency = currencies.size === 1 && !currencies.has(null);
  return {
    route:
      input.sender?.country_code && input.receiver?.country_code
        ? `${input.sender.country_code}-${input.receiver.country_code}`
        : null,
    "totals.item_count": input.items.length,
    "totals.quantity": input.items.reduce((s, i) => s + i.quantity, 0),
    "totals.parcel_count": input.parcelCount,
    "totals.declared_value": sameCurrency
      ? input.items.reduce((s, i) => s.plus(new Big(i.unit_value).times(i.quantity)), new Big(0)).toString()
      : null,
    "totals.currency": sameCurrency ? [...currencies][0] : null,
    "totals.weight_kg": input.weightKg,
  };
}
