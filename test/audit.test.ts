/** Every request audited; every mutating body archived verbatim in R2 before a 2xx; reads never archived. */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../src/db/client";
import { DEFAULT_FLUSH_MS, flushWindow, queueAudit } from "../src/modules/audit/writer";
import { ADMIN_TOKEN, auditRow, call, createWorkspace, setup, uniqueSlug } from "./helpers";

const idOf = (res: Response) => res.headers.get("X-Request-Id")!;

describe("audit rows", () => {
  it("records a successful read with every spec field", async () => {
    const { api, ws, client } = await setup();
    const res = await api("/me");
    const row = await auditRow(idOf(res));
    expect(row).toMatchObject({
      id: idOf(res),
      workspace_id: ws.id,
      surface: "admin-api",
      route: "/admin/api/v1/me",
      path: "/admin/api/v1/me",
      method: "GET",
      source: "http",
      actor: client.clientId,
      customer_id: null,
      http_status: 200,
      outcome: "completed",
      has_body: 0,
      error_summary: null,
    });
    expect(row!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(String(row!.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each([
    [
      "401 (no token)",
      async (host: string) => call("/admin/api/v1/me", { host }),
      401,
      "unauthorized: Missing bearer token",
    ],
    [
      "404 (unknown route)",
      async (host: string, token: string) => call("/admin/api/v1/nothing", { host, token }),
      404,
      "not_found: No route for GET /admin/api/v1/nothing",
    ],
    [
      "403 (missing scope)",
      async (host: string, token: string) => call("/admin/api/v1/settings/api-clients", { host, token }),
      403,
      "forbidden: Missing scope: settings:read",
    ],
  ])("records a failure: %s", async (_n, send, status, summary) => {
    const { ws, token } = await setup(["screen:read"]);
    const res = await send(ws.host, token);
    expect(res.status).toBe(status);
    const row = await auditRow(idOf(res));
    expect(row).toMatchObject({ workspace_id: ws.id, http_status: status, outcome: "failed", error_summary: summary });
  });

  it("records requests to an unknown subdomain without a workspace", async () => {
    const res = await call("/admin/api/v1/me", { host: "ghost-town.localhost" });
    expect(await auditRow(idOf(res))).toMatchObject({ workspace_id: null, http_status: 404, outcome: "failed" });
  });

  it("records the route pattern, not the concrete path", async () => {
    const { api } = await setup();
    const res = await api("/settings/api-clients/apc_missing");
    expect(await auditRow(idOf(res))).toMatchObject({
      route: "/admin/api/v1/settings/api-clients/:id",
      path: "/admin/api/v1/settings/api-clients/apc_missing",
      http_status: 404,
    });
  });

  it("names the operator as actor on platform calls", async () => {
    const res = await call("/platform/v1/workspaces", { token: ADMIN_TOKEN, json: { slug: uniqueSlug(), name: "A" } });
    expect(await auditRow(idOf(res))).toMatchObject({
      surface: "platform",
      actor: "platform-admin",
      http_status: 201,
      has_body: 1,
    });
  });
});

describe("group commit", () => {
  it("concurrent requests share flushes and every one of them gets its row", async () => {
    const { api } = await setup();
    // Fired together: the first schedules the flush, the rest join its buffer.
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? api("/nope") : api("/me"))),
    );
    const ids = responses.map(idOf);
    const rows = await env.DB.prepare(
      `SELECT id, http_status FROM request_audit WHERE id IN (${ids.map(() => "?").join(",")})`,
    )
      .bind(...ids)
      .all<{ id: string; http_status: number }>();
    expect(rows.results).toHaveLength(25);
    expect(rows.results.filter((r) => r.http_status === 404)).toHaveLength(5);
  });

  it("rows queued within the window go in one flush, written when the window closes", async () => {
    const row = (id: string) => ({
      id,
      workspaceId: null,
      surface: "public",
      route: "/probe",
      path: "/probe",
      method: "GET",
      source: "http" as const,
      actor: null,
      customerId: null,
      httpStatus: 200,
      outcome: "success",
      durationMs: 1,
      hasBody: false,
      bodyKey: null,
      bodyContentType: null,
      bodySize: null,
      errorSummary: null,
      createdAt: new Date().toISOString(),
    });
    const flushes: Promise<unknown>[] = [];
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const db = createDb(env.DB);
    for (const id of ids) queueAudit(db, { row: row(id) as never, refs: async () => [] }, (p) => flushes.push(p), 40);
    expect(flushes).toHaveLength(1); // the first row scheduled the flush; the others joined it
    const count = async () =>
      (await env.DB.prepare(`SELECT COUNT(*) AS n FROM request_audit WHERE id IN (?, ?, ?)`)
        .bind(...ids)
        .first<{ n: number }>())!.n;
    expect(await count()).toBe(0); // still inside the window
    await flushes[0];
    expect(await count()).toBe(3);
  });

  it("the window comes from AUDIT_FLUSH_MS: whole milliseconds 0-1000, otherwise the default", () => {
    expect(flushWindow("0")).toBe(0);
    expect(flushWindow("25")).toBe(25);
    expect(flushWindow("1000")).toBe(1000);
    for (const bad of [undefined, "", " ", "-1", "1001", "2.5", "fast"])
      expect(flushWindow(bad)).toBe(DEFAULT_FLUSH_MS);
    expect(DEFAULT_FLUSH_MS).toBe(50);
  });
});

describe("body archive", () => {
  it("stores a 2xx mutation's body byte for byte, with its content type", async () => {
    const { api, ws } = await setup();
    // Odd spacing, key order and non-ASCII must survive exactly as sent.
    const raw = '{ "scopes":["screen:read"],   "name": "Zoë — Überprüfung 検査" }';
    const res = await api("/settings/api-clients", {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: raw,
    });
    expect(res.status).toBe(201);
    // The handler read the same bytes as UTF-8: the name it stored is the one sent.
    expect(JSON.stringify(await res.json())).toContain('"name":"Zoë — Überprüfung 検査"');
    const row = await auditRow(idOf(res));
    expect(row).toMatchObject({
      has_body: 1,
      body_content_type: "application/json; charset=utf-8",
      body_size: new TextEncoder().encode(raw).byteLength,
    });
    expect(String(row!.body_key)).toMatch(new RegExp(`^${ws.id}/\\d{4}/\\d\\d/\\d\\d/${idOf(res)}$`));
    const obj = await env.ARCHIVE.get(String(row!.body_key));
    expect(obj).not.toBeNull();
    expect(new Uint8Array(await obj!.arrayBuffer())).toEqual(new TextEncoder().encode(raw));
    expect(obj!.httpMetadata?.contentType).toBe("application/json; charset=utf-8");
  });

  it("archives mutations that fail validation too (evidence of what was sent)", async () => {
    const { api } = await setup();
    const res = await api("/settings/api-clients", { json: { name: "" } });
    expect(res.status).toBe(400);
    const row = await auditRow(idOf(res));
    expect(row).toMatchObject({ has_body: 1 });
    expect(await env.ARCHIVE.head(String(row!.body_key))).not.toBeNull();
  });

  it("archives nothing for reads", async () => {
    const { api, ws } = await setup();
    const res = await api("/settings/api-clients");
    expect(res.status).toBe(200);
    expect(await auditRow(idOf(res))).toMatchObject({ has_body: 0, body_key: null });
    expect((await env.ARCHIVE.list({ prefix: `${ws.id}/` })).objects).toHaveLength(0);
  });

  it("archives nothing for refused requests (401, 403, 415)", async () => {
    const { ws, token } = await setup(["screen:read"]);
    const refused = [
      await call("/admin/api/v1/settings/api-clients", { host: ws.host, json: { name: "x", scopes: [] } }),
      await call("/admin/api/v1/settings/api-clients", { host: ws.host, token, json: { name: "x", scopes: [] } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 403]);
    expect((await env.ARCHIVE.list({ prefix: `${ws.id}/` })).objects).toHaveLength(0);
  });

  it("archives under the platform prefix when there is no workspace", async () => {
    const res = await call("/platform/v1/workspaces", { token: ADMIN_TOKEN, json: { slug: uniqueSlug(), name: "A" } });
    const row = await auditRow(idOf(res));
    expect(String(row!.body_key)).toMatch(/^platform\//);
    expect(await env.ARCHIVE.head(String(row!.body_key))).not.toBeNull();
  });

  it("the refs table exists for the archive search", async () => {
    const ws = await createWorkspace();
    await env.DB.prepare("INSERT INTO request_refs (request_id, workspace_id, ref_type, ref_value) VALUES (?, ?, ?, ?)")
      .bind("r1", ws.id, "shipment_ref", "S-1")
      .run();
    const row = await env.DB.prepare("SELECT ref_type, ref_value, created_at FROM request_refs WHERE workspace_id = ?")
      .bind(ws.id)
      .first();
    expect(row).toMatchObject({ ref_type: "shipment_ref", ref_value: "S-1", created_at: expect.any(String) });
  });
});

describe("archive beside a compute route", () => {
  it("a compute POST's body is in R2 by the time its answer arrives", async () => {
    const { api } = await setup();
    const raw = '{"name": "Ünïcode  Trading", "type": "entity"}';
    const res = await api("/screen", { method: "POST", headers: { "content-type": "application/json" }, body: raw });
    // The screen lists are not loaded in this file: the answer is a 503, but the request was still archived.
    const row = await auditRow(idOf(res));
    expect(row).toMatchObject({ has_body: 1 });
    const obj = await env.ARCHIVE.get(String(row!.body_key));
    expect(await obj!.text()).toBe(raw);
  });

  it("if the archive fails, the answer is replaced by a 503 and the row says there is no body", async () => {
    const { api } = await setup();
    // Fault injection for one call: R2 cannot be made to fail on demand otherwise.
    const spy = vi.spyOn(env.ARCHIVE, "put").mockRejectedValueOnce(new Error("R2 unavailable"));
    try {
      const res = await api("/restrict", { json: { destination_country: "US", items: [{ title: "Cotton T-shirt" }] } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ success: false, error: "unavailable" });
      expect(await auditRow(idOf(res))).toMatchObject({ http_status: 503, has_body: 0 });
    } finally {
      spy.mockRestore();
    }
  });
});
