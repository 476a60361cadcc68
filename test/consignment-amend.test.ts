/**
 * Amending a consignment (PATCH {api}/consignments/{id}): the merge (ids kept, parcels and items added and
 * removed), the create's validation run again, the refusals (labels, closed manifest, another workspace's or
 * customer's consignment, scope), and what an amend leaves behind: GET, events, timeline, webhook outbox and
 * the archived body.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditRow, createClient, getToken, insertCustomer, interceptD1Batches, setup } from "./helpers";

// Outbox deliveries are handed to the real queue, whose consumer posts them: receivers are stubbed here.
beforeAll(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
});

const json = async (res: Response) => (await res.json()) as any;
type Api = Awaited<ReturnType<typeof setup>>["api"];

const sender = { company_name: "Acme Ltd", address_1: "1 High St", city: "London", country_code: "GB" };
const receiver = { company_name: "Buyer Inc", address_1: "5 Main St", city: "Austin", country_code: "US" };
const item = (over: Record<string, unknown> = {}) => ({
  sku: "TS-1",
  title: "Cotton T-shirt",
  quantity: 2,
  unit_value: 12.5,
  currency_code: "GBP",
  country_of_origin: "PT",
  hs_code: "6109.10",
  ...over,
});

/** GB → US, one parcel with two items. */
async function createOne(api: Api, ref: string, extra: Record<string, unknown> = {}) {
  const res = await api("/consignments", {
    json: {
      shipment_ref: ref,
      incoterm: "DAP",
      sender,
      receiver,
      parcels: [{ weight_value: 1, items: [item(), item({ sku: "SK-2", title: "Wool scarf", hs_code: "6117.10" })] }],
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return (await json(res)).data as { consignment: { id: string }; parcels: any[] };
}

const patch = (api: Api, id: string, body: unknown, headers?: Record<string, string>) =>
  api(`/consignments/${id}`, { method: "PATCH", json: body, ...(headers ? { headers } : {}) });

async function rowCounts(id: string) {
  const [p, i, o] = await Promise.all(
    ["consignment_parcels", "consignment_items", "consignment_orders"].map((t) =>
      env.DB.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE consignment_id = ?`).bind(id).first<{ n: number }>(),
    ),
  );
  return { parcels: p?.n, items: i?.n, orders: o?.n };
}

describe("PATCH /consignments/{id}", () => {
  it("amends parties, an HS code, adds a parcel and removes an item; GET, events, timeline and webhook show it", async () => {
    const { api, ws } = await setup();
    const hooked = await api("/settings/webhooks", {
      json: { url: "https://hooks.example.com/c", events: ["consignment.updated"] },
    });
    expect(hooked.status).toBe(201);
    const created = await createOne(api, "AM-1");
    const id = created.consignment.id;
    const [parcel] = created.parcels;
    const [first, second] = parcel.items;

    const res = await patch(api, id, {
      receiver: { city: "Dallas", post_code: "75201" },
      references: { external_order_code: "EXT-9" },
      parcels: [
        { id: parcel.id, weight_value: 1.5, items: [{ id: first.id, hs_code: "6109.90" }] },
        { weight_value: 0.3, height: 10, items: [item({ sku: "CAP-1", title: "Cotton cap", hs_code: "6505.00" })] },
      ],
    });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.changed_fields).toEqual(
      expect.arrayContaining([
        "receiver.city",
        "receiver.post_code",
        "references",
        "parcels",
        "parcels[0].weight_value",
        "parcels[0].items",
        "parcels[0].items[0].hs_code",
        "parcels[1]",
      ]),
    );
    expect(data.changed_fields).not.toContain("receiver.company_name");
    expect(data.consignment).toMatchObject({
      id,
      receiver: { city: "Dallas", post_code: "75201", company_name: "Buyer Inc" },
    });
    expect(data.consignment.references).toEqual({ external_order_code: "EXT-9" });
    // What stays keeps its id; the removed item is gone, the new parcel and item have new ids.
    expect(data.parcels.map((p: any) => p.id)[0]).toBe(parcel.id);
    expect(data.parcels[0]).toMatchObject({ weight_value: "1.5" });
    expect(data.parcels[0].items.map((i: any) => [i.id, i.harmonised_code, i.hs_code_source])).toEqual([
      [first.id, "610990", "declared"],
    ]);
    expect(data.parcels[1]).toMatchObject({ height: "10", height_cm: "10", weight_value: "0.3" });
    expect(data.parcels[1].items[0].item_ref).toBe("CAP-1");

    // GET serves the amended consignment (its stored snapshot was rewritten with the rows).
    const got = await json(await api(`/consignments/${id}`));
    expect(got.receiver.city).toBe("Dallas");
    expect(got.updated_at > got.created_at).toBe(true);
    expect(got.parcels).toHaveLength(2);
    const gotItems = got.parcels.flatMap((p: any) => p.orders.flatMap((o: any) => o.items));
    expect(gotItems.map((i: any) => i.id)).not.toContain(second.id);
    expect(gotItems.map((i: any) => i.harmonised_code).sort()).toEqual(["650500", "610990"].sort());
    expect(await rowCounts(id)).toEqual({ parcels: 2, items: 2, orders: 0 });

    const events = (await json(await api(`/consignments/${id}/events`))).events;
    expect(events.map((e: any) => e.type)).toEqual(["consignment.created", "consignment.updated"]);
    expect(events[1].data.removed).toEqual([second.id]);
    // A new parcel is named once: its items are new with it.
    expect(events[1].data.added).toEqual([data.parcels[1].id]);
    expect(events[1].request_id).toBe(res.headers.get("x-request-id"));
    const timeline = (await json(await api(`/consignments/${id}/timeline`))).timeline;
    expect(timeline[1]).toMatchObject({ type: "consignment.updated", title: "Consignment amended", actor: "api" });
    expect(timeline[1].detail).toContain("receiver.city");
    expect(timeline[1].detail).toContain(`removed ${second.id}`);

    const hook = await env.DB.prepare(
      "SELECT id, data FROM webhook_events WHERE workspace_id = ? AND type = 'consignment.updated'",
    )
      .bind(ws.id)
      .first<{ id: string; data: string }>();
    expect(JSON.parse(hook!.data)).toMatchObject({
      consignment_id: id,
      shipment_ref: "AM-1",
      changed_fields: data.changed_fields,
      updated_at: data.consignment.updated_at,
    });
    const deliveries = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ?")
      .bind(hook!.id)
      .first<{ n: number }>();
    expect(deliveries!.n).toBe(1);
  });

  it("archives the verbatim body and audits the request like any write", async () => {
    const { api } = await setup();
    const id = (await createOne(api, "AM-ARCH")).consignment.id;
    const raw = '{"receiver":{"city":"Houston"},  "tags":["amended"]}';
    const res = await api(`/consignments/${id}`, {
      method: "PATCH",
      body: raw,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    const row = await auditRow(res.headers.get("x-request-id")!);
    expect(row).toMatchObject({ method: "PATCH", has_body: 1 });
    expect(await (await env.ARCHIVE.get(String(row!.body_key)))!.text()).toBe(raw);
  });

  it("replays under the same Idempotency-Key without a second event", async () => {
    const { api } = await setup();
    const id = (await createOne(api, "AM-IDEM")).consignment.id;
    const key = { "idempotency-key": "amend-once" };
    const first = await patch(api, id, { receiver: { city: "Reno" } }, key);
    const again = await patch(api, id, { receiver: { city: "Reno" } }, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
    const events = (await json(await api(`/consignments/${id}/events`))).events;
    expect(events.filter((e: any) => e.type === "consignment.updated")).toHaveLength(1);
  });

  it("If-Match: only the version named is amended (412 otherwise); the answer carries the new ETag", async () => {
    const { api } = await setup();
    const created = (await createOne(api, "AM-ETAG")).consignment as { id: string; updated_at: string };
    const id = created.id;
    const version = `"${created.updated_at}"`;
    const first = await patch(api, id, { receiver: { city: "Tulsa" } }, { "if-match": version });
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag).toBe(`"${(await json(first)).data.consignment.updated_at}"`);
    expect(etag).not.toBe(version);

    const stale = await patch(api, id, { receiver: { city: "Waco" } }, { "if-match": version });
    expect(stale.status).toBe(412);
    expect(await json(stale)).toMatchObject({ success: false, error: "precondition_failed" });
    expect((await json(await api(`/consignments/${id}`))).receiver.city).toBe("Tulsa");
    expect((await patch(api, id, { receiver: { city: "Waco" } }, { "if-match": `W/${etag}` })).status).toBe(412);

    expect((await patch(api, id, { receiver: { city: "Waco" } }, { "if-match": `"x", ${etag}` })).status).toBe(200);
    expect((await patch(api, id, { receiver: { city: "Enid" } }, { "if-match": "*" })).status).toBe(200);
  });

  it("a patch that changes nothing writes nothing", async () => {
    const { api } = await setup();
    const created = await createOne(api, "AM-NOOP");
    const id = created.consignment.id;
    const res = await patch(api, id, { receiver: { city: "Austin" }, incoterm: "dap" });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.changed_fields).toEqual([]);
    expect(data.consignment.updated_at).toBe((created.consignment as any).updated_at);
    const events = (await json(await api(`/consignments/${id}/events`))).events;
    expect(events.map((e: any) => e.type)).toEqual(["consignment.created"]);
  });

  it("reads every field of a create back: an empty patch changes nothing, one field changes one path", async () => {
    const { api, ws } = await setup();
    const customer = await insertCustomer(ws, "Rich customer");
    const rich = {
      shipment_ref: "AM-RICH",
      customer_id: customer,
      type: "return",
      external_code: "EXP",
      incoterm: "ddp",
      entry_date: "2026-11-20",
      transport_mode: "air",
      weight_unit: "lb",
      measurement_unit: "inch",
      movement_indicator: "b2c",
      shipping: { amount: "4.99", currency_code: "gbp" },
      tags: ["vip"],
      references: { external_order_code: "EO-1", sender_ukims_number: "UK1" },
      supporting_agents: { importer_of_record: { company_name: "IOR Inc", country_code: "us" } },
      carrier: { org_carrier_id: 7, service_id: "express" },
      sender: { ...sender, eori_id: "GB123456789000", contact: { name: "Ann", email: "ann@acme.example" } },
      receiver: { ...receiver, vat_id: "US-1", type: "Residential", time_zone: "America/Chicago" },
      orders: [
        { order_ref: "ORD-1", amount: 25, currency_code: "GBP", shipping_charge: { amount: 3, currency_code: "GBP" } },
      ],
      parcels: [
        {
          weight_value: 2.2,
          height: 4,
          width: 6.5,
          barcode: "BC-1",
          declared_value: "30.10",
          currency_code: "GBP",
          items: [item({ order_ref: "ORD-1", weight: 0.5, product_url: "https://shop.example/ts" })],
          orders: [
            {
              order_ref: "LEG-1",
              invoice_number: "INV-L",
              items: [
                item({
                  sku: "DG-1",
                  dangerous_goods: { un_id: "UN3481", extra_note: "kept" },
                  compliance: { ce: true },
                }),
              ],
            },
          ],
        },
      ],
    };
    const res = await api("/consignments", { json: rich });
    expect(res.status).toBe(201);
    const id = (await json(res)).data.consignment.id;
    const before = await json(await api(`/consignments/${id}`));

    const empty = await patch(api, id, {});
    expect(empty.status).toBe(200);
    expect((await json(empty)).data.changed_fields).toEqual([]);

    const one = await patch(api, id, { parcels: [{ id: before.parcels[0].id, width: 7 }] });
    expect((await json(one)).data.changed_fields).toEqual(["parcels[0].width"]);
    const after = await json(await api(`/consignments/${id}`));
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    const created = await json(await api(`/consignments?shipment_ref=AM-RICH`));
    expect(created.consignments[0].customer).toEqual({ id: customer, name: "Rich customer" });
  });

  it("moves an item to another parcel and removes fields with null, keeping ids", async () => {
    const { api } = await setup();
    const created = await createOne(api, "AM-MOVE", {
      parcels: [
        { weight_value: 1, items: [item(), item({ sku: "SK-2" })] },
        { weight_value: 2, barcode: "BC-2", items: [item({ sku: "SK-3" })] },
      ],
    });
    const id = created.consignment.id;
    const [p0, p1] = created.parcels;
    const res = await patch(api, id, {
      parcels: [
        { id: p0.id, items: [{ id: p0.items[0].id }] },
        { id: p1.id, barcode: null, items: [{ id: p1.items[0].id }, { id: p0.items[1].id, quantity: 5 }] },
      ],
    });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.parcels[1].barcode).toBeNull();
    expect(data.parcels[1].items.map((i: any) => [i.id, i.quantity])).toEqual([
      [p1.items[0].id, 2],
      [p0.items[1].id, 5],
    ]);
    expect(data.changed_fields).toEqual(
      expect.arrayContaining(["parcels[0].items", "parcels[1].barcode", "parcels[1].items", "parcels[1].items[1]"]),
    );
    const events = (await json(await api(`/consignments/${id}/events`))).events;
    expect(events[1].data).toMatchObject({ added: [], removed: [] });
  });
});

describe("PATCH /consignments/{id}: validation", () => {
  it("re-runs the create rules: 422 in the create's body, every problem at once, nothing changed", async () => {
    const { api } = await setup();
    const created = await createOne(api, "AM-BAD");
    const id = created.consignment.id;
    const before = await api(`/consignments/${id}`).then((r) => r.text());
    const [parcel] = created.parcels;

    const res = await patch(api, id, {
      receiver: { city: "Dallas" },
      parcels: [{ id: parcel.id, items: [{ id: parcel.items[0].id, country_of_origin: null, quantity: 0 }] }],
    });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual([
      "error",
      "errors",
      "message",
      "request_id",
      "success",
      "validation_errors",
    ]);
    expect(body.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^parcels\[0\]\.items\[0\]\.quantity: /)]),
    );
    expect(body.validation_errors).toEqual(body.errors.map((message: string) => ({ message })));

    const noOrigin = await patch(api, id, {
      parcels: [{ id: parcel.id, items: [{ id: parcel.items[0].id, country_of_origin: null }] }],
    });
    expect((await json(noOrigin)).errors).toEqual([
      "parcels[0].items[0].country_of_origin: required for an international consignment (GB → US)",
    ]);
    // Removing every parcel follows the create's rules too.
    const empty = await patch(api, id, { parcels: [] });
    expect(empty.status).toBe(422);
    expect((await json(empty)).errors).toEqual([
      "parcels: an international consignment (GB → US) needs at least one item",
    ]);
    // Required fields cannot be removed.
    const noRef = await patch(api, id, { shipment_ref: null });
    expect(noRef.status).toBe(422);
    expect((await json(noRef)).errors[0]).toMatch(/^shipment_ref: /);

    expect(await api(`/consignments/${id}`).then((r) => r.text())).toBe(before);
    const events = (await json(await api(`/consignments/${id}/events`))).events;
    expect(events.map((e: any) => e.type)).toEqual(["consignment.created"]);
  });

  it("runs the workspace's validation rules on the amended consignment", async () => {
    const { api } = await setup();
    await api("/settings/validation-rules", {
      json: {
        name: "No DDP to US",
        severity: "error",
        message: "DDP is not available for US deliveries",
        condition: { field: "incoterm", op: "equals", value: "DDP" },
      },
    });
    const id = (await createOne(api, "AM-RULE")).consignment.id;
    const res = await patch(api, id, { incoterm: "DDP" });
    expect(res.status).toBe(422);
    expect((await json(res)).errors).toEqual(["DDP is not available for US deliveries"]);
    expect((await json(await api(`/consignments/${id}`))).incoterm).toBe("DAP");
  });

  it("refuses unknown keys, unknown ids and bad values (422), malformed JSON (400)", async () => {
    const { api } = await setup();
    const created = await createOne(api, "AM-SHAPE");
    const id = created.consignment.id;
    const unknownKey = await patch(api, id, { recever: { city: "X" } });
    expect(unknownKey.status).toBe(422);
    expect((await json(unknownKey)).errors[0]).toContain("recever");
    const nested = await patch(api, id, { receiver: { town: "X" } });
    expect(nested.status).toBe(422);
    const badId = await patch(api, id, { parcels: [{ id: "par_nope", weight_value: 1 }] });
    expect(badId.status).toBe(422);
    expect((await json(badId)).errors).toEqual(["parcels[0].id: no parcel 'par_nope' in this consignment"]);
    const twice = await patch(api, id, { parcels: [{ id: created.parcels[0].id }, { id: created.parcels[0].id }] });
    expect((await json(twice)).errors).toEqual([`parcels[1].id: '${created.parcels[0].id}' is listed more than once`]);
    const badCountry = await patch(api, id, { receiver: { country_code: "ZZ" } });
    expect(badCountry.status).toBe(422);

    const malformed = await api(`/consignments/${id}`, {
      method: "PATCH",
      body: '{"receiver": ',
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toMatchObject({ success: false });
  });
});

describe("PATCH /consignments/{id}: refusals and security", () => {
  it("unknown id and another workspace's consignment → 404", async () => {
    const { api } = await setup();
    const other = await setup();
    const theirs = (await createOne(other.api, "AM-THEIRS")).consignment.id;
    expect((await patch(api, "con_00000000000070008000000000000000", { tags: ["x"] })).status).toBe(404);
    expect((await patch(api, theirs, { receiver: { city: "Stolen" } })).status).toBe(404);
    expect((await json(await other.api(`/consignments/${theirs}`))).receiver.city).toBe("Austin");
  });

  it("a customer-pinned client amends its own customer's consignments only", async () => {
    const { api, ws } = await setup();
    const mine = await insertCustomer(ws, "Mine");
    const theirs = await insertCustomer(ws, "Theirs");
    const pinned = await getToken(ws, await createClient(ws, ["consignments:read", "consignments:write"], mine));
    const pinnedApi: Api = (path, opts = {}) => api(path, { ...opts, token: pinned });
    const own = (await createOne(api, "AM-PIN-1", { customer_id: mine })).consignment.id;
    const other = (await createOne(api, "AM-PIN-2", { customer_id: theirs })).consignment.id;
    expect((await patch(pinnedApi, other, { receiver: { city: "X" } })).status).toBe(404);
    const ok = await patch(pinnedApi, own, { receiver: { city: "Plano" }, customer_id: theirs });
    expect(ok.status).toBe(200);
    // A pinned client's consignments stay its customer's, whatever the body says (as at create).
    expect((await json(ok)).data.consignment).toMatchObject({ customer_id: mine, receiver: { city: "Plano" } });
  });

  it("a token without consignments:write → 403", async () => {
    const { api, ws } = await setup();
    const id = (await createOne(api, "AM-SCOPE")).consignment.id;
    const reader = await getToken(ws, await createClient(ws, ["consignments:read"]));
    const res = await api(`/consignments/${id}`, { method: "PATCH", json: { tags: ["x"] }, token: reader });
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe("Missing scope: consignments:write");
  });

  it("labels issued → 409 until they are cancelled", async () => {
    const { api } = await setup();
    const id = (await createOne(api, "AM-LBL")).consignment.id;
    expect((await api(`/consignments/${id}/labels`, { method: "POST" })).status).toBe(201);
    const refused = await patch(api, id, { receiver: { city: "Dallas" } });
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toContain("cancel them first");
    expect((await api(`/consignments/${id}/labels`, { method: "DELETE" })).status).toBe(200);
    expect((await patch(api, id, { receiver: { city: "Dallas" } })).status).toBe(200);
  });

  it("on an open manifest it can be amended; on a closed one → 409 naming the manifest", async () => {
    const { api } = await setup();
    const id = (await createOne(api, "AM-MAN")).consignment.id;
    const manifest = (await json(await api("/manifests", { json: { consignment_ids: [id] } }))).manifest.id;
    expect((await patch(api, id, { receiver: { city: "Dallas" } })).status).toBe(200);
    expect((await api(`/manifests/${manifest}/close`, { method: "POST" })).status).toBe(200);
    const refused = await patch(api, id, { receiver: { city: "Houston" } });
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toContain(manifest);
    expect((await json(await api(`/consignments/${id}`))).receiver.city).toBe("Dallas");
  });

  it("a label issued between the read and the commit wins: 409 and nothing half-applied", async () => {
    const { api } = await setup();
    const created = await createOne(api, "AM-RACE");
    const id = created.consignment.id;
    // The labels arrive just before the amend's batch: the first batch the amend sends is the commit.
    let raced = false;
    const restore = interceptD1Batches(async (statements, run) => {
      const sqls = statements.map((s: any) => String(s?.statement ?? s?.sql ?? ""));
      if (!raced && sqls.some((s) => /update "consignments"/i.test(s))) {
        raced = true;
        await env.DB.prepare(
          "INSERT INTO parcel_labels (parcel_id, consignment_id, workspace_id, carrier, service, tracking_number, document_id, created_at) SELECT id, consignment_id, 'w', 'postal', 'RR', 'RR000000000GB', 'doc_x', '2026-01-01' FROM consignment_parcels WHERE consignment_id = ?",
        )
          .bind(id)
          .run();
      }
      return run(statements);
    });
    try {
      const res = await patch(api, id, {
        receiver: { city: "Dallas" },
        parcels: [{ weight_value: 9, items: [item()] }],
      });
      expect(res.status).toBe(409);
      expect((await json(res)).message).toContain("cancel them first");
    } finally {
      restore();
    }
    expect(await rowCounts(id)).toEqual({ parcels: 1, items: 2, orders: 0 });
    const parcels = await env.DB.prepare("SELECT id, weight_value FROM consignment_parcels WHERE consignment_id = ?")
      .bind(id)
      .all<{ id: string; weight_value: string }>();
    expect(parcels.results).toEqual([{ id: created.parcels[0].id, weight_value: "1" }]);
    const events = await env.DB.prepare("SELECT type FROM consignment_events WHERE consignment_id = ?").bind(id).all();
    expect(events.results.map((e) => e.type)).toEqual(["consignment.created"]);
  });
});
