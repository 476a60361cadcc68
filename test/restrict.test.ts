/** POST /restrict, custom rules, the enabled-destinations setting and the restrict history, through the Worker. */
import { beforeAll, describe, expect, it } from "vitest";
import rules from "../data/restrictions/rules.json";
import { call, createClient, createWorkspace, getToken, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  await loadDataset("restrictions");
});

type Match = {
  id: string;
  source: string;
  hs_code: string | null;
  imposing_country_code: string;
  measure_direction: string;
  rule_type: string;
  agency: string | null;
  confidence: string;
};
type Item = {
  sku: string | null;
  title: string | null;
  description: string | null;
  hs_code: string | null;
  country_of_origin: string | null;
  restrictions: Match[] | null;
};
type Coverage = { rule_count: number; families: Record<string, number>; last_reviewed: string | null };
type Result = {
  success: boolean;
  message: string;
  created_at: string;
  destination_country: string;
  origin_country: string | null;
  coverage: Coverage & { origin_export_rule_count: number | null; data_version: string | null };
  items: Item[];
  match_count: number;
  has_prohibitions: boolean;
  has_restrictions: boolean;
  duration_ms: number;
};

/** The platform id of the rule with this title (and direction/country when titles repeat). */
function ruleId(title: string, country = "US", direction = "IMPORT") {
  const r = (rules as { id: number; title: string; imposing_country: string; direction: string }[]).find(
    (x) => x.title === title && x.imposing_country === country && x.direction === direction,
  );
  if (!r) throw new Error(`no rule ${title}`);
  return `restriction_${r.id}`;
}

async function check(api: Awaited<ReturnType<typeof setup>>["api"], body: unknown) {
  const res = await api("/restrict", { json: body });
  return { res, body: (await res.json()) as Result & { errors?: { field: string }[] } };
}

describe("POST /restrict", () => {
  it("matches HS prefixes (HIGH under the prefix, MEDIUM when the item code is shallower), keywords and origins", async () => {
    const { api } = await setup();
    const { res, body } = await check(api, {
      destination_country: "us",
      items: [
        { sku: "A", hs_code: "9303.20" },
        { sku: "B", hs_code: "8507" },
        { sku: "C", title: "Hand-carved IVORY figurine" },
        { sku: "D", hs_code: "2208.60", country_of_origin: "RU" },
        { sku: "E", title: "Cotton T-shirt", hs_code: "6109.10" },
        { title: "Souvenir", country_of_origin: "KP" },
      ],
    });
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.destination_country).toBe("US");
    expect(body.origin_country).toBeNull();
    const [a, b, c, d, e, f] = body.items;
    const fire = a!.restrictions!.find((m) => m.id === ruleId("Firearms, ammunition and implements of war"))!;
    expect(fire).toMatchObject({
      source: "platform",
      hs_code: "93",
      imposing_country_code: "US",
      measure_direction: "IMPORT",
      confidence: "HIGH",
    });
    expect(b!.restrictions!.find((m) => m.id === ruleId("Lithium-ion batteries"))).toMatchObject({
      hs_code: "850760",
      confidence: "MEDIUM",
      rule_type: "observation",
    });
    expect(c!.restrictions!.find((m) => m.id === ruleId("African elephant ivory"))).toMatchObject({
      hs_code: null,
      confidence: "MEDIUM",
      rule_type: "prohibition",
      agency: "FWS",
    });
    const ids = d!.restrictions!.map((m) => m.id);
    expect(ids).toContain(ruleId("Russian-origin spirits (including vodka)"));
    expect(ids).toContain(ruleId("Spirits and liqueurs"));
    expect(d!.restrictions![0]!.rule_type).toBe("prohibition");
    expect(e).toEqual({
      sku: "E",
      title: "Cotton T-shirt",
      description: null,
      hs_code: "610910",
      country_of_origin: null,
      restrictions: null,
    });
    expect(f!.restrictions!.find((m) => m.id === ruleId("Goods of North Korean origin"))).toMatchObject({
      hs_code: null,
      confidence: "HIGH",
    });
    expect(f!.sku).toBeNull();
    expect(body.match_count).toBe(body.items.reduce((n, i) => n + (i.restrictions?.length ?? 0), 0));
    expect(body.has_prohibitions).toBe(true);
    expect(body.has_restrictions).toBe(true);
    expect(Number.isInteger(body.duration_ms)).toBe(true);
    expect(Number.isNaN(Date.parse(body.created_at))).toBe(false);
    expect(Object.keys(body).sort()).toEqual(
      [
        "success",
        "message",
        "created_at",
        "destination_country",
        "origin_country",
        "coverage",
        "items",
        "match_count",
        "has_prohibitions",
        "has_restrictions",
        "duration_ms",
      ].sort(),
    );
    expect(Object.keys(fire).sort()).toEqual(
      [
        "id",
        "source",
        "hs_code",
        "imposing_country_code",
        "measure_direction",
        "rule_type",
        "title",
        "summary",
        "agency",
        "agency_flag",
        "requirement",
        "source_url",
        "source_ref",
        "confidence",
      ].sort(),
    );
  });

  it("never matches a keyword inside another word", async () => {
    const { api } = await setup();
    const { body } = await check(api, {
      destination_country: "US",
      items: [
        {
          title: "Ivorycoast travel guide",
          description: "Switchblades-free zone poster",
          materials: "gunmetal finish",
        },
      ],
    });
    const ids = body.items[0]!.restrictions?.map((m) => m.id) ?? [];
    expect(ids).not.toContain(ruleId("African elephant ivory"));
    // "Switchblades" as a whole word does match (plural folded), inside "Switchblades-free" split on the hyphen.
    expect(ids).toContain(ruleId("Switchblade and ballistic knives"));
  });

  it("applies the origin's export rules only when origin_country is given", async () => {
    const { api } = await setup();
    const item = { hs_code: "8542.31" };
    const without = await check(api, { destination_country: "GB", items: [item] });
    expect(without.body.items[0]!.restrictions?.some((m) => m.measure_direction === "EXPORT") ?? false).toBe(false);
    const withOrigin = await check(api, { destination_country: "GB", origin_country: "US", items: [item] });
    const exp = withOrigin.body.items[0]!.restrictions!.find(
      (m) => m.id === ruleId("Dual-use items: integrated circuits", "US", "EXPORT"),
    )!;
    expect(exp).toMatchObject({ imposing_country_code: "US", measure_direction: "EXPORT", confidence: "HIGH" });
    expect(withOrigin.body.origin_country).toBe("US");
  });

  it("applies Union rules to a member state and reports the member state", async () => {
    const { api } = await setup();
    const { body } = await check(api, {
      destination_country: "FR",
      items: [{ hs_code: "0602.90", title: "Olive tree" }],
    });
    expect(body.items[0]!.restrictions!.find((m) => m.id === ruleId("Plants for planting", "EU"))).toMatchObject({
      imposing_country_code: "FR",
      confidence: "HIGH",
    });
  });

  it("says what it holds for the destination, so a clean answer is told apart from thin coverage", async () => {
    const { api } = await setup();
    const kr = await check(api, { destination_country: "KR", items: [{ title: "Cotton T-shirt" }] });
    expect(kr.res.status).toBe(200);
    expect(kr.body.items[0]!.restrictions).toBeNull();
    const ownKr = (rules as { imposing_country: string; direction: string }[]).filter(
      (r) => r.imposing_country === "KR" && r.direction === "IMPORT",
    ).length;
    expect(kr.body.coverage).toMatchObject({ rule_count: ownKr, origin_export_rule_count: null });
    expect(kr.body.coverage.rule_count).toBeGreaterThan(0);
    expect(kr.body.coverage.last_reviewed).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(kr.body.coverage.families.food_animal).toBeGreaterThan(0);
    expect(kr.body.coverage.data_version).toEqual(expect.any(String));

    // A member state runs the Union's rules and its own: more than either alone.
    const de = await check(api, { destination_country: "DE", origin_country: "US", items: [{ title: "x" }] });
    const eu = (rules as { imposing_country: string; direction: string }[]).filter(
      (r) => r.imposing_country === "EU" && r.direction === "IMPORT",
    ).length;
    expect(de.body.coverage.rule_count).toBeGreaterThan(eu);
    expect(de.body.coverage.origin_export_rule_count).toBeGreaterThan(0);
  });

  it("GET /restrict/coverage lists every destination with rules, EU members included; one without rules is absent and refused", async () => {
    const { api } = await setup();
    const res = await api("/restrict/coverage");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      success: boolean;
      as_of: string;
      data_version: string | null;
      destinations: (Coverage & { country_code: string })[];
    };
    expect(body.success).toBe(true);
    const codes = body.destinations.map((d) => d.country_code);
    expect(codes).toEqual([...codes].sort());
    for (const c of ["US", "GB", "KR", "CH", "NO", "ZA", "TR", "IL", "AR", "SG", "AE", "SA", "NZ", "DE", "SE", "PL"])
      expect(codes).toContain(c);
    expect(codes.length).toBeGreaterThanOrEqual(30);
    expect(codes).not.toContain("ZW");
    for (const d of body.destinations) {
      expect(d.rule_count).toBeGreaterThan(0);
      expect(Object.values(d.families).reduce((a, b) => a + b, 0)).toBe(d.rule_count);
    }
    const listed = body.destinations.find((d) => d.country_code === "CH")!;
    const checked = await check(api, { destination_country: "CH", items: [{ title: "x" }] });
    expect(checked.body.coverage).toMatchObject({ rule_count: listed.rule_count, last_reviewed: listed.last_reviewed });
    expect((await api("/restrict", { json: { destination_country: "ZW", items: [{ title: "x" }] } })).status).toBe(403);
  });

  it("catches an item by its words when its HS code is a plausible but different heading, in the merchant's language", async () => {
    const { api } = await setup();
    const { body } = await check(api, {
      destination_country: "KR",
      items: [
        { sku: "jerky", title: "Beef jerky teriyaki", hs_code: "1602.50" },
        { sku: "ko", title: "육포 선물세트" },
        { sku: "grater", title: "Cheese grater stainless steel" },
      ],
    });
    const meat = ruleId("Meat and processed meat products", "KR");
    expect(body.items[0]!.restrictions!.find((m) => m.id === meat)).toMatchObject({ confidence: "MEDIUM" });
    expect(body.items[1]!.restrictions!.map((m) => m.id)).toContain(meat);
    expect(body.items[2]!.restrictions).toBeNull();
    const tr = await check(api, { destination_country: "TR", items: [{ title: "一次性电子烟 5000口" }] });
    expect(tr.body.items[0]!.restrictions![0]).toMatchObject({ rule_type: "prohibition", requirement: null });
  });

  it("403 {success:false, message} when checks are not enabled for the destination; the setting changes that", async () => {
    const { api } = await setup();
    const res = await api("/restrict", { json: { destination_country: "ZW", items: [{ title: "x" }] } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/not enabled/);

    const patch = await api("/settings", { method: "PATCH", json: { "restrict.enabled_destinations": ["zw", "GB"] } });
    expect(patch.status).toBe(200);
    expect(
      ((await patch.json()) as { settings: Record<string, unknown> }).settings["restrict.enabled_destinations"],
    ).toEqual(["GB", "ZW"]);
    expect((await api("/restrict", { json: { destination_country: "ZW", items: [{ title: "x" }] } })).status).toBe(200);
    expect((await api("/restrict", { json: { destination_country: "US", items: [{ title: "x" }] } })).status).toBe(403);

    await api("/settings", { method: "PATCH", json: { "restrict.enabled_destinations": null } });
    expect((await api("/restrict", { json: { destination_country: "US", items: [{ title: "x" }] } })).status).toBe(200);
  });

  const long = (n: number) => "x".repeat(n);
  const item = (extra: Record<string, unknown>) => ({ destination_country: "US", items: [extra] });
  it.each([
    ["no items", { destination_country: "US", items: [] }, "items"],
    ["101 items", { destination_country: "US", items: Array.from({ length: 101 }, () => ({ title: "a" })) }, "items"],
    ["items not an array", { destination_country: "US", items: {} }, "items"],
    ["missing destination", { items: [{ title: "a" }] }, "destination_country"],
    ["unknown destination", { destination_country: "XX", items: [{ title: "a" }] }, "destination_country"],
    ["3-letter destination", { destination_country: "USA", items: [{ title: "a" }] }, "destination_country"],
    ["unknown origin", { destination_country: "US", origin_country: "QQ", items: [{ title: "a" }] }, "origin_country"],
    ["hs_code of 3 digits", item({ hs_code: "850" }), "items.0.hs_code"],
    ["hs_code of 11 digits", item({ hs_code: "85076000101" }), "items.0.hs_code"],
    ["hs_code with letters", item({ hs_code: "85AB" }), "items.0.hs_code"],
    ["hs_code a number", item({ hs_code: 8507 }), "items.0.hs_code"],
    ["sku over 100", item({ sku: long(101) }), "items.0.sku"],
    ["title over 500", item({ title: long(501) }), "items.0.title"],
    ["description over 2000", item({ description: long(2001) }), "items.0.description"],
    ["materials over 500", item({ materials: long(501) }), "items.0.materials"],
    ["category over 200", item({ category: long(201) }), "items.0.category"],
    ["brand over 200", item({ brand: long(201) }), "items.0.brand"],
    ["bad country_of_origin", item({ country_of_origin: "ZZ" }), "items.0.country_of_origin"],
    ["unknown item field", item({ hscode: "8507" }), "items.0"],
    ["unknown top-level field", { destination_country: "US", items: [{ title: "a" }], entry_date: "2026-01-01" }, ""],
  ])("400 for %s", async (_name, payload, field) => {
    const { api } = await setup();
    const { res, body } = await check(api, payload);
    expect(res.status).toBe(400);
    expect(body.success).toBe(false);
    if (field) expect(body.errors!.map((e) => e.field)).toContain(field);
  });

  it("accepts every limit exactly", async () => {
    const { api } = await setup();
    const full = {
      sku: long(100),
      title: long(500),
      description: long(2000),
      materials: long(500),
      category: long(200),
      brand: long(200),
      hs_code: "8507.6000.10",
      country_of_origin: "gb",
    };
    const { res, body } = await check(api, {
      destination_country: "US",
      items: Array.from({ length: 100 }, () => full),
    });
    expect(res.status).toBe(200);
    expect(body.items).toHaveLength(100);
    expect(body.items[0]!.hs_code).toBe("8507600010");
    expect(body.items[0]!.country_of_origin).toBe("GB");
  });

  it("400 for malformed JSON; 401 without a token; 403 without restrict:read", async () => {
    const { ws, api } = await setup();
    const bad = await api("/restrict", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("invalid_json");
    expect(
      (await call("/admin/api/v1/restrict", { host: ws.host, json: { destination_country: "US", items: [{}] } }))
        .status,
    ).toBe(401);
    const narrow = await setup(["classify:read"]);
    for (const [method, path] of [
      ["POST", "/restrict"],
      ["GET", "/restrict/coverage"],
      ["GET", "/restrict/rules"],
      ["POST", "/restrict/rules"],
      ["DELETE", "/restrict/rules/1"],
      ["GET", "/usage-history/restrict"],
    ] as const) {
      const res = await narrow.api(path, { method, ...(method === "POST" ? { json: {} } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe("Missing scope: restrict:read");
    }
  });
});

const orgRule = {
  title: "No toy guns to the US",
  summary: "Carrier contract",
  rule_type: "prohibition",
  measure_direction: "IMPORT",
  imposing_country_code: "US",
  keywords: ["toy gun"],
};

describe("custom rules", () => {
  it("creates, lists and applies organization rules beside platform rules, across the organization's workspaces", async () => {
    const { ws, api } = await setup();
    const created = await api("/restrict/rules", { json: orgRule });
    expect(created.status).toBe(201);
    const { rule } = (await created.json()) as { rule: { id: number; source: string; keywords: string[] } };
    expect(Number.isInteger(rule.id)).toBe(true);
    expect(rule).toMatchObject({
      source: "org",
      keywords: ["toy gun"],
      hs_code: null,
      origin_country_code: null,
      requirement: null,
    });

    const { body } = await check(api, { destination_country: "US", items: [{ title: "Toy guns with ivory grips" }] });
    const ids = body.items[0]!.restrictions!.map((m) => m.id);
    expect(ids).toContain(`org_rule_${rule.id}`);
    expect(ids).toContain(ruleId("African elephant ivory"));
    const mine = body.items[0]!.restrictions!.find((m) => m.id === `org_rule_${rule.id}`)!;
    expect(mine).toMatchObject({
      source: "org",
      agency: null,
      agency_flag: null,
      confidence: "MEDIUM",
      imposing_country_code: "US",
    });

    // A sibling workspace of the same organization sees and applies the rule; another organization does not.
    const sibling = await createWorkspace({ organization_id: ws.organizationId });
    const sToken = await getToken(sibling, await createClient(sibling));
    const sList = await call("/admin/api/v1/restrict/rules", { host: sibling.host, token: sToken });
    expect(((await sList.json()) as { rules: { id: number }[] }).rules.map((r) => r.id)).toEqual([rule.id]);
    const other = await setup();
    expect(((await (await other.api("/restrict/rules")).json()) as { rules: unknown[] }).rules).toEqual([]);
    const otherCheck = await check(other.api, { destination_country: "US", items: [{ title: "toy gun" }] });
    expect(otherCheck.body.items[0]!.restrictions).toBeNull();
  });

  it("matches HS-prefix and origin org rules and respects validity dates", async () => {
    const { api } = await setup();
    const mk = async (extra: Record<string, unknown>) =>
      (
        (await (await api("/restrict/rules", { json: { ...orgRule, keywords: undefined, ...extra } })).json()) as {
          rule: { id: number };
        }
      ).rule.id;
    const hs = await mk({ hs_code: "9503.00", title: "Toys" });
    const origin = await mk({ origin_country_code: "VE", title: "No goods of VE origin", rule_type: "restriction" });
    const expired = await mk({ hs_code: "9504", valid_from: "2020-01-01", valid_to: "2021-12-31" });
    const future = await mk({ hs_code: "9505", valid_from: "2999-01-01" });
    const { body } = await check(api, {
      destination_country: "US",
      items: [
        { hs_code: "950300" },
        { hs_code: "9503" },
        { country_of_origin: "VE" },
        { hs_code: "950430" },
        { hs_code: "950510" },
      ],
    });
    const matched = body.items.map((i) =>
      (i.restrictions ?? []).filter((m) => m.source === "org").map((m) => `${m.id}:${m.confidence}`),
    );
    expect(matched).toEqual([[`org_rule_${hs}:HIGH`], [`org_rule_${hs}:MEDIUM`], [`org_rule_${origin}:HIGH`], [], []]);
    expect(expired).not.toBe(future);
  });

  it("deletes a rule: {success, message, deleted}; 404 for another organization's id, unknown or deleted ids", async () => {
    const { api } = await setup();
    const id = ((await (await api("/restrict/rules", { json: orgRule })).json()) as { rule: { id: number } }).rule.id;
    const other = await setup();
    const foreign = await other.api(`/restrict/rules/${id}`, { method: "DELETE" });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { success: boolean }).success).toBe(false);
    expect((await api(`/restrict/rules/999999`, { method: "DELETE" })).status).toBe(404);
    expect((await api(`/restrict/rules/abc`, { method: "DELETE" })).status).toBe(400);
    // Integer ids in canonical decimal only: hex, exponent and leading-zero spellings are not coerced to an id.
    for (const bad of ["0x4e", "1e3", `0x${id.toString(16)}`, `${id}e0`, `0${id}`])
      expect((await api(`/restrict/rules/${bad}`, { method: "DELETE" })).status).toBe(400);
    expect((await api("/restrict/rules?starting_after=1e3")).status).toBe(400);
    const del = await api(`/restrict/rules/${id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    const body = (await del.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: true, deleted: true });
    expect(typeof body.message).toBe("string");
    expect((await api(`/restrict/rules/${id}`, { method: "DELETE" })).status).toBe(404);
    expect(((await (await api("/restrict/rules")).json()) as { rules: unknown[] }).rules).toEqual([]);
    const after = await check(api, { destination_country: "US", items: [{ title: "toy gun" }] });
    expect(after.body.items[0]!.restrictions).toBeNull();
  });

  it("pages the list newest first", async () => {
    const { api } = await setup();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          (await (await api("/restrict/rules", { json: { ...orgRule, title: `R${i}` } })).json()) as {
            rule: { id: number };
          }
        ).rule.id,
      );
    const p1 = (await (await api("/restrict/rules?limit=2")).json()) as { rules: { id: number }[]; has_more: boolean };
    expect(p1.rules.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(p1.has_more).toBe(true);
    const p2 = (await (await api(`/restrict/rules?limit=2&starting_after=${ids[1]}`)).json()) as {
      rules: { id: number }[];
      has_more: boolean;
    };
    expect(p2.rules.map((r) => r.id)).toEqual([ids[0]]);
    expect(p2.has_more).toBe(false);
    for (const q of ["starting_after=abc", "limit=0", "limit=101"])
      expect((await api(`/restrict/rules?${q}`)).status, q).toBe(400);
  });

  it.each([
    ["no matcher", { ...orgRule, keywords: undefined }],
    ["hs_code and keywords", { ...orgRule, hs_code: "9503" }],
    ["bad rule_type", { ...orgRule, rule_type: "ban" }],
    ["bad direction", { ...orgRule, measure_direction: "import" }],
    ["bad country", { ...orgRule, imposing_country_code: "XX" }],
    ["hs_code of 1 digit", { ...orgRule, keywords: undefined, hs_code: "9" }],
    ["punctuation keyword", { ...orgRule, keywords: ["--"] }],
    ["empty keywords", { ...orgRule, keywords: [] }],
    ["valid_to before valid_from", { ...orgRule, valid_from: "2026-02-01", valid_to: "2026-01-01" }],
    ["bad date", { ...orgRule, valid_from: "2026-02-30" }],
    ["bad requirement", { ...orgRule, requirement: "maybe" }],
    ["title too long", { ...orgRule, title: "x".repeat(201) }],
    ["not a URL", { ...orgRule, source_url: "gov page" }],
    ["agency is not an org rule field", { ...orgRule, agency: "CBP" }],
  ])("400 for %s", async (_name, payload) => {
    const { api } = await setup();
    const res = await api("/restrict/rules", { json: payload });
    expect(res.status).toBe(400);
  });
});

describe("GET /usage-history/restrict", () => {
  it("logs every check with the spec's row and walks pages both ways while checks keep arriving", async () => {
    const { api } = await setup();
    const ids: string[] = [];
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await api("/restrict", {
          json: {
            destination_country: "US",
            origin_country: "GB",
            items: Array.from({ length: i + 1 }, () => ({ title: "ivory" })),
          },
        });
        expect(res.status).toBe(200);
        ids.push(res.headers.get("x-request-id")!);
      }
    };
    await run(5);
    type Page = { data: Record<string, unknown>[]; has_more: boolean };
    const page = async (q: string) => (await (await api(`/usage-history/restrict${q}`)).json()) as Page;
    const newestFirst = [...ids].reverse();

    const p1 = await page("?limit=2");
    expect(p1.data.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
    expect(p1.has_more).toBe(true);
    expect(Object.keys(p1.data[0]!).sort()).toEqual([
      "created_at",
      "duration_ms",
      "id",
      "item_count",
      "match_count",
      "receiver_country_code",
      "sender_country_code",
    ]);
    expect(p1.data[0]).toMatchObject({
      sender_country_code: "GB",
      receiver_country_code: "US",
      item_count: 5,
      // "ivory" meets two US rules: the African elephant ivory ban and the CITES wildlife rule.
      match_count: 10,
    });

    await run(2); // arrive between calls
    const p2 = await page(`?limit=2&starting_after=${p1.data[1]!.id}`);
    expect(p2.data.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
    const p3 = await page(`?limit=2&starting_after=${p2.data[1]!.id}`);
    expect(p3.data.map((r) => r.id)).toEqual(newestFirst.slice(4, 5));
    expect(p3.has_more).toBe(false);

    const back = await page(`?limit=2&ending_before=${p3.data[0]!.id}`);
    expect(back.data.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
    expect(back.has_more).toBe(true);
    const top = await page(`?limit=10&ending_before=${p1.data[0]!.id}`);
    expect(top.data.map((r) => r.id)).toEqual(ids.slice(5).reverse());
    expect(top.has_more).toBe(false);
  });

  it("does not log refused checks and never shows another workspace's rows", async () => {
    const mine = await setup();
    await mine.api("/restrict", { json: { destination_country: "ZW", items: [{}] } });
    await mine.api("/restrict", { json: { destination_country: "US", items: [] } });
    const ok = await mine.api("/restrict", { json: { destination_country: "US", items: [{}] } });
    const theirs = await setup();
    await theirs.api("/restrict", { json: { destination_country: "US", items: [{}] } });
    const rows = (
      (await (await mine.api("/usage-history/restrict")).json()) as {
        data: { id: string; sender_country_code: string | null; match_count: number }[];
      }
    ).data;
    expect(rows.map((r) => r.id)).toEqual([ok.headers.get("x-request-id")]);
    expect(rows[0]).toMatchObject({ sender_country_code: null, match_count: 0 });
  });

  it.each(["limit=0", "limit=101", "starting_after=nope"])("400 for %s", async (q) => {
    const { api } = await setup();
    expect((await api(`/usage-history/restrict?${q}`)).status).toBe(400);
  });
});

describe("OpenAPI", () => {
  it("documents the restrict, custom-rule, history and settings routes with their scopes and examples", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            security?: unknown;
            parameters?: { name: string; schema: { type: string } }[];
            requestBody?: { content: Record<string, { schema: unknown }> };
          }
        >
      >;
      components: { schemas: Record<string, { example?: unknown }> };
    };
    const p = doc.paths;
    expect(p["/admin/api/v1/restrict"]!.post!.security).toEqual([{ oauth2: ["restrict:read"] }]);
    expect(Object.keys(p["/admin/api/v1/restrict/rules"]!).sort()).toEqual(["get", "post"]);
    expect(p["/admin/api/v1/restrict/rules/{id}"]!.delete!.parameters!.find((x) => x.name === "id")!.schema.type).toBe(
      "integer",
    );
    expect(p["/admin/api/v1/usage-history/restrict"]!.get!.security).toEqual([{ oauth2: ["restrict:read"] }]);
    expect(p["/admin/api/v1/settings"]!.patch!.security).toEqual([{ oauth2: ["settings:write"] }]);
    for (const name of ["RestrictRequest", "CreateRestrictionRule", "SettingsPatch"])
      expect(doc.components.schemas[name]!.example).toBeDefined();
  });
});
