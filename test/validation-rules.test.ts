/** `{api}/settings/validation-rules`: canonical integer ids and the documented limits of a condition. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_CONDITION_BYTES, MAX_CONDITION_DEPTH, MAX_CONDITION_NODES } from "../src/engines/validation-rules/limits";
import { call, setup } from "./helpers";

type ErrorBody = { success: false; error: string; errors?: { field: string; message: string }[] };
type RuleBody = { rule: { id: number; condition: unknown } };

const LEAF = { field: "incoterm", op: "present" };
/** The shortest leaf (28 bytes), so the node limit is reached well within the byte limit. */
const TINY = { field: "a", op: "present" };
const rule = (condition: unknown) => ({ name: "r", severity: "error", message: "m", condition });
const nested = (levels: number): unknown => {
  let c: unknown = LEAF;
  for (let i = 1; i < levels; i++) c = { not: c };
  return c;
};

async function storedRules(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM validation_rules WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

async function expectConditionRefused(res: Response, message: RegExp) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as ErrorBody;
  expect(body).toMatchObject({ success: false, error: "validation_failed" });
  expect(body.errors).toEqual([{ field: "condition", message: expect.stringMatching(message) }]);
}

describe("validation rule ids", () => {
  it.each(["0x4e", "1e3", "007", "+7", "7.0"])("GET, PATCH and DELETE refuse %j (400)", async (id) => {
    const { api } = await setup();
    const path = `/settings/validation-rules/${encodeURIComponent(id)}`;
    for (const [method, json] of [
      ["GET", undefined],
      ["PATCH", { enabled: false }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api(path, { method, json });
      expect({ method, status: res.status }).toEqual({ method, status: 400 });
      expect(((await res.json()) as ErrorBody).error).toBe("validation_failed");
    }
  });

  it("answers the canonical id of the same rule, and refuses a non-canonical cursor", async () => {
    const { api } = await setup();
    const created = (await (await api("/settings/validation-rules", { json: rule(LEAF) })).json()) as RuleBody;
    const { id } = created.rule;
    expect((await api(`/settings/validation-rules/${id}`)).status).toBe(200);
    expect((await api(`/settings/validation-rules/0x${id.toString(16)}`)).status).toBe(400);
    expect((await api("/settings/validation-rules?starting_after=1e3")).status).toBe(400);
  });
});

describe("condition limits", () => {
  it(`accepts ${MAX_CONDITION_DEPTH} levels of nesting`, async () => {
    const { api } = await setup();
    const res = await api("/settings/validation-rules", { json: rule(nested(MAX_CONDITION_DEPTH)) });
    expect(res.status).toBe(201);
    expect(((await res.json()) as RuleBody).rule.condition).toEqual(nested(MAX_CONDITION_DEPTH));
  });

  it.each([MAX_CONDITION_DEPTH + 1, 1_300, 100_000])(
    "refuses %i levels of `not` with 400, storing nothing",
    async (levels) => {
      const { api, ws } = await setup();
      const res = await api("/settings/validation-rules", { json: rule(nested(levels)) });
      await expectConditionRefused(res, /more than 32 levels of all \/ any \/ not/);
      expect(await storedRules(ws.id)).toBe(0);
    },
  );

  it(`refuses more than ${MAX_CONDITION_NODES} conditions, even within the byte limit`, async () => {
    const { api, ws } = await setup();
    // 1 + 20 + 400 + 400 = 821 conditions, nested 4 deep, every group within the 20-member cap.
    const condition = {
      all: Array.from({ length: 20 }, () => ({ all: Array.from({ length: 20 }, () => ({ not: TINY })) })),
    };
    expect(new TextEncoder().encode(JSON.stringify(condition)).byteLength).toBeLessThan(MAX_CONDITION_BYTES);
    const res = await api("/settings/validation-rules", { json: rule(condition) });
    await expectConditionRefused(res, /more than 500 conditions/);
    expect(await storedRules(ws.id)).toBe(0);
  });

  it("refuses a condition over 16 KB (a 5 MB rule too) with 400, storing nothing", async () => {
    const { api, ws } = await setup();
    const bigLeaf = { field: "route", op: "in", value: Array.from({ length: 500 }, (_, i) => `${i}`.padEnd(500, "x")) };
    for (const condition of [
      { field: "route", op: "in", value: Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(450, "x")) },
      { any: Array.from({ length: 20 }, () => bigLeaf) },
    ]) {
      const res = await api("/settings/validation-rules", { json: rule(condition) });
      await expectConditionRefused(res, /bytes as JSON \(the limit is 16384 bytes\)/);
    }
    expect(await storedRules(ws.id)).toBe(0);
  });

  it("a PATCH over the limits is refused and leaves the stored condition as it was", async () => {
    const { api } = await setup();
    const created = (await (await api("/settings/validation-rules", { json: rule(LEAF) })).json()) as RuleBody;
    const path = `/settings/validation-rules/${created.rule.id}`;
    const res = await api(path, { method: "PATCH", json: { condition: nested(2_000) } });
    await expectConditionRefused(res, /more than 32 levels/);
    expect(((await (await api(path)).json()) as RuleBody).rule.condition).toEqual(LEAF);
  });

  it("are documented on the operations and the condition schema", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    const ops = doc.paths["/admin/api/v1/settings/validation-rules"];
    const limits = `${MAX_CONDITION_DEPTH} levels of all / any / not, ${MAX_CONDITION_NODES} conditions`;
    expect(ops?.post?.description).toContain(limits);
    expect(doc.paths["/admin/api/v1/settings/validation-rules/{id}"]?.patch?.description).toContain(limits);
    expect(JSON.stringify(doc)).toContain(`${MAX_CONDITION_BYTES} bytes as JSON`);
  });
});
