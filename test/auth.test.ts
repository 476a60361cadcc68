/** Bearer authentication and scopes on {api} routes, with GET /me as the sample route. */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { systemIds } from "../src/lib/ids";
import { call, createClient, createWorkspace, getToken, insertCustomer, setup } from "./helpers";

const SECRET = "test-token-signing-secret-0123456789abcdef";

async function forge(claims: Record<string, unknown>, secret = SECRET) {
  const now = Math.floor(Date.now() / 1000);
  return sign(
    { sub: "apc_x", ws: "ws_x", cid: "ci_x", scp: "", iat: now, exp: now + 3600, jti: "j", ...claims },
    secret,
    "HS256",
  );
}

describe("bearer authentication", () => {
  it("401 with a WWW-Authenticate challenge when the token is missing", async () => {
    const ws = await createWorkspace();
    const res = await call("/admin/api/v1/me", { host: ws.host });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    expect(await res.json()).toMatchObject({ success: false, error: "unauthorized", message: "Missing bearer token" });
  });

  it.each([
    ["a non-Bearer scheme", "Basic abc"],
    ["an empty bearer", "Bearer "],
    ["a token with spaces", "Bearer a b c"],
  ])("401 invalid_request for %s", async (_n, authorization) => {
    const ws = await createWorkspace();
    const res = await call("/admin/api/v1/me", { host: ws.host, headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_request"');
  });

  it("401 for a garbage token and for a token signed with another key", async () => {
    const ws = await createWorkspace();
    for (const token of ["not-a-jwt", await forge({ ws: ws.id }, "some-other-secret")]) {
      const res = await call("/admin/api/v1/me", { host: ws.host, token });
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    }
  });

  it("401 for an expired token", async () => {
    const { ws, client } = await setup();
    const row = await env.DB.prepare("SELECT id, client_id FROM api_clients WHERE client_id = ?")
      .bind(client.clientId)
      .first<{ id: string; client_id: string }>();
    const past = Math.floor(Date.now() / 1000) - 7200;
    const token = await forge({
      sub: row!.id,
      ws: ws.id,
      cid: row!.client_id,
      scp: "settings:read",
      iat: past,
      exp: past + 3600,
    });
    const res = await call("/admin/api/v1/me", { host: ws.host, token });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Access token expired" });
  });

  it("401 for a token used on another workspace's subdomain", async () => {
    const { token } = await setup();
    const other = await createWorkspace();
    const res = await call("/admin/api/v1/me", { host: other.host, token });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Access token was issued for another workspace" });
  });

  it("401 for a token of a deleted (revoked) client, at once in this isolate", async () => {
    const { ws, client, api } = await setup();
    const victim = await createClient(ws, ["settings:read"]);
    const victimToken = await getToken(ws, victim);
    expect((await call("/admin/api/v1/me", { host: ws.host, token: victimToken })).status).toBe(200);
    expect((await api(`/settings/api-clients/${victim.id}`, { method: "DELETE" })).status).toBe(200);
    const res = await call("/admin/api/v1/me", { host: ws.host, token: victimToken });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Access token revoked" });
    expect(client.id).not.toBe(victim.id);
  });

  it("a change made elsewhere (another isolate) reaches this isolate within 60 s", async () => {
    // An app with its own clock: the caches age by this clock, so a minute can pass instantly.
    let now = Date.now();
    const app = createApp({ clock: { now: () => now }, ids: systemIds });
    const { ws, client, token } = await setup();
    const me = async () => {
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request(`http://${ws.host}/admin/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }),
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res.status;
    };
    expect(await me()).toBe(200);
    // Revoke behind the cache's back, as a deletion in another isolate would look from here.
    await env.DB.prepare("UPDATE api_clients SET deleted_at = ? WHERE client_id = ?")
      .bind(new Date().toISOString(), client.clientId)
      .run();
    now += 10_000;
    expect(await me()).toBe(200); // still cached: the documented staleness window
    now += 50_000;
    expect(await me()).toBe(401);
  });
});

describe("scopes", () => {
  it("403 'Missing scope: <scope>' when the token lacks the route's scope", async () => {
    const { api } = await setup(["consignments:read"]);
    const res = await api("/settings/api-clients");
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ success: false, message: "Missing scope: settings:read" });
  });

  it("settings:write implies settings:read", async () => {
    const { api } = await setup(["settings:write"]);
    expect((await api("/settings/api-clients")).status).toBe(200);
  });

  it("amended scopes apply to tokens already issued", async () => {
    const { ws, api } = await setup();
    const limited = await createClient(ws, ["settings:read"]);
    const token = await getToken(ws, limited);
    const asLimited = () => call("/admin/api/v1/settings/api-clients", { host: ws.host, token });
    expect((await asLimited()).status).toBe(200);
    expect(
      (await api(`/settings/api-clients/${limited.id}`, { method: "PATCH", json: { scopes: ["screen:read"] } })).status,
    ).toBe(200);
    expect((await asLimited()).status).toBe(403);
    // Adding a scope back is effective too, but never beyond what the token asked for at issue.
    expect(
      (
        await api(`/settings/api-clients/${limited.id}`, {
          method: "PATCH",
          json: { scopes: ["settings:read", "screen:read"] },
        })
      ).status,
    ).toBe(200);
    expect((await asLimited()).status).toBe(200);
  });
});

describe("GET /me", () => {
  it("returns workspace, client, scopes, customer and mode", async () => {
    const { ws, api, client } = await setup(["consignments:read", "screen:read"]);
    const res = await api("/me");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      message: "",
      workspace: { id: ws.id, slug: ws.slug, organization_id: ws.organizationId, mode: "live" },
      api_client: { id: client.id, client_id: client.clientId, name: "test client" },
      scopes: ["consignments:read", "screen:read"],
      customer: null,
      mode: "live",
    });
  });

  it("shows the pinned customer and the sandbox mode", async () => {
    const ws = await createWorkspace({ mode: "sandbox" });
    const customerId = await insertCustomer(ws, "Pinned Ltd");
    const token = await getToken(ws, await createClient(ws, ["consignments:read"], customerId));
    const res = await call("/admin/api/v1/me", { host: ws.host, token });
    expect(await res.json()).toMatchObject({ customer: { id: customerId, name: "Pinned Ltd" }, mode: "sandbox" });
  });
});
