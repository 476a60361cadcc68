/**
 * Server-Timing on every response, and the storage round trips each route class may wait on (warm isolate:
 * each route is called once before it is measured). The budgets are held here so that a change that adds a
 * round trip to a hot path fails a test instead of going unnoticed.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { call, loadDataset, sampleCalculateLine, sampleConsignment, setup } from "./helpers";

beforeAll(async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
  for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d, { fixture: true });
}, 120_000);

type Timing = Record<string, { count?: number; dur: number }>;

/** Parses the header (RFC-style `name;param=value` entries, comma separated). */
function timing(res: Response): Timing {
  const header = res.headers.get("server-timing");
  expect(header).toBeTruthy();
  const out: Timing = {};
  for (const entry of header!.split(",")) {
    const [name, ...params] = entry.trim().split(";");
    const p = Object.fromEntries(params.map((kv) => kv.split("=")));
    out[name!] = { dur: Number(p.dur), ...(p.count !== undefined ? { count: Number(p.count) } : {}) };
  }
  return out;
}

const count = (t: Timing, kind: string) => t[kind]?.count ?? 0;

const consignment = sampleConsignment;

const calc = sampleCalculateLine;

describe("Server-Timing", () => {
  it("is on every response, errors included, with a total and only the kinds waited on", async () => {
    const health = timing(await call("/health"));
    expect(Object.keys(health)).toEqual(["total"]);
    expect(health.total!.dur).toBeGreaterThanOrEqual(0);
    const unauthorized = await call("/admin/api/v1/me", { host: "nobody.localhost" });
    expect(unauthorized.status).toBe(404);
    expect(timing(unauthorized).total).toBeDefined();
    const { api } = await setup();
    const me = timing(await api("/me"));
    expect(me.do?.count).toBe(1); // exact mode: the organization's rate-limit object
    for (const [name, entry] of Object.entries(me)) {
      expect(["d1", "r2", "do", "queue", "total"]).toContain(name);
      expect(Number.isFinite(entry.dur)).toBe(true);
    }
  });
});

describe("round-trip budgets per route class (warm isolate, exact mode)", () => {
  it("reading one resource or one page: at most 1 D1 round trip, no R2", async () => {
    const { api } = await setup();
    const id = (
      (await (await api("/consignments", { json: consignment("ST-R") })).json()) as {
        data: { consignment: { id: string } };
      }
    ).data.consignment.id;
    for (const path of [`/consignments/${id}`, "/consignments", "/customers", "/me"]) {
      await api(path); // warm
      const t = timing(await api(path));
      expect(count(t, "d1"), path).toBeLessThanOrEqual(1);
      expect(count(t, "r2"), path).toBe(0);
      expect(count(t, "do"), path).toBe(1);
    }
  });

  it("a compute POST: no D1 read; the archive put and its audit row are its only writes", async () => {
    const { api } = await setup();
    await api("/calculate", { json: calc }); // warm: the isolate loads its reference data once
    const t = timing(await api("/calculate", { json: calc }));
    expect(count(t, "d1")).toBe(1); // the audit and usage rows, written beside the put
    expect(count(t, "r2")).toBe(1); // the body's archive put
    expect(count(t, "do")).toBe(1);
  });

  it("a consignment create: one read and one write batch in D1, one archive put, and both buckets in one object call", async () => {
    const { api } = await setup();
    await api("/consignments", { json: consignment("ST-W0") });
    const t = timing(await api("/consignments", { json: consignment("ST-W1") }));
    expect(count(t, "d1")).toBeLessThanOrEqual(2);
    expect(count(t, "r2")).toBe(1);
    // The api bucket and the consignment_create bucket, decided in one call to the organization's object.
    expect(count(t, "do")).toBe(1);
  });
});

describe("round trips on a cold isolate (every dataset cache and version probe forgotten, as in a new isolate)", () => {
  it("the first quote: the reference tables come with their versions, the prohibitions with theirs", async () => {
    const { api } = await setup(); // a new workspace: its own country rules are not cached either
    resetDatasetCaches();
    const t = timing(await api("/calculate", { json: calc }));
    // The new API client's credentials; then, side by side, the workspace's country rules, the reference tables
    // with their versions (one batch) and the restriction rules with theirs (one batch); then the code's lines,
    // measures and rates (one batch); the audit row. Reading each version on its own first costs two more, in
    // sequence.
    expect(count(t, "d1")).toBe(6);
  });

  it("the first restriction check: the platform rules come with their version", async () => {
    const { api } = await setup();
    resetDatasetCaches();
    const t = timing(
      await api("/restrict", {
        json: {
          destination_country: "US",
          origin_country: "CN",
          items: [{ title: "wireless earbuds", hs_code: "851830" }],
        },
      }),
    );
    // The platform rules with their version (one batch; reading the version first costs one more, in
    // sequence), with the organization's rules and the workspace's settings beside it; the audit row.
    expect(count(t, "d1")).toBe(4);
  });
});
