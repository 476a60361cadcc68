/** Consignments: create in both shapes, every rejection rule, atomicity, scoping, read, list, delete. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_TOKEN, auditRow, call, createClient, getToken, insertCustomer, setup } from "./helpers";

// Outbox deliveries are handed to the real queue, whose consumer posts them: receivers are stubbed here.
beforeAll(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
});

const sender = {
  company_name: "Acme Ltd",
  address_1: "1 High St",
  city: "London",
  post_code: "E1 6AN",
  country_code: "GB",
  eori_id: "GB123456789000",
  contact: { name: "Ann", email: "ann@acme.example" },
};
const receiver = {
  company_name: "Buyer Inc",
  address_1: "5 Main St",
  city: "Austin",
  state_province: "TX",
  post_code: "73301",
  country_code: "US",
  type: "Business",
  vat_id: "US-TX-1",
};
const item = (over: Record<string, unknown> = {}) => ({
  sku: "SKU-1",
  title: "Cotton T-shirt",
  quantity: 2,
  unit_value: 12.5,
  currency_code: "GBP",
  country_of_origin: "PT",
  hs_code: "6109.10",
  ...over,
});

type Created = {
  success: boolean;
  data: {
    consignment: Record<string, any>;
    parcels: any[];
    orders: any[];
    documents: unknown[];
    validation_warnings?: unknown;
  };
};
type Rejected = { success: false; message: string; errors: string[]; validation_errors: { message: string }[] };

async function create(api: (p: string, o?: object) => Promise<Response>, body: object) {
  return api("/consignments", { json: body });
}

async function expectRejected(res: Response, ...fragments: string[]) {
  expect(res.status).toBe(422);
  const body = (await res.json()) as Rejected;
  expect(Object.keys(body).sort()).toEqual([
    "error",
    "errors",
    "message",
    "request_id",
    "success",
    "validation_errors",
  ]);
  expect(body.success).toBe(false);
  expect(body.validation_errors).toEqual(body.errors.map((message) => ({ message })));
  for (const f of fragments) expect(body.errors.join("\n")).toContain(f);
  return body;
}

const counts = async (shipmentRef: string) => {
  const c = await env.DB.prepare("SELECT id FROM consignments WHERE shipment_ref = ?")
    .bind(shipmentRef)
    .all<{ id: string }>();
  return c.results.length;
};

describe("create", () => {
  it("consignment-level orders linked from parcel items (the new shape)", async () => {
    const { api } = await setup();
    const res = await create(api, {
      shipment_ref: "SHP-NEW-1",
      external_code: "PLAN-A",
      incoterm: "ddp",
      weight_unit: "lb",
      measurement_unit: "inch",
      sender,
      receiver,
      orders: [
        {
          order_ref: "ORD-1",
          amount: 25,
          currency_code: "GBP",
          order_date: "2026-11-01",
          shipping_charge: { amount: 4.99, currency_code: "GBP" },
        },
      ],
      parcels: [
        { weight_value: 2.2, barcode: "JD0001", height: 10, width: 8, depth: 2, items: [item({ order_ref: "ORD-1" })] },
      ],
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    expect(Object.keys(body).sort()).toEqual(["data", "success"]);
    expect(body.data.consignment).toMatchObject({
      id: expect.stringMatching(/^con_/),
      shipment_ref: "SHP-NEW-1",
      external_code: "PLAN-A",
      type: "delivery",
      incoterm: "DDP",
      status: "created",
      weight_unit: "lb",
      customer: null,
      customer_id: null,
      sender: {
        company_name: "Acme Ltd",
        country_code: "GB",
        contact: { name: "Ann", email: "ann@acme.example", phone: null },
        tax_duty: { eori_id: "GB123456789000", vat_id: null },
      },
      receiver: {
        country_code: "US",
        type: "Business",
        time_zone: null,
        contact: { name: null, phone: null, email: null },
        tax_duty: { vat_id: "US-TX-1" },
      },
    });
    expect(body.data.parcels).toHaveLength(1);
    expect(body.data.parcels[0]).toMatchObject({
      barcode: "JD0001",
      packaging_type: "BOX",
      weight_value: "2.2",
      height: "10",
      height_cm: "25.4",
    });
    expect(body.data.parcels[0].items[0]).toMatchObject({
      item_ref: "SKU-1",
      title: "Cotton T-shirt",
      quantity: 2,
      amount: "12.5",
      currency_code: "GBP",
      country_of_origin: "PT",
      harmonised_code: "610910",
      order_ref: "ORD-1",
    });
    expect(body.data.orders).toEqual([
      expect.objectContaining({
        order_ref: "ORD-1",
        amount: "25",
        shipping_charge: { amount: "4.99", currency_code: "GBP" },
        items: [expect.objectContaining({ item_ref: "SKU-1" })],
      }),
    ]);
    expect(body.data.documents).toEqual([]);
    expect(body.data.validation_warnings).toBeUndefined();
    // Weights are kept exactly, as sent and in kg.
    const parcel = await env.DB.prepare(
      "SELECT weight_value, weight_kg FROM consignment_parcels WHERE consignment_id = ?",
    )
      .bind(body.data.consignment.id)
      .first();
    expect(parcel).toEqual({ weight_value: "2.2", weight_kg: "0.997903214" });
  });

  it("legacy nested parcels[].orders[].items[], mixed with the new shape in one consignment", async () => {
    const { api } = await setup();
    const res = await create(api, {
      shipment_ref: "SHP-MIX",
      sender,
      receiver,
      orders: [{ order_ref: "ORD-A" }],
      parcels: [
        { weight_value: 1, items: [item({ order_ref: "ORD-A" })] },
        {
          weight_value: 1.5,
          orders: [
            { order_ref: "LEG-1", invoice_number: "INV-9", items: [item({ sku: "SKU-2" }), item({ sku: "SKU-3" })] },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as Created;
    expect(data.parcels[0].items.map((i: any) => i.item_ref)).toEqual(["SKU-1"]);
    expect(data.parcels[1].orders).toEqual([
      expect.objectContaining({
        order_ref: "LEG-1",
        invoice_number: "INV-9",
        items: [expect.objectContaining({ item_ref: "SKU-2" }), expect.objectContaining({ item_ref: "SKU-3" })],
      }),
    ]);
    expect(data.orders.map((o: any) => o.order_ref)).toEqual(["ORD-A"]);
    const got = (await (await api(`/consignments/${data.consignment.id}`)).json()) as Record<string, any>;
    expect(got).toMatchObject({
      id: data.consignment.id,
      shipment_ref: "SHP-MIX",
      status: "created",
      sender: { country_code: "GB" },
      receiver: { country_code: "US" },
    });
    expect(got.success).toBeUndefined(); // retrieval returns the object directly
    expect(got.parcels[0].orders[0]).toMatchObject({
      order_ref: "ORD-A",
      items: [
        {
          sku: "SKU-1",
          quantity: 2,
          unit_value: "12.5",
          currency_code: "GBP",
          country_of_origin: "PT",
          harmonised_code: "610910",
        },
      ],
    });
    expect(got.parcels[1].orders[0]).toMatchObject({
      order_ref: "LEG-1",
      items: [expect.objectContaining({ sku: "SKU-2" }), expect.objectContaining({ sku: "SKU-3" })],
    });
  });

  it("domestic consignments need no items or origins", async () => {
    const { api } = await setup();
    const res = await create(api, {
      shipment_ref: "DOM-1",
      sender,
      receiver: { ...receiver, country_code: "GB" },
      parcels: [{ weight_value: 1 }],
    });
    expect(res.status).toBe(201);
    expect((await create(api, { shipment_ref: "DOM-2" })).status).toBe(201); // shipment_ref is the only required field
  });

  it("fills HS code and origin from the catalogue by sku, per destination", async () => {
    const { api } = await setup();
    await api("/catalogue", {
      json: { sku: "CAT-1", title: "Mug", hs_code: "691200", hs_codes: { US: "6912004400" }, country_of_origin: "CN" },
    });
    const res = await create(api, {
      shipment_ref: "CAT",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items: [{ sku: "CAT-1", quantity: 1, unit_value: 5, currency_code: "GBP" }] }],
    });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as Created;
    expect(data.parcels[0].items[0]).toMatchObject({
      harmonised_code: "6912004400",
      hs_code_source: "catalogue",
      country_of_origin: "CN",
    });
  });

  it("takes from the catalogue only what an item lacks: a declared code or origin wins", async () => {
    const { api } = await setup();
    await api("/catalogue", { json: { sku: "CAT-2", title: "Mug", hs_code: "691200", country_of_origin: "CN" } });
    const items = [
      { sku: "CAT-2", quantity: 1, unit_value: 5, currency_code: "GBP", hs_code: "6912.00.48" },
      { sku: "CAT-2", quantity: 1, unit_value: 5, currency_code: "GBP", country_of_origin: "PT" },
      { sku: "CAT-2", quantity: 1, unit_value: 5, currency_code: "GBP", hs_code: "6911.10", country_of_origin: "DE" },
    ];
    const res = await create(api, {
      shipment_ref: "CAT-PART",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items }],
    });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as Created;
    expect(
      data.parcels[0].items.map((i: Record<string, unknown>) => [
        i.harmonised_code,
        i.hs_code_source,
        i.country_of_origin,
      ]),
    ).toEqual([
      ["69120048", "declared", "CN"],
      ["691200", "catalogue", "PT"],
      ["691110", "declared", "DE"],
    ]);
  });

  it.each([
    ["top-level items", { shipment_ref: "X", items: [item()] }, "items: top-level items are not accepted"],
    ["a missing shipment_ref", { parcels: [] }, "shipment_ref:"],
    ["an over-long shipment_ref", { shipment_ref: "x".repeat(101) }, "shipment_ref: must be 1-100 characters"],
    ["an empty shipment_ref", { shipment_ref: "" }, "shipment_ref: must be 1-100 characters"],
    [
      "a fractional quantity",
      { shipment_ref: "X", parcels: [{ weight_value: 1, items: [item({ quantity: 1.5 })] }] },
      "parcels[0].items[0].quantity: must be a whole number",
    ],
    [
      "a zero quantity",
      { shipment_ref: "X", parcels: [{ weight_value: 1, items: [item({ quantity: 0 })] }] },
      "parcels[0].items[0].quantity: must be a positive integer",
    ],
    [
      "a quantity of the wrong type",
      { shipment_ref: "X", parcels: [{ weight_value: 1, items: [item({ quantity: "2" })] }] },
      "parcels[0].items[0].quantity:",
    ],
    ["an unknown country", { shipment_ref: "X", sender: { country_code: "XX" } }, "sender.country_code:"],
    [
      "an unknown currency",
      { shipment_ref: "X", shipping: { amount: 5, currency_code: "ABC" } },
      "shipping.currency_code:",
    ],
    ["shipping without currency", { shipment_ref: "X", shipping: { amount: 5 } }, "shipping.currency_code:"],
    ["a bad date", { shipment_ref: "X", entry_date: "2026-02-30" }, "entry_date: is not a calendar date"],
    ["an unknown type", { shipment_ref: "X", type: "gift" }, "type:"],
    ["an unknown incoterm", { shipment_ref: "X", incoterm: "XYZ" }, "incoterm:"],
    ["a parcel without weight", { shipment_ref: "X", parcels: [{ items: [] }] }, "parcels[0].weight_value:"],
    [
      "a bad packaging type",
      { shipment_ref: "X", parcels: [{ weight_value: 1, packaging_type: "CRATE" }] },
      "parcels[0].packaging_type:",
    ],
    [
      "more than 200 orders",
      { shipment_ref: "X", orders: Array.from({ length: 201 }, (_, i) => ({ order_ref: `O${i}` })) },
      "orders: at most 200 orders",
    ],
    [
      "an unknown order_ref",
      {
        shipment_ref: "X",
        orders: [{ order_ref: "A" }],
        parcels: [{ weight_value: 1, items: [item({ order_ref: "B" })] }],
      },
      "parcels[0].items[0].order_ref: no order 'B' in orders[]",
    ],
    [
      "a duplicate order_ref",
      { shipment_ref: "X", orders: [{ order_ref: "A" }, { order_ref: "A" }] },
      "orders: order_ref 'A' is used more than once",
    ],
    [
      "a duplicate across shapes",
      {
        shipment_ref: "X",
        orders: [{ order_ref: "A" }],
        parcels: [{ weight_value: 1, orders: [{ order_ref: "A", items: [] }] }],
      },
      "order_ref 'A' is used more than once",
    ],
    [
      "an international consignment without items",
      { shipment_ref: "X", sender, receiver, parcels: [{ weight_value: 1 }] },
      "parcels: an international consignment (GB → US) needs at least one item",
    ],
    [
      "an international item without origin",
      {
        shipment_ref: "X",
        sender,
        receiver,
        parcels: [{ weight_value: 1, items: [item(), item({ country_of_origin: undefined })] }],
      },
      "parcels[0].items[1].country_of_origin: required for an international consignment (GB → US)",
    ],
    [
      "an unknown customer",
      { shipment_ref: "X", customer_id: 987654 },
      "customer_id: no customer 987654 in this workspace",
    ],
  ])("422 for %s, in the spec's body, and nothing is written", async (_n, body, fragment) => {
    const { api } = await setup();
    const res = await create(api, body);
    await expectRejected(res, fragment);
    if ((body as { shipment_ref?: string }).shipment_ref === "X") expect(await counts("X")).toBe(0);
  });

  it("reports every problem at once", async () => {
    const { api } = await setup();
    const res = await create(api, {
      shipment_ref: "X",
      sender,
      receiver,
      orders: [{ order_ref: "A" }, { order_ref: "A" }],
      parcels: [{ weight_value: 1, items: [item({ country_of_origin: undefined, order_ref: "Z" })] }],
    });
    const body = await expectRejected(res);
    expect(body.errors).toHaveLength(3);
    expect(body.message).toBe("The consignment was rejected: 3 problems");
  });

  it("400 for malformed JSON, 415 for another content type", async () => {
    const { api } = await setup();
    expect(
      (await api("/consignments", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }))
        .status,
    ).toBe(400);
    expect(
      (await api("/consignments", { method: "POST", headers: { "content-type": "text/csv" }, body: "a,b" })).status,
    ).toBe(415);
  });

  it("is atomic: a failing statement leaves no consignment, parcel, order, item or event behind", async () => {
    const { api, ws } = await setup();
    // A trigger makes the last item insert fail inside the batch, after the consignment row was queued.
    await env.DB.prepare(
      "CREATE TRIGGER IF NOT EXISTS fail_item BEFORE INSERT ON consignment_items WHEN NEW.sku = 'BOOM' BEGIN SELECT RAISE(ABORT, 'boom'); END",
    ).run();
    try {
      const res = await create(api, {
        shipment_ref: "ATOMIC-1",
        orders: [{ order_ref: "A" }],
        parcels: [{ weight_value: 1, items: [item({ order_ref: "A" }), item({ sku: "BOOM" })] }],
      });
      expect(res.status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_item").run();
    }
    for (const table of [
      "consignments",
      "consignment_parcels",
      "consignment_orders",
      "consignment_items",
      "consignment_events",
      "webhook_events",
    ]) {
      const col = table === "consignments" || table === "webhook_events" ? "workspace_id" : "consignment_id";
      const q =
        col === "workspace_id"
          ? `SELECT COUNT(*) AS n FROM ${table} WHERE workspace_id = ?`
          : `SELECT COUNT(*) AS n FROM ${table} WHERE consignment_id IN (SELECT id FROM consignments WHERE workspace_id = ?)`;
      expect(await env.DB.prepare(q).bind(ws.id).first(), table).toEqual({ n: 0 });
    }
  });

  it("writes consignment.created to the outbox in the same batch, with the consignment fields", async () => {
    const { api } = await setup();
    await api("/settings/webhooks", { json: { url: "http://localhost:9999/h", events: ["consignment.created"] } });
    const res = await create(api, { shipment_ref: "EVT-1", external_code: "EXT-9" });
    const { data } = (await res.json()) as Created;
    const event = await env.DB.prepare(
      "SELECT type, data FROM webhook_events WHERE workspace_id = (SELECT workspace_id FROM consignments WHERE id = ?)",
    )
      .bind(data.consignment.id)
      .first<{ type: string; data: string }>();
    expect(event!.type).toBe("consignment.created");
    expect(JSON.parse(event!.data)).toMatchObject({
      consignment_id: data.consignment.id,
      shipment_ref: "EVT-1",
      external_code: "EXT-9",
    });
    const deliveries = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_type = 'consignment.created' AND workspace_id = (SELECT workspace_id FROM consignments WHERE id = ?)",
    )
      .bind(data.consignment.id)
      .first();
    expect(deliveries).toEqual({ n: 1 });
  });

  it("is searchable in the request archive by shipment ref and barcode", async () => {
    const { api } = await setup();
    const res = await create(api, { shipment_ref: "ARCH-77", parcels: [{ weight_value: 1, barcode: "BC-77" }] });
    const id = res.headers.get("X-Request-Id");
    const byRef = (await (await api("/requests?ref=ARCH-77")).json()) as { requests: { id: string }[] };
    expect(byRef.requests.map((r) => r.id)).toEqual([id]);
    const byBarcode = (await (await api("/requests?ref=BC-77&ref_type=tracking_number")).json()) as {
      requests: { id: string }[];
    };
    expect(byBarcode.requests.map((r) => r.id)).toEqual([id]);
  });

  it("uses the consignment_create bucket", async () => {
    const { api, ws } = await setup();
    await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { rate_limits: { consignment_create: { limit: 2, window_seconds: 60 } } },
    });
    expect((await create(api, { shipment_ref: "R1" })).status).toBe(201);
    expect((await create(api, { shipment_ref: "R2" })).status).toBe(201);
    const refused = await create(api, { shipment_ref: "R3" });
    expect(refused.status).toBe(429);
    // The headers state the bucket that refused it (limit 2), not the organization's `api` bucket.
    expect(refused.headers.get("RateLimit-Limit")).toBe("2");
    expect(refused.headers.get("RateLimit-Remaining")).toBe("0");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await counts("R3")).toBe(0);
    expect((await api("/consignments")).status).toBe(200); // other routes are unaffected
  });
});

describe("customer scoping", () => {
  it("a pinned client creates for its own customer (ignoring customer_id) and sees only those", async () => {
    const { ws, api } = await setup();
    const mine = await insertCustomer(ws, "Mine");
    const other = await insertCustomer(ws, "Other");
    const token = await getToken(ws, await createClient(ws, ["consignments:read", "consignments:write"], mine));
    const pinned = (p: string, o: object = {}) => call(`/admin/api/v1${p}`, { host: ws.host, token, ...o });
    const own = (
      (await (await pinned("/consignments", { json: { shipment_ref: "P-1", customer_id: other } })).json()) as Created
    ).data.consignment;
    expect(own).toMatchObject({ customer_id: mine, customer: { id: mine, name: "Mine" } });
    const foreign = (
      (await (await api("/consignments", { json: { shipment_ref: "P-2", customer_id: other } })).json()) as Created
    ).data.consignment;
    const list = (await (await pinned("/consignments")).json()) as { consignments: { id: string }[] };
    expect(list.consignments.map((c) => c.id)).toEqual([own.id]);
    expect((await pinned(`/consignments/${foreign.id}`)).status).toBe(404);
    expect((await pinned(`/consignments/${foreign.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(`/consignments/${foreign.id}`)).status).toBe(200);
  });
});

describe("read, list, delete", () => {
  it("lists newest first with filters and a cursor", async () => {
    const { api } = await setup();
    const ids: string[] = [];
    for (const [ref, code] of [
      ["L-1", "A"],
      ["L-2", "B"],
      ["L-3", "A"],
      ["L-4", "A"],
    ]) {
      ids.push(
        ((await (await create(api, { shipment_ref: ref, external_code: code })).json()) as Created).data.consignment.id,
      );
    }
    const page1 = (await (await api("/consignments?limit=2")).json()) as {
      consignments: { id: string }[];
      has_more: boolean;
    };
    expect(page1.consignments.map((c) => c.id)).toEqual([ids[3], ids[2]]);
    expect(page1.has_more).toBe(true);
    const page2 = (await (await api(`/consignments?limit=2&starting_after=${ids[2]}`)).json()) as {
      consignments: { id: string }[];
      has_more: boolean;
    };
    expect(page2.consignments.map((c) => c.id)).toEqual([ids[1], ids[0]]);
    expect(page2.has_more).toBe(false);
    const byCode = (await (await api("/consignments?external_code=A")).json()) as { consignments: { id: string }[] };
    expect(byCode.consignments.map((c) => c.id)).toEqual([ids[3], ids[2], ids[0]]);
    const byRef = (await (await api("/consignments?shipment_ref=L-2")).json()) as { consignments: { id: string }[] };
    expect(byRef.consignments.map((c) => c.id)).toEqual([ids[1]]);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      ((await (await api(`/consignments?created_after=${today}&status=created`)).json()) as { consignments: unknown[] })
        .consignments,
    ).toHaveLength(4);
    expect((await api("/consignments?limit=0")).status).toBe(400);
    expect((await api("/consignments?colour=red")).status).toBe(400);
  });

  it("serves GET from the snapshot written at create, identical to assembling it from the child rows", async () => {
    const { api } = await setup();
    const customerless = await create(api, {
      shipment_ref: "SNAP-1",
      sender,
      receiver,
      orders: [{ order_ref: "A", invoice_number: "INV-9" }],
      parcels: [
        {
          weight_value: 1,
          barcode: "B1",
          items: [item({ order_ref: "A" }), item({ sku: "SKU-2", title: 'Mug "blue" ü' })],
        },
        { weight_value: 2, barcode: "B2", orders: [{ order_ref: "N", items: [item({ sku: "SKU-3" })] }] },
      ],
    });
    const id = ((await customerless.json()) as Created).data.consignment.id;
    const fromSnapshot = await api(`/consignments/${id}`);
    expect(fromSnapshot.headers.get("content-type")).toContain("application/json");
    const snap = (await fromSnapshot.json()) as Record<string, any>;
    expect(
      snap.parcels.map((p: any) => p.orders.map((o: any) => [o.order_ref, o.items.map((i: any) => i.sku)])),
    ).toEqual([
      [
        ["A", ["SKU-1"]],
        [null, ["SKU-2"]],
      ],
      [["N", ["SKU-3"]]],
    ]);
    expect(snap.parcels[0].orders[1].items[0].title).toBe('Mug "blue" ü');
    // A row written before snapshots existed is assembled from its children: same answer.
    await env.DB.prepare("UPDATE consignments SET retrieval = NULL WHERE id = ?").bind(id).run();
    expect(await (await api(`/consignments/${id}`)).json()).toEqual(snap);
    // Lists never carry the snapshot.
    const list = (await (await api("/consignments?shipment_ref=SNAP-1")).json()) as {
      consignments: Record<string, unknown>[];
    };
    expect(list.consignments[0]).not.toHaveProperty("retrieval");
    expect(list.consignments[0]).not.toHaveProperty("parcels");
  });

  it("deletes permanently with its children; another workspace's id is a 404", async () => {
    const { api } = await setup();
    const other = await setup();
    const { data } = (await (
      await create(api, {
        shipment_ref: "DEL-1",
        orders: [{ order_ref: "A" }],
        parcels: [{ weight_value: 1, items: [item({ order_ref: "A" })] }],
      })
    ).json()) as Created;
    const id = data.consignment.id;
    expect((await other.api(`/consignments/${id}`)).status).toBe(404);
    expect((await other.api(`/consignments/${id}`, { method: "DELETE" })).status).toBe(404);
    const res = await api(`/consignments/${id}`, { method: "DELETE" });
    expect(await res.json()).toEqual({ deleted: true, id });
    expect((await api(`/consignments/${id}`)).status).toBe(404);
    for (const table of ["consignment_parcels", "consignment_orders", "consignment_items"]) {
      expect(
        await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE consignment_id = ?`).bind(id).first(),
      ).toEqual({ n: 0 });
    }
  });

  it("scopes: read needs consignments:read, create and delete consignments:write", async () => {
    const reader = await setup(["consignments:read"]);
    expect((await reader.api("/consignments")).status).toBe(200);
    expect((await create(reader.api, { shipment_ref: "S" })).status).toBe(403);
    const none = await setup(["screen:read"]);
    expect((await none.api("/consignments")).status).toBe(403);
  });
});

describe("validation rules", () => {
  const rule = (over: Record<string, unknown>) => ({
    name: "r",
    severity: "error",
    message: "m",
    condition: { field: "incoterm", op: "equals", value: "DDP" },
    ...over,
  });

  it("CRUD under settings, with condition validation", async () => {
    const { api } = await setup();
    const created = await api("/settings/validation-rules", { json: rule({ name: "No DDP" }) });
    expect(created.status).toBe(201);
    const { rule: r } = (await created.json()) as { rule: { id: number } };
    expect(
      ((await (await api("/settings/validation-rules")).json()) as { rules: { id: number }[] }).rules.map((x) => x.id),
    ).toEqual([r.id]);
    expect(
      (await api(`/settings/validation-rules/${r.id}`, { method: "PATCH", json: { severity: "warning" } })).status,
    ).toBe(200);
    expect((await api(`/settings/validation-rules/${r.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/settings/validation-rules/${r.id}`)).status).toBe(404);
    for (const bad of [
      rule({ severity: "fatal" }),
      rule({ condition: { field: "incoterm", op: "matches", value: "x" } }),
      rule({ condition: { field: "incoterm", op: "equals" } }),
      rule({ condition: { field: "route", op: "in", value: "GB-US" } }),
      rule({ condition: { all: [] } }),
      rule({ message: "" }),
    ]) {
      expect((await api("/settings/validation-rules", { json: bad })).status).toBe(400);
    }
    const other = await setup();
    const theirs = (
      (await (await other.api("/settings/validation-rules", { json: rule({}) })).json()) as { rule: { id: number } }
    ).rule;
    expect((await api(`/settings/validation-rules/${theirs.id}`)).status).toBe(404);
  });

  it("an error hit blocks the create with the spec's 422; a warning passes and is reported", async () => {
    const { api } = await setup();
    await api("/settings/validation-rules", {
      json: rule({
        name: "No DDP to US",
        message: "DDP is not available for US deliveries",
        condition: {
          all: [
            { field: "incoterm", op: "equals", value: "DDP" },
            { field: "receiver.country_code", op: "equals", value: "US" },
          ],
        },
      }),
    });
    await api("/settings/validation-rules", {
      json: rule({
        name: "High value",
        severity: "warning",
        message: "Over 1,000: check insurance",
        condition: { field: "totals.declared_value", op: "gt", value: 1000 },
      }),
    });
    await api("/settings/validation-rules", {
      json: rule({
        name: "Disabled",
        enabled: false,
        message: "never",
        condition: { field: "shipment_ref", op: "present" },
      }),
    });

    const blocked = await create(api, {
      shipment_ref: "VR-1",
      incoterm: "DDP",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items: [item()] }],
    });
    const body = await expectRejected(blocked, "DDP is not available for US deliveries");
    expect(body.errors).toEqual(["DDP is not available for US deliveries"]);
    expect(await counts("VR-1")).toBe(0);

    const warned = await create(api, {
      shipment_ref: "VR-2",
      incoterm: "DAP",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items: [item({ quantity: 100 })] }],
    });
    expect(warned.status).toBe(201);
    const { data } = (await warned.json()) as Created;
    expect(data.validation_warnings).toEqual([
      { rule_id: expect.any(Number), name: "High value", message: "Over 1,000: check insurance" },
    ]);

    const clean = await create(api, {
      shipment_ref: "VR-3",
      incoterm: "DAP",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items: [item()] }],
    });
    expect(((await clean.json()) as Created).data.validation_warnings).toBeUndefined();
  });
});

describe("archive before commit", () => {
  it("the body is in R2 before the consignment is committed; a failed archive is a 503 and commits nothing", async () => {
    const { api, ws } = await setup();
    const ok = await create(api, {
      shipment_ref: "SHP-ARCH-1",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items: [item()] }],
    });
    expect(ok.status).toBe(201);
    const row = await auditRow(ok.headers.get("x-request-id")!);
    expect(row).toMatchObject({ has_body: 1 });
    expect(await (await env.ARCHIVE.get(String(row!.body_key)))!.json()).toMatchObject({ shipment_ref: "SHP-ARCH-1" });

    // Fault injection for one call: R2 cannot be made to fail on demand otherwise.
    const spy = vi.spyOn(env.ARCHIVE, "put").mockRejectedValueOnce(new Error("R2 unavailable"));
    try {
      const res = await create(api, {
        shipment_ref: "SHP-ARCH-2",
        sender,
        receiver,
        parcels: [{ weight_value: 1, items: [item()] }],
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ success: false, error: "unavailable" });
    } finally {
      spy.mockRestore();
    }
    const n = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM consignments WHERE workspace_id = ? AND shipment_ref = 'SHP-ARCH-2'",
    )
      .bind(ws.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });
});
