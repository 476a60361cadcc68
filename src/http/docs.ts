/**
 * The API reference: `/openapi.json` and the `/docs` page, and the CORS that lets the page's "Try it" call
 * the API from the docs origin.
 *
 * - The viewer (the @scalar/api-reference standalone bundle, pinned by the lockfile) is served by Workers
 *   Static Assets from this same origin (scripts/docs-assets.mjs puts it in public/docs/), so the page renders
 *   with no network beyond the API: offline, or behind a firewall that blocks CDNs. No web fonts are fetched.
 * - The document names its servers from the request's own host: workspace operations on
 *   `{scheme}://{workspace}.{host}` (a `workspace` variable the reader fills in), platform operations on the
 *   bare host itself (a per-path `servers` entry), so "Try it" sends each to the right host.
 * - CORS answers only the docs origin (the bare base host serving `/docs`, on the request's port), with the
 *   headers "Try it" needs; every other origin gets no CORS headers at all.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { Context } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import scalarPackage from "../../node_modules/@scalar/api-reference/package.json";
import type { AppEnv } from "../env";
import { completeContract, type OpenApiDoc } from "./contract";

/** Where scripts/docs-assets.mjs puts the viewer; versioned, so a browser never mixes two versions. */
export const VIEWER_PATH = `/docs/scalar-${scalarPackage.version}.js`;

const DESCRIPTION =
  "Consignments, HS classification, duty and tax calculation, restricted goods, denied-party screening, request archive and webhooks. " +
  "Workspace routes are served on `{slug}.{WORKSPACE_BASE_DOMAIN}`; the platform API on the bare host.";

/** The host the request came to, with its port, and its scheme. */
function hostOf(c: Context<AppEnv>): { scheme: string; host: string } {
  const url = new URL(c.req.url);
  const host = c.req.header("host") ?? url.host;
  return { scheme: url.protocol.replace(":", ""), host };
}

/** The bare host of a request made to it or to one of its workspaces: `demo.localhost:8787` → `localhost:8787`. */
function bareHost(c: Context<AppEnv>): string {
  const { host } = hostOf(c);
  const base = c.env.WORKSPACE_BASE_DOMAIN.toLowerCase();
  const [name = "", port] = host.toLowerCase().split(":");
  const bare = name === base || name.endsWith(`.${base}`) ? base : name;
  return port ? `${bare}:${port}` : bare;
}

export function mountDocs(app: OpenAPIHono<AppEnv>): void {
  app.get("/openapi.json", (c) => {
    const { scheme } = hostOf(c);
    const bare = bareHost(c);
    const doc = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "Trade Compliance API", version: "1.0.0", description: DESCRIPTION },
      servers: [
        {
          url: `${scheme}://{workspace}.${bare}`,
          description: "A workspace: its slug names the host",
          variables: { workspace: { default: "demo", description: "The workspace slug" } },
        },
      ],
    }) as unknown as OpenApiDoc;
    completeContract(doc);
    // The platform API lives on the bare host; its paths say so, so tools send them there.
    const platform = [{ url: `${scheme}://${bare}`, description: "The platform API (bare host)" }];
    const paths = doc.paths ?? {};
    for (const [path, item] of Object.entries(paths))
      if (path.startsWith("/platform/")) paths[path] = { ...item, servers: platform };
    return c.json(doc);
  });

  app.get(
    "/docs",
    Scalar({
      url: "/openapi.json",
      pageTitle: "Trade Compliance API reference",
      cdn: VIEWER_PATH,
      withDefaultFonts: false,
      // The viewer's own services stay off, so the page needs no network beyond this API and a reader's token
      // goes nowhere else. An empty proxy sends "Try it" straight to the API (CORS below); left unset, the
      // viewer may route requests to non-local hosts through proxy.scalar.com, bearer token included.
      proxyUrl: "",
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
    }),
  );
}

/** The origin of the docs page for a request to this deployment, on the request's port. */
function docsOrigin(c: Context<AppEnv>): string {
  return `${hostOf(c).scheme}://${bareHost(c)}`;
}

const corsForDocs = cors({
  origin: (origin) => origin,
  allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "X-D1-Bookmark"],
  exposeHeaders: [
    "X-Request-Id",
    "Server-Timing",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "Idempotent-Replayed",
    "ETag",
    "X-D1-Bookmark",
  ],
  maxAge: 600,
});

/**
 * CORS for the docs origin only: "Try it" from `/docs`. A request from any other origin (or none) passes
 * through untouched: no CORS headers, and an OPTIONS preflight gets the API's usual answer.
 */
export const docsCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("origin");
  if (origin && origin === docsOrigin(c)) return corsForDocs(c, next);
  await next();
});
