/** POST {base_url}/admin/oauth2/token (RFC 6749 §4.4). */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { auditRow, call, createClient, createWorkspace, type TestClient, type TestWorkspace } from "./helpers";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

function tokenRequest(ws: TestWorkspace, params: Record<string, string>, headers: Record<string, string> = {}) {
  return call("/admin/oauth2/token", {
    host: ws.host,
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(params).toString(),
  });
}

const creds = (c: TestClient) => ({
  grant_type: "client_credentials",
  client_id: c.clientId,
  client_secret: c.clientSecret,
});

describe("token endpoint", () => {
  it("issues a bearer token for good credentials, with no-store caching", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws, ["consignments:read", "screen:read"]);
    const res = await tokenRequest(ws, creds(client));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "consignments:read screen:read" });
    expect(String(body.access_token).split(".")).toHaveLength(3);
    const me = await call("/admin/api/v1/me", { host: ws.host, token: String(body.access_token) });
    expect(me.status).toBe(200);
  });

  it("accepts HTTP Basic client authentication", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const basic = btoa(`${client.clientId}:${client.clientSecret}`);
    const res = await tokenRequest(ws, { grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
  });

  it("rejects credentials sent both ways at once", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const basic = btoa(`${client.clientId}:${client.clientSecret}`);
    const res = await tokenRequest(ws, creds(client), { authorization: `Basic ${basic}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: "invalid_request" });
  });

  it("narrows the token to a requested scope subset; invalid_scope beyond the client's", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws, ["consignments:read", "screen:read"]);
    const narrowed = await tokenRequest(ws, { ...creds(client), scope: "screen:read" });
    expect(((await narrowed.json()) as { scope: string }).scope).toBe("screen:read");
    const wider = await tokenRequest(ws, { ...creds(client), scope: "screen:read settings:write" });
    expect(wider.status).toBe(400);
    expect(await wider.json()).toMatchObject({ error: "invalid_scope" });
  });

  it.each([
    ["wrong secret", (c: TestClient) => ({ ...creds(c), client_secret: "cs_wrong" })],
    ["unknown client", (c: TestClient) => ({ ...creds(c), client_id: "ci_unknown" })],
    ["missing secret", (c: TestClient) => ({ grant_type: "client_credentials", client_id: c.clientId })],
  ])("401 invalid_client for a %s, inside the envelope", async (_n, params) => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const res = await tokenRequest(ws, params(client));
    expect(res.status).toBe(401);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ success: false, error: "invalid_client", message: expect.any(String) });
  });

  it("a client of another workspace cannot sign in here", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    const client = await createClient(other);
    expect((await tokenRequest(ws, creds(client))).status).toBe(401);
  });

  it.each([
    ["missing grant_type", {}, "invalid_request"],
    ["wrong grant_type", { grant_type: "password" }, "unsupported_grant_type"],
  ])("400 for %s", async (_n, params, error) => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const { grant_type: _g, ...rest } = creds(client);
    const res = await tokenRequest(ws, { ...rest, ...params });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error });
  });

  it("415 for a body that is neither form-encoded nor JSON; JSON bodies are accepted", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const xml = await call("/admin/oauth2/token", {
      host: ws.host,
      headers: { "content-type": "text/xml" },
      body: "<x/>",
    });
    expect(xml.status).toBe(415);
    const json = await call("/admin/oauth2/token", { host: ws.host, json: creds(client) });
    expect(json.status).toBe(200);
  });

  it("limits failed attempts per IP to 10 per 60 s; other IPs and good credentials from them are unaffected", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const bad = { ...creds(client), client_secret: "cs_wrong" };
    const ip = { "cf-connecting-ip": "203.0.113.7" };
    for (let i = 0; i < 10; i++) expect((await tokenRequest(ws, bad, ip)).status).toBe(401);
    const blocked = await tokenRequest(ws, creds(client), ip);
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ error: "rate_limited", message: expect.any(String) });
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await tokenRequest(ws, creds(client), { "cf-connecting-ip": "203.0.113.8" })).status).toBe(200);
  });

  it("successful sign-ins do not count as failures", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const ip = { "cf-connecting-ip": "198.51.100.1" };
    for (let i = 0; i < 12; i++) expect((await tokenRequest(ws, creds(client), ip)).status).toBe(200);
  });

  it("is audited but its body (which holds the secret) is never archived", async () => {
    const ws = await createWorkspace();
    const client = await createClient(ws);
    const res = await tokenRequest(ws, creds(client));
    const row = await auditRow(res.headers.get("X-Request-Id")!);
    expect(row).toMatchObject({
      route: "/admin/oauth2/token",
      method: "POST",
      http_status: 200,
      has_body: 0,
      body_key: null,
    });
    const listed = await env.ARCHIVE.list({ prefix: `${ws.id}/` });
    expect(listed.objects).toHaveLength(0);
  });

  it("404 for an unknown workspace subdomain", async () => {
    const res = await call("/admin/oauth2/token", {
      host: "no-such-workspace.localhost",
      headers: FORM,
      body: "grant_type=client_credentials",
    });
    expect(res.status).toBe(404);
  });
});
