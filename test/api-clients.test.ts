/** {api}/settings/api-clients: happy paths, validation, security. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createClient, getToken, insertCustomer, setup } from "./helpers";

interface Client {
  id: string;
  client_id: string;
  name: string;
  scopes: string[];
  customer_id: number | null;
  client_secret?: string;
}

describe("settings/api-clients", () => {
  it("create → secret once → sign in → list (no secret) → get → update → delete", async () => {
    const { api, ws } = await setup();
    const created = await api("/settings/api-clients", { json: { name: "Warehouse", scopes: ["consignments:read"] } });
    expect(created.status).toBe(201);
    const { api_client } = (await created.json()) as { api_client: Client };
    expect(api_client.client_secret).toMatch(/^cs_/);
    await getToken(ws, { id: api_client.id, clientId: api_client.client_id, clientSecret: api_client.client_secret! });

    const list = (await (await api("/settings/api-clients")).json()) as { api_clients: Client[]; has_more: boolean };
    expect(list.api_clients.map((c) => c.id)).toContain(api_client.id);
    expect(JSON.stringify(list)).not.toContain("client_secret");
    expect(JSON.stringify(list)).not.toContain("secret_hash");

    const got = (await (await api(`/settings/api-clients/${api_client.id}`)).json()) as { api_client: Client };
    expect(got.api_client).toMatchObject({ name: "Warehouse", scopes: ["consignments:read"] });

    const updated = await api(`/settings/api-clients/${api_client.id}`, {
      method: "PATCH",
      json: { name: "WMS", scopes: ["consignments:read", "consignments:write"] },
    });
    expect(((await updated.json()) as { api_client: Client }).api_client).toMatchObject({
      name: "WMS",
      scopes: ["consignments:read", "consignments:write"],
    });

    const deleted = await api(`/settings/api-clients/${api_client.id}`, { method: "DELETE" });
    expect(await deleted.json()).toMatchObject({ success: true, deleted: true, id: api_client.id });
    expect((await api(`/settings/api-clients/${api_client.id}`)).status).toBe(404);
    const after = (await (await api("/settings/api-clients")).json()) as { api_clients: Client[] };
    expect(after.api_clients.map((c) => c.id)).not.toContain(api_client.id);
  });

  it("pages newest first with a keyset cursor", async () => {
    const { api, ws } = await setup();
    for (let i = 0; i < 4; i++) await createClient(ws, ["screen:read"]);
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const res = (await (
        await api(`/settings/api-clients?limit=2${cursor ? `&starting_after=${cursor}` : ""}`)
      ).json()) as { api_clients: Client[]; has_more: boolean };
      seen.push(...res.api_clients.map((c) => c.id));
      if (!res.has_more) break;
      cursor = res.api_clients.at(-1)!.id;
    }
    expect(seen).toHaveLength(5);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it.each([
    ["limit=0", "limit=0"],
    ["limit=101", "limit=101"],
    ["limit=abc", "limit=abc"],
  ])("400 for %s", async (_n, q) => {
    const { api } = await setup();
    expect((await api(`/settings/api-clients?${q}`)).status).toBe(400);
  });

  it.each([
    ["an unknown scope", { name: "x", scopes: ["root"] }],
    ["missing scopes", { name: "x" }],
    ["a blank name", { name: "  ", scopes: [] }],
    ["a negative customer id", { name: "x", scopes: [], customer_id: -1 }],
  ])("400 for %s", async (_n, json) => {
    const { api } = await setup();
    expect((await api("/settings/api-clients", { json })).status).toBe(400);
  });

  it("cannot grant scopes the caller does not hold", async () => {
    const { api } = await setup(["settings:write", "screen:read"]);
    const res = await api("/settings/api-clients", {
      json: { name: "x", scopes: ["screen:read", "consignments:write"] },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      message: "Cannot grant scopes this client does not hold: consignments:write",
    });
  });

  it("customer-pinned clients cannot manage clients", async () => {
    const { ws } = await setup();
    const customerId = await insertCustomer(ws);
    const pinned = await createClient(ws, ["settings:write", "settings:read"], customerId);
    const token = await getToken(ws, pinned);
    const res = await call("/admin/api/v1/settings/api-clients", {
      host: ws.host,
      token,
      json: { name: "x", scopes: [] },
    });
    expect(res.status).toBe(403);
  });

  it("another workspace's client is a 404 for read, update and delete, and stays intact", async () => {
    const mine = await setup();
    const theirs = await setup();
    for (const [method, json] of [
      ["GET", undefined],
      ["PATCH", { name: "pwned" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await mine.api(`/settings/api-clients/${theirs.client.id}`, { method, json });
      expect(res.status).toBe(404);
    }
    const row = await env.DB.prepare("SELECT name, deleted_at FROM api_clients WHERE id = ?")
      .bind(theirs.client.id)
      .first();
    expect(row).toEqual({ name: "test client", deleted_at: null });
    const list = (await (await mine.api("/settings/api-clients")).json()) as { api_clients: Client[] };
    expect(list.api_clients.map((c) => c.id)).not.toContain(theirs.client.id);
  });

  describe("a client manages only clients within its own scopes", () => {
    const clientRow = (id: string) =>
      env.DB.prepare("SELECT name, scopes, deleted_at FROM api_clients WHERE id = ?").bind(id).first();

    it("a settings:write-only client cannot amend, strip or delete a client holding consignments:write", async () => {
      const { api, ws } = await setup(["settings:write"]);
      const target = await createClient(ws, ["consignments:read", "consignments:write"]);
      const before = await clientRow(target.id);
      for (const [method, json] of [
        ["PATCH", { scopes: [] }],
        ["PATCH", { name: "renamed" }],
        ["DELETE", undefined],
      ] as const) {
        const res = await api(`/settings/api-clients/${target.id}`, { method, json });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({
          success: false,
          error: "forbidden",
          message:
            "Cannot manage an API client holding scopes this client does not hold: consignments:read, consignments:write",
        });
      }
      expect(await clientRow(target.id)).toEqual(before);
      // The untouched client still signs in and keeps its reach.
      const token = await getToken(ws, target);
      expect((await call("/admin/api/v1/me", { host: ws.host, token })).status).toBe(200);
    });

    it("manages a client whose scopes are a subset of its own (settings:write covers settings:read)", async () => {
      const { api, ws } = await setup(["settings:write", "screen:read"]);
      const target = await createClient(ws, ["settings:read"]);
      const renamed = await api(`/settings/api-clients/${target.id}`, { method: "PATCH", json: { name: "Reader" } });
      expect(renamed.status).toBe(200);
      const widened = await api(`/settings/api-clients/${target.id}`, {
        method: "PATCH",
        json: { scopes: ["settings:read", "screen:read"] },
      });
      expect(widened.status).toBe(200);
      expect(((await widened.json()) as { api_client: Client }).api_client).toMatchObject({
        name: "Reader",
        scopes: ["settings:read", "screen:read"],
      });
      const deleted = await api(`/settings/api-clients/${target.id}`, { method: "DELETE" });
      expect(deleted.status).toBe(200);
      expect(await clientRow(target.id)).toMatchObject({ deleted_at: expect.any(String) });

      const created = await api("/settings/api-clients", { json: { name: "Reader 2", scopes: ["settings:read"] } });
      expect(created.status).toBe(201);
    });

    it("cannot widen a manageable client beyond its own scopes", async () => {
      const { api, ws } = await setup(["settings:write", "screen:read"]);
      const target = await createClient(ws, ["screen:read"]);
      const res = await api(`/settings/api-clients/${target.id}`, {
        method: "PATCH",
        json: { scopes: ["screen:read", "consignments:write"] },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        message: "Cannot grant scopes this client does not hold: consignments:write",
      });
      expect(await clientRow(target.id)).toMatchObject({ scopes: JSON.stringify(["screen:read"]) });
    });

    it("judges by the token's scopes: a token narrowed to settings:write cannot delete a broader client", async () => {
      const { ws, client } = await setup();
      const target = await createClient(ws, ["consignments:write"]);
      const narrow = await getToken(ws, client, { scope: "settings:write" });
      const res = await call(`/admin/api/v1/settings/api-clients/${target.id}`, {
        host: ws.host,
        token: narrow,
        method: "DELETE",
      });
      expect(res.status).toBe(403);
      expect(await clientRow(target.id)).toMatchObject({ deleted_at: null });
    });
  });
});
