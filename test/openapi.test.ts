import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { call } from "./helpers";

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
