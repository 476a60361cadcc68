/** Calculate over HTTP: validation (pinned shapes), security, batches, stacking, history, country rules. */
import { beforeAll, describe, expect, it } from "vitest";
import { call, createClient, getToken, loadDataset, sampleCalculateLine, setup } from "./helpers";

beforeAll(async () => {
  for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d, { fixture: true });
  await loadDataset("restrictions");
}, 120_000);

const base = sampleCalculateLine;

describe("POST /calculate validation: the shared envelope with errors [{field, message}]", () => {
  it.each([
    ["quantity 0", { quantity: 0 }, "quantity"],
    ["negative quantity", { quantity: -1 }, "quantity"],
    ["negative declared_value", { declared_value: -1 }, "declared_value"],
    ["declared_value as a string that is not a plain decimal", { declared_value: "1,000" }, "declared_value"],
    ["unknown currency", { currency: "XYZ" }, "currency"],
    ["hs_code too short", { hs_code: "12" }, "hs_code"],
    ["hs_code with letters", { hs_code: "61A9" }, "hs_code"],
    ["origin not ISO", { origin_country: "ZZ" }, "origin_country"],
    ["entry_date not a date", { entry_date: "2026-02-30" }, "entry_date"],
    ["weight_unit oz", { weight_unit: "oz" }, "weight_unit"],
    [
      "11 components",
      { components: Array.from({ length: 11 }, () => ({ material: "steel", value: 1 })) },
      "components",
    ],
    ["21 manual claims", { manual_claims: Array.from({ length: 21 }, (_, i) => `C${i}`) }, "manual_claims"],
    ["metal_weight_percentage over 100", { metal_weight_percentage: 101 }, "metal_weight_percentage"],
    ["volume_unit gallons", { volume_unit: "gal" }, "volume_unit"],
    ["alcohol_percentage over 100", { alcohol_percentage: 101 }, "alcohol_percentage"],
    ["alcohol_percentage as a string", { alcohol_percentage: "40%" }, "alcohol_percentage"],
    ["primary_country_of_smelt not ISO", { primary_country_of_smelt: "XX" }, "primary_country_of_smelt"],
    ["country_of_cast alpha-3", { country_of_cast: "RUS" }, "country_of_cast"],
    ["country_of_melt_pour a number", { country_of_melt_pour: 7 }, "country_of_melt_pour"],
    ["unknown field", { colour: "red" }, ""],
  ])("%s → 400", async (_n, over, field) => {
    const { api } = await setup();
    const res = await api("/calculate", { json: { ...base, ...over } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      success: boolean;
      error: string;
      request_id: string;
      errors: { field: string; message: string }[];
    };
    expect(body).toMatchObject({ success: false, error: "validation_failed" });
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
    if (field) expect(body.errors.map((e) => e.field)).toContain(field);
  });

  it("unsupported destination → 400 naming the supported ones", async () => {
    const { api } = await setup();
    const res = await api("/calculate", { json: { ...base, destination_country: "BR" } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; errors: { field: string }[] };
    expect(body.message).toMatch(/Destination BR is not supported; supported: .*US/);
    expect(body.errors[0]!.field).toBe("destination_country");
  });

  it.each([
    ["a region of another country", "US", "CA-ON"],
    ["an unknown Canadian region", "CA", "ZZ"],
  ])("destination_region: %s → 400 on the field", async (_n, destination, region) => {
    const { api } = await setup();
    const res = await api("/calculate", {
      json: { ...base, destination_country: destination, currency: "USD", destination_region: region },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors[0]).toMatchObject({ field: "destination_region", message: expect.stringContaining(region) });
  });

  it("a quote for goods the restricted-goods rules prohibit carries a warning (North Korean origin, OFAC); others none", async () => {
    const { api } = await setup();
    const kp = (await (await api("/calculate", { json: { ...base, origin_country: "KP" } })).json()) as {
      warnings: { code: string; title: string; imposing_country: string; source_url: string }[];
    };
    expect(kp.warnings).toEqual([
      expect.objectContaining({ code: "prohibited", imposing_country: "US", title: "Goods of North Korean origin" }),
    ]);
    const vn = (await (await api("/calculate", { json: base })).json()) as { warnings: unknown[] };
    expect(vn.warnings).toEqual([]);
    const multi = (await (
      await api("/calculate/multiple", {
        json: {
          destination_country: "US",
          currency: "USD",
          entry_date: "2026-03-02",
          codes: [
            { hs_code: "6109.10.00", origin_country: "VN", declared_value: 10 },
            { hs_code: "6109.10.00", origin_country: "KP", declared_value: 10 },
          ],
        },
      })
    ).json()) as { results: { warnings: { code: string }[] }[] };
    expect(multi.results.map((r) => r.warnings.map((w) => w.code))).toEqual([[], ["prohibited"]]);
  });

  it("an ISO currency without an ECB rate → 400 with a clear message", async () => {
    const { api } = await setup();
    const res = await api("/calculate", { json: { ...base, currency: "NGN" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/No ECB reference rate for NGN/);
  });

  it("malformed JSON → 400 invalid_json", async () => {
    const { api } = await setup();
    const res = await api("/calculate", { body: "{", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_json");
  });

  it("lower-case ISO codes are accepted; hs_code comes back digits only; defaults echoed", async () => {
    const { api } = await setup();
    const res = await api("/calculate", {
      json: { ...base, origin_country: "vn", destination_country: "us", currency: "usd", hs_code: "6109 10 00" },
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      hs_code: "61091000",
      origin_country: "VN",
      destination_country: "US",
      transport_mode: "sea",
      shipping_terms: "FOB",
      quantity: 1,
      rate_found: true,
    });
  });
});

describe("notes on what the data does not cover", () => {
  it("a US quote in the IEEPA window shows the IEEPA duties as refundable, outside the totals; outside it, nothing", async () => {
    const { api } = await setup();
    const inWindow = (await (
      await api("/calculate", { json: { ...base, origin_country: "CN", entry_date: "2025-09-02" } })
    ).json()) as { notes: string[]; refundable_duties?: { total: number } };
    expect(inWindow.notes.join(" ")).toMatch(
      /IEEPA .* in refundable_duties, not in the totals: the Supreme Court held them unlawful/,
    );
    expect(inWindow.refundable_duties?.total).toBeGreaterThan(0);
    const after = (await (await api("/calculate", { json: { ...base, origin_country: "CN" } })).json()) as {
      notes: string[];
      refundable_duties?: unknown;
    };
    expect(after.notes.join(" ")).not.toMatch(/IEEPA/);
    expect(after.refundable_duties).toBeUndefined();
  });
});

describe("security", () => {
  it("401 without a token, 403 without calculate:read", async () => {
    const { ws } = await setup();
    expect((await call("/admin/api/v1/calculate", { host: ws.host, json: base })).status).toBe(401);
    const { api } = await setup(["settings:read"]);
    const res = await api("/calculate", { json: base });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe("Missing scope: calculate:read");
    expect((await api("/calculate/stacking", { json: { hs_code: "6109", origin_country: "CN" } })).status).toBe(403);
    expect((await api("/usage-history/calculate")).status).toBe(403);
  });
});

describe("usage history", () => {
  it("logs every request; request_id is the history row id; newest first", async () => {
    const { api } = await setup();
    const a = (await (await api("/calculate", { json: base })).json()) as { request_id: string };
    const b = (await (
      await api("/calculate/stacking", { json: { hs_code: "6109", origin_country: "CN" } })
    ).json()) as { request_id: string };
    const page = (await (await api("/usage-history/calculate?limit=1")).json()) as {
      data: { id: string; endpoint: string }[];
      has_more: boolean;
    };
    expect(page.data[0]).toMatchObject({ id: b.request_id, endpoint: "calculate/stacking" });
    expect(page.has_more).toBe(true);
    const next = (await (await api(`/usage-history/calculate?starting_after=${b.request_id}`)).json()) as {
      data: { id: string; total: number; currency: string; receiver_country_code: string }[];
    };
    expect(next.data[0]).toMatchObject({
      id: a.request_id,
      total: 268.94,
      currency: "USD",
      receiver_country_code: "US",
    });
  });
});

describe("POST /calculate/multiple", () => {
  it("lines in order, a failed line in place, grand totals, execution_time; MPF floor once per entry", async () => {
    const { api } = await setup();
    const res = await api("/calculate/multiple", {
      json: {
        destination_country: "US",
        currency: "USD",
        entry_date: "2026-03-02",
        reference: "PO-1",
        shipping_cost: 100,
        codes: [
          { hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000 },
          { hs_code: "6109", origin_country: "ZZ", declared_value: 5 },
          { hs_code: "6109.10.00", origin_country: "CN", declared_value: 500, quantity: 2 },
          { hs_code: "9999.99.99", origin_country: "VN", declared_value: 10 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      reference: string;
      results: Record<string, unknown>[];
      totals: { total: number; fees: number; duty: number };
      execution_time: number;
      shipment: { fees: { MPF: { amount: number } }; shipping_cost: number };
    };
    expect(body.reference).toBe("PO-1");
    expect(body.results.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(body.results[1]).toMatchObject({ rate_found: false, origin_country: "ZZ" });
    expect(body.results[1]!.error).toMatch(/origin_country/);
    // An unknown code is a failed line: it carries `error` and adds nothing to the entry's fees.
    expect(body.results[3]).toMatchObject({ rate_found: false, error: expect.stringMatching(/9999\.99\.99/) });
    expect(body).toMatchObject({ complete: false });
    // Duty: (165 + 100 Section 122) + (165 + 75 + 100) = 605; the entry's 2,010.00 USD does not exceed 2,500, so it
    // is an informal entry (19 CFR 143.21(a)) paying the flat FY2026 informal MPF 2.69 once (90 FR 34665);
    // HMF 0.125% of the priced lines' 2,000 = 2.50. Fees 5.19, total 610.19.
    expect(body.totals.duty).toBe(605);
    expect(body.shipment.fees.MPF.amount).toBe(2.69);
    expect(body.totals.fees).toBe(5.19);
    expect(body.totals.total).toBe(610.19);
    expect(body.shipment).toMatchObject({ entry_type: "informal" });
    expect(body.shipment.shipping_cost).toBe(100);
    expect(typeof body.execution_time).toBe("number");
  });

  it("MPF is on the lines not exempt from it: an FTA-originating line is left out of its base, floor and cap", async () => {
    const { api } = await setup();
    const run = async (codes: Record<string, unknown>[]) => {
      const res = await api("/calculate/multiple", {
        json: { destination_country: "US", currency: "USD", entry_date: "2026-03-02", codes },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { shipment: { fees: Record<string, { amount: number }> | null } };
    };
    const vn = { hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000 };
    const kr = { hs_code: "6109.10.00", origin_country: "KR", declared_value: 100000 };
    // A formal entry (101,000.00 USD > 2,500): MPF 0.3464% of the Vietnamese 1,000.00 only = 3.46 → floor 33.58 (on 101,000.00 it would be 349.86);
    // HMF 0.125% of both lines' 101,000.00 = 126.25.
    const mixed = await run([vn, kr]);
    expect(mixed.shipment.fees?.MPF?.amount).toBe(33.58);
    expect(mixed.shipment.fees?.HMF?.amount).toBe(126.25);
    const allKr = await run([kr, { ...kr, declared_value: 5 }]);
    expect(allKr.shipment.fees?.MPF).toBeUndefined();
    expect(allKr.shipment.fees?.HMF?.amount).toBe(125.01);
  });

  it("an entry under 2,500 USD is formal when one of its articles over 250 USD is under a Chapter 99 heading (before 2025-04-30)", async () => {
    const { api } = await setup();
    const run = async (entry_date: string, codes: Record<string, unknown>[]) => {
      const res = await api("/calculate/multiple", {
        json: { destination_country: "US", currency: "USD", entry_date, transport_mode: "air", codes },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        shipment: { entry_type: string; entry_type_basis: string; fees: Record<string, { amount: number }> | null };
      };
    };
    // The Chinese T-shirt carries Section 301 (9903.88.15): an article of 300 USD in Chapter 99, Subchapter III.
    const cn = { hs_code: "6109.10.00", origin_country: "CN", declared_value: 300 };
    // 900 USD in all: over the 800 USD de minimis of the time, under the 2,500 USD informal limit.
    const vn = { hs_code: "6109.10.00", origin_country: "VN", declared_value: 600 };
    const before = await run("2025-03-03", [vn, cn]);
    expect(before.shipment).toMatchObject({ entry_type: "formal" });
    expect(before.shipment.entry_type_basis).toMatch(/Chapter 99, Subchapters III and IV/);
    // MPF 0.3464% × 900 = 3.12 → FY2025 floor 32.71.
    expect(before.shipment.fees?.MPF?.amount).toBe(32.71);
    // Under 250 USD the article does not count; after 2025-04-30 the parenthetical is suspended (90 FR 17608).
    const small = await run("2025-03-03", [
      { ...vn, declared_value: 700 },
      { ...cn, declared_value: 200 },
    ]);
    expect(small.shipment).toMatchObject({ entry_type: "informal", fees: { MPF: { amount: 2.62 } } });
    expect((await run("2025-05-15", [vn, cn])).shipment).toMatchObject({
      entry_type: "informal",
      fees: { MPF: { amount: 2.62 } },
    });
  });

  it("de minimis aggregates across lines after conversion", async () => {
    const { api } = await setup();
    const line = { hs_code: "6109.10.00", origin_country: "CN", declared_value: 80 };
    const one = (await (
      await api("/calculate/multiple", {
        json: { destination_country: "DE", currency: "EUR", entry_date: "2026-03-02", codes: [line] },
      })
    ).json()) as { results: { exemptions: { de_minimis_exempt: boolean } }[] };
    expect(one.results[0]!.exemptions.de_minimis_exempt).toBe(true);
    const two = (await (
      await api("/calculate/multiple", {
        json: { destination_country: "DE", currency: "EUR", entry_date: "2026-03-02", codes: [line, line] },
      })
    ).json()) as { results: { exemptions: { de_minimis_exempt: boolean } }[]; totals: { duty: number } };
    expect(two.results[0]!.exemptions.de_minimis_exempt).toBe(false);
    expect(two.totals.duty).toBe(19.2); // 12% of 160
  });

  it.each([
    ["no lines", { codes: [] }],
    [
      "51 lines",
      { codes: Array.from({ length: 51 }, () => ({ hs_code: "6109", origin_country: "CN", declared_value: 1 })) },
    ],
    ["missing destination", { destination_country: undefined }],
  ])("%s → 400", async (_n, over) => {
    const { api } = await setup();
    const res = await api("/calculate/multiple", {
      json: {
        destination_country: "US",
        codes: [{ hs_code: "6109", origin_country: "CN", declared_value: 1 }],
        ...over,
      },
    });
    expect(res.status).toBe(400);
  });
});

describe("POST /calculate/stacking", () => {
  it("base first, an exclusion that fired shows a zeroed rate", async () => {
    const { api } = await setup();
    const res = await api("/calculate/stacking", {
      json: { hs_code: "8483.50.90.40", origin_country: "cn", entry_date: "2026-03-02" },
    });
    const body = (await res.json()) as {
      destination_country: string;
      rate_found: boolean;
      tariffs: Record<string, unknown>[];
    };
    expect(res.status).toBe(200);
    expect(body.destination_country).toBe("US");
    expect(body.tariffs[0]).toMatchObject({ name: "MFN duty", rate: "2.8%", code: "8483.50.90" });
    expect(body.tariffs[1]).toMatchObject({
      code: "9903.88.01",
      rate: "0%",
      exempted: true,
      exclusion_code: "9903.88.69",
    });
  });

  it("claimable codes and conditional measures; entry date defaults to today", async () => {
    const { api } = await setup();
    const res = await api("/calculate/stacking", {
      json: { hs_code: "9403.20.00", origin_country: "VN", entry_date: "2025-09-02" },
    });
    const body = (await res.json()) as {
      potential_exclusion_codes: Record<string, unknown>[];
      conditional_measures: Record<string, unknown>[];
    };
    expect(body.conditional_measures[0]).toMatchObject({ code: "9903.85.08", rate: "50%" });
    expect(body.conditional_measures[0]!.condition).toMatch(/aluminum content/);
    expect(body.potential_exclusion_codes[0]).toMatchObject({ code: "9903.85.09", applied: false });
    const today = (await (
      await api("/calculate/stacking", { json: { hs_code: "61", origin_country: "VN" } })
    ).json()) as {
      entry_date: string;
      rate_found: boolean;
      tariff_line: { resolution: { method: string; lines_considered: number } };
    };
    expect(today.entry_date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.rate_found).toBe(true);
    expect(today.tariff_line.resolution.method).toBe("highest_ad_valorem_of_range");
    expect(today.tariff_line.resolution.lines_considered).toBeGreaterThan(100);
  });
});

describe("Section 122 surcharge on the fixture slice", () => {
  it("stacks on MFN, yields to Section 232, spares USMCA goods entered free; the answer names the data", async () => {
    const { api } = await setup();
    const vn = (await (await api("/calculate", { json: base })).json()) as {
      estimated_duties: { tariffs: { code: string; amount: number }[] };
      data_source: { version: string; source: string };
    };
    expect(vn.estimated_duties.tariffs.map((t) => [t.code, t.amount])).toEqual([
      ["6109.10.00", 165],
      ["9903.03.01", 100],
    ]);
    expect(vn.data_source.version).toBe("2026-11-28.6+fixture");
    expect(vn.data_source.source).toMatch(/Section 122 surcharge 2026-02-24 to 2026-07-23/);
    const stackOf = async (hs_code: string, origin_country: string) =>
      (await (
        await api("/calculate/stacking", { json: { hs_code, origin_country, entry_date: "2026-03-02" } })
      ).json()) as { tariffs: Record<string, unknown>[]; potential_exclusion_codes?: { code: string }[] };
    expect((await stackOf("7208.36.00", "VN")).tariffs.at(-1)).toMatchObject({
      code: "9903.03.01",
      rate: "0%",
      exempted: true,
      exclusion_code: "9903.03.06",
    });
    expect((await stackOf("6109.10.00", "MX")).tariffs.at(-1)).toMatchObject({
      code: "9903.03.01",
      exempted: true,
      exclusion_code: "9903.03.08",
    });
    expect((await stackOf("6109.10.00", "CA")).tariffs.at(-1)).toMatchObject({
      code: "9903.03.01",
      exempted: true,
      exclusion_code: "9903.03.07",
    });
    const freeLine = await stackOf("8517.13.00", "MX");
    expect(freeLine.tariffs.at(-1)).toMatchObject({ code: "9903.03.01", exempted: true, exclusion_code: "9903.03.03" });
    const noRate = await stackOf("9403.60.80", "MX");
    expect(noRate.tariffs.at(-1)).toMatchObject({ code: "9903.03.01", rate: "10%" });
    expect(noRate.potential_exclusion_codes?.map((p) => p.code)).toContain("9903.03.08");
  });
});

describe("POST /calculate/stacking/bulk", () => {
  it("per-item success or error, refs echoed, in order", async () => {
    const { api } = await setup();
    const res = await api("/calculate/stacking/bulk", {
      json: {
        items: [
          { ref: "a", hs_code: "6109.10.00", origin_country: "CN", entry_date: "2026-03-02" },
          { ref: "b", hs_code: "x", origin_country: "CN" },
          { ref: "c", hs_code: "6109", origin_country: "CN", destination_country: "BR" },
          { hs_code: "9999.99", origin_country: "CN" },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: Record<string, unknown>[]; execution_time: number };
    expect(body.results.map((r) => [r.index, r.ref, r.success])).toEqual([
      [0, "a", true],
      [1, "b", false],
      [2, "c", false],
      [3, null, true],
    ]);
    expect(body.results[0]!.tariffs).toHaveLength(3); // MFN, Section 301, Section 122
    expect(body.results[1]!.error).toMatch(/hs_code/);
    expect(body.results[2]!.error).toMatch(/BR is not supported/);
    expect(body.results[3]).toMatchObject({ rate_found: false });
  });
  it("over 500 items → 400", async () => {
    const { api } = await setup();
    const res = await api("/calculate/stacking/bulk", {
      json: { items: Array.from({ length: 501 }, () => ({ hs_code: "6109", origin_country: "CN" })) },
    });
    expect(res.status).toBe(400);
  });
});

describe("workspace country rules", () => {
  it("CRUD with settings scopes; a violation is exactly {errors: [{code, description}]}", async () => {
    const { api, ws } = await setup();
    const created = await api("/settings/country-rules", {
      json: {
        destination_country: "de",
        rule_type: "min_declared_value",
        value: 10,
        currency: "EUR",
        code: "MIN_VALUE",
      },
    });
    expect(created.status).toBe(201);
    const { rule } = (await created.json()) as { rule: { id: number; destination_country: string } };
    expect(rule.destination_country).toBe("DE");

    const low = await api("/calculate", {
      json: { ...base, destination_country: "DE", currency: "EUR", declared_value: 5 },
    });
    expect(low.status).toBe(400);
    const body = await low.json();
    expect(Object.keys(body as object)).toEqual(["errors"]);
    expect(body).toEqual({
      errors: [{ code: "MIN_VALUE", description: expect.stringMatching(/at least 10 EUR for DE/) }],
    });
    expect(
      (await api("/calculate", { json: { ...base, destination_country: "DE", currency: "EUR", declared_value: 50 } }))
        .status,
    ).toBe(200);

    const blocked = await api("/settings/country-rules", {
      json: { destination_country: "*", rule_type: "blocked_origins", countries: ["KP"] },
    });
    expect(blocked.status).toBe(201);
    const kp = await api("/calculate/multiple", {
      json: { destination_country: "US", codes: [{ hs_code: "6109", origin_country: "KP", declared_value: 1 }] },
    });
    expect(kp.status).toBe(400);
    expect(((await kp.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("blocked_origins");

    const req = await api("/settings/country-rules", {
      json: { destination_country: "GB", rule_type: "required_fields", fields: ["weight", "shipment_channel"] },
    });
    const reqId = ((await req.json()) as { rule: { id: number } }).rule.id;
    const missing = await api("/calculate", { json: { ...base, destination_country: "GB", weight: 1 } });
    expect(((await missing.json()) as { errors: { description: string }[] }).errors[0]!.description).toMatch(
      /missing: shipment_channel/,
    );

    const patched = await api(`/settings/country-rules/${reqId}`, { method: "PATCH", json: { fields: ["weight"] } });
    expect(((await patched.json()) as { rule: { fields: string[] } }).rule.fields).toEqual(["weight"]);
    expect((await api("/calculate", { json: { ...base, destination_country: "GB", weight: 1 } })).status).toBe(200);

    const list = (await (await api("/settings/country-rules")).json()) as { rules: { id: number }[] };
    expect(list.rules).toHaveLength(3);
    expect((await api(`/settings/country-rules/${reqId}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/settings/country-rules/${reqId}`)).status).toBe(404);

    // Another workspace cannot see it; a settings:read client can list but not create.
    const other = await setup();
    expect((await other.api(`/settings/country-rules/${rule.id}`)).status).toBe(404);
    const reader = await getToken(ws, await createClient(ws, ["settings:read"]));
    expect((await call("/admin/api/v1/settings/country-rules", { host: ws.host, token: reader })).status).toBe(200);
    expect(
      (
        await call("/admin/api/v1/settings/country-rules", {
          host: ws.host,
          token: reader,
          json: { destination_country: "DE", rule_type: "blocked_origins", countries: ["CN"] },
        })
      ).status,
    ).toBe(403);
  });

  it.each([
    ["missing value", { destination_country: "DE", rule_type: "min_declared_value" }],
    ["unknown rule type", { destination_country: "DE", rule_type: "max_weight", value: 1 }],
    ["unknown field name", { destination_country: "DE", rule_type: "required_fields", fields: ["colour"] }],
  ])("create with %s → 400", async (_n, body) => {
    const { api } = await setup();
    expect((await api("/settings/country-rules", { json: body })).status).toBe(400);
  });
});

describe("country rule ids in canonical decimal only", () => {
  it("0x4e and 1e3 are 400, not another rule's id; so is such a cursor", async () => {
    const { api } = await setup();
    const created = await api("/settings/country-rules", {
      json: { destination_country: "DE", rule_type: "blocked_origins", countries: ["KP"] },
    });
    const { id } = ((await created.json()) as { rule: { id: number } }).rule;
    expect((await api(`/settings/country-rules/${id}`)).status).toBe(200);
    for (const bad of ["0x4e", "1e3", `0x${id.toString(16)}`, `${id}e0`, `0${id}`]) {
      const res = await api(`/settings/country-rules/${bad}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: "validation_failed" });
      expect((await api(`/settings/country-rules/${bad}`, { method: "DELETE" })).status).toBe(400);
      expect((await api(`/settings/country-rules/${bad}`, { method: "PATCH", json: { code: "X" } })).status).toBe(400);
    }
    expect((await api("/settings/country-rules?starting_after=1e3")).status).toBe(400);
    expect((await api(`/settings/country-rules/${id}`)).status).toBe(200);
  });
});

describe("a refused calculation is logged", () => {
  it("the 400 {errors} leaves a usage row marked rejected, under the request id", async () => {
    const { api } = await setup();
    await api("/settings/country-rules", {
      json: { destination_country: "US", rule_type: "blocked_origins", countries: ["VN"], code: "NO_VN" },
    });
    const res = await api("/calculate", { json: base });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ errors: [{ code: "NO_VN", description: expect.any(String) }] });
    const history = (await (await api("/usage-history/calculate")).json()) as {
      data: { id: string; endpoint: string; rejected: boolean; receiver_country_code: string }[];
    };
    expect(history.data[0]).toMatchObject({
      id: res.headers.get("x-request-id"),
      endpoint: "calculate",
      rejected: true,
      receiver_country_code: "US",
    });
  });
});

describe("lookups use indexes, never a scan", () => {
  it.each([
    [
      "tariff lines by code ranges",
      "SELECT * FROM calc_tariff_lines WHERE schedule = 'US' AND (code BETWEEN '61091000' AND '61091000' OR code BETWEEN '61000000' AND '61999999')",
    ],
    ["measures by prefix", "SELECT * FROM calc_measures WHERE hs_prefix IN ('61','6109','61091000')"],
    [
      "measures keyed below a code",
      "SELECT * FROM calc_measures WHERE (hs_prefix > '6109' AND hs_prefix < '6109~') OR (hs_prefix > '7326' AND hs_prefix < '7326~')",
    ],
    ["exclusions by prefix", "SELECT * FROM calc_exclusions WHERE hs_prefix IN ('', '39', '3926909910')"],
    [
      "FX on or before a date",
      "SELECT currency, date, rate FROM fx_rates WHERE version = '2026-04-13' AND currency = 'USD' AND date <= '2026-03-01' ORDER BY date DESC LIMIT 1",
    ],
  ])("%s", async (_n, sql) => {
    const { env } = await import("cloudflare:workers");
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(" | ");
    expect(details).toMatch(/USING (COVERING )?INDEX|USING PRIMARY KEY|MULTI-INDEX OR/);
    expect(details).not.toMatch(/\bSCAN\b/);
  });
});
