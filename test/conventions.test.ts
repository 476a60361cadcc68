/** Wire conventions: the envelope, every error as JSON, X-Request-Id everywhere. */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import worker from "../src/index";
import { MAX_BODY_BYTES } from "../src/middleware/archive";
import { ADMIN_TOKEN, auditRow, call, createWorkspace, setup } from "./helpers";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function expectJsonError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("X-Request-Id")).toMatch(UUID_V7);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    success: false,
    error,
    message: expect.any(String),
    request_id: res.headers.get("X-Request-Id"),
  });
  return body;
}

describe("errors are JSON with the envelope", () => {
  it("400 for malformed JSON, and nothing is created", async () => {
    const { api } = await setup();
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_clients").first<{ n: number }>();
    const res = await api("/settings/api-clients", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name": "x", "scopes": [',
    });
    await expectJsonError(res, 400, "invalid_json");
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_clients").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("400 with field errors for wrong types", async () => {
    const { api } = await setup();
    const res = await api("/settings/api-clients", { json: { name: ["x"], scopes: "settings:read" } });
    const body = await expectJsonError(res, 400, "validation_failed");
    expect((body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(["name", "scopes"]);
  });

  it("404 for an unknown route on every host", async () => {
    const { api } = await setup();
    await expectJsonError(await api("/no-such-thing"), 404, "not_found");
    await expectJsonError(await call("/nothing-here"), 404, "not_found");
  });

  it("404 for workspace routes on the bare host", async () => {
    await expectJsonError(await call("/admin/api/v1/me"), 404, "not_found");
  });

  it("405 with Allow for a wrong method", async () => {
    const { api } = await setup();
    const res = await api("/me", { method: "DELETE" });
    await expectJsonError(res, 405, "method_not_allowed");
    expect(res.headers.get("Allow")).toBe("GET, HEAD");
    const platform = await call("/platform/v1/workspaces", { method: "GET", token: ADMIN_TOKEN });
    await expectJsonError(platform, 405, "method_not_allowed");
    expect(platform.headers.get("Allow")).toBe("POST");
  });

  it("413 for a body over the limit, by Content-Length and by actual size", async () => {
    const { api } = await setup();
    const big = "x".repeat(MAX_BODY_BYTES + 1);
    const res = await api("/settings/api-clients", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: big, scopes: [] }),
    });
    await expectJsonError(res, 413, "payload_too_large");
    // A stream without Content-Length is measured as it is read.
    const stream = new Blob([big]).stream();
    const chunked = await api("/settings/api-clients", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
    });
    await expectJsonError(chunked, 413, "payload_too_large");
  });

  it("415 for a non-JSON content type on a JSON route", async () => {
    const { api } = await setup();
    const res = await api("/settings/api-clients", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: '{"name":"x","scopes":[]}',
    });
    await expectJsonError(res, 415, "unsupported_media_type");
  });

  it("500 for an uncaught error, without the stack or the error's text", async () => {
    const app = createApp();
    app.get("/boom", () => {
      throw new Error("db password is hunter2");
    });
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request("http://localhost/boom"), env, ctx);
    await waitOnExecutionContext(ctx);
    const body = await expectJsonError(res, 500, "internal_error");
    expect(JSON.stringify(body)).not.toContain("hunter2");
    expect(JSON.stringify(body)).not.toContain("at ");
    const row = await auditRow(res.headers.get("X-Request-Id")!);
    expect(row).toMatchObject({
      http_status: 500,
      outcome: "failed",
      error_summary: "internal_error: Internal server error",
    });
  });
});

describe("X-Request-Id", () => {
  it("is a fresh UUIDv7 on every response: success, errors, health, docs", async () => {
    const { api, ws } = await setup();
    const responses = [
      await api("/me"),
      await api("/nope"),
      await call("/admin/api/v1/me", { host: ws.host }),
      await call("/admin/api/v1/me", { host: "unknown-ws.localhost" }),
      await call("/health"),
      await call("/openapi.json"),
    ];
    const ids = responses.map((r) => r.headers.get("X-Request-Id"));
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("success envelope", () => {
  it("carries success and message beside the payload, snake_case keys", async () => {
    const ws = await createWorkspace();
    const res = await call(`/platform/v1/workspaces/${ws.slug}`, {
      method: "PATCH",
      token: ADMIN_TOKEN,
      json: { name: "N" },
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.success).toBe(true);
    expect(typeof body.message).toBe("string");
    const keys = JSON.stringify(body).match(/"([A-Za-z_]+)":/g) ?? [];
    for (const k of keys) expect(k).toMatch(/^"[a-z0-9_]+":$/);
  });
});

describe("naming the workspace without a subdomain (development only)", () => {
  it("X-Workspace on the bare host names the workspace while ENVIRONMENT is development", async () => {
    const { ws, client } = await setup();
    const issued = await call("/admin/oauth2/token", {
      headers: { "x-workspace": ws.slug, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }).toString(),
    });
    expect(issued.status).toBe(200);
    const { access_token: token } = (await issued.json()) as { access_token: string };
    const res = await call("/admin/api/v1/me", { token, headers: { "x-workspace": ws.slug } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { workspace: { slug: string } }).workspace.slug).toBe(ws.slug);
  });

  it("is ignored in production: the bare host has no workspace routes", async () => {
    const { ws, token } = await setup();
    const request = new Request("http://localhost/admin/api/v1/me", {
      headers: { host: "localhost", authorization: `Bearer ${token}`, "x-workspace": ws.slug },
    });
    const ctx = createExecutionContext();
    const production = { ...env, ENVIRONMENT: "production" } as Env;
    const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, production, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(404);
  });

  it("/health says which service answers", async () => {
    expect(await (await call("/health")).json()).toEqual({ status: "ok", service: "trade-compliance-api" });
  });
});
