/**
 * Bearer authentication for `{api}` routes, then the organization's `api` bucket. Order matters: a request
 * that fails authentication never spends the organization's quota (someone else's token guessing must not
 * starve a tenant), and a refused request is never processed.
 */
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../lib/errors";
import { type Scope, hasScope, isScope } from "../lib/scopes";
import { loadClientForAuth } from "../modules/api-clients/service";
import { verifyTokenCached } from "../modules/auth/tokens";
import { callerKey, hitBucket, rateLimitHeaders, rateLimited } from "./rate-limit";

const BEARER_RE = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export const bearerAuth = createMiddleware<AppEnv>(async (c, next) => {
  const workspace = c.get("workspace");
  if (!workspace) throw unauthorized("No workspace", "invalid_request");
  const header = c.req.header("authorization");
  if (!header) throw unauthorized("Missing bearer token", null);
  const match = BEARER_RE.exec(header);
  if (!match?.[1]) throw unauthorized("Malformed Authorization header: expected 'Bearer <token>'", "invalid_request");

  const deps = c.get("deps");
  const now = deps.clock.now();
  const verified = await verifyTokenCached(c.env.TOKEN_SIGNING_SECRET, match[1], now);
  if (!verified.ok) {
    throw unauthorized(verified.reason === "expired" ? "Access token expired" : "Invalid access token");
  }
  const { claims } = verified;
  if (claims.ws !== workspace.id) throw unauthorized("Access token was issued for another workspace");
  const client = await loadClientForAuth({ db: createDb(c.env.DB), deps }, claims.sub);
  if (!client || client.workspaceId !== workspace.id) throw unauthorized("Access token revoked");

  // The client's current scopes, narrowed to what the token asked for: amendments apply to live tokens.
  const requested = new Set(claims.scp.split(" "));
  c.set("auth", {
    clientRowId: client.id,
    clientId: client.clientId,
    clientName: client.name,
    scopes: client.scopes.filter((s) => requested.has(s)),
    customerId: client.customerId,
  });

  const decision = await hitBucket(c.env, workspace, { bucket: "api", key: callerKey("api", workspace, client.customerId) }, now);
  if (!decision.allowed) throw rateLimited(decision, "this organization");
  await next();
  for (const [k, v] of Object.entries(rateLimitHeaders(decision))) c.res.headers.set(k, v);
});

/** 403 `Missing scope: <scope>` unless the token carries it. */
export const requireScope = (scope: Scope) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const granted = c.get("auth")?.scopes ?? [];
    if (!hasScope(granted, scope)) throw forbidden(`Missing scope: ${scope}`);
    await next();
  });

/** Operator routes: `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`, compared in constant time. */
export const platformAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = BEARER_RE.exec(header);
  const expected = c.env.PLATFORM_ADMIN_TOKEN;
  if (!match?.[1] || !expected) throw unauthorized("Platform admin token required", match ? "invalid_token" : null);
  const a = new TextEncoder().encode(match[1]);
  const b = new TextEncoder().encode(expected);
  if (a.byteLength !== b.byteLength || !crypto.subtle.timingSafeEqual(a, b)) {
    throw unauthorized("Platform admin token required");
  }
  c.set("platformAdmin", true);
  await next();
});

export { isScope };
