/**
 * The evaluation set (bench/restrict-eval.json) through the real Worker, held to the floors on both
 * splits: recall >= 90%, right label >= 85% of the caught cases, false flags on everyday items <= 2%.
 * Cases are sent 100 items per request, grouped by destination, as a merchant's catalogue would be.
 */
import { beforeAll, expect, it } from "vitest";
import evalSet from "../bench/restrict-eval.json";
import { type EvalCase, evaluate, score } from "../bench/restrict-eval.mjs";
import rules from "../data/restrictions/rules.json";
import { loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("restrictions");
});

type Match = { id: string; rule_type: string; source: string };

it("meets the floors on the development and the held-out test split, through the Worker", async () => {
  const { api } = await setup();
  const cases = evalSet.cases as EvalCase[];
  const answers = new Map<EvalCase, Match[]>();
  const groups = new Map<string, EvalCase[]>();
  for (const c of cases) {
    const key = `${c.destination_country}|${c.origin_country ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i += 100) {
      const chunk = group.slice(i, i + 100);
      const first = chunk[0] as EvalCase;
      const res = await api("/restrict", {
        json: {
          destination_country: first.destination_country,
          ...(first.origin_country ? { origin_country: first.origin_country } : {}),
          items: chunk.map((c) => c.item),
        },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { restrictions: Match[] | null }[] };
      for (const [k, c] of chunk.entries())
        answers.set(
          c,
          (body.items[k]?.restrictions ?? []).filter((m) => m.source === "platform"),
        );
    }
  }
  const rows = await evaluate({ cases }, rules, async (c) => answers.get(c) ?? []);
  expect(rows).toHaveLength(cases.length);
  for (const split of ["dev", "test"] as const) {
    const s = score(rows.filter((r) => r.split === split));
    expect(s.restricted).toBeGreaterThanOrEqual(40);
    expect(s.clean).toBeGreaterThanOrEqual(80);
    expect(s.recall).toBeGreaterThanOrEqual(0.9);
    expect(s.label).toBeGreaterThanOrEqual(0.85);
    expect(s.falseFlagRate).toBeLessThanOrEqual(0.02);
  }
});
