/**
 * Isolate side of the rate limiter. Every decision is the organization's Durable Object's, except in
 * RATE_LIMIT_MODE=lease (production), where an isolate may spend a short allowance the object reserved for
 * it while the organization is below half of a bucket's limit. Unused allowance is handed back on the next
 * call. Under `wrangler dev` and in tests the mode is `exact`: one DO call per decision.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { WorkspaceContext } from "../core/context";
import type { HitRequest, HitResult } from "../durable-objects/rate-limiter";
import type { BucketName } from "../engines/rate-limit/buckets";
import type { Decision } from "../engines/rate-limit/sliding-window";
import type { AppEnv } from "../env";
import { type ApiError, RateLimitedError } from "../lib/errors";

interface Allowance {
  remaining: number;
  expiresAt: number;
  windowStart: number;
  decision: Decision;
}

const allowances = new Map<string, Allowance>();

export interface HitOptions {
  bucket: BucketName;
  key: string;
  cost?: number;
  consume?: boolean;
}

/** Bucket key for an authenticated caller: customer-pinned clients count in a bucket of their own. */
export function callerKey(
  bucket: BucketName,
  workspace: WorkspaceContext,
  customerId: number | null | undefined,
): string {
  return customerId != null ? `${bucket}:customer:${workspace.id}:${customerId}` : bucket;
}

/**
 * Leases this isolate must hand back: unused allowance of a window it no longer spends from. Sent with the
 * next call to the Durable Object for the same key.
 */
const pendingRefunds = new Map<string, { windowStart: number; count: number }[]>();

function queueRefund(localKey: string, a: Allowance): void {
  if (a.remaining <= 0) return;
  const list = pendingRefunds.get(localKey) ?? [];
  list.push({ windowStart: a.windowStart, count: a.remaining });
  pendingRefunds.set(localKey, list);
}

/**
 * Keeps a lease the object granted. Concurrent misses in one isolate each come back with a lease: they are
 * added together (same window) or the older one is queued for refund, never overwritten. Overwriting lost the
 * older reservation, so concurrent traffic under the limit was refused (220 concurrent requests under a
 * limit of 200 let 139 through).
 */
function keepLease(localKey: string, res: HitResult): void {
  const held = allowances.get(localKey);
  if (held && held.windowStart === res.windowStart) {
    held.remaining += res.lease;
    held.expiresAt = Math.max(held.expiresAt, res.leaseExpiresAt);
    held.decision = res;
    return;
  }
  if (held) queueRefund(localKey, held);
  allowances.set(localKey, {
    remaining: res.lease,
    expiresAt: res.leaseExpiresAt,
    windowStart: res.windowStart,
    decision: res,
  });
}

/** A lease this isolate holds that covers `cost`: spent here, no call to the object. */
function spendLease(localKey: string, cost: number, nowMs: number): Decision | null {
  const a = allowances.get(localKey);
  if (a && a.expiresAt > nowMs && a.remaining >= cost) {
    a.remaining -= cost;
    return { ...a.decision, remaining: Math.max(0, a.decision.remaining + a.remaining) };
  }
  if (a) queueRefund(localKey, a);
  allowances.delete(localKey);
  return null;
}

/** What the object answered for one bucket, with the lease it granted kept (or spent on a refusal). */
function settle(localKey: string, res: HitResult, cost: number, lease: boolean, nowMs: number): Decision {
  if (res.lease > 0) keepLease(localKey, res);
  if (!res.allowed && lease) {
    // Refused while a concurrent call of this isolate brought back a lease: that reservation was counted for
    // this isolate's traffic, so spend it. Without this a burst waiting on the object saw its own isolate's
    // reservations as usage and was refused under the limit.
    const held = allowances.get(localKey);
    if (held && held.expiresAt > nowMs && held.remaining >= cost) {
      held.remaining -= cost;
      return { ...held.decision, allowed: true, retryAfterMs: 0, remaining: Math.max(0, held.remaining) };
    }
  }
  return res;
}

/**
 * Decides several buckets of one organization: each from this isolate's lease where it can (lease mode),
 * the rest in one call to the organization's object. Decisions come back in the order asked.
 */
async function hitBuckets(
  env: Env,
  workspace: WorkspaceContext,
  asked: HitOptions[],
  nowMs: number,
): Promise<Decision[]> {
  const out: (Decision | null)[] = [];
  const remote: { at: number; localKey: string; cost: number; lease: boolean; req: HitRequest }[] = [];
  for (const opts of asked) {
    const { limit, windowMs } = workspace.limits[opts.bucket];
    const cost = opts.cost ?? 1;
    const consume = opts.consume ?? true;
    const lease = env.RATE_LIMIT_MODE === "lease" && consume;
    const localKey = `${workspace.organizationId}|${opts.key}`;
    const local = lease ? spendLease(localKey, cost, nowMs) : null;
    out.push(local);
    if (local) continue;
    const refunds = pendingRefunds.get(localKey);
    pendingRefunds.delete(localKey);
    const req = { key: opts.key, limit, windowMs, cost, consume, lease, ...(refunds ? { refunds } : {}) };
    remote.push({ at: out.length - 1, localKey, cost, lease, req });
  }
  if (remote.length) {
    const ns = env.RATE_LIMITER;
    const stub = ns.get(ns.idFromName(workspace.organizationId));
    const [only] = remote;
    const results =
      remote.length === 1 && only ? [await stub.hit(only.req)] : await stub.hitMany(remote.map((r) => r.req));
    remote.forEach((r, k) => {
      const res = results[k];
      if (!res) throw new Error("rate limiter answered fewer buckets than asked");
      out[r.at] = settle(r.localKey, res, r.cost, r.lease, nowMs);
    });
  }
  return out.map((d) => {
    if (!d) throw new Error("rate limit decision missing");
    return d;
  });
}

export async function hitBucket(
  env: Env,
  workspace: WorkspaceContext,
  opts: HitOptions,
  nowMs: number,
): Promise<Decision> {
  const [decision] = await hitBuckets(env, workspace, [opts], nowMs);
  if (!decision) throw new Error("rate limit decision missing");
  return decision;
}

export function rateLimitHeaders(d: Decision): Record<string, string> {
  return {
    "RateLimit-Limit": String(d.limit),
    "RateLimit-Remaining": String(d.remaining),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(d.resetMs / 1000))),
  };
}

export function rateLimited(d: Decision, what: string): ApiError {
  const retry = Number.isFinite(d.retryAfterMs) ? Math.max(1, Math.ceil(d.retryAfterMs / 1000)) : 60;
  return new RateLimitedError(`Rate limit exceeded for ${what}; retry after ${retry} s`, {
    ...rateLimitHeaders(d),
    "Retry-After": String(retry),
  });
}

/** Marks a route's bucket middleware, so that bearerAuth can leave the `api` bucket to it (one object call). */
const ROUTE_BUCKET = Symbol("route bucket");

/**
 * True when the request's route applies a bucket of its own through `rateLimit`: the `api` bucket is then
 * charged by that middleware in the same call to the organization's object. Sub-app handlers may be wrapped
 * by Hono (the original under `__COMPOSED_HANDLER`), so both are looked at.
 */
export function routeChargesApi(c: Context<AppEnv>): boolean {
  return c.req.matchedRoutes.some((r) => {
    const h = r.handler as unknown as Record<string | symbol, unknown>;
    const inner = h.__COMPOSED_HANDLER as Record<symbol, unknown> | undefined;
    return Boolean(h[ROUTE_BUCKET] ?? inner?.[ROUTE_BUCKET]);
  });
}

/**
 * Route middleware for a bucket. `cost` may read the request (classify counts items). The `api` bucket is
 * applied once per request: here, in the same object call, when bearerAuth left it to the route (see
 * routeChargesApi), else by bearerAuth itself.
 */
export const rateLimit = (
  bucket: BucketName,
  cost?: (c: Parameters<Parameters<typeof createMiddleware<AppEnv>>[0]>[0]) => number | Promise<number>,
) => {
  const mw = createMiddleware<AppEnv>(async (c, next) => {
    const workspace = c.get("workspace");
    if (!workspace) return next();
    const customerId = c.get("auth")?.customerId;
    const own = { bucket, key: callerKey(bucket, workspace, customerId), cost: cost ? await cost(c) : 1 };
    const api = c.get("apiCharge");
    const now = c.get("deps").clock.now();
    if (api && !api.decision) {
      const [apiDecision, decision] = await hitBuckets(c.env, workspace, [api.opts, own], now);
      if (!apiDecision || !decision) throw new Error("rate limit decision missing");
      api.decision = apiDecision;
      if (!apiDecision.allowed) throw rateLimited(apiDecision, "this organization");
      if (!decision.allowed) throw rateLimited(decision, bucket);
      return next();
    }
    const decision = await hitBucket(c.env, workspace, own, now);
    if (!decision.allowed) throw rateLimited(decision, bucket);
    await next();
  });
  return Object.assign(mw, { [ROUTE_BUCKET]: bucket });
};
