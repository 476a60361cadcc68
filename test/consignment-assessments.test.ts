/**
 * Consignment duty assessments: the run (figures equal to POST /calculate/multiple for the same lines),
 * storage and reads, the outbox and timeline rows written with it, classification of uncoded items, items
 * that cannot be assessed, and the security cases.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call, createClient, getToken, insertCustomer, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
  for (const d of ["tariffs", "vat", "fx", "customs_rules", "hs"]) await loadDataset(d, { fixture: true });
}, 120_000);

type Api = Awaited<ReturnType<typeof setup>>["api"];
type Rate = {
  measure: string;
  code: string | null;
  rate: string;
  type: string;
  tier: string | null;
  amount: string;
  basis: string;
  exempted: boolean;
};
type Item = {
  item_id: string;
  sku: string | null;
  hs_code: string | null;
  hs_code_source: string | null;
  classification: { confidence: string; score: number } | null;
  origin_country: string | null;
  quantity: number;
  declared_currency: string | null;
  customs_value: string | null;
  rate_found: boolean;
  duty: string | null;
  tax: string | null;
  rates_applied: Rate[];
  message: string | null;
  error: string | null;
};
type Assessment = {
  assessment_id: string;
  consignment_id: string;
  destination_country: string;
  currency: string;
  entry_date: string;
  total_duty: string;
  total_tax: string;
  total_vat: string;
  total_fees: string;
  total: string;
  complete: boolean;
  items: Item[];
  fees: { code: string; amount: string }[];
  notes: string[];
  request_id: string;
};
type Wire = {
  index: number;
  rate_found: boolean;
  error?: string;
  values: { customs_value: number };
  estimated_duties: {
    tier: string | null;
    tariffs: { name: string; rate: string; amount: number; basis: string; code?: string }[];
  };
  totals: { duty: number; vat: number };
};
type Multiple = {
  currency: string;
  results: Wire[];
  totals: { duty: number; fees: number; vat: number };
  shipment: { fees: Record<string, { amount: number }> | null };
};

const sender = { company_name: "Acme Ltd", city: "London", country_code: "GB" };
const usReceiver = { company_name: "Buyer Inc", city: "Austin", country_code: "US" };
const deReceiver = { company_name: "Käufer GmbH", city: "Berlin", country_code: "DE" };

async function consignment(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api("/consignments", {
    json: { shipment_ref: "ASM-1", sender, receiver: usReceiver, entry_date: "2026-03-02", ...body },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { consignment: { id: string } } }).data.consignment.id;
}

const assess = (api: Api, id: string) => api(`/consignments/${id}/assessments`, { method: "POST" });

/** The calculate engine's answer for the same lines: what the assessment must carry. */
async function multiple(api: Api, body: Record<string, unknown>): Promise<Multiple> {
  const res = await api("/calculate/multiple", { json: { entry_date: "2026-03-02", ...body } });
  expect(res.status).toBe(200);
  return (await res.json()) as Multiple;
}

const money2 = (n: number) => n.toFixed(2);

describe("POST /consignments/{id}/assessments", () => {
  it("GB → US: every figure is calculate/multiple's for the same lines, as exact decimal strings", async () => {
    const { api } = await setup();
    const id = await consignment(api, {
      external_code: "PLAN-US",
      transport_mode: "air",
      parcels: [
        {
          weight_value: 3,
          items: [
            {
              sku: "TEE-VN",
              title: "T-shirt",
              quantity: 2,
              unit_value: 125,
              currency_code: "USD",
              country_of_origin: "VN",
              hs_code: "6109.10.00",
              weight: 0.25,
            },
            {
              sku: "TEE-CN",
              title: "T-shirt",
              quantity: 1,
              unit_value: 500,
              currency_code: "USD",
              country_of_origin: "CN",
              hs_code: "6109.10.00",
            },
          ],
        },
      ],
    });
    const res = await assess(api, id);
    expect(res.status).toBe(200);
    const { success, message, ...a } = (await res.json()) as Assessment & { success: boolean; message: string };
    // The Assessment object's fields, beside `success` and `message` like every success body.
    expect({ success, message }).toEqual({ success: true, message: "Assessment completed" });

    const calc = await multiple(api, {
      destination_country: "US",
      transport_mode: "air",
      codes: [
        {
          hs_code: "6109.10.00",
          origin_country: "VN",
          declared_value: 125,
          quantity: 2,
          currency: "USD",
          weight: 0.5,
          weight_unit: "kg",
        },
        { hs_code: "6109.10.00", origin_country: "CN", declared_value: 500, quantity: 1, currency: "USD" },
      ],
    });
    expect(a).toMatchObject({
      assessment_id: expect.stringMatching(/^asm_/),
      consignment_id: id,
      destination_country: "US",
      currency: calc.currency,
      entry_date: "2026-03-02",
      complete: true,
    });
    expect(a.request_id).toBe(res.headers.get("x-request-id"));
    expect(a.total_duty).toBe(money2(calc.totals.duty));
    expect(a.total_fees).toBe(money2(calc.totals.fees));
    expect(a.total_vat).toBe(money2(calc.totals.vat));
    expect(a.total_tax).toBe(money2(calc.totals.fees + calc.totals.vat));
    expect(a.fees.map((f) => [f.code, f.amount])).toEqual(
      Object.entries(calc.shipment.fees ?? {}).map(([k, f]) => [k, money2(f.amount)]),
    );
    calc.results.forEach((r, i) => {
      const item = a.items[i]!;
      expect(item.duty).toBe(money2(r.totals.duty));
      expect(item.tax).toBe(money2(r.totals.vat));
      expect(item.customs_value).toBe(money2(r.values.customs_value));
      expect(item.rates_applied.map((x) => [x.measure, x.code, x.rate, x.amount, x.basis])).toEqual(
        r.estimated_duties.tariffs.map((t) => [t.name, t.code ?? null, t.rate, money2(t.amount), t.basis]),
      );
      expect(item.rates_applied[0]!.tier).toBe(r.estimated_duties.tier);
    });
    // Pinned figures: 16.5% MFN and 10% Section 122 (entry 2026-03-02) of 250.00 and of 500.00, plus 7.5% Section 301
    // on the Chinese line; the entry's 750.00 USD is an informal entry (19 CFR 143.21(a)): the flat FY2026 informal
    // MPF 2.69 once (90 FR 34665).
    expect(
      a.items.map((i) => [
        i.sku,
        i.hs_code,
        i.hs_code_source,
        i.origin_country,
        i.quantity,
        i.declared_currency,
        i.duty,
      ]),
    ).toEqual([
      ["TEE-VN", "61091000", "declared", "VN", 2, "USD", "66.25"],
      ["TEE-CN", "61091000", "declared", "CN", 1, "USD", "170.00"],
    ]);
    expect(a.items[1]!.rates_applied.map((x) => [x.rate, x.tier, x.amount])).toEqual([
      ["16.5%", "normal_tariff", "82.50"],
      ["7.5%", null, "37.50"],
      ["10%", null, "50.00"],
    ]);
    expect(a).toMatchObject({
      total_duty: "236.25",
      total_fees: "2.69",
      total_vat: "0.00",
      total_tax: "2.69",
      total: "238.94",
    });
  });

  it("passes the items' metals traceability to calculate: aluminium smelted in Russia pays 9903.85.67", async () => {
    const { api } = await setup();
    const plate = {
      title: "Aluminium plate",
      quantity: 1,
      unit_value: 1000,
      currency_code: "USD",
      country_of_origin: "VN",
      hs_code: "7606.12.30",
    };
    const id = await consignment(api, {
      parcels: [
        {
          weight_value: 20,
          items: [
            { ...plate, sku: "RU-SMELT", primary_country_of_smelt: "RU", country_of_cast: "VN" },
            { ...plate, sku: "NO-FACTS" },
          ],
        },
      ],
    });
    const res = await assess(api, id);
    expect(res.status).toBe(200);
    const a = (await res.json()) as Assessment;
    const calc = await multiple(api, {
      destination_country: "US",
      codes: [
        {
          hs_code: "7606.12.30",
          origin_country: "VN",
          declared_value: 1000,
          currency: "USD",
          primary_country_of_smelt: "RU",
          country_of_cast: "VN",
        },
        { hs_code: "7606.12.30", origin_country: "VN", declared_value: 1000, currency: "USD" },
      ],
    });
    // 3% MFN; 200% on the full value for the Russian-smelted plate (the Section 122 surcharge exempt under 9903.03.06);
    // the general 50% (9903.85.02, entry 2026-03-02) for the other.
    expect(a.items.map((i) => [i.sku, i.duty])).toEqual([
      ["RU-SMELT", "2030.00"],
      ["NO-FACTS", "530.00"],
    ]);
    expect(a.items[0]!.rates_applied.map((x) => [x.code, x.amount])).toEqual([
      ["7606.12.30", "30.00"],
      ["9903.85.67", "2000.00"],
      ["9903.03.01", "0.00"],
    ]);
    expect(a.items[0]!.rates_applied[1]!.basis).toBe(
      "200% of 1,000.00 USD customs value (primary_country_of_smelt RU)",
    );
    expect(a.items[1]!.rates_applied[1]!.code).toBe("9903.85.02");
    expect(a.items.map((i) => i.duty)).toEqual(calc.results.map((r) => money2(r.totals.duty)));
  });

  it("GB → DE: EU duty and import VAT in EUR, converted from GBP", async () => {
    const { api } = await setup();
    const id = await consignment(api, {
      receiver: deReceiver,
      orders: [{ order_ref: "O-1", currency_code: "GBP" }],
      parcels: [
        {
          weight_value: 1,
          items: [
            {
              sku: "TEE",
              quantity: 5,
              unit_value: 40.1,
              country_of_origin: "CN",
              hs_code: "6109100010",
              order_ref: "O-1",
            },
          ],
        },
      ],
    });
    const a = (await (await assess(api, id)).json()) as Assessment;
    const calc = await multiple(api, {
      destination_country: "DE",
      // 5 × 40.1 GBP is above the EU's 150 EUR: duty and import VAT (below it the IOSS seller charges the VAT at sale).
      codes: [{ hs_code: "6109100010", origin_country: "CN", declared_value: 40.1, quantity: 5, currency: "GBP" }],
    });
    expect(a.currency).toBe("EUR");
    expect(a.items[0]!.declared_currency).toBe("GBP"); // from the item's order
    expect(a.items[0]!.duty).toBe(money2(calc.results[0]!.totals.duty));
    expect(a.items[0]!.tax).toBe(money2(calc.results[0]!.totals.vat));
    expect(a.total_duty).toBe(money2(calc.totals.duty));
    expect(a.total_vat).toBe(money2(calc.totals.vat));
    expect(a.total_tax).toBe(a.total_vat); // no entry fees into the EU
    expect(Number(a.total_vat)).toBeGreaterThan(0);
    expect(a.items[0]!.rates_applied[0]).toMatchObject({ rate: "12%", tier: "normal_tariff" });
  });

  it("classifies an item that has no HS code, and assesses the suggested code", async () => {
    const { api } = await setup();
    const id = await consignment(api, {
      parcels: [
        {
          weight_value: 1,
          items: [
            {
              sku: "NOCODE",
              title: "Men's cotton crew neck t-shirt",
              quantity: 4,
              unit_value: 20,
              currency_code: "USD",
              country_of_origin: "VN",
            },
          ],
        },
      ],
    });
    const a = (await (await assess(api, id)).json()) as Assessment;
    const item = a.items[0]!;
    expect(item).toMatchObject({
      hs_code: "6109100012", // the full 10-digit US code the classification gives
      hs_code_source: "classified",
      classification: { confidence: expect.any(String), score: expect.any(Number) },
      error: null,
      rate_found: true,
    });
    const calc = await multiple(api, {
      destination_country: "US",
      codes: [{ hs_code: "6109100012", origin_country: "VN", declared_value: 20, quantity: 4, currency: "USD" }],
    });
    expect(item.duty).toBe(money2(calc.results[0]!.totals.duty));
    expect(item.duty).toBe("21.20"); // 16.5% MFN + 10% Section 122 of 80.00
  });

  it("reports items it cannot assess, and codes without a rate, instead of failing the run", async () => {
    const { api } = await setup();
    const id = await consignment(api, {
      parcels: [
        {
          weight_value: 1,
          items: [
            {
              sku: "OK",
              quantity: 1,
              unit_value: 100,
              currency_code: "USD",
              country_of_origin: "VN",
              hs_code: "6109.10.00",
            },
            { sku: "BLANK", quantity: 1, unit_value: 5, currency_code: "USD", country_of_origin: "VN" },
            {
              sku: "NORATE",
              quantity: 1,
              unit_value: 5,
              currency_code: "USD",
              country_of_origin: "VN",
              hs_code: "9999.99.99",
            },
          ],
        },
      ],
    });
    const res = await assess(api, id);
    expect(res.status).toBe(200);
    const a = (await res.json()) as Assessment;
    expect(a.complete).toBe(false);
    expect(a.items.map((i) => i.sku)).toEqual(["OK", "BLANK", "NORATE"]);
    expect(a.items[0]).toMatchObject({ duty: "26.50", error: null });
    expect(a.items[1]).toMatchObject({ hs_code: null, duty: null, tax: null, rates_applied: [] });
    expect(a.items[1]!.error).toMatch(/no title or description/);
    // A code the tariff does not hold is a failed line of calculate/multiple: it carries the error, nothing charged.
    expect(a.items[2]).toMatchObject({ hs_code: "99999999", rate_found: false, duty: null, message: null });
    expect(a.items[2]!.error).toMatch(/No US tariff line/);
    expect(a.total_duty).toBe("26.50");
  });

  it("stores the assessment with its timeline event and the duties.calculated outbox event in one batch", async () => {
    const { api, ws } = await setup();
    await api("/settings/webhooks", { json: { url: "http://localhost:9999/h", events: ["duties.calculated"] } });
    const id = await consignment(api, {
      shipment_ref: "EVT-ASM",
      external_code: "EXT-1",
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    const a = (await (await assess(api, id)).json()) as Assessment;

    const event = await env.DB.prepare(
      "SELECT id, data FROM webhook_events WHERE workspace_id = ? AND type = 'duties.calculated'",
    )
      .bind(ws.id)
      .first<{ id: string; data: string }>();
    expect(JSON.parse(event!.data)).toEqual({
      consignment_id: id,
      shipment_ref: "EVT-ASM",
      external_code: "EXT-1",
      assessment_id: a.assessment_id,
      destination_country: "US",
      total_duty: "26.50",
      total_tax: a.total_tax,
      currency: "USD",
    });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ?").bind(event!.id).first(),
    ).toEqual({ n: 1 });

    const timeline = await env.DB.prepare(
      "SELECT data, request_id FROM consignment_events WHERE consignment_id = ? AND type = 'assessment.created'",
    )
      .bind(id)
      .first<{ data: string; request_id: string }>();
    expect(JSON.parse(timeline!.data)).toEqual({
      assessment_id: a.assessment_id,
      destination_country: "US",
      total_duty: "26.50",
      total_tax: a.total_tax,
      currency: "USD",
      items: 1,
    });
    expect(timeline!.request_id).toBe(a.request_id);

    // A failing outbox write takes the assessment and its event down with it.
    await env.DB.prepare(
      "CREATE TRIGGER IF NOT EXISTS fail_duties BEFORE INSERT ON webhook_events WHEN NEW.type = 'duties.calculated' BEGIN SELECT RAISE(ABORT, 'boom'); END",
    ).run();
    try {
      expect((await assess(api, id)).status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_duties").run();
    }
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM consignment_assessments WHERE consignment_id = ?")
        .bind(id)
        .first(),
    ).toEqual({ n: 1 });
    expect(
      await env.DB.prepare(
        "SELECT COUNT(*) AS n FROM consignment_events WHERE consignment_id = ? AND type = 'assessment.created'",
      )
        .bind(id)
        .first(),
    ).toEqual({ n: 1 });
  });

  it("422 when a workspace country rule refuses a line, with the rule's description", async () => {
    const { api } = await setup();
    await api("/settings/country-rules", {
      json: {
        destination_country: "US",
        rule_type: "blocked_origins",
        countries: ["KP"],
        description: "No goods of North Korea",
      },
    });
    const id = await consignment(api, {
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 10, currency_code: "USD", country_of_origin: "KP", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    const res = await assess(api, id);
    expect(res.status).toBe(422);
    const body = (await res.json()) as {
      success: boolean;
      message: string;
      errors: string[];
      rule_violations: unknown;
    };
    expect(body).toMatchObject({
      success: false,
      error: "unprocessable",
      rule_violations: [{ code: "blocked_origins", description: "No goods of North Korea" }],
    });
    expect(body.message).toMatch(/No goods of North Korea/);
    expect(body.errors).toEqual(["No goods of North Korea"]);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM consignment_assessments WHERE consignment_id = ?")
        .bind(id)
        .first(),
    ).toEqual({ n: 0 });
  });

  it("422 for a consignment without a receiver country, or without items", async () => {
    const { api } = await setup();
    const id = await consignment(api, {
      receiver: undefined,
      sender: undefined,
      parcels: [{ weight_value: 1, items: [{ quantity: 1, unit_value: 10, hs_code: "6109.10.00" }] }],
    });
    const res = await assess(api, id);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/no receiver country/);
    const empty = await consignment(api, { shipment_ref: "ASM-EMPTY", sender: { country_code: "US" } });
    const none = await assess(api, empty);
    expect(none.status).toBe(422);
    expect(((await none.json()) as { message: string }).message).toMatch(/no items to assess/);
  });
});

describe("GET /consignments/{id}/assessments[/{assessment_id}]", () => {
  it("lists newest first with a cursor and reads one, as the run returned it", async () => {
    const { api } = await setup();
    const id = await consignment(api, {
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    const withoutEnvelope = async (res: Response) => {
      const { success: _s, message: _m, ...assessment } = (await res.json()) as Assessment & Record<string, unknown>;
      return assessment as Assessment;
    };
    const first = await withoutEnvelope(await assess(api, id));
    const second = await withoutEnvelope(await assess(api, id));

    const all = (await (await api(`/consignments/${id}/assessments`)).json()) as {
      success: boolean;
      message: string;
      assessments: Assessment[];
      has_more: boolean;
    };
    expect(all).toMatchObject({ success: true, message: "", has_more: false });
    expect(all.assessments).toEqual([second, first]);
    const page = (await (await api(`/consignments/${id}/assessments?limit=1`)).json()) as {
      assessments: Assessment[];
      has_more: boolean;
    };
    expect(page.assessments.map((a) => a.assessment_id)).toEqual([second.assessment_id]);
    expect(page.has_more).toBe(true);
    const next = (await (
      await api(`/consignments/${id}/assessments?limit=1&starting_after=${second.assessment_id}`)
    ).json()) as { assessments: Assessment[]; has_more: boolean };
    expect(next.assessments.map((a) => a.assessment_id)).toEqual([first.assessment_id]);
    expect(next.has_more).toBe(false);

    const one = await api(`/consignments/${id}/assessments/${first.assessment_id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({ success: true, message: "", ...first });
  });

  it("404 for an unknown assessment, or one of another consignment", async () => {
    const { api } = await setup();
    const line = {
      weight_value: 1,
      items: [{ quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" }],
    };
    const a = await consignment(api, { parcels: [line] });
    const b = await consignment(api, { shipment_ref: "ASM-B", parcels: [line] });
    const asm = ((await (await assess(api, a)).json()) as Assessment).assessment_id;
    expect((await api(`/consignments/${a}/assessments/asm_00000000000000000000000000000000`)).status).toBe(404);
    expect((await api(`/consignments/${b}/assessments/${asm}`)).status).toBe(404);
  });
});

describe("security", () => {
  it("404 for an unknown consignment and for another workspace's, on every route", async () => {
    const mine = await setup();
    const theirs = await setup();
    const id = await consignment(theirs.api, {
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    const asm = ((await (await assess(theirs.api, id)).json()) as Assessment).assessment_id;
    for (const target of ["con_unknown", id]) {
      expect((await assess(mine.api, target)).status).toBe(404);
      expect((await mine.api(`/consignments/${target}/assessments`)).status).toBe(404);
      expect((await mine.api(`/consignments/${target}/assessments/${asm}`)).status).toBe(404);
    }
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM consignment_assessments WHERE consignment_id = ?")
        .bind(id)
        .first(),
    ).toEqual({ n: 1 });
  });

  it("404 for a pinned client on another customer's consignment", async () => {
    const { ws, api } = await setup();
    const mine = await insertCustomer(ws, "Mine");
    const other = await insertCustomer(ws, "Other");
    const token = await getToken(ws, await createClient(ws, ["consignments:read", "consignments:write"], mine));
    const pinned = (p: string, o: object = {}) => call(`/admin/api/v1${p}`, { host: ws.host, token, ...o });
    const foreign = await consignment(api, {
      customer_id: other,
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    expect((await pinned(`/consignments/${foreign}/assessments`, { method: "POST" })).status).toBe(404);
    expect((await pinned(`/consignments/${foreign}/assessments`)).status).toBe(404);
    const own = await consignment(api, {
      customer_id: mine,
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    expect((await pinned(`/consignments/${own}/assessments`, { method: "POST" })).status).toBe(200);
  });

  it("403 without the scope: a read token cannot run an assessment, and nothing is stored", async () => {
    const { ws, api } = await setup();
    const id = await consignment(api, {
      parcels: [
        {
          weight_value: 1,
          items: [
            { quantity: 1, unit_value: 100, currency_code: "USD", country_of_origin: "VN", hs_code: "6109.10.00" },
          ],
        },
      ],
    });
    const token = await getToken(ws, await createClient(ws, ["consignments:read"]));
    const res = await call(`/admin/api/v1/consignments/${id}/assessments`, { method: "POST", host: ws.host, token });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Missing scope: consignments:write/);
    expect((await call(`/admin/api/v1/consignments/${id}/assessments`, { host: ws.host, token })).status).toBe(200);
    const none = await getToken(ws, await createClient(ws, ["calculate:read"]));
    expect((await call(`/admin/api/v1/consignments/${id}/assessments`, { host: ws.host, token: none })).status).toBe(
      403,
    );
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM consignment_assessments WHERE consignment_id = ?")
        .bind(id)
        .first(),
    ).toEqual({ n: 0 });
  });
});
