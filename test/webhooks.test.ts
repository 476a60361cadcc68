/** Webhooks: management, outbox, signed delivery, retries, 410, history, queue and cron. */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceContext } from "../src/core/context";
import { createDb } from "../src/db/client";
import worker from "../src/index";
import { systemIds } from "../src/lib/ids";
import { keyringFrom, open, seal } from "../src/lib/secret-box";
import { type DeliveryMessage, deliver, outboxStatements, resealSecrets } from "../src/modules/webhooks/service";
import { findWorkspaceBySlug } from "../src/modules/workspaces/service";
import { createWorkspace, setup } from "./helpers";

type Endpoint = {
  id: string;
  url: string;
  events: string[];
  mode: string;
  enabled: boolean;
  secret?: string;
  disabled_reason: string | null;
};
type Delivery = {
  id: string;
  status: string;
  attempt_count: number;
  event_type: string;
  next_attempt_at: string | null;
  attempts: { http_status: number | null; error: string | null }[];
};

afterEach(() => vi.restoreAllMocks());

const HOOK = "http://localhost:9999/hooks";

/** Captures posts instead of sending them: the one outbound boundary the tests stub. */
function captureFetch(respond: (n: number) => Response | Promise<Response> = () => new Response("ok")) {
  const posts: { url: string; headers: Record<string, string>; body: string }[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    posts.push({ url: String(input), headers, body: String(init?.body) });
    return respond(posts.length);
  });
  return { posts, spy };
}

async function newEndpoint(api: (p: string, o?: object) => Promise<Response>, body: object = {}) {
  const res = await api("/settings/webhooks", { json: { url: HOOK, ...body } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { webhook: Endpoint }).webhook;
}

const clockAt = (t: { now: number }) => ({ clock: { now: () => t.now }, ids: systemIds });
async function wsContext(slug: string): Promise<WorkspaceContext> {
  return (await findWorkspaceBySlug({ ctx: baseAt({ now: Date.now() }), input: { slug } }))!;
}

/** A job's context (no request) at an injected time. */
const baseAt = (t: { now: number }) => ({ db: createDb(env.DB), env, deps: clockAt(t) });

async function emit(ws: WorkspaceContext, type: string, data: Record<string, unknown> = {}, nowMs = Date.now()) {
  const ctx = { ...baseAt({ now: nowMs }), workspace: ws };
  const out = await outboxStatements({ ctx, input: { event: { type, data } } });
  await ctx.db.batch(out.statements);
  return out;
}

describe("endpoint management", () => {
  it("create → list → get → update → delete, the secret shown only on create", async () => {
    const { api, ws } = await setup();
    const created = await newEndpoint(api, { events: ["consignment.created", "manifest.*"], description: "ERP" });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^we_/),
      url: HOOK,
      events: ["consignment.created", "manifest.*"],
      mode: "live",
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const list = (await (await api("/settings/webhooks")).json()) as { webhooks: Endpoint[] };
    expect(list.webhooks.map((w) => w.id)).toEqual([created.id]);
    expect(JSON.stringify(list)).not.toContain("whsec_");
    const got = (await (await api(`/settings/webhooks/${created.id}`)).json()) as { webhook: Endpoint };
    expect(got.webhook.secret).toBeUndefined();
    const updated = await api(`/settings/webhooks/${created.id}`, {
      method: "PATCH",
      json: { events: [], enabled: false },
    });
    expect(((await updated.json()) as { webhook: Endpoint }).webhook).toMatchObject({ events: [], enabled: false });
    expect((await api(`/settings/webhooks/${created.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/settings/webhooks/${created.id}`)).status).toBe(404);
    expect(ws.id).toBeTruthy();
  });

  it("takes the workspace's mode", async () => {
    const ws = await createWorkspace({ mode: "sandbox" });
    const { getToken, createClient, call } = await import("./helpers");
    const token = await getToken(ws, await createClient(ws));
    const res = await call("/admin/api/v1/settings/webhooks", { host: ws.host, token, json: { url: HOOK } });
    expect(((await res.json()) as { webhook: Endpoint }).webhook.mode).toBe("sandbox");
  });

  it.each([
    ["http to a public host", { url: "http://hooks.example.com/x" }, "url"],
    ["not a URL", { url: "hooks" }, "url"],
    ["an over-long URL", { url: `https://example.com/${"a".repeat(2100)}` }, "url"],
    ["a bad event pattern", { url: HOOK, events: ["Consignment Created"] }, "events.0"],
    ["a bare wildcard", { url: HOOK, events: ["*"] }, "events.0"],
    ["an unknown key", { url: HOOK, secret: "whsec_mine" }, ""],
  ])("400 for %s", async (_n, body, field) => {
    const { api } = await setup();
    const res = await api("/settings/webhooks", { json: body });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { errors?: { field: string }[] };
    if (field) expect(json.errors?.map((e) => e.field)).toContain(field);
  });

  it("another workspace's endpoint is a 404 everywhere; settings:read cannot write", async () => {
    const mine = await setup();
    const theirs = await setup();
    const endpoint = await newEndpoint(theirs.api);
    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { enabled: false }],
      ["DELETE", "", undefined],
      ["POST", "/rotate-secret", undefined],
      ["POST", "/test", undefined],
      ["GET", "/deliveries", undefined],
    ] as const) {
      expect((await mine.api(`/settings/webhooks/${endpoint.id}${path}`, { method, json })).status).toBe(404);
    }
    const reader = await setup(["settings:read"]);
    expect((await reader.api("/settings/webhooks")).status).toBe(200);
    expect((await reader.api("/settings/webhooks", { json: { url: HOOK } })).status).toBe(403);
  });
});

describe("signed delivery", () => {
  it("the test event is signed so that standardwebhooks verifies it, and a wrong secret does not", async () => {
    const { api } = await setup();
    const endpoint = await newEndpoint(api);
    const { posts } = captureFetch();
    const res = await api(`/settings/webhooks/${endpoint.id}/test`, { method: "POST" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { message: string; delivery: Delivery };
    expect(body.message).toBe("Test event delivered");
    expect(body.delivery).toMatchObject({
      event_type: "webhook.test",
      status: "delivered",
      attempt_count: 1,
      attempts: [{ http_status: 200, error: null }],
    });
    expect(posts).toHaveLength(1);
    const post = posts[0]!;
    expect(post.url).toBe(HOOK);
    expect(post.headers["webhook-id"]).toBe(body.delivery.id);
    const envelope = new Webhook(endpoint.secret!).verify(post.body, post.headers) as Record<string, unknown>;
    expect(envelope).toMatchObject({
      id: body.delivery.id,
      type: "webhook.test",
      created_at: expect.any(String),
      data: { webhook_id: endpoint.id },
    });
    const other = await newEndpoint(api);
    expect(() => new Webhook(other.secret!).verify(post.body, post.headers)).toThrow();
  });

  it("after a rotation both the old and the new secret verify, for 24 h", async () => {
    const { api } = await setup();
    const endpoint = await newEndpoint(api);
    const rotated = await api(`/settings/webhooks/${endpoint.id}/rotate-secret`, { method: "POST" });
    const { webhook, previous_secret_expires_at } = (await rotated.json()) as {
      webhook: Endpoint;
      previous_secret_expires_at: string;
    };
    expect(webhook.secret).not.toBe(endpoint.secret);
    expect(Date.parse(previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    const { posts } = captureFetch();
    await api(`/settings/webhooks/${endpoint.id}/test`, { method: "POST" });
    const post = posts[0]!;
    expect(post.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret!).verify(post.body, post.headers)).not.toThrow();
    expect(() => new Webhook(webhook.secret!).verify(post.body, post.headers)).not.toThrow();
    // Past the overlap, only the new secret signs.
    const later = { now: Date.now() + 25 * 3600 * 1000 };
    const ws = await wsContext(((await (await api("/me")).json()) as { workspace: { slug: string } }).workspace.slug);
    const out = await emit(ws, "consignment.created", {}, later.now);
    await deliver({ ctx: baseAt(later), input: { deliveryId: out.deliveryIds[0]! } });
    const late = posts[1]!;
    expect(late.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() =>
      new Webhook(endpoint.secret!).verify(late.body, {
        ...late.headers,
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
      }),
    ).toThrow();
  });

  it("reports a failed test without retrying it", async () => {
    const { api } = await setup();
    const endpoint = await newEndpoint(api);
    captureFetch(() => new Response("nope", { status: 500 }));
    const res = await api(`/settings/webhooks/${endpoint.id}/test`, { method: "POST" });
    const body = (await res.json()) as { message: string; delivery: Delivery };
    expect(body.message).toBe("Test event not delivered");
    expect(body.delivery).toMatchObject({ status: "failed", next_attempt_at: null, attempts: [{ http_status: 500 }] });
  });
});

describe("outbox and subscriptions", () => {
  it("delivers an event to exact, wildcard and catch-all subscribers only", async () => {
    const { api, ws } = await setup();
    const exact = await newEndpoint(api, { events: ["consignment.created"] });
    const wildcard = await newEndpoint(api, { events: ["manifest.*"] });
    const all = await newEndpoint(api, { events: [] });
    const disabled = await newEndpoint(api, { events: [], enabled: false });
    const ctx = await wsContext(ws.slug);
    const created = await emit(ctx, "consignment.created", { consignment_id: "con_1" });
    const manifest = await emit(ctx, "manifest.closed", {});
    const endpointsOf = async (ids: string[]) =>
      (
        await env.DB.prepare(`SELECT endpoint_id FROM webhook_deliveries WHERE id IN (${ids.map(() => "?").join(",")})`)
          .bind(...ids)
          .all<{ endpoint_id: string }>()
      ).results
        .map((r) => r.endpoint_id)
        .sort();
    expect(await endpointsOf(created.deliveryIds)).toEqual([exact.id, all.id].sort());
    expect(await endpointsOf(manifest.deliveryIds)).toEqual([wildcard.id, all.id].sort());
    expect(disabled.enabled).toBe(false);
  });

  it("an event reaches only endpoints of its own mode", async () => {
    const { api, ws } = await setup();
    await newEndpoint(api);
    const live = await wsContext(ws.slug);
    expect((await emit(live, "consignment.created")).deliveryIds).toHaveLength(1);
    expect((await emit({ ...live, mode: "sandbox" }, "consignment.created")).deliveryIds).toHaveLength(0);
  });

  it("is written in the same batch as the change: a failed change leaves no event", async () => {
    const { api, ws } = await setup();
    await newEndpoint(api);
    const ctx = { ...baseAt({ now: Date.now() }), workspace: await wsContext(ws.slug) };
    const out = await outboxStatements({ ctx, input: { event: { type: "consignment.created", data: {} } } });
    // The "change" fails (a duplicate primary key), so the whole batch must roll back.
    const failing = ctx.db.run(
      `INSERT INTO organizations (id, name, created_at, updated_at) VALUES ('${ws.organizationId}', 'dup', 'x', 'x')` as never,
    );
    await expect(ctx.db.batch([...out.statements, failing] as never)).rejects.toThrow();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?").bind(out.eventId).first(),
    ).toEqual({ n: 0 });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ?").bind(out.eventId).first(),
    ).toEqual({ n: 0 });
  });
});

describe("retries with an injected clock", () => {
  async function pendingDelivery() {
    const { api, ws } = await setup();
    const endpoint = await newEndpoint(api);
    const t = { now: Date.now() };
    const out = await emit(await wsContext(ws.slug), "consignment.created", { consignment_id: "con_9" }, t.now);
    return { api, endpoint, t, id: out.deliveryIds[0]!, ctx: baseAt(t) };
  }

  it("fail, fail, succeed → delivered with three attempts, each retry only when due", async () => {
    const { api, endpoint, t, id, ctx } = await pendingDelivery();
    const statuses = [503, 500, 204];
    const fetcher = vi.fn(async () => new Response("", { status: statuses.shift()! }));
    expect(await deliver({ ctx, input: { deliveryId: id, fetcher } })).toMatchObject({
      kind: "attempted",
      status: "pending",
      httpStatus: 503,
      nextAttemptAt: t.now + 60_000,
    });
    t.now += 30_000;
    expect(await deliver({ ctx, input: { deliveryId: id, fetcher } })).toEqual({ kind: "skipped" }); // not due yet
    t.now += 30_000;
    expect(await deliver({ ctx, input: { deliveryId: id, fetcher } })).toMatchObject({
      status: "pending",
      httpStatus: 500,
      nextAttemptAt: t.now + 300_000,
    });
    t.now += 300_000;
    expect(await deliver({ ctx, input: { deliveryId: id, fetcher } })).toMatchObject({
      status: "delivered",
      httpStatus: 204,
    });
    expect(await deliver({ ctx, input: { deliveryId: id, fetcher } })).toEqual({ kind: "skipped" }); // finished
    expect(fetcher).toHaveBeenCalledTimes(3);
    const history = (await (await api(`/settings/webhooks/${endpoint.id}/deliveries`)).json()) as {
      deliveries: Delivery[];
    };
    expect(history.deliveries[0]).toMatchObject({ id, status: "delivered", attempt_count: 3, next_attempt_at: null });
    expect(history.deliveries[0]!.attempts.map((a) => a.http_status)).toEqual([503, 500, 204]);
  });

  it("six failures (timeouts and network errors too) → failed", async () => {
    const { t, id, ctx, api, endpoint } = await pendingDelivery();
    const failures: (() => Promise<Response>)[] = [
      async () => new Response("", { status: 500 }),
      async () => {
        throw new DOMException("timed out", "TimeoutError");
      },
      async () => {
        throw new TypeError("connection refused");
      },
      async () => new Response("", { status: 404 }),
      async () => new Response("", { status: 302 }),
      async () => new Response("", { status: 500 }),
    ];
    const delays = [60, 300, 1800, 7200, 21600];
    for (let i = 0; i < 6; i++) {
      const out = await deliver({ ctx, input: { deliveryId: id, fetcher: failures[i]! as typeof fetch } });
      expect(out).toMatchObject({ kind: "attempted", attempt: i + 1, status: i < 5 ? "pending" : "failed" });
      if (i < 5) t.now += delays[i]! * 1000;
    }
    const history = (await (await api(`/settings/webhooks/${endpoint.id}/deliveries`)).json()) as {
      deliveries: Delivery[];
    };
    expect(history.deliveries[0]).toMatchObject({ status: "failed", attempt_count: 6 });
    expect(history.deliveries[0]!.attempts.map((a) => a.error)).toEqual([
      null,
      "timeout",
      "network_error: TypeError: connection refused",
      null,
      null,
      null,
    ]);
  });

  it("410 Gone fails the delivery and disables the endpoint, which then receives nothing", async () => {
    const { id, ctx, api, endpoint } = await pendingDelivery();
    expect(
      await deliver({ ctx, input: { deliveryId: id, fetcher: async () => new Response("", { status: 410 }) } }),
    ).toMatchObject({
      status: "failed",
      httpStatus: 410,
    });
    const got = (await (await api(`/settings/webhooks/${endpoint.id}`)).json()) as { webhook: Endpoint };
    expect(got.webhook).toMatchObject({ enabled: false, disabled_reason: "receiver answered 410 Gone" });
    const me = (await (await api("/me")).json()) as { workspace: { slug: string } };
    expect((await emit(await wsContext(me.workspace.slug), "consignment.created")).deliveryIds).toHaveLength(0);
  });

  it("is never posted twice concurrently, and a crash between post and record means a repeat post, not a loss", async () => {
    const { id, ctx, t } = await pendingDelivery();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetcher = vi.fn(async () => {
      await gate;
      return new Response("ok");
    });
    const both = Promise.all([
      deliver({ ctx, input: { deliveryId: id, fetcher } }),
      deliver({ ctx, input: { deliveryId: id, fetcher } }),
    ]);
    await new Promise((r) => setTimeout(r, 50));
    release();
    const outcomes = await both;
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["attempted", "skipped"]);

    // A worker that claimed a delivery and died before recording: the claim runs out and it is posted again.
    const second = await pendingDelivery();
    await env.DB.prepare("UPDATE webhook_deliveries SET locked_until = ?, attempt_count = 1 WHERE id = ?")
      .bind(second.t.now + 60_000, second.id)
      .run();
    const again = vi.fn(async () => new Response("ok"));
    second.t.now += 30_000;
    expect(await deliver({ ctx: second.ctx, input: { deliveryId: second.id, fetcher: again } })).toEqual({
      kind: "skipped",
    });
    second.t.now += 31_000;
    expect(await deliver({ ctx: second.ctx, input: { deliveryId: second.id, fetcher: again } })).toMatchObject({
      status: "delivered",
    });
    expect(again).toHaveBeenCalledTimes(1);
    expect(t.now).toBeGreaterThan(0);
  });
});

describe("queue consumer and cron sweep", () => {
  it("the consumer posts the delivery named in each message and acks it", async () => {
    const { api, ws } = await setup();
    await newEndpoint(api);
    const out = await emit(await wsContext(ws.slug), "consignment.created", { consignment_id: "con_q" });
    const { posts } = captureFetch();
    const batch = createMessageBatch<DeliveryMessage>("trade-compliance-webhooks", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { delivery_id: out.deliveryIds[0]! } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!.body)).toEqual({
      id: out.deliveryIds[0],
      event_id: out.eventId,
      type: "consignment.created",
      created_at: expect.any(String),
      data: { consignment_id: "con_q" },
    });
  });

  it("the cron sweep enqueues what is due and the queue delivers it: a receiver that was down gets it later", async () => {
    const { api, ws } = await setup();
    const endpoint = await newEndpoint(api);
    const out = await emit(
      await wsContext(ws.slug),
      "consignment.created",
      { consignment_id: "con_late" },
      Date.now() - 120_000,
    );
    const { posts } = captureFetch();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // The queue hands the message to this Worker's consumer; wait for the outcome in D1.
    let status = "pending";
    for (let i = 0; i < 100 && status === "pending"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await env.DB.prepare("SELECT status FROM webhook_deliveries WHERE id = ?")
        .bind(out.deliveryIds[0])
        .first<{ status: string }>())!.status;
    }
    expect(status).toBe("delivered");
    expect(posts.map((p) => p.headers["webhook-id"])).toContain(out.deliveryIds[0]);
    expect(endpoint.id).toBeTruthy();
  });
});

describe("delivery history", () => {
  it("pages newest first with a cursor", async () => {
    const { api, ws } = await setup();
    const endpoint = await newEndpoint(api);
    const ctx = await wsContext(ws.slug);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(...(await emit(ctx, "consignment.created", { n: i })).deliveryIds);
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const page = (await (
        await api(`/settings/webhooks/${endpoint.id}/deliveries?limit=2${cursor ? `&starting_after=${cursor}` : ""}`)
      ).json()) as { deliveries: Delivery[]; has_more: boolean };
      seen.push(...page.deliveries.map((d) => d.id));
      if (!page.has_more) break;
      cursor = page.deliveries.at(-1)!.id;
    }
    expect(seen).toEqual([...ids].reverse());
    const first = (await (await api(`/settings/webhooks/${endpoint.id}/deliveries?limit=1`)).json()) as {
      deliveries: Delivery[];
    };
    expect(first.deliveries[0]).toMatchObject({
      status: "pending",
      attempt_count: 0,
      attempts: [],
      next_attempt_at: expect.any(String),
    });
  });
});

describe("the URL policy at delivery time", () => {
  it("never contacts an endpoint the production policy refuses, and keeps no excerpt", async () => {
    const { api, ws } = await setup();
    const endpoint = await newEndpoint(api); // http://localhost:9999, accepted in development
    const t = { now: Date.now() };
    const out = await emit(await wsContext(ws.slug), "consignment.created", {}, t.now);
    const fetcher = vi.fn(async () => new Response("secret data from an internal host"));
    // The same stored endpoint, delivered by a production Worker.
    const production = { ...baseAt(t), env: { ...env, ENVIRONMENT: "production" } as Env };
    const outcome = await deliver({ ctx: production, input: { deliveryId: out.deliveryIds[0]!, fetcher } });
    expect(fetcher).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ kind: "attempted", status: "failed" });
    const history = (await (await api(`/settings/webhooks/${endpoint.id}/deliveries`)).json()) as {
      deliveries: { attempts?: { response_excerpt: string | null; error: string | null }[] }[];
    };
    const attempts = history.deliveries.flatMap((d) => d.attempts ?? []);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ response_excerpt: null });
    expect(attempts[0]?.error).toContain("refused by the URL policy");
  });

  it("treats an unset or unknown ENVIRONMENT as production (fails closed)", async () => {
    const { isDevelopment } = await import("../src/lib/environment");
    expect(isDevelopment({})).toBe(false);
    expect(isDevelopment({ ENVIRONMENT: "dev" })).toBe(false);
    expect(isDevelopment({ ENVIRONMENT: "production" })).toBe(false);
    expect(isDevelopment({ ENVIRONMENT: "development" })).toBe(true);
  });
});

describe("signing secrets at rest", () => {
  const K1_ONLY = "k1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8";

  it("are stored sealed under the current key, never in plaintext, and still sign deliveries", async () => {
    const { api, ws } = await setup();
    const endpoint = await newEndpoint(api);
    const stored = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?")
      .bind(endpoint.id)
      .first<{ secret: string }>();
    expect(stored?.secret.startsWith("sealed:v1:k2:")).toBe(true);
    expect(stored?.secret).not.toContain(endpoint.secret!.replace(/^whsec_/, ""));

    const t = { now: Date.now() };
    const out = await emit(await wsContext(ws.slug), "consignment.created", { consignment_id: "con_1" }, t.now);
    const { posts } = captureFetch();
    await deliver({ ctx: baseAt(t), input: { deliveryId: out.deliveryIds[0]! } });
    const post = posts[0]!;
    expect(() => new Webhook(endpoint.secret!).verify(post.body, post.headers)).not.toThrow();
  });

  it("open after a key rotation, and the cron step re-seals old and plaintext values under the current key", async () => {
    const { api, ws } = await setup();
    const endpoint = await newEndpoint(api);
    const legacy = await newEndpoint(api);
    // One secret sealed under the previous key (k1), one stored before encryption existed.
    const old = await seal(endpoint.secret!, await keyringFrom(K1_ONLY), endpoint.id);
    await env.DB.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?").bind(old, endpoint.id).run();
    await env.DB.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?").bind(legacy.secret, legacy.id).run();

    const t = { now: Date.now() };
    const out = await emit(await wsContext(ws.slug), "consignment.created", {}, t.now);
    const { posts } = captureFetch();
    for (const id of out.deliveryIds) await deliver({ ctx: baseAt(t), input: { deliveryId: id } });
    expect(posts).toHaveLength(2);
    const verifies = (secret: string, post: { body: string; headers: Record<string, string> }) => {
      try {
        new Webhook(secret).verify(post.body, post.headers);
        return true;
      } catch {
        return false;
      }
    };
    // Each post is signed with its own endpoint's secret, whichever way that secret was stored.
    for (const post of posts) expect([endpoint.secret!, legacy.secret!].some((s) => verifies(s, post))).toBe(true);
    expect(posts.filter((p) => verifies(endpoint.secret!, p))).toHaveLength(1);

    let resealed = 0;
    for (let n = await resealSecrets({ ctx: baseAt(t), input: { limit: 100 } }); n > 0; ) {
      resealed += n;
      n = await resealSecrets({ ctx: baseAt(t), input: { limit: 100 } });
    }
    expect(resealed).toBeGreaterThanOrEqual(2);
    const rows = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id IN (?, ?)")
      .bind(endpoint.id, legacy.id)
      .all<{ secret: string }>();
    expect(rows.results.every((r) => r.secret.startsWith("sealed:v1:k2:"))).toBe(true);
  });

  it("a sealed value copied onto another endpoint does not open there", async () => {
    const ring = await keyringFrom(K1_ONLY);
    const sealed = await seal("whsec_x", ring, "we_a");
    await expect(open(sealed, ring, "we_b")).rejects.toThrow();
    expect(await open(sealed, ring, "we_a")).toBe("whsec_x");
  });
});

describe("the event catalogue", () => {
  it("lists the event types and wildcard categories", async () => {
    const { api } = await setup();
    const res = await api("/settings/webhooks/event-types");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { event_types: { type: string }[]; categories: string[] };
    expect(body.event_types.map((e) => e.type)).toEqual(
      expect.arrayContaining(["consignment.created", "duties.calculated", "webhook.test"]),
    );
    expect(body.categories).toContain("manifest");
  });

  it.each([
    [["consignment.craeted"], "unknown event type 'consignment.craeted'"],
    [["shipment.*"], "unknown event category 'shipment'"],
    [["consignment.created", "duties.calcualted"], "unknown event type 'duties.calcualted'"],
  ])("refuses a subscription to %j (400) and stores nothing", async (events, message) => {
    const { api } = await setup();
    const res = await api("/settings/webhooks", { json: { url: HOOK, events } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(message);
    const list = (await (await api("/settings/webhooks")).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([]);
  });

  it("refuses an unknown type on update too, and accepts known types and categories", async () => {
    const { api } = await setup();
    const endpoint = await newEndpoint(api, { events: ["manifest.*", "consignment.*", "duties.calculated"] });
    const res = await api(`/settings/webhooks/${endpoint.id}`, { method: "PATCH", json: { events: ["nope.nope"] } });
    expect(res.status).toBe(400);
  });
});
