/** The spot-check set the benchmark reports on, held to its floors through the real Worker. */
import { beforeAll, expect, it } from "vitest";
import evalSet from "../bench/restrict-eval.json";
import { evaluate } from "../bench/restrict-eval.mjs";
import rules from "../data/restrictions/rules.json";
import { loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("restrictions");
});

it("matches every expected platform rule and flags no everyday item", async () => {
  const { api } = await setup();
  const call = async (method: string, path: string, body: unknown) => {
    const res = await api(path.replace("/admin/api/v1", ""), { method, json: body });
    return { status: res.status, json: (await res.json()) as never };
  };
  const r = await evaluate(evalSet, rules, call);
  expect(r.cases).toBeGreaterThanOrEqual(30);
  expect(r.rows.filter((x: { want: string[]; ok: boolean }) => x.want.length && !x.ok)).toEqual([]);
  expect(r.recall).toBe(1);
  expect(r.falsePositives).toBe(0);
});
