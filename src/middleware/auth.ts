/**
 * Bearer authentication for `{api}` routes, then the organization's `api` bucket. Order matters: a request
 * that fails authentication never spends the organization's quota (someone else's token guessing must not
 * starve a tenant), and a refused request is never processed.
 */
import { createMiddleware } from "hono/factory";
import { baseContext, serviceContextFor } from "../core/context";
import type { Decision } from "../engines/rate-limit/sliding-window";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../lib/errors";
import { hasScope, type Scope } from "../lib/scopes";
import { loadClientForAuth } from "../modules/api-clients/service";
import { verifyTokenCached } from "../modules/auth/tokens";
import { callerKey, hitBucket, rateLimited, rateLimitHeaders, routeChargesApi } from "./rate-limit";

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
  const base = baseContext(c.env, deps);
  const client = await loadClientForAuth({ ctx: base, input: { clientRowId: claims.sub } });
  if (!client || client.workspaceId !== workspace.id) throw unauthorized("Access token revoked");

  // The client's current scopes, narrowed to what the token asked for: amendments apply to live tokens.
  const requested = new Set(claims.scp.split(" "));
  const actor = {
    clientRowId: client.id,
    clientId: client.clientId,
    clientName: client.name,
    scopes: client.scopes.filter((s) => requested.has(s)),
    customerId: client.customerId,
  };
  c.set("auth", actor);
  // The one service context of a workspace request: every handler below hands it to its verb.
  c.set(
    "ctx",
    serviceContextFor(base, workspace, actor, { requestId: c.get("requestId"), startedAt: c.get("startedAt") }),
  );

  const apiOpts = { bucket: "api" as const, key: callerKey("api", workspace, client.customerId) };
  let decision: Decision | undefined;
  if (routeChargesApi(c)) {
    // The route's own bucket middleware charges both buckets in one call to the organization's object.
    c.set("apiCharge", { opts: apiOpts, decision: undefined });
  } else {
    decision = await hitBucket(c.env, workspace, apiOpts, now);
    if (!decision.allowed) throw rateLimited(decision, "this organization");
  }
  await next();
  // A request answered before its route's bucket middleware ran (a missing scope, an idempotent replay) is
  // still counted, after the fact, so the api bucket sees every authenticated request.
  decision ??= c.get("apiCharge")?.decision ?? (await hitBucket(c.env, workspace, apiOpts, now));
  // A 429 from a route's own bucket (consignment_create, classify_heavy…) already states that bucket: the
  // client must see the limit that refused it, not the `api` bucket's.
  if (c.res.status === 429 && c.res.headers.has("RateLimit-Limit")) return;
  for (const [k, v] of Object.entries(rateLimitHeaders(decision))) c.res.headers.set(k, v);
});

const PINNED_REFUSED =
  "Customer-pinned clients cannot use this operation: it reads or changes data beyond their customer";

/**
 * 403 `Missing scope: <scope>` unless the token carries it. Workspace settings (`settings:*`: webhooks,
 * flows, validation and country rules, API clients, the settings document) act on every customer of the
 * workspace, so a customer-pinned client is refused them whatever its scopes.
 */
export const requireScope = (scope: Scope) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const auth = c.get("auth");
    if (!hasScope(auth?.scopes ?? [], scope)) throw forbidden(`Missing scope: ${scope}`);
    if (scope.startsWith("settings:") && auth?.customerId != null) throw forbidden(PINNED_REFUSED);
    await next();
  });

/**
 * For organization-wide configuration reached under another scope (the HS blocklist, custom restriction
 * rules): 403 for a customer-pinned client, whose changes would alter every customer's answers.
 */
export const unpinned = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("auth")?.customerId != null) throw forbidden(PINNED_REFUSED);
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
