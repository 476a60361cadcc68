/** Customers and catalogue items: CRUD, validation, scoping. */
import { describe, expect, it } from "vitest";
import { call, createClient, getToken, setup } from "./helpers";

type Customer = {
  id: number;
  name: string;
  addresses: { country_code: string; type: string }[];
  tax_registrations: Record<string, string>;
};
type Item = {
  id: number;
  sku: string;
  unit_value: string | null;
  hs_codes: Record<string, string>;
  country_of_origin: string | null;
};

const customer = {
  name: "Northwind Traders",
  email: "ops@northwind.example",
  external_ref: "CRM-1",
  addresses: [{ type: "billing", address_1: "1 Main St", city: "Leeds", country_code: "gb", post_code: "LS1 1AA" }],
  tax_registrations: { eori_id: "GB123456789000", vat_id: "GB123456789" },
};

describe("customers", () => {
  it("create → get → list → update → delete", async () => {
    const { api } = await setup();
    const created = await api("/customers", { json: customer });
    expect(created.status).toBe(201);
    const c = ((await created.json()) as { customer: Customer }).customer;
    expect(c).toMatchObject({
      name: "Northwind Traders",
      addresses: [{ country_code: "GB", type: "billing" }],
      tax_registrations: { eori_id: "GB123456789000" },
    });
    expect(((await (await api(`/customers/${c.id}`)).json()) as { customer: Customer }).customer.id).toBe(c.id);
    const list = (await (await api("/customers?external_ref=CRM-1")).json()) as { customers: Customer[] };
    expect(list.customers.map((x) => x.id)).toEqual([c.id]);
    const updated = await api(`/customers/${c.id}`, {
      method: "PATCH",
      json: { name: "Northwind Ltd", tax_registrations: { ioss_id: "IM0000000000" } },
    });
    expect(((await updated.json()) as { customer: Customer }).customer).toMatchObject({
      name: "Northwind Ltd",
      tax_registrations: { ioss_id: "IM0000000000" },
    });
    expect((await api(`/customers/${c.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/customers/${c.id}`)).status).toBe(404);
  });

  it.each([
    ["no name", { email: "a@b.example" }],
    ["a bad email", { name: "X", email: "not-an-email" }],
    ["an unknown country", { name: "X", addresses: [{ address_1: "1", city: "C", country_code: "XX" }] }],
    ["an address without a city", { name: "X", addresses: [{ address_1: "1", country_code: "GB" }] }],
    ["an unknown registration", { name: "X", tax_registrations: { ssn: "1" } }],
    [
      "too many addresses",
      { name: "X", addresses: Array.from({ length: 21 }, () => ({ address_1: "1", city: "C", country_code: "GB" })) },
    ],
  ])("400 for %s", async (_n, json) => {
    const { api } = await setup();
    expect((await api("/customers", { json })).status).toBe(400);
  });

  it("a pinned client sees only its customer and cannot create or delete; a pinned customer cannot be deleted", async () => {
    const { ws, api } = await setup();
    const mine = ((await (await api("/customers", { json: customer })).json()) as { customer: Customer }).customer;
    const other = ((await (await api("/customers", { json: { name: "Other" } })).json()) as { customer: Customer })
      .customer;
    const token = await getToken(ws, await createClient(ws, ["customers:read", "customers:write"], mine.id));
    const pinned = (p: string, o = {}) => call(`/admin/api/v1${p}`, { host: ws.host, token, ...o });
    const list = (await (await pinned("/customers")).json()) as { customers: Customer[] };
    expect(list.customers.map((x) => x.id)).toEqual([mine.id]);
    expect((await pinned(`/customers/${other.id}`)).status).toBe(404);
    expect((await pinned("/customers", { json: { name: "New" } })).status).toBe(403);
    expect((await pinned(`/customers/${mine.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await api(`/customers/${mine.id}`, { method: "DELETE" })).status).toBe(409);
  });

  it("another workspace's customer is a 404; scopes are enforced", async () => {
    const a = await setup();
    const b = await setup(["customers:read"]);
    const c = ((await (await a.api("/customers", { json: customer })).json()) as { customer: Customer }).customer;
    expect((await b.api(`/customers/${c.id}`)).status).toBe(404);
    expect((await b.api("/customers", { json: customer })).status).toBe(403);
    expect((await b.api(`/customers/${c.id}`, { method: "PATCH", json: { name: "x" } })).status).toBe(403);
  });
});

describe("catalogue", () => {
  const item = {
    sku: "TSHIRT-BLK-M",
    title: "Men's cotton T-shirt",
    hs_code: "6109.10",
    hs_codes: { us: "6109.10.0012", EU: "61091000" },
    country_of_origin: "bd",
    unit_value: 12.5,
    currency: "usd",
    weight: 0.2,
    weight_unit: "kg",
  };

  it("create → get → filter by sku → update → delete; amounts are exact decimal strings", async () => {
    const { api } = await setup();
    const created = await api("/catalogue", { json: item });
    expect(created.status).toBe(201);
    const it = ((await created.json()) as { item: Item }).item;
    expect(it).toMatchObject({
      sku: "TSHIRT-BLK-M",
      unit_value: "12.5",
      country_of_origin: "BD",
      hs_codes: { US: "6109100012", EU: "61091000" },
    });
    const bySku = (await (await api("/catalogue?sku=TSHIRT-BLK-M")).json()) as { items: Item[] };
    expect(bySku.items.map((x) => x.id)).toEqual([it.id]);
    const updated = await api(`/catalogue/${it.id}`, { method: "PATCH", json: { unit_value: 0.1 } });
    expect(((await updated.json()) as { item: Item }).item.unit_value).toBe("0.1");
    expect((await api(`/catalogue/${it.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/catalogue/${it.id}`)).status).toBe(404);
  });

  it("409 for a duplicate sku in one workspace; the same sku in another workspace is fine", async () => {
    const a = await setup();
    const b = await setup();
    expect((await a.api("/catalogue", { json: item })).status).toBe(201);
    expect((await a.api("/catalogue", { json: item })).status).toBe(409);
    expect((await b.api("/catalogue", { json: item })).status).toBe(201);
  });

  it.each([
    ["no sku", { title: "x" }],
    ["unit_value without currency", { sku: "A", title: "x", unit_value: 3 }],
    ["a negative value", { sku: "A", title: "x", unit_value: -1, currency: "USD" }],
    ["a short hs_code", { sku: "A", title: "x", hs_code: "6109" }],
    ["a bad destination key", { sku: "A", title: "x", hs_codes: { XX: "610910" } }],
    ["a bad weight unit", { sku: "A", title: "x", weight: 1, weight_unit: "stone" }],
  ])("400 for %s", async (_n, json) => {
    const { api } = await setup();
    expect((await api("/catalogue", { json })).status).toBe(400);
  });

  it("another workspace's item is a 404", async () => {
    const a = await setup();
    const b = await setup();
    const it = ((await (await a.api("/catalogue", { json: item })).json()) as { item: Item }).item;
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      expect(
        (await b.api(`/catalogue/${it.id}`, { method, json: method === "PATCH" ? { title: "x" } : undefined })).status,
      ).toBe(404);
    }
  });

  it("ids are canonical decimal: 0x.., 1e3 and 007 are 400, never another item", async () => {
    const { api } = await setup();
    const it = ((await (await api("/catalogue", { json: item })).json()) as { item: Item }).item;
    const hex = `0x${it.id.toString(16)}`;
    for (const id of [hex, "1e3", `00${it.id}`]) {
      expect((await api(`/catalogue/${id}`)).status, id).toBe(400);
      expect((await api(`/catalogue/${id}`, { method: "DELETE" })).status, id).toBe(400);
    }
    expect((await api(`/catalogue?starting_after=${hex}`)).status).toBe(400);
    expect((await api(`/catalogue/${it.id}`)).status).toBe(200);
  });

  it("of concurrent deletes of one item exactly one succeeds; the others are 404", async () => {
    const { api } = await setup();
    const it = ((await (await api("/catalogue", { json: item })).json()) as { item: Item }).item;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => api(`/catalogue/${it.id}`, { method: "DELETE" }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(9);
  });
});
