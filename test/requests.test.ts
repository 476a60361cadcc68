/** The request archive API over the audit rows and R2 bodies. */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import { baseContext } from "../src/core/context";
import worker from "../src/index";
import { systemClock } from "../src/lib/clock";
import { systemIds } from "../src/lib/ids";
import { recordInternalRun } from "../src/modules/requests/service";
import { ADMIN_TOKEN, call, createClient, getToken, insertCustomer, setup } from "./helpers";

interface Row {
  id: string;
  route: string;
  path: string;
  method: string;
  source: string;
  outcome: string;
  http_status: number;
  has_body: boolean;
  surface: string;
  customer_id: number | null;
}
type List = { requests: Row[]; has_more: boolean };

/** The context a job has (no request): the test's bindings, the system clock and ids. */
const jobBase = () => baseContext(env, { clock: systemClock, ids: systemIds });

const idOf = (res: Response) => res.headers.get("X-Request-Id")!;

async function list(api: (p: string) => Promise<Response>, query = "") {
  const res = await api(`/requests${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as List;
}

/** A workspace with a known mix of requests, oldest first. */
async function seeded() {
  const s = await setup();
  const me = idOf(await s.api("/me"));
  const created = await s.api("/settings/api-clients", { json: { name: "Ops", scopes: ["screen:read"] } });
  const createdId = idOf(created);
  const clientId = ((await created.json()) as { api_client: { id: string } }).api_client.id;
  const invalid = idOf(
    await s.api("/settings/api-clients", {
      json: { name: "x", scopes: [], shipment_ref: "SHP-77", parcels: [{ barcode: "JD014600" }] },
    }),
  );
  const patched = idOf(await s.api(`/settings/api-clients/${clientId}`, { method: "PATCH", json: { name: "Ops 2" } }));
  const deleted = idOf(await s.api(`/settings/api-clients/${clientId}`, { method: "DELETE" }));
  const missing = idOf(await s.api("/settings/api-clients/apc_nope"));
  return { ...s, ids: { me, createdId, invalid, patched, deleted, missing } };
}

describe("GET /requests", () => {
  it("lists the workspace's requests newest first with the spec's audit row fields, at both paths", async () => {
    const { api, ws, token, ids } = await seeded();
    const page = await list(api);
    const mine = page.requests.filter((r) => Object.values(ids).includes(r.id));
    expect(mine.map((r) => r.id)).toEqual([ids.missing, ids.deleted, ids.patched, ids.invalid, ids.createdId, ids.me]);
    expect(page.requests[0]).toMatchObject({
      route: expect.any(String),
      method: expect.any(String),
      source: "http",
      actor: expect.any(String),
      http_status: expect.any(Number),
      outcome: expect.any(String),
      duration_ms: expect.any(Number),
      has_body: expect.any(Boolean),
      created_at: expect.any(String),
    });
    const viaBase = await call("/api/requests", { host: ws.host, token });
    expect(viaBase.status).toBe(200);
    expect(((await viaBase.json()) as List).requests.map((r) => r.id)).toEqual(
      expect.arrayContaining(Object.values(ids)),
    );
  });

  it.each([
    ["method=POST", (r: Row) => r.method === "POST"],
    ["method=DELETE", (r: Row) => r.method === "DELETE"],
    ["method=PATCH", (r: Row) => r.method === "PATCH"],
    ["outcome=failed", (r: Row) => r.outcome === "failed"],
    ["outcome=completed", (r: Row) => r.outcome === "completed"],
    ["surface=admin-api", (r: Row) => r.surface === "admin-api"],
    ["path_prefix=/admin/api/v1/settings", (r: Row) => r.path.startsWith("/admin/api/v1/settings")],
    ["source=http", (r: Row) => r.source === "http"],
    ["method=POST&outcome=failed", (r: Row) => r.method === "POST" && r.outcome === "failed"],
    [
      "method=POST&outcome=completed&path_prefix=/admin/api/v1/settings/api-clients",
      (r: Row) =>
        r.method === "POST" && r.outcome === "completed" && r.path.startsWith("/admin/api/v1/settings/api-clients"),
    ],
  ])("filters by %s", async (query, predicate) => {
    const { api } = await seeded();
    // Listing is itself audited: leave the archive's own reads out of the comparison.
    const notArchiveRead = (r: Row) => !r.path.endsWith("/requests");
    const all = (await list(api)).requests.filter(notArchiveRead);
    const filtered = (await list(api, `?${query}`)).requests.filter(notArchiveRead);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.map((r) => r.id)).toEqual(all.filter(predicate).map((r) => r.id));
  });

  it("finds requests by an identifier extracted from their bodies", async () => {
    const { api, ids } = await seeded();
    expect((await list(api, "?ref=SHP-77")).requests.map((r) => r.id)).toEqual([ids.invalid]);
    expect((await list(api, "?ref=JD014600&ref_type=tracking_number")).requests.map((r) => r.id)).toEqual([
      ids.invalid,
    ]);
    expect((await list(api, "?ref=JD014600&ref_type=shipment_ref")).requests).toEqual([]);
    expect((await list(api, "?ref=SHP-77&method=POST&outcome=failed")).requests.map((r) => r.id)).toEqual([
      ids.invalid,
    ]);
    expect((await list(api, "?ref=SHP-77&outcome=completed")).requests).toEqual([]);
  });

  it("path_prefix is an exact, case-sensitive prefix (no wildcards)", async () => {
    const { api } = await seeded();
    expect((await list(api, "?path_prefix=/ADMIN")).requests).toEqual([]);
    expect((await list(api, "?path_prefix=/admin/api/v1/%25")).requests).toEqual([]);
    expect((await list(api, "?path_prefix=/admin/api/v1/me")).requests.length).toBeGreaterThan(0);
  });

  it("valid filter values with no such traffic give an empty page", async () => {
    const { api } = await seeded();
    for (const q of ["surface=cds", "surface=account-api", "method=PUT", "source=flow"]) {
      expect((await list(api, `?${q}`)).requests).toEqual([]);
    }
  });

  it("walks pages with the cursor while new requests arrive, never repeating or skipping", async () => {
    const { api } = await setup();
    for (let i = 0; i < 6; i++) await api("/me");
    const expected = (await list(api, "?limit=100&path_prefix=/admin/api/v1/me")).requests.map((r) => r.id);
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await list(api, `?limit=2&path_prefix=/admin/api/v1/me${cursor ? `&starting_after=${cursor}` : ""}`);
      seen.push(...page.requests.map((r) => r.id));
      await api("/me"); // a new request lands between pages
      if (!page.has_more) break;
      cursor = page.requests.at(-1)!.id;
    }
    expect(seen).toEqual(expected);
  });

  it.each([
    ["surface=web"],
    ["method=HEAD"],
    ["outcome=ok"],
    ["source=cron"],
    ["limit=0"],
    ["limit=101"],
    ["starting_after=abc"],
    ["path_prefix="],
    ["unknown_filter=1"],
  ])("400 for %s", async (q) => {
    const { api } = await setup();
    const res = await api(`/requests?${q}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: "validation_failed" });
  });

  it("needs requests:read", async () => {
    const { api, ws } = await setup(["settings:read"]);
    expect((await api("/requests")).status).toBe(403);
    expect((await call("/api/requests", { host: ws.host })).status).toBe(401);
  });
});

describe("GET /requests/{id} and /body", () => {
  it("returns a request with its refs", async () => {
    const { api, ids } = await seeded();
    const res = await api(`/requests/${ids.invalid}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      request: { id: ids.invalid, method: "POST", http_status: 400, outcome: "failed", has_body: true },
      refs: [
        { ref_type: "shipment_ref", ref_value: "SHP-77" },
        { ref_type: "tracking_number", ref_value: "JD014600" },
      ],
    });
  });

  it("streams bodies byte for byte with the original content type: non-ASCII and large", async () => {
    const { api } = await setup();
    const odd = '{"name":"Zoë ✓ 検査 \\u00e9","scopes":[],   "note":"tab\\there"}';
    const big = JSON.stringify({ name: "big", scopes: [], blob: "€".repeat(3_000_000) }); // ~9 MB of UTF-8
    for (const [raw, contentType] of [
      [odd, "application/json; charset=utf-8"],
      [big, "application/json"],
    ] as const) {
      const sent = await api("/settings/api-clients", {
        method: "POST",
        headers: { "content-type": contentType },
        body: raw,
      });
      const res = await api(`/requests/${idOf(sent)}/body`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(contentType);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const expected = new TextEncoder().encode(raw);
      expect(bytes.byteLength).toBe(expected.byteLength);
      // Byte-wise equality without per-element diffing of ~9 MB.
      expect(bytes.every((b, i) => b === expected[i])).toBe(true);
      expect(res.headers.get("content-length")).toBe(String(expected.byteLength));
    }
  });

  it("404 for a request without a body, an unknown id, and another workspace's id; 400 for a malformed id", async () => {
    const { api, ids } = await seeded();
    const other = await seeded();
    expect((await api(`/requests/${ids.me}/body`)).status).toBe(404);
    expect((await api(`/requests/${uuidv7()}`)).status).toBe(404);
    expect((await api(`/requests/${uuidv7()}/body`)).status).toBe(404);
    expect((await api(`/requests/${other.ids.createdId}`)).status).toBe(404);
    expect((await api(`/requests/${other.ids.createdId}/body`)).status).toBe(404);
    expect((await api("/requests/not-a-uuid")).status).toBe(400);
  });
});

describe("customer scoping", () => {
  it("a customer-pinned client sees only its customer's requests", async () => {
    const { ws, api, ids } = await seeded();
    const customerId = await insertCustomer(ws);
    const pinnedToken = await getToken(ws, await createClient(ws, ["requests:read"], customerId));
    const pinnedApi = (p: string) => call(`/admin/api/v1${p}`, { host: ws.host, token: pinnedToken });
    const ownId = idOf(await pinnedApi("/me"));
    const page = await list(pinnedApi);
    expect(page.requests.length).toBeGreaterThan(0);
    for (const r of page.requests) expect(r.customer_id).toBe(customerId);
    expect(page.requests.map((r) => r.id)).toContain(ownId);
    expect((await pinnedApi(`/requests/${ids.createdId}`)).status).toBe(404);
    expect((await pinnedApi(`/requests/${ids.createdId}/body`)).status).toBe(404);
    // The unpinned client still sees everything, the pinned client's requests included.
    expect((await list(api)).requests.map((r) => r.id)).toContain(ownId);
  });
});

describe("runs that do not come over HTTP", () => {
  it("are recorded under a UUIDv7 with source flow/internal and read through the same endpoints", async () => {
    const { api, ws } = await setup();
    const id = uuidv7();
    await recordInternalRun({
      ctx: jobBase(),
      input: {
        run: {
          workspaceId: ws.id,
          source: "flow",
          route: "flow:consignment.created/add_tags",
          body: { bytes: '{"tags":["vip"]}', contentType: "application/json" },
          refs: [{ ref_type: "shipment_ref", ref_value: "FLOW-1" }],
        },
        at: { id, nowMs: Date.now() },
      },
    });
    expect((await list(api, "?source=flow")).requests.map((r) => r.id)).toEqual([id]);
    expect((await list(api, "?ref=FLOW-1")).requests.map((r) => r.id)).toEqual([id]);
    const detail = await api(`/requests/${id}`);
    expect(await detail.json()).toMatchObject({
      request: { source: "flow", method: "RUN", has_body: true },
      refs: [{ ref_type: "shipment_ref", ref_value: "FLOW-1" }],
    });
    expect(await (await api(`/requests/${id}/body`)).text()).toBe('{"tags":["vip"]}');
  });
});

describe("retention", () => {
  it("the cron job purges rows, refs and bodies past the workspace's retention, and records the purge", async () => {
    const { api, ws } = await setup();
    const day = 86_400_000;
    const old = uuidv7();
    const recent = uuidv7();
    await recordInternalRun({
      ctx: jobBase(),
      input: {
        run: {
          workspaceId: ws.id,
          source: "internal",
          route: "job:test",
          body: { bytes: "old", contentType: "text/plain" },
          refs: [{ ref_type: "shipment_ref", ref_value: "OLD-1" }],
        },
        at: { id: old, nowMs: Date.now() - 40 * day },
      },
    });
    await recordInternalRun({
      ctx: jobBase(),
      input: {
        run: {
          workspaceId: ws.id,
          source: "internal",
          route: "job:test",
          body: { bytes: "new", contentType: "text/plain" },
        },
        at: { id: recent, nowMs: Date.now() - 10 * day },
      },
    });
    const oldKey = (await env.DB.prepare("SELECT body_key FROM request_audit WHERE id = ?")
      .bind(old)
      .first<{ body_key: string }>())!.body_key;
    expect(await env.ARCHIVE.head(oldKey)).not.toBeNull();

    const patched = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { archive_retention_days: 30 },
    });
    expect(
      ((await patched.json()) as { workspace: { archive_retention_days: number } }).workspace.archive_retention_days,
    ).toBe(30);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await api(`/requests/${old}`)).status).toBe(404);
    expect(await env.ARCHIVE.head(oldKey)).toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM request_refs WHERE request_id = ?").bind(old).first(),
    ).toEqual({ n: 0 });
    expect((await api(`/requests/${recent}`)).status).toBe(200);
    const runs = (await list(api, "?source=internal&path_prefix=job:archive-retention")).requests;
    expect(runs).toHaveLength(1);
    const body = await (await api(`/requests/${runs[0]!.id}/body`)).json();
    expect(body).toMatchObject({ job: "archive-retention", purged_requests: 1 });
  });

  it.each([[0], [-1], [1.5], [40_000]])("rejects archive_retention_days=%s", async (days) => {
    const { ws } = await setup();
    const res = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { archive_retention_days: days },
    });
    expect(res.status).toBe(400);
  });
});
