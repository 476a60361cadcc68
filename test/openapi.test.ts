import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { VIEWER_PATH } from "../src/http/docs";
import { call, setup } from "./helpers";

describe("API reference", () => {
  it("serves an OpenAPI 3.1 document generated from the route schemas", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    for (const path of [
      "/admin/oauth2/token",
      "/admin/api/v1/me",
      "/admin/api/v1/settings/api-clients",
      "/admin/api/v1/settings/api-clients/{id}",
      "/platform/v1/workspaces",
      "/platform/v1/workspaces/{slug}",
      "/platform/v1/workspaces/{slug}/api-clients",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(doc.paths["/admin/api/v1/settings/api-clients"]!.post!.security).toEqual([{ oauth2: ["settings:write"] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(["oauth2", "platformAdmin"]));
  });

  it("documents every mounted API route", async () => {
    const doc = (await (await call("/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    const routes = createApp().routes.filter((r) => r.method !== "ALL" && /^\/(admin|api|platform)\//.test(r.path));
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes
      .map((r) => ({ method: r.method.toLowerCase(), path: r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}") }))
      .filter((r) => !doc.paths[r.path]?.[r.method]);
    expect(missing).toEqual([]);
  });

  it("serves the reference page at /docs", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("/openapi.json");
  });
});

describe("docs that work anywhere", () => {
  it("/docs loads its viewer from this origin, pinned, and fetches no web fonts", async () => {
    const html = await (await call("/docs")).text();
    expect(html).toContain(`<script src="${VIEWER_PATH}"`);
    expect(VIEWER_PATH).toMatch(/^\/docs\/scalar-\d+\.\d+\.\d+\.js$/);
    // No script, stylesheet or font from another host.
    expect(html).not.toMatch(/(src|href)="https?:\/\//);
    expect(html).toContain('"withDefaultFonts": false');
    // Try it goes straight to the API, never through the viewer vendor's proxy; its hosted services stay off.
    expect(html).toContain('"proxyUrl": ""');
    expect(html).toContain('"telemetry": false');
    expect(html).toMatch(/"agent": \{\s*"disabled": true/);
  });

  it("names a workspace server with a variable, and the bare host for platform paths, from the request's host", async () => {
    const doc = (await (await call("/openapi.json", { host: "localhost:8787" })).json()) as {
      servers: { url: string; variables: Record<string, { default: string }> }[];
      paths: Record<string, { servers?: { url: string }[] }>;
    };
    expect(doc.servers[0]).toMatchObject({
      url: "http://{workspace}.localhost:8787",
      variables: { workspace: { default: "demo" } },
    });
    expect(doc.paths["/platform/v1/workspaces"]!.servers).toEqual([
      expect.objectContaining({ url: "http://localhost:8787" }),
    ]);
    expect(doc.paths["/admin/api/v1/me"]!.servers).toBeUndefined();
  });

  it("answers a preflight from the docs origin, before any auth, and allows the headers Try it sends", async () => {
    const res = await call("/admin/api/v1/consignments", {
      method: "OPTIONS",
      host: "demo.localhost:8787",
      headers: {
        origin: "http://localhost:8787",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:8787");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("exposes the response headers to the docs origin on real requests", async () => {
    const { ws, token } = await setup();
    const res = await call("/admin/api/v1/me", { host: ws.host, token, headers: { origin: "http://localhost" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
  });

  it.each([["https://evil.example"], ["http://demo.localhost:8787"], ["http://localhost:9999"], ["null"]])(
    "gives no CORS to any other origin (%s)",
    async (origin) => {
      const pre = await call("/admin/api/v1/consignments", {
        method: "OPTIONS",
        host: "demo.localhost:8787",
        headers: { origin, "access-control-request-method": "POST" },
      });
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      expect(pre.status).not.toBe(204);
      const { ws, token } = await setup();
      const res = await call("/admin/api/v1/me", { host: ws.host, token, headers: { origin } });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    },
  );
});
