/** Provisioning API (DESIGN §4) on the bare host. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, createWorkspace, insertCustomer, uniqueSlug } from "./helpers";

const post = (path: string, json: unknown, token: string | null = ADMIN_TOKEN) =>
  call(path, { token: token ?? undefined, json });

describe("POST /platform/v1/workspaces", () => {
  it("creates a workspace with a new organization", async () => {
    const slug = uniqueSlug();
    const res = await post("/platform/v1/workspaces", { slug, name: "Acme", mode: "sandbox" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { success: boolean; message: string; workspace: Record<string, string> };
    expect(body).toMatchObject({ success: true, message: expect.any(String) });
    expect(body.workspace).toEqual({
      id: expect.stringMatching(/^ws_[0-9a-f]{32}$/),
      slug,
      name: "Acme",
      mode: "sandbox",
      organization_id: expect.stringMatching(/^org_[0-9a-f]{32}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("defaults to live mode and joins an existing organization", async () => {
    const first = await createWorkspace();
    const res = await post("/platform/v1/workspaces", {
      slug: uniqueSlug(),
      name: "Second",
      organization_id: first.organizationId,
    });
    expect(res.status).toBe(201);
    const { workspace } = (await res.json()) as { workspace: { mode: string; organization_id: string } };
    expect(workspace.mode).toBe("live");
    expect(workspace.organization_id).toBe(first.organizationId);
  });

  it("409 on a duplicate slug, and nothing new is written", async () => {
    const ws = await createWorkspace();
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM organizations").first<{ n: number }>();
    const res = await post("/platform/v1/workspaces", { slug: ws.slug, name: "Dup" });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ success: false, error: "conflict" });
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM organizations").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("two concurrent creates of one slug: one 201, one 409, never a 500", async () => {
    const slug = uniqueSlug();
    const results = await Promise.all([
      post("/platform/v1/workspaces", { slug, name: "A" }),
      post("/platform/v1/workspaces", { slug, name: "B" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it("404 for an unknown organization_id", async () => {
    const res = await post("/platform/v1/workspaces", { slug: uniqueSlug(), name: "X", organization_id: "org_nope" });
    expect(res.status).toBe(404);
  });

  it.each([
    ["slug too short", { slug: "ab", name: "X" }, "slug"],
    ["slug with capitals", { slug: "Acme-1", name: "X" }, "slug"],
    ["slug with underscore", { slug: "acme_1", name: "X" }, "slug"],
    ["slug too long", { slug: "a".repeat(64), name: "X" }, "slug"],
    ["missing name", { slug: "valid-slug" }, "name"],
    ["wrong mode", { slug: "valid-slug", name: "X", mode: "prod" }, "mode"],
    ["name of the wrong type", { slug: "valid-slug", name: 42 }, "name"],
    ["unknown key", { slug: "valid-slug", name: "X", plan: "gold" }, ""],
  ])("400 when %s", async (_n, json, field) => {
    const res = await post("/platform/v1/workspaces", json);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { success: boolean; error: string; errors: { field: string }[] };
    expect(body).toMatchObject({ success: false, error: "validation_failed" });
    if (field) expect(body.errors.map((e) => e.field)).toContain(field);
  });

  it.each([
    ["no token", null],
    ["wrong token", "not-the-platform-token"],
  ])("401 with %s", async (_n, token) => {
    const res = await post("/platform/v1/workspaces", { slug: uniqueSlug(), name: "X" }, token);
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });

  it("is not served on a workspace host", async () => {
    const ws = await createWorkspace();
    const res = await call("/platform/v1/workspaces", {
      host: ws.host,
      token: ADMIN_TOKEN,
      json: { slug: uniqueSlug(), name: "X" },
    });
    expect(res.status).toBe(404);
  });

  it("a workspace access token is not a platform token", async () => {
    const ws = await createWorkspace();
    const { getToken, createClient } = await import("./helpers");
    const token = await getToken(ws, await createClient(ws));
    expect((await post("/platform/v1/workspaces", { slug: uniqueSlug(), name: "X" }, token)).status).toBe(401);
  });
});

describe("POST /platform/v1/workspaces/{slug}/api-clients", () => {
  it("creates a client whose secret is shown once and stored as SHA-256", async () => {
    const ws = await createWorkspace();
    const res = await post(`/platform/v1/workspaces/${ws.slug}/api-clients`, {
      name: "ERP",
      scopes: ["consignments:read"],
    });
    expect(res.status).toBe(201);
    const { api_client } = (await res.json()) as { api_client: Record<string, unknown> };
    expect(api_client).toMatchObject({
      id: expect.stringMatching(/^apc_/),
      client_id: expect.stringMatching(/^ci_/),
      client_secret: expect.stringMatching(/^cs_[A-Za-z0-9_-]{43}$/),
      scopes: ["consignments:read"],
      customer_id: null,
      created_at: expect.any(String),
    });
    const row = await env.DB.prepare("SELECT secret_hash FROM api_clients WHERE id = ?")
      .bind(api_client.id)
      .first<{ secret_hash: string }>();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(api_client.client_secret)));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(row!.secret_hash).toBe(hex);
  });

  it("pins a client to a customer of the workspace; 422 for an unknown or foreign customer", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    const customerId = await insertCustomer(ws);
    const foreign = await insertCustomer(other);
    const ok = await post(`/platform/v1/workspaces/${ws.slug}/api-clients`, {
      name: "Shop",
      scopes: [],
      customer_id: customerId,
    });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { api_client: { customer_id: number } }).api_client.customer_id).toBe(customerId);
    expect(
      (await post(`/platform/v1/workspaces/${ws.slug}/api-clients`, { name: "Shop", scopes: [], customer_id: foreign }))
        .status,
    ).toBe(422);
    expect(
      (await post(`/platform/v1/workspaces/${ws.slug}/api-clients`, { name: "Shop", scopes: [], customer_id: 999999 }))
        .status,
    ).toBe(422);
  });

  it("404 for an unknown workspace; 400 for an unknown scope; 401 without the token", async () => {
    const ws = await createWorkspace();
    expect((await post(`/platform/v1/workspaces/no-such-ws/api-clients`, { name: "X", scopes: [] })).status).toBe(404);
    const bad = await post(`/platform/v1/workspaces/${ws.slug}/api-clients`, { name: "X", scopes: ["admin:all"] });
    expect(bad.status).toBe(400);
    expect((await post(`/platform/v1/workspaces/${ws.slug}/api-clients`, { name: "X", scopes: [] }, null)).status).toBe(
      401,
    );
  });
});

describe("PATCH /platform/v1/workspaces/{slug}", () => {
  it("renames and sets rate-limit overrides, returning the effective limits", async () => {
    const ws = await createWorkspace();
    const res = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { name: "Renamed", rate_limits: { api: { limit: 5000, window_seconds: 10 } } },
    });
    expect(res.status).toBe(200);
    const { workspace } = (await res.json()) as { workspace: { name: string; rate_limits: Record<string, unknown> } };
    expect(workspace.name).toBe("Renamed");
    expect(workspace.rate_limits).toEqual({
      api: { limit: 5000, window_seconds: 10 },
      consignment_create: { limit: 300, window_seconds: 10 },
      classify_heavy: { limit: 120, window_seconds: 60 },
      heavy: { limit: 60, window_seconds: 60 },
      public_ip: { limit: 120, window_seconds: 60 },
      sign_in_ip: { limit: 10, window_seconds: 60 },
    });
  });

  it.each([
    ["unknown bucket", { rate_limits: { everything: { limit: 1, window_seconds: 1 } } }],
    ["zero limit", { rate_limits: { api: { limit: 0, window_seconds: 10 } } }],
    ["fractional window", { rate_limits: { api: { limit: 10, window_seconds: 1.5 } } }],
    ["empty name", { name: "" }],
  ])("400 for %s", async (_n, json) => {
    const ws = await createWorkspace();
    const res = await call(`/platform/v1/workspaces/${ws.slug}`, { method: "PATCH", token: ADMIN_TOKEN, json });
    expect(res.status).toBe(400);
  });

  it("404 for an unknown workspace", async () => {
    const res = await call(`/platform/v1/workspaces/nope-nope`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { name: "X" },
    });
    expect(res.status).toBe(404);
  });
});
