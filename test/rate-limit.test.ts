/**
 * The rate limiter through the real Durable Object, and through HTTP as clients see it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WorkspaceContext } from "../src/core/context";
import { effectiveLimits } from "../src/engines/rate-limit/buckets";
import { hitBucket } from "../src/middleware/rate-limit";
import {
  ADMIN_TOKEN,
  auditRow,
  call,
  createClient,
  createWorkspace,
  getToken,
  insertCustomer,
  sampleConsignment,
} from "./helpers";

const stubFor = (org: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(org));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const freshOrg = () => `org_test_${Date.now()}_${n++}`;

async function setLimits(slug: string, rate_limits: Record<string, { limit: number; window_seconds: number }>) {
  const res = await call(`/platform/v1/workspaces/${slug}`, {
    method: "PATCH",
    token: ADMIN_TOKEN,
    json: { rate_limits },
  });
  expect(res.status).toBe(200);
}

describe("RateLimiter Durable Object", () => {
  it("allows N, refuses N+1 with a retry time, and allows again after the window slides", async () => {
    const stub = stubFor(freshOrg());
    const req = { key: "api", limit: 5, windowMs: 1000 };
    for (let i = 0; i < 5; i++) expect((await stub.hit(req)).allowed).toBe(true);
    const refused = await stub.hit(req);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(2000);
    await sleep(refused.retryAfterMs + 5);
    expect((await stub.hit(req)).allowed).toBe(true);
  });

  it("keeps keys apart inside one organization and organizations apart from each other", async () => {
    const org = stubFor(freshOrg());
    const other = stubFor(freshOrg());
    const req = { key: "api", limit: 2, windowMs: 60_000 };
    await org.hit(req);
    await org.hit(req);
    expect((await org.hit(req)).allowed).toBe(false);
    expect((await org.hit({ ...req, key: "api:customer:ws_x:1" })).allowed).toBe(true);
    expect((await other.hit(req)).allowed).toBe(true);
  });

  it("peek does not count", async () => {
    const stub = stubFor(freshOrg());
    const req = { key: "sign_in_ip:1.2.3.4", limit: 1, windowMs: 60_000 };
    for (let i = 0; i < 3; i++) expect((await stub.hit({ ...req, consume: false })).allowed).toBe(true);
    expect((await stub.hit(req)).allowed).toBe(true);
    expect((await stub.hit({ ...req, consume: false })).allowed).toBe(false);
  });

  it("grants leases only far below the limit, reserves them, and takes refunds", async () => {
    const stub = stubFor(freshOrg());
    const req = { key: "api", limit: 1000, windowMs: 60_000, lease: true };
    const first = await stub.hit(req);
    expect(first.allowed).toBe(true);
    expect(first.lease).toBe(50);
    // The lease is reserved: the object already counts 1 + 50.
    expect(first.remaining).toBe(1000 - 51);
    const afterRefund = await stub.hit({ ...req, lease: false, refund: { windowStart: first.windowStart, count: 50 } });
    expect(afterRefund.remaining).toBe(1000 - 2);
    // Near the limit no lease is granted.
    const small = await stub.hit({ key: "sign_in_ip:x", limit: 10, windowMs: 60_000, lease: true });
    expect(small.lease).toBe(0);
  });
});

describe("rate limits over HTTP", () => {
  it("refuses request N+1 with 429 {error, message}, Retry-After, RateLimit-* and X-Request-Id, and audits it", async () => {
    const ws = await createWorkspace();
    await setLimits(ws.slug, { api: { limit: 4, window_seconds: 60 } });
    const client = await createClient(ws);
    const token = await getToken(ws, client); // request 1 of 4
    for (let i = 0; i < 3; i++) {
      const ok = await call("/admin/api/v1/me", { host: ws.host, token });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("RateLimit-Limit")).toBe("4");
      expect(ok.headers.get("RateLimit-Remaining")).toBe(String(2 - i));
    }
    const refused = await call("/admin/api/v1/me", { host: ws.host, token });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: "rate_limited",
      message: expect.stringContaining("Rate limit exceeded"),
    });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("RateLimit-Remaining")).toBe("0");
    expect(refused.headers.get("RateLimit-Limit")).toBe("4");
    const id = refused.headers.get("X-Request-Id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await auditRow(id);
    expect(row).toMatchObject({ http_status: 429, outcome: "failed" });
  });

  it("allows again once the window has slid (Retry-After is honest)", async () => {
    const ws = await createWorkspace();
    await setLimits(ws.slug, { api: { limit: 2, window_seconds: 1 } });
    const client = await createClient(ws);
    const token = await getToken(ws, client);
    expect((await call("/admin/api/v1/me", { host: ws.host, token })).status).toBe(200);
    const refused = await call("/admin/api/v1/me", { host: ws.host, token });
    expect(refused.status).toBe(429);
    await sleep(Number(refused.headers.get("Retry-After")) * 1000);
    expect((await call("/admin/api/v1/me", { host: ws.host, token })).status).toBe(200);
  });

  it("a create charges the api and consignment_create buckets in one object call, and each still refuses", async () => {
    const ws = await createWorkspace();
    await setLimits(ws.slug, {
      api: { limit: 6, window_seconds: 60 },
      consignment_create: { limit: 2, window_seconds: 60 },
    });
    const token = await getToken(ws, await createClient(ws)); // api 1 of 6
    const create = (ref: string) =>
      call("/admin/api/v1/consignments", { host: ws.host, token, json: sampleConsignment(ref) });
    const first = await create("RL-1"); // api 2, create 1
    expect(first.status).toBe(201);
    expect(first.headers.get("Server-Timing")).toMatch(/(^|, )do;count=1;/);
    expect(first.headers.get("RateLimit-Limit")).toBe("6");
    expect(first.headers.get("RateLimit-Remaining")).toBe("4");
    expect((await create("RL-2")).status).toBe(201); // api 3, create 2
    const byCreate = await create("RL-3"); // api 4, create refused
    expect(byCreate.status).toBe(429);
    expect(byCreate.headers.get("RateLimit-Limit")).toBe("2");
    // Refused before the route's bucket (a missing scope): still counted in the api bucket, after the answer.
    const reader = await getToken(ws, await createClient(ws, ["consignments:read"])); // api 5
    const noScope = await call("/admin/api/v1/consignments", {
      host: ws.host,
      token: reader,
      json: sampleConsignment("RL-4"),
    }); // api 6
    expect(noScope.status).toBe(403);
    const byApi = await create("RL-5"); // api 7: refused by the organization's bucket
    expect(byApi.status).toBe(429);
    expect(byApi.headers.get("RateLimit-Limit")).toBe("6");
  });

  it("gives customer-pinned clients their own bucket and keeps organizations independent", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    await setLimits(ws.slug, { api: { limit: 3, window_seconds: 60 } });
    await setLimits(other.slug, { api: { limit: 3, window_seconds: 60 } });
    const customerId = await insertCustomer(ws);
    const plain = await createClient(ws);
    const pinned = await createClient(ws, ["consignments:read"], customerId);
    const plainToken = await getToken(ws, plain);
    const pinnedToken = await getToken(ws, pinned);
    const otherToken = await getToken(other, await createClient(other));
    // The organization bucket: token + 2 calls = 3, then refused.
    expect((await call("/admin/api/v1/me", { host: ws.host, token: plainToken })).status).toBe(200);
    expect((await call("/admin/api/v1/me", { host: ws.host, token: plainToken })).status).toBe(200);
    expect((await call("/admin/api/v1/me", { host: ws.host, token: plainToken })).status).toBe(429);
    // The pinned client's bucket is its own (its token request counted there).
    expect((await call("/admin/api/v1/me", { host: ws.host, token: pinnedToken })).status).toBe(200);
    expect((await call("/admin/api/v1/me", { host: ws.host, token: pinnedToken })).status).toBe(200);
    expect((await call("/admin/api/v1/me", { host: ws.host, token: pinnedToken })).status).toBe(429);
    // Another organization is untouched.
    expect((await call("/admin/api/v1/me", { host: other.host, token: otherToken })).status).toBe(200);
  });

  it("shares one organization's limit across its workspaces", async () => {
    const first = await createWorkspace();
    const second = await createWorkspace({ organization_id: first.organizationId });
    await setLimits(first.slug, { api: { limit: 3, window_seconds: 60 } });
    const t1 = await getToken(first, await createClient(first));
    const t2 = await getToken(second, await createClient(second));
    expect((await call("/admin/api/v1/me", { host: first.host, token: t1 })).status).toBe(200);
    expect((await call("/admin/api/v1/me", { host: second.host, token: t2 })).status).toBe(429);
  });
});

describe("lease mode (production) under concurrency", () => {
  const leaseEnv = () => ({ ...env, RATE_LIMIT_MODE: "lease" }) as Env;
  const workspaceWithLimit = (organizationId: string, limit: number): WorkspaceContext => ({
    id: `ws_${organizationId}`,
    slug: organizationId,
    name: organizationId,
    mode: "live",
    organizationId,
    createdAt: new Date().toISOString(),
    archiveRetentionDays: 30,
    limits: { ...effectiveLimits({}), api: { limit, windowMs: 60_000 } },
  });

  it("lets N concurrent requests under a limit L ≥ N all pass", async () => {
    const ws = workspaceWithLimit(`org_lease_${Date.now()}`, 200);
    const decisions = await Promise.all(
      Array.from({ length: 200 }, () => hitBucket(leaseEnv(), ws, { bucket: "api", key: "api" }, Date.now())),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(200);
  });

  it("lets at most L of an over-limit concurrent burst pass, and every request under it", async () => {
    const ws = workspaceWithLimit(`org_lease_over_${Date.now()}`, 200);
    const decisions = await Promise.all(
      Array.from({ length: 220 }, () => hitBucket(leaseEnv(), ws, { bucket: "api", key: "api" }, Date.now())),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(200);
  });

  it("10-way concurrency in rounds reaches the limit exactly", async () => {
    const ws = workspaceWithLimit(`org_lease_rounds_${Date.now()}`, 200);
    let allowed = 0;
    for (let round = 0; round < 25; round++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => hitBucket(leaseEnv(), ws, { bucket: "api", key: "api" }, Date.now())),
      );
      allowed += batch.filter((d) => d.allowed).length;
    }
    expect(allowed).toBe(200);
  });
});
