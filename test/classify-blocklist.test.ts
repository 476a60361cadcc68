/** The organization blocklist: add, delete (id vs code), import (atomic replacement), list, and its effect on /classify. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createClient, createWorkspace, getToken, insertCustomer, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("hs", { fixture: true });
}, 60_000);

type Entry = { id: number; hs_code: string; country_code: string; reason: string | null; created_at: string };
type Api = Awaited<ReturnType<typeof setup>>["api"];

const add = (api: Api, json: unknown) => api("/classify/blocklist", { json });
async function list(api: Api, query = "") {
  return (await (await api(`/classify/blocklist${query}`)).json()) as {
    success: boolean;
    entries: Entry[];
    has_more: boolean;
  };
}

describe("POST /classify/blocklist", () => {
  it("stores the code digits-only, upper-cases the country, and answers entry null for a repeat", async () => {
    const { api } = await setup();
    const res = await add(api, { hs_code: "93.01", destination_country: "gb", reason: "No weapons" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { success: boolean; message: string; entry: Entry };
    expect(body).toMatchObject({
      success: true,
      entry: {
        hs_code: "9301",
        country_code: "GB",
        reason: "No weapons",
        id: expect.any(Number),
        created_at: expect.any(String),
      },
    });
    const again = await add(api, { hs_code: "9301", destination_country: "GB" });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { entry: null; message: string }).entry).toBeNull();
    // Same code for another destination is another entry.
    expect(
      ((await (await add(api, { hs_code: "9301", destination_country: "GLOBAL" })).json()) as { entry: Entry }).entry
        .country_code,
    ).toBe("GLOBAL");
  });

  it.each([
    ["hs_code of 1 digit", { hs_code: "9", destination_country: "US" }],
    ["hs_code of 14 chars", { hs_code: "12345678901234", destination_country: "US" }],
    ["hs_code with letters", { hs_code: "93a1", destination_country: "US" }],
    ["hs_code of dots only", { hs_code: "...", destination_country: "US" }],
    ["missing hs_code", { destination_country: "US" }],
    ["missing destination_country", { hs_code: "9301" }],
    ["unknown destination_country", { hs_code: "9301", destination_country: "XX" }],
    ["reason over 1000", { hs_code: "9301", destination_country: "US", reason: "a".repeat(1001) }],
    ["unknown key", { hs_code: "9301", destination_country: "US", note: "x" }],
  ])("400 for %s", async (_, json) => {
    const { api } = await setup();
    const res = await add(api, json);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("validation_failed");
  });
});

describe("DELETE /classify/blocklist/{code}", () => {
  it("deletes by id when the path is all digits and there is no destination_country", async () => {
    const { api } = await setup();
    const { entry } = (await (await add(api, { hs_code: "9301", destination_country: "US" })).json()) as {
      entry: Entry;
    };
    const res = await api(`/classify/blocklist/${entry.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, message: expect.any(String) });
    expect((await list(api)).entries).toEqual([]);
    expect((await api(`/classify/blocklist/${entry.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("deletes by code and destination, and needs destination_country for a code", async () => {
    const { api } = await setup();
    await add(api, { hs_code: "2402.20", destination_country: "GB" });
    await add(api, { hs_code: "2402.20", destination_country: "US" });
    const noCountry = await api("/classify/blocklist/2402.20", { method: "DELETE" });
    expect(noCountry.status).toBe(400);
    expect(((await noCountry.json()) as { message: string }).message).toContain("destination_country");
    expect((await api("/classify/blocklist/2402.20?destination_country=gb", { method: "DELETE" })).status).toBe(200);
    expect((await list(api)).entries.map((e) => e.country_code)).toEqual(["US"]);
    // All digits with a destination_country is a code, not an id.
    expect((await api("/classify/blocklist/240220?destination_country=US", { method: "DELETE" })).status).toBe(200);
    expect((await api("/classify/blocklist/240220?destination_country=US", { method: "DELETE" })).status).toBe(404);
    expect((await api("/classify/blocklist/24x0?destination_country=US", { method: "DELETE" })).status).toBe(400);
    expect((await api("/classify/blocklist/2402?destination_country=XX", { method: "DELETE" })).status).toBe(400);
  });

  it("cannot reach another organization's entries", async () => {
    const a = await setup();
    const b = await setup();
    const { entry } = (await (await add(a.api, { hs_code: "9301", destination_country: "US" })).json()) as {
      entry: Entry;
    };
    expect((await b.api(`/classify/blocklist/${entry.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await b.api("/classify/blocklist/9301?destination_country=US", { method: "DELETE" })).status).toBe(404);
    expect((await list(b.api)).entries).toEqual([]);
    expect((await list(a.api)).entries).toHaveLength(1);
  });
});

describe("POST /classify/blocklist/import", () => {
  it("replaces the whole list, defaults to GLOBAL, counts duplicates once, and an empty array clears it", async () => {
    const { api } = await setup();
    await add(api, { hs_code: "1111", destination_country: "US" });
    const res = await api("/classify/blocklist/import", {
      json: {
        entries: [
          { hs_code: "93.01", reason: "Weapons" },
          { hs_code: "2402", country_code: "gb" },
          { hs_code: "2403", destination_country: "US" },
          { hs_code: "9301" },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ success: true, count: 3 });
    const entries = (await list(api)).entries;
    expect(entries.map((e) => `${e.hs_code}/${e.country_code}`).sort()).toEqual(["2402/GB", "2403/US", "9301/GLOBAL"]);
    expect(entries.find((e) => e.hs_code === "9301")!.reason).toBe("Weapons");

    const cleared = await api("/classify/blocklist/import", { json: { entries: [] } });
    expect(await cleared.json()).toMatchObject({ success: true, count: 0 });
    expect((await list(api)).entries).toEqual([]);
  });

  it("loads large imports in statements under D1's bound-parameter limit", async () => {
    const { api } = await setup();
    const entries = Array.from({ length: 1234 }, (_, i) => ({
      hs_code: String(100000 + i),
      country_code: i % 2 ? "US" : "GB",
    }));
    const res = await api("/classify/blocklist/import", { json: { entries } });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { count: number }).count).toBe(1234);
  });

  it.each([
    ["a bad code", [{ hs_code: "9301" }, { hs_code: "x1" }]],
    ["an unknown country", [{ hs_code: "9301", country_code: "ZZ" }]],
    [
      "country_code and destination_country that disagree",
      [{ hs_code: "9301", country_code: "US", destination_country: "GB" }],
    ],
    ["a reason over 1000", [{ hs_code: "9301", reason: "a".repeat(1001) }]],
    ["more than 5000 entries", Array.from({ length: 5001 }, () => ({ hs_code: "9301" }))],
  ])("rejects the whole import for %s and keeps the old list", async (_, entries) => {
    const { api } = await setup();
    await add(api, { hs_code: "1111", destination_country: "US" });
    const res = await api("/classify/blocklist/import", { json: { entries } });
    expect(res.status).toBe(400);
    expect((await list(api)).entries.map((e) => e.hs_code)).toEqual(["1111"]);
  });

  it("400 without entries", async () => {
    const { api } = await setup();
    expect((await api("/classify/blocklist/import", { json: {} })).status).toBe(400);
  });
});

describe("GET /classify/blocklist", () => {
  it("pages newest first with starting_after, filters by country, and is shared by the organization's workspaces", async () => {
    const { ws, api } = await setup();
    for (const code of ["1001", "1002", "1003", "1004", "1005"])
      await add(api, { hs_code: code, destination_country: code === "1003" ? "US" : "GLOBAL" });
    const p1 = await list(api, "?limit=2");
    expect(p1.entries.map((e) => e.hs_code)).toEqual(["1005", "1004"]);
    expect(p1.has_more).toBe(true);
    const p2 = await list(api, `?limit=2&starting_after=${p1.entries[1]!.id}`);
    expect(p2.entries.map((e) => e.hs_code)).toEqual(["1003", "1002"]);
    const p3 = await list(api, `?limit=2&starting_after=${p2.entries[1]!.id}`);
    expect(p3.entries.map((e) => e.hs_code)).toEqual(["1001"]);
    expect(p3.has_more).toBe(false);
    expect((await list(api, "?destination_country=us")).entries.map((e) => e.hs_code)).toEqual(["1003"]);
    expect((await api("/classify/blocklist?limit=0")).status).toBe(400);
    expect((await api("/classify/blocklist?starting_after=abc")).status).toBe(400);
    expect((await api("/classify/blocklist?starting_after=1e3")).status).toBe(400);
    expect((await api("/classify/blocklist?starting_after=0x4e")).status).toBe(400);

    // A second workspace of the same organization sees the same list.
    const sibling = await createWorkspace({ organization_id: ws.organizationId });
    const token = await getToken(sibling, await createClient(sibling));
    const res = await call("/admin/api/v1/classify/blocklist", { host: sibling.host, token });
    expect(((await res.json()) as { entries: Entry[] }).entries).toHaveLength(5);
  });

  it("lets a customer-pinned client read the list but not change it", async () => {
    const { ws, api } = await setup();
    await add(api, { hs_code: "9301", destination_country: "US" });
    const customer = await insertCustomer(ws);
    const token = await getToken(ws, await createClient(ws, ["classify:read"], customer));
    const pinned = (path: string, opts: Parameters<typeof call>[1] = {}) =>
      call(`/admin/api/v1${path}`, { host: ws.host, token, ...opts });
    expect((await pinned("/classify/blocklist")).status).toBe(200);
    expect((await pinned("/classify/blocklist", { json: { hs_code: "9302", destination_country: "US" } })).status).toBe(
      403,
    );
    expect((await pinned("/classify/blocklist/import", { json: { entries: [] } })).status).toBe(403);
    expect((await pinned("/classify/blocklist/9301?destination_country=US", { method: "DELETE" })).status).toBe(403);
    expect((await list(api)).entries.map((e) => e.hs_code)).toEqual(["9301"]);
  });

  it("needs classify:read", async () => {
    const { ws } = await setup();
    const token = await getToken(ws, await createClient(ws, ["restrict:read"]));
    for (const [method, path] of [
      ["GET", "/classify/blocklist"],
      ["POST", "/classify/blocklist"],
      ["POST", "/classify/blocklist/import"],
      ["DELETE", "/classify/blocklist/1"],
    ]) {
      const res = await call(`/admin/api/v1${path}`, {
        host: ws.host,
        token,
        method,
        ...(method === "POST" ? { json: {} } : {}),
      });
      expect(res.status).toBe(403);
    }
    expect((await call("/admin/api/v1/classify/blocklist", { host: ws.host })).status).toBe(401);
  });
});

describe("blocklist in classification", () => {
  const shirt = { description: "Men's cotton crew neck t-shirt", destination_country: "US" };

  it("removes blocked prefixes for that destination and GLOBAL, not for others", async () => {
    const { api } = await setup();
    await add(api, { hs_code: "6109.10", destination_country: "US" });
    const us = (await (await api("/classify", { json: shirt })).json()) as {
      results: { code: string }[];
      blocked?: boolean;
    };
    expect(us.results.length).toBeGreaterThan(0);
    expect(us.results.some((r) => r.code.startsWith("610910"))).toBe(false);
    expect(us.blocked).toBeUndefined();
    const gb = (await (await api("/classify", { json: { ...shirt, destination_country: "GB" } })).json()) as {
      top_result: { code: string };
    };
    expect(gb.top_result.code.startsWith("610910")).toBe(true);

    await add(api, { hs_code: "61", destination_country: "GLOBAL" });
    const de = (await (await api("/classify", { json: { ...shirt, destination_country: "DE" } })).json()) as {
      results: { code: string }[];
    };
    expect(de.results.some((r) => r.code.startsWith("61"))).toBe(false);
  });

  it("applies a blocked 10-digit statistical line to the chosen line", async () => {
    const { api } = await setup();
    const before = (await (await api("/classify", { json: shirt })).json()) as { top_result: { code: string } };
    expect(before.top_result.code).toBe("6109100012");
    await add(api, { hs_code: "6109.10.0012", destination_country: "US" });
    const after = (await (await api("/classify", { json: shirt })).json()) as { results: { code: string }[] };
    expect(after.results.length).toBeGreaterThan(0);
    expect(after.results.some((r) => r.code === "6109100012")).toBe(false);
    const only = (await (await api("/classify", { json: { ...shirt, hs_code: "6109100012" } })).json()) as {
      blocked?: boolean;
      results: unknown[];
    };
    expect(only).toMatchObject({ blocked: true, results: [] });
  });

  it("answers blocked: true when every suggestion is blocked", async () => {
    const { api } = await setup();
    await add(api, { hs_code: "6109", destination_country: "GLOBAL" });
    const res = await api("/classify", { json: { ...shirt, hs_code: "6109" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      success: true,
      blocked: true,
      top_result: null,
      results: [],
      customs_description: null,
    });
    expect(body.message).toContain("blocklist");
    const history = (await (await api("/usage-history/classify")).json()) as { data: { blocked: boolean }[] };
    expect(history.data[0]!.blocked).toBe(true);
  });

  it("does not apply another organization's blocklist", async () => {
    const a = await setup();
    const b = await setup();
    await add(a.api, { hs_code: "61", destination_country: "GLOBAL" });
    const res = (await (await b.api("/classify", { json: shirt })).json()) as { top_result: { code: string } };
    expect(res.top_result.code.startsWith("6109")).toBe(true);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM classify_blocklist WHERE organization_id = ?")
        .bind(b.ws.organizationId)
        .first("n"),
    ).toBe(0);
  });
});
