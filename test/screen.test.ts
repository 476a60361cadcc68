/** POST {api}/screen and GET {api}/screen/health over the full OFAC SDN and UN lists. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { auditRow, call, createClient, getToken, insertCustomer, loadDataset, setup } from "./helpers";

interface Result {
  matches: {
    score: number;
    list_code: string;
    matched_name: string;
    matched_query: string;
    explanation: {
      matched: { query: string; listed: string; sim: number; feature: string }[];
      unmatched_query: string[];
      unmatched_listed: string[];
      features: string[];
    };
    entry: {
      name: string;
      alt_names: string[];
      entry_type: string;
      programs: string[];
      addresses: unknown[];
      source_ref: string;
      remarks: string | null;
    };
  }[];
  match_count: number;
  searched_lists: string[];
  data_source: { version: string };
}

beforeAll(async () => {
  resetDatasetCaches();
  await loadDataset("sanctions");
}, 60_000);

async function screen(body: unknown, ctx?: Awaited<ReturnType<typeof setup>>) {
  const { api } = ctx ?? (await setup());
  const res = await api("/screen", { method: "POST", json: body });
  return { res, json: (await res.json()) as Result & Record<string, unknown> };
}

describe("POST /screen: matching", () => {
  it("an exact name scores 1.0 and the answer has no envelope", async () => {
    const { res, json } = await screen({ name: "Banco Nacional de Cuba" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(json).not.toHaveProperty("success");
    expect(json).not.toHaveProperty("message");
    expect(json.searched_lists).toEqual(["SDN", "UN"]);
    expect(json.match_count).toBe(json.matches.length);
    expect(json.matches[0]).toEqual({
      score: 1,
      list_code: "SDN",
      matched_name: "BANCO NACIONAL DE CUBA",
      matched_query: "name",
      explanation: {
        matched: ["banco", "nacional", "de", "cuba"].map((w) => ({ query: w, listed: w, sim: 1, feature: "exact" })),
        unmatched_query: [],
        unmatched_listed: [],
        features: ["exact"],
      },
      entry: {
        name: "BANCO NACIONAL DE CUBA",
        alt_names: ["NATIONAL BANK OF CUBA"],
        entry_type: "entity",
        programs: ["CUBA"],
        addresses: expect.arrayContaining([
          {
            address: "Zweierstrasse 35",
            city: "Zurich CH-8022",
            state: null,
            postal_code: null,
            country: "Switzerland",
            note: null,
          },
        ]),
        source_ref: "306",
        remarks: "a.k.a. 'BNC'.",
      },
    });
  });

  it.each([
    ["case and punctuation", "banco  nacional, de cuba.", 1],
    ["an alias", "National Bank of Cuba", 1],
    ["token order", "Cuba Banco Nacional de", 0.98],
    ["a typo", "Banco Nacinal de Cuba", 0.9],
  ])("%s", async (_what, name, min) => {
    const { json } = await screen({ name });
    const hit = json.matches.find((m) => m.entry.source_ref === "306");
    expect(hit?.score).toBeGreaterThanOrEqual(min);
  });

  it("a listed IMO number matches its vessel at 1.0, alone or beside another name; an unlisted one does not", async () => {
    for (const name of ["IMO 7406784", "Sea Breeze IMO 7406784"]) {
      const { res, json } = await screen({ name });
      expect(res.status).toBe(200);
      const hit = json.matches.find((m) => m.entry.source_ref === "4243");
      expect(hit).toMatchObject({ score: 1, list_code: "SDN", matched_name: "IMO 7406784" });
      expect(hit?.entry.name).toBe("EBANO");
      expect(hit?.explanation.features).toEqual(["identifier"]);
    }
    const { json } = await screen({ name: "IMO 7406785" });
    expect(json.matches).toEqual([]);
  });

  it("initials for given names still find a listed person", async () => {
    const { json } = await screen({ name: "G. J. Rodriguez Orejuela" });
    const hit = json.matches.find((m) => m.entry.name === "RODRIGUEZ OREJUELA, Gilberto Jose");
    expect(hit?.score).toBeGreaterThanOrEqual(0.7);
    // The officer sees which words carried the match and that the given names matched only as initials.
    expect(hit?.explanation.features).toEqual(["exact", "initials"]);
    expect(hit?.explanation.matched).toContainEqual({ query: "g", listed: "gilberto", sim: 0.75, feature: "initials" });
    expect(hit?.explanation.unmatched_query).toEqual([]);
  });

  it("Götz = Gotz = Goetz: diacritics and German transliteration normalize to the same name", async () => {
    for (const name of ["Götz, Alain", "Gotz, Alain", "GOETZ Alain"]) {
      const { json } = await screen({ name });
      expect(json.matches[0]).toMatchObject({ score: 1, entry: { name: "GOETZ, Alain Francois Viviane" } });
    }
  });

  it("joined and split words: Gazprom Bank finds the alias GAZPROMBANK ... (primary row missing, type unknown)", async () => {
    const { json } = await screen({ name: "Gazprom Bank" });
    const hit = json.matches.find((m) => m.entry.source_ref === "17016");
    expect(hit).toMatchObject({ list_code: "SDN", entry: { entry_type: "unknown", programs: [] } });
    expect(hit!.score).toBeGreaterThanOrEqual(0.8);
    expect(hit!.entry.remarks).toMatch(/Primary record not in the SDN file/);
  });

  it("company is a second query; an entry hit by both keeps its best score", async () => {
    const ctx = await setup();
    const { json } = await screen({ name: "Jane Q Public", company: "Rosneft" }, ctx);
    const rosneft = json.matches.find((m) => m.entry.source_ref === "17022");
    expect(rosneft).toMatchObject({ score: 1, matched_query: "company", matched_name: "ROSNEFT" });
    const both = await screen({ name: "Rosneft Oil Company", company: "Rosneft" }, ctx);
    const hits = both.json.matches.filter((m) => m.entry.source_ref === "17022");
    expect(hits).toHaveLength(1);
    expect(hits[0]!.score).toBe(1);
  });

  it("type narrows to individuals or entities; vessels, aircraft and unknown stay in scope", async () => {
    const ctx = await setup();
    const all = (await screen({ name: "Eric Badege" }, ctx)).json;
    expect(all.matches.map((m) => m.entry.entry_type)).toContain("individual");
    const entities = (await screen({ name: "Eric Badege", type: "entity" }, ctx)).json;
    expect(entities.matches.every((m) => m.entry.entry_type !== "individual")).toBe(true);
    const rosneft = (await screen({ name: "Rosneft", type: "individual" }, ctx)).json;
    expect(rosneft.matches.find((m) => m.entry.source_ref === "17022")?.entry.entry_type).toBe("unknown");
  });

  it.each(["Trading Corp", "International Trading Company LLC", "Global Logistics Services Ltd", "Al Bin"])(
    "generic words alone never hit: %s",
    async (name) => {
      const { json } = await screen({ name });
      expect(json.matches).toEqual([]);
      expect(json.match_count).toBe(0);
    },
  );

  it("at most 20 matches, all ≥ 0.7, best first", async () => {
    const { json } = await screen({ name: "Mohammed Ali Hassan" });
    expect(json.matches.length).toBeLessThanOrEqual(20);
    const scores = json.matches.map((m) => m.score);
    expect(scores.every((s) => s >= 0.7 && s <= 1)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("the same request scores the same every time", async () => {
    const ctx = await setup();
    const a = (await screen({ name: "Aerocaribean Airlnes" }, ctx)).json;
    const b = (await screen({ name: "Aerocaribean Airlnes" }, ctx)).json;
    expect(a.matches).toEqual(b.matches);
    expect(a.matches[0]?.entry.name).toBe("AEROCARIBBEAN AIRLINES");
  });
});

describe("POST /screen: evidence", () => {
  it("logs inputs, lists with versions and the matches returned under the request id; body archived", async () => {
    const { ws, api } = await setup();
    const body = {
      name: "Banco Nacional de Cuba",
      company: "Acme Imports",
      type: "entity",
      address: { line_1: "1 Main St", city: "Zurich", country_code: "ch" },
    };
    const res = await api("/screen", { method: "POST", json: body });
    const json = (await res.json()) as Result;
    const id = res.headers.get("x-request-id")!;
    const row = await env.DB.prepare("SELECT * FROM usage_log WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ workspace_id: ws.id, kind: "screen", item_count: 2, match_count: json.match_count });
    const detail = JSON.parse(String(row!.detail));
    expect(detail.input).toEqual({
      name: body.name,
      company: body.company,
      type: "entity",
      address: { line_1: "1 Main St", city: "Zurich", country_code: "CH" },
    });
    expect(detail.lists).toEqual([
      { code: "SDN", version: expect.stringMatching(/^2024-05-03/), published_at: null },
      { code: "UN", version: "2025-11-18", published_at: null },
    ]);
    expect(detail.data_source.version).toBe(json.data_source.version);
    expect(detail.matches[0]).toEqual({
      id: "SDN:306",
      list_code: "SDN",
      source_ref: "306",
      name: "BANCO NACIONAL DE CUBA",
      matched_name: "BANCO NACIONAL DE CUBA",
      matched_query: "name",
      score: 1,
    });
    expect(detail.matches).toHaveLength(json.match_count);
    const audit = await auditRow(id);
    expect(audit).toMatchObject({ route: "/admin/api/v1/screen", http_status: 200, has_body: 1 });
    const archived = await env.ARCHIVE.get(String(audit!.body_key));
    expect(JSON.parse(await archived!.text())).toEqual(body);
  });
});

describe("POST /screen: evidence of pinned clients", () => {
  it("a customer-pinned client's screening is logged with its customer and client", async () => {
    const { ws } = await setup();
    const customerId = await insertCustomer(ws);
    const client = await createClient(ws, ["screen:read"], customerId);
    const token = await getToken(ws, client);
    const res = await call("/admin/api/v1/screen", { host: ws.host, token, json: { name: "Katrin Lindemann" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ matches: [], match_count: 0 });
    const row = await env.DB.prepare("SELECT * FROM usage_log WHERE id = ?")
      .bind(res.headers.get("x-request-id"))
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      workspace_id: ws.id,
      customer_id: customerId,
      actor: client.clientId,
      item_count: 1,
      match_count: 0,
    });
    expect(JSON.parse(String(row!.detail)).matches).toEqual([]);
  });
});

describe("POST /screen: validation", () => {
  it.each([
    ["missing name", {}, "name"],
    ["empty name", { name: "" }, "name"],
    ["blank name", { name: "   " }, "name"],
    ["punctuation only", { name: "!!!" }, "name"],
    ["name over 500 chars", { name: "a".repeat(501) }, "name"],
    ["name not a string", { name: 42 }, "name"],
    ["company over 500 chars", { name: "x", company: "b".repeat(501) }, "company"],
    ["unknown type", { name: "x", type: "vessel" }, "type"],
    ["bad country code", { name: "x", address: { country_code: "XX" } }, "address.country_code"],
    ["unknown address key", { name: "x", address: { street: "1 Main St" } }, "address"],
    ["unknown key", { name: "x", nmae: "y" }, "body"],
  ])("%s → 400", async (_what, body, field) => {
    const { res, json } = await screen(body);
    expect(res.status).toBe(400);
    expect(json).toMatchObject({ success: false, error: "validation_failed" });
    expect((json.errors as { field: string }[]).map((e) => e.field)).toContain(field);
  });

  it("accepts a 500-character name", async () => {
    const { res } = await screen({ name: "a".repeat(500) });
    expect(res.status).toBe(200);
  });

  it("malformed JSON → 400 invalid_json; wrong content type → 415", async () => {
    const { api } = await setup();
    const bad = await api("/screen", {
      method: "POST",
      body: "{name:",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_json" });
    const text = await api("/screen", { method: "POST", body: "name=x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
  });
});

describe("security", () => {
  it("401 without a token, 403 without screen:read, for both routes", async () => {
    const { ws } = await setup();
    expect((await call("/admin/api/v1/screen", { host: ws.host, json: { name: "x" } })).status).toBe(401);
    const { api } = await setup(["restrict:read"]);
    const res = await api("/screen", { method: "POST", json: { name: "x" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ success: false, message: "Missing scope: screen:read" });
    expect((await api("/screen/health")).status).toBe(403);
  });

  it("GET /screen/health", async () => {
    const { api } = await setup(["screen:read"]);
    const res = await api("/screen/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", service: "screen" });
  });
});
