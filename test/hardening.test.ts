/**
 * Findings of the security and fault review, one test each: customer-pinned clients confined to their
 * customer, canonical integer ids, well-formed input text, and guarded deletes that are one atomic step.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  ALL_SCOPES,
  call,
  createClient,
  createWorkspace,
  getToken,
  insertCustomer,
  loadDataset,
  setup,
} from "./helpers";

describe("customer-pinned clients", () => {
  it("are refused every workspace-wide setting, whatever their scopes, and change nothing", async () => {
    const { ws, api } = await setup();
    const customer = await insertCustomer(ws);
    const token = await getToken(ws, await createClient(ws, ALL_SCOPES, customer));
    const pinned = (path: string, opts: Parameters<typeof call>[1] = {}) =>
      call(`/admin/api/v1${path}`, { host: ws.host, token, ...opts });
    const attempts: [string, string, unknown?][] = [
      ["GET", "/settings"],
      ["GET", "/settings/webhooks"],
      ["POST", "/settings/webhooks", { url: "https://attacker.example.com/h", events: ["consignment.created"] }],
      ["GET", "/settings/flows"],
      ["POST", "/settings/flows", { name: "f", actions: [{ type: "place_hold", reason: "x" }] }],
      ["GET", "/settings/validation-rules"],
      ["GET", "/settings/country-rules"],
      ["GET", "/settings/api-clients"],
      ["POST", "/settings/api-clients", { name: "x", scopes: ["consignments:read"] }],
      ["POST", "/classify/blocklist", { hs_code: "9301", destination_country: "US" }],
      [
        "POST",
        "/restrict/rules",
        {
          title: "t",
          rule_type: "prohibition",
          measure_direction: "IMPORT",
          imposing_country_code: "US",
          keywords: ["k"],
        },
      ],
    ];
    for (const [method, path, json] of attempts) {
      const res = await pinned(path, { method, ...(json ? { json } : {}) });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
      expect(((await res.json()) as { message: string }).message).toContain("Customer-pinned");
    }
    const hooks = (await (await api("/settings/webhooks")).json()) as { endpoints?: unknown[]; webhooks?: unknown[] };
    expect(hooks.endpoints ?? hooks.webhooks).toEqual([]);
    const clients = (await (await api("/settings/api-clients")).json()) as { api_clients: { name: string }[] };
    expect(clients.api_clients.map((c) => c.name)).not.toContain("x");
  });

  it("still reach their own customer's resources", async () => {
    const { ws } = await setup();
    const customer = await insertCustomer(ws);
    const token = await getToken(ws, await createClient(ws, ALL_SCOPES, customer));
    const res = await call(`/admin/api/v1/customers/${customer}`, { host: ws.host, token });
    expect(res.status).toBe(200);
  });
});

describe("integer path ids", () => {
  it.each(["0x4e", "1e3", "007", "+7", "7.0", " 7", "99999999999999999999"])("refuses %j (400)", async (id) => {
    const { api } = await setup();
    const res = await api(`/customers/${encodeURIComponent(id)}`);
    expect(res.status).toBe(400);
  });

  it("answers canonical ids", async () => {
    const { api } = await setup();
    const created = (await (await api("/customers", { json: { name: "A" } })).json()) as { customer: { id: number } };
    expect((await api(`/customers/${created.customer.id}`)).status).toBe(200);
  });
});

describe("input text", () => {
  it("refuses a lone surrogate escape (400) and stores nothing", async () => {
    const { api } = await setup();
    const res = await api("/customers", {
      body: '{"name":"A\\ud800B"}',
      headers: { "content-type": "application/json" },
      method: "POST",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain("lone UTF-16 surrogate");
    const list = (await (await api("/customers")).json()) as { customers: unknown[] };
    expect(list.customers).toEqual([]);
  });

  it("refuses bytes that are not UTF-8 (400)", async () => {
    const { api } = await setup();
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"name":"A'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]);
    const res = await api("/customers", {
      body: bytes,
      headers: { "content-type": "application/json" },
      method: "POST",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe("Request body is not valid UTF-8");
  });

  it("keeps a surrogate pair (an escaped emoji) intact", async () => {
    const { api } = await setup();
    const res = await api("/customers", {
      body: '{"name":"Caf\\u00e9 \\ud83d\\ude00"}',
      headers: { "content-type": "application/json" },
      method: "POST",
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { customer: { name: string } }).customer.name).toBe("Café 😀");
  });
});

describe("guarded deletes", () => {
  it("a customer with a pinned client is kept (409); concurrent deletes of a free one: exactly one 200", async () => {
    const { ws, api } = await setup();
    const held = await insertCustomer(ws, "Held");
    await createClient(ws, ["consignments:read"], held);
    expect((await api(`/customers/${held}`, { method: "DELETE" })).status).toBe(409);

    const free = await insertCustomer(ws, "Free");
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => api(`/customers/${free}`, { method: "DELETE" }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 404)).toBe(true);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM customers WHERE id IN (?, ?)")
      .bind(held, free)
      .first();
    expect(left).toEqual({ n: 1 });
  });
});

describe("input text, deeply nested", () => {
  it("checks a 100,000-level body with a surrogate escape without overflowing (400, not 500)", async () => {
    const { api } = await setup();
    const body = `{"name":"x","addresses":${"[".repeat(100_000)}"\\ud800"${"]".repeat(100_000)}}`;
    const res = await api("/customers", { body, headers: { "content-type": "application/json" }, method: "POST" });
    expect(res.status).toBe(400);
  });
});

describe("magnitudes", () => {
  it.each([
    ["a declared value of 1.2e29", { declared_value: 1.2345678901234568e29 }],
    ["a declared value over 1e12", { declared_value: 1_000_000_000_001 }],
    ["a value JavaScript prints with an exponent", { declared_value: 1e-7 }],
    ["more than 6 decimal places", { declared_value: 1.1234567 }],
    ["a quantity over 1e8", { quantity: 100_000_001 }],
    ["a weight over 1e6", { weight: 1_000_001 }],
  ])("calculate refuses %s (400)", async (_what, over) => {
    const { api } = await setup();
    const body = { hs_code: "6109.10", origin_country: "CN", destination_country: "US", declared_value: 10, ...over };
    const res = await api("/calculate", { json: body });
    expect(res.status).toBe(400);
  });

  it("refuses a 30-digit declared value written out in full (400)", async () => {
    const { api } = await setup();
    const body =
      '{"hs_code":"6109.10","origin_country":"CN","destination_country":"US","declared_value":123456789012345678901234567890}';
    const res = await api("/calculate", { body, headers: { "content-type": "application/json" }, method: "POST" });
    expect(res.status).toBe(400);
  });

  it("answers the largest accepted value in plain decimal, never exponent notation", async () => {
    const { api } = await setup();
    for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d, { fixture: true });
    const body = {
      hs_code: "6109.10",
      origin_country: "CN",
      destination_country: "US",
      declared_value: 999_999_999_999.99,
    };
    const res = await api("/calculate", { json: body });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("999999999999.99");
    // A JSON number in exponent form (ids are hex strings, so only unquoted numbers are looked at).
    expect(text).not.toMatch(/[:[,]\s*-?\d+(\.\d+)?[eE][+-]?\d+/);
  });
});

describe("money as decimal strings", () => {
  const base = { hs_code: "6109.10", origin_country: "CN", destination_country: "US", entry_date: "2026-03-02" };

  it('a calculate with declared_value "19.99" answers exactly as with 19.99', async () => {
    const { api } = await setup();
    for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d, { fixture: true });
    const asNumber = await api("/calculate", { json: { ...base, declared_value: 1999.99 } });
    const asString = await api("/calculate", { json: { ...base, declared_value: "1999.99" } });
    expect(asString.status).toBe(200);
    const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined, data_source: undefined });
    expect(strip(await asString.json())).toEqual(strip(await asNumber.json()));
  });

  it("a consignment item's unit_value and an order amount may be strings", async () => {
    const { api } = await setup();
    const res = await api("/consignments", {
      json: {
        shipment_ref: "DEC-STR",
        sender: { company_name: "A", address_1: "1 St", city: "London", post_code: "E1 6AN", country_code: "GB" },
        receiver: { company_name: "B", address_1: "5 St", city: "Austin", post_code: "73301", country_code: "US" },
        orders: [{ order_ref: "O-1", amount: "25.00" }],
        parcels: [
          {
            weight_value: 1,
            items: [
              {
                sku: "S",
                title: "Cotton T-shirt",
                quantity: 2,
                unit_value: "12.50",
                currency_code: "GBP",
                country_of_origin: "PT",
                hs_code: "6109.10",
                order_ref: "O-1",
              },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    // Stored and answered exactly, as a number sent as 12.50 would be.
    const { data } = (await res.json()) as {
      data: { parcels: { items: { amount: string }[] }[]; orders: { amount: string }[] };
    };
    expect(data.parcels[0]!.items[0]!.amount).toBe("12.5");
    expect(data.orders[0]!.amount).toBe("25");
  });

  it.each([
    ["a sign", "-1.00"],
    ["an exponent", "1e3"],
    ["a thousands separator", "1,000.00"],
    ["spaces", " 19.99"],
    ["a comma decimal", "19,99"],
    ["more than 15 significant digits", "1234567890.1234567"],
    ["more than 6 decimal places", "0.1234567"],
    ["over the limit", "1000000000001"],
    ["an empty string", ""],
  ])("refuses a decimal string with %s (400, naming the field)", async (_what, value) => {
    const { api } = await setup();
    const res = await api("/calculate", { json: { ...base, declared_value: value } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors.map((e) => e.field)).toContain("declared_value");
  });
});

describe("sandbox never changes live", () => {
  it("keeps the HS blocklist and custom restriction rules per organization and mode", async () => {
    const live = await createWorkspace({ mode: "live" });
    const sandbox = await createWorkspace({ mode: "sandbox", organization_id: live.organizationId });
    const liveSibling = await createWorkspace({ mode: "live", organization_id: live.organizationId });
    const tokenOf = async (ws: typeof live) => getToken(ws, await createClient(ws));
    const [lt, st, lst] = await Promise.all([tokenOf(live), tokenOf(sandbox), tokenOf(liveSibling)]);
    const as =
      (ws: typeof live, token: string) =>
      (path: string, opts: Parameters<typeof call>[1] = {}) =>
        call(`/admin/api/v1${path}`, { host: ws.host, token, ...opts });
    const liveApi = as(live, lt);
    const sandboxApi = as(sandbox, st);
    const siblingApi = as(liveSibling, lst);

    expect(
      (await sandboxApi("/classify/blocklist", { json: { hs_code: "9301", destination_country: "US" } })).status,
    ).toBe(201);
    const rule = {
      title: "t",
      rule_type: "prohibition",
      measure_direction: "IMPORT",
      imposing_country_code: "US",
      keywords: ["widget"],
    };
    expect((await sandboxApi("/restrict/rules", { json: rule })).status).toBe(201);

    const entries = async (api: typeof liveApi) =>
      ((await (await api("/classify/blocklist")).json()) as { entries: unknown[] }).entries.length;
    const rules = async (api: typeof liveApi) =>
      ((await (await api("/restrict/rules")).json()) as { rules: unknown[] }).rules.length;
    expect(await entries(sandboxApi)).toBe(1);
    expect(await entries(liveApi)).toBe(0);
    expect(await rules(sandboxApi)).toBe(1);
    expect(await rules(liveApi)).toBe(0);

    // Live entries are shared by the organization's live workspaces, and not seen by its sandbox.
    expect(
      (await liveApi("/classify/blocklist", { json: { hs_code: "9302", destination_country: "US" } })).status,
    ).toBe(201);
    expect(await entries(siblingApi)).toBe(1);
    expect(await entries(sandboxApi)).toBe(1);
  });
});
