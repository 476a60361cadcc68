/**
 * Security checks for every route, generated from the OpenAPI document: a new route gets them without anyone
 * writing them. For each workspace operation (`security: oauth2`):
 *   - no token → 401;
 *   - a token holding every scope but the route's → 403 `Missing scope`;
 *   - a customer-pinned client holding every scope → its documented answer (`x-customer-pinned`: `forbidden`
 *     → 403; `scoped` → admitted, its data narrowed to its customer by the module, tested there);
 *   - an id of another workspace in the path → 404 (never the other workspace's data).
 * For each platform operation: no token and a wrong token → 401.
 *
 * Path parameters are filled from RESOURCES: one fixture per kind of resource, created in a second workspace.
 * A route whose parameter has no fixture fails here with a message saying which fixture to add.
 */

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { baseContext } from "../src/core/context";
import { systemIds } from "../src/lib/ids";
import { discoverParties, rescreenParties } from "../src/modules/screening/service";
import { ADMIN_TOKEN, ALL_SCOPES, call, createClient, getToken, insertCustomer, loadDataset, setup } from "./helpers";

type Operation = {
  security?: Record<string, string[]>[];
  "x-customer-pinned"?: "forbidden" | "scoped";
  requestBody?: unknown;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const API = "/admin/api/v1";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Route {
  method: string;
  path: string;
  op: Operation;
  scope: string | undefined;
}

let doc: Doc;
let routes: Route[];

/** Resources of the other workspace, by path parameter, filled in beforeAll. */
const other: Record<string, string> = {};

beforeAll(async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
  doc = (await (await call("/openapi.json")).json()) as Doc;
  routes = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const oauth = op.security?.find((s) => "oauth2" in s);
      routes.push({ method: method.toUpperCase(), path, op, scope: oauth?.oauth2?.[0] });
    }
  }
});

const workspaceRoutes = () => routes.filter((r) => r.scope !== undefined);
const platformRoutes = () => routes.filter((r) => r.op.security?.some((s) => "platformAdmin" in s));

/** The concrete path of a route, its parameters taken from `values` (another workspace's resources). */
function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const key = `${path.split("/{")[0]}:${name}`;
    const v = values[key] ?? values[name];
    if (v === undefined) throw new Error(`no fixture for path parameter '${name}' of ${path}: add one to RESOURCES`);
    return encodeURIComponent(v);
  });
}

const request = (r: Route, path: string, token?: string, host?: string) =>
  call(path, {
    method: r.method,
    host,
    token,
    ...(r.op.requestBody ? { json: {} } : {}),
  });

describe("route security harness", () => {
  let host: string;
  let allButToken: (scope: string) => Promise<string>;
  let pinnedToken: string;
  let mainToken: string;

  beforeAll(async () => {
    const main = await setup();
    host = main.ws.host;
    mainToken = main.token;
    const tokens = new Map<string, string>();
    allButToken = async (scope: string) => {
      const cached = tokens.get(scope);
      if (cached) return cached;
      // settings:write implies settings:read, so a client without settings:read must not hold settings:write either.
      const without = ALL_SCOPES.filter((s) => s !== scope && !(scope === "settings:read" && s === "settings:write"));
      const token = await getToken(main.ws, await createClient(main.ws, without));
      tokens.set(scope, token);
      return token;
    };
    const customerId = await insertCustomer(main.ws, "Pinned customer");
    pinnedToken = await getToken(main.ws, await createClient(main.ws, ALL_SCOPES, customerId));

    // The other workspace, in another organization, with one resource of each kind.
    const b = await setup();
    const made = async (path: string, json: unknown, pick: (body: any) => string | number) => {
      const res = await b.api(path, { json });
      if (res.status !== 201) throw new Error(`fixture ${path}: ${res.status} ${await res.text()}`);
      return String(pick(await res.json()));
    };
    Object.assign(other, RESOURCE_FALLBACKS);
    other[`${API}/customers:id`] = await made("/customers", { name: "B customer" }, (x) => x.customer.id);
    other[`${API}/catalogue:id`] = await made(
      "/catalogue",
      { sku: "B-SKU", title: "Cotton T-shirt", hs_code: "6109.10", unit_value: 5, currency: "usd" },
      (x) => x.item.id,
    );
    const consignmentBody = (ref: string, receiver: Record<string, string>) => ({
      shipment_ref: ref,
      sender: { company_name: "S", address_1: "1 St", city: "London", country_code: "GB" },
      receiver,
      parcels: [
        {
          weight_value: 1,
          items: [
            {
              sku: "B",
              title: "Cotton T-shirt",
              quantity: 1,
              unit_value: 5,
              country_of_origin: "PT",
              hs_code: "6109.10",
            },
          ],
        },
      ],
    });
    const consignment = await made(
      "/consignments",
      consignmentBody("B-1", { company_name: "R", address_1: "2 St", city: "Austin", country_code: "US" }),
      (x) => x.data.consignment.id,
    );
    other[`${API}/consignments:id`] = consignment;
    other[`${API}/manifests:id`] = await made("/manifests", { consignment_ids: [consignment] }, (x) => x.manifest.id);
    other[`${API}/restrict/rules:id`] = await made(
      "/restrict/rules",
      {
        title: "B rule",
        rule_type: "prohibition",
        measure_direction: "IMPORT",
        imposing_country_code: "US",
        keywords: ["b"],
      },
      (x) => x.rule.id,
    );
    other[`${API}/settings/country-rules:id`] = await made(
      "/settings/country-rules",
      { destination_country: "GB", rule_type: "required_fields", fields: ["weight"] },
      (x) => x.rule.id,
    );
    other[`${API}/settings/flows:id`] = await made(
      "/settings/flows",
      { name: "B flow", actions: [{ type: "place_hold", reason: "check" }] },
      (x) => x.flow.id,
    );
    other[`${API}/settings/validation-rules:id`] = await made(
      "/settings/validation-rules",
      { name: "B", severity: "error", message: "m", condition: { field: "incoterm", op: "equals", value: "DDP" } },
      (x) => x.rule.id,
    );
    other[`${API}/settings/webhooks:id`] = await made(
      "/settings/webhooks",
      { url: "https://hooks.example.com/b", events: ["consignment.created"] },
      (x) => x.endpoint?.id ?? x.webhook?.id,
    );
    other[`${API}/settings/api-clients:id`] = await made(
      "/settings/api-clients",
      { name: "B client", scopes: ["consignments:read"] },
      (x) => x.api_client.id,
    );
    // A screening alert of B: a party matching a listed entry, filed and screened by the cron steps.
    await loadDataset("sanctions", { fixture: true });
    await made(
      "/consignments",
      consignmentBody("B-2", {
        company_name: "Banco Nacional de Cuba",
        address_1: "2 St",
        city: "Havana",
        country_code: "CU",
      }),
      (x) => x.data.consignment.id,
    );
    const cronCtx = baseContext(env, { clock: { now: () => Date.now() + 60_000 }, ids: systemIds });
    await discoverParties({ ctx: cronCtx, input: {} });
    while ((await rescreenParties({ ctx: cronCtx, input: {} })) > 0);
    const alerts = (await (await b.api("/screening/alerts")).json()) as { alerts: { id: string }[] };
    if (!alerts.alerts[0]) throw new Error("fixture: no screening alert");
    other[`${API}/screening/alerts:id`] = alerts.alerts[0].id;
    const anyB = await b.api("/me");
    const bRequest = anyB.headers.get("x-request-id");
    if (!bRequest) throw new Error("no request id");
    other[`${API}/requests:id`] = bRequest;
    other["/api/requests:id"] = bRequest;
  });

  it("covers every workspace operation of the document", () => {
    expect(workspaceRoutes().length).toBeGreaterThan(60);
  });

  it("no token → 401 on every workspace operation", async () => {
    const failures: string[] = [];
    for (const r of workspaceRoutes()) {
      const res = await request(r, fill(r.path, other), undefined, host);
      if (res.status !== 401) failures.push(`${r.method} ${r.path}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("a token without the route's scope → 403 Missing scope", async () => {
    const failures: string[] = [];
    for (const r of workspaceRoutes()) {
      const scope = r.scope ?? "";
      const res = await request(r, fill(r.path, other), await allButToken(scope), host);
      const body = (await res.json()) as { message?: string };
      if (res.status !== 403 || body.message !== `Missing scope: ${scope}`) {
        failures.push(`${r.method} ${r.path}: ${res.status} ${body.message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("a customer-pinned client gets each route's documented answer", async () => {
    const failures: string[] = [];
    for (const r of workspaceRoutes()) {
      const documented = r.op["x-customer-pinned"];
      if (documented !== "forbidden" && documented !== "scoped") {
        failures.push(`${r.method} ${r.path}: no x-customer-pinned in the document`);
        continue;
      }
      const res = await request(r, fill(r.path, other), pinnedToken, host);
      const forbidden = res.status === 403;
      if (documented === "forbidden" ? !forbidden : forbidden || res.status === 401) {
        failures.push(`${r.method} ${r.path}: documented ${documented}, answered ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("another workspace's ids → 404, never its data", async () => {
    const failures: string[] = [];
    for (const r of workspaceRoutes().filter((x) => x.path.includes("{"))) {
      const res = await request(r, fill(r.path, other), mainToken, host);
      // A body route may refuse the empty body (400) before it looks the id up; it never reaches the resource.
      const allowed = r.op.requestBody ? [400, 404] : [404];
      if (!allowed.includes(res.status)) failures.push(`${r.method} ${r.path}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("platform operations: no token and a wrong token → 401", async () => {
    const failures: string[] = [];
    expect(platformRoutes().length).toBeGreaterThanOrEqual(3);
    for (const r of platformRoutes()) {
      const path = fill(r.path, { slug: "no-such-ws", dataset: "sanctions-un", version: "v1" });
      for (const token of [undefined, `${ADMIN_TOKEN}x`]) {
        const res = await request(r, path, token);
        if (res.status !== 401) failures.push(`${r.method} ${r.path} (${token ? "wrong" : "no"} token): ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** Parameters that are not workspace resources (or sub-resources reached through a parent that is). */
const RESOURCE_FALLBACKS: Record<string, string> = {
  code: "9503",
  assessment_id: "00000000-0000-7000-8000-000000000000",
  document_id: "00000000-0000-7000-8000-000000000000",
  hold_id: "00000000-0000-7000-8000-000000000000",
  check_id: "cck_00000000000070008000000000000000",
  consignment_id: "con_00000000000070008000000000000000",
};
