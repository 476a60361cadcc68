/** POST /classify/bulk through the Worker: order and refs, per-item failures, limits, history, scopes, heavy bucket. */
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("hs");
}, 60_000);

type Item = Record<string, unknown> & {
  index: number;
  ref: string | null;
  success: boolean;
  error?: string;
  top_result?: { code: string } | null;
};
type Bulk = { success: boolean; message: string; results: Item[]; execution_time: number; request_id: string };
type Api = Awaited<ReturnType<typeof setup>>["api"];

async function bulk(api: Api, json: unknown) {
  const res = await api("/classify/bulk", { json });
  return { res, body: (await res.json()) as Bulk & { error?: string; message: string } };
}

describe("POST /classify/bulk", () => {
  it("classifies each item in request order, with its ref, and reports failed items without failing the batch", async () => {
    const { api } = await setup();
    const { res, body } = await bulk(api, {
      items: [
        { ref: "tee", description: "Men's cotton crew neck t-shirt", destination_country: "US" },
        { ref: "knife", description: "Stainless steel chef's knife", destination_country: "gb" },
        { ref: "bad", description: "ceramic mug" },
        { description: "xqzvbn wprtkl", destination_country: "US" },
        { ref: "gs", image_url: "gs://bucket/a.jpg", mode: "image", destination_country: "US" },
        { ref: "mug", description: "ceramic coffee mug", destination_country: "DE", unknown_key: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, message: "2 of 6 items classified", request_id: expect.any(String) });
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
    expect(body.execution_time).toBeGreaterThanOrEqual(0);
    expect(body.results.map((r) => [r.index, r.ref, r.success])).toEqual([
      [0, "tee", true],
      [1, "knife", true],
      [2, "bad", false],
      [3, null, false],
      [4, "gs", false],
      [5, "mug", false],
    ]);
    const [tee, knife, bad, gibberish, gs, mug] = body.results;
    expect(tee!.top_result!.code.slice(0, 4)).toBe("6109");
    expect(tee).toMatchObject({ country: "US", mode: "standard", data_source: { version: expect.any(String) } });
    expect(tee).not.toHaveProperty("request_id");
    expect(knife).toMatchObject({ country: "GB" });
    expect(knife!.top_result!.code.slice(0, 4)).toBe("8211");
    expect(bad!.error).toContain("destination_country");
    expect(gibberish).toMatchObject({
      unclassifiable: true,
      top_result: null,
      results: [],
      reason: expect.any(String),
    });
    expect(gibberish!.error).toBe(gibberish!.reason);
    expect(gs!.error).toContain("Cloud Storage reader");
    expect(mug!.error).toContain("unknown_key");
  });

  it("logs every classified item in the classify history under the bulk request", async () => {
    const { api } = await setup();
    const { body } = await bulk(api, {
      items: [
        { ref: "a", description: "leather wallet", destination_country: "US" },
        { ref: "b", description: "xqzvbn wprtkl", destination_country: "US" },
        { ref: "c", description: "wooden dining table", destination_country: "US" },
        { ref: "invalid", description: "no destination" },
      ],
    });
    const history = (await (await api("/usage-history/classify?limit=10")).json()) as {
      data: { id: string; request_id: string; description: string; unclassifiable: boolean; top_code: string | null }[];
    };
    const rows = history.data.filter((r) => r.request_id === body.request_id);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    expect(rows.map((r) => r.description).sort()).toEqual(["leather wallet", "wooden dining table", "xqzvbn wprtkl"]);
    expect(rows.find((r) => r.description === "xqzvbn wprtkl")).toMatchObject({ unclassifiable: true, top_code: null });
    expect(rows.find((r) => r.description === "leather wallet")!.top_code).toBe(body.results[0]!.top_result!.code);
  });

  it.each([
    ["no items", { items: [] }, "items"],
    [
      "over 100 items",
      { items: Array.from({ length: 101 }, () => ({ description: "mug", destination_country: "US" })) },
      "at most 100",
    ],
    ["items not an array", { items: { description: "mug" } }, "items"],
    ["an item not an object", { items: ["mug"] }, "items"],
    ["an unknown top-level key", { items: [{ description: "mug", destination_country: "US" }], extra: true }, "extra"],
    [
      "a ref over 200 characters",
      { items: [{ ref: "r".repeat(201), description: "mug", destination_country: "US" }] },
      "ref",
    ],
  ])("400 for %s, and nothing is logged", async (_, json, message) => {
    const { api } = await setup();
    const res = await api("/classify/bulk", { json });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(message);
    const history = (await (await api("/usage-history/classify")).json()) as { data: unknown[] };
    expect(history.data).toHaveLength(0);
  });

  it("400 for malformed JSON", async () => {
    const { api } = await setup();
    const res = await api("/classify/bulk", {
      method: "POST",
      body: '{"items": [',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_json");
  });

  it("counts url, image and ai items one each against classify_heavy; text items do not", async () => {
    const { ws, api } = await setup();
    const patch = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { rate_limits: { classify_heavy: { limit: 3, window_seconds: 60 } } },
    });
    expect(patch.status).toBe(200);
    const text = { description: "Men's cotton crew neck t-shirt", destination_country: "US" };
    const ai = { ...text, mode: "ai" };
    const two = await bulk(api, { items: [ai, ai, text, text, text] });
    expect(two.res.status).toBe(200);
    expect(two.body.results.every((r) => r.success)).toBe(true);
    expect(two.body.results[0]).toMatchObject({ mode: "ai", ai: { used: true } });
    const over = await api("/classify/bulk", { json: { items: [ai, ai] } });
    expect(over.status).toBe(429);
    expect(((await over.json()) as { message: string }).message).toContain("classify_heavy");
    expect((await bulk(api, { items: [ai, text] })).res.status).toBe(200);
  });

  it("401 without a token, 403 without classify:read", async () => {
    const { ws } = await setup();
    const json = { items: [{ description: "mug", destination_country: "US" }] };
    expect((await call("/admin/api/v1/classify/bulk", { host: ws.host, json })).status).toBe(401);
    const { api } = await setup(["calculate:read"]);
    const res = await api("/classify/bulk", { json });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe("Missing scope: classify:read");
  });
});
