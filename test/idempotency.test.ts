/** Idempotency-Key: replay, mismatch, concurrency, release, atomic commit with the write, scope, both APIs. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { purgeExpiredKeys } from "../src/middleware/idempotency";
import { ADMIN_TOKEN, call, failNextD1Batch, sampleConsignment, setup, uniqueSlug } from "./helpers";

// Outbox deliveries go to the real queue, whose consumer posts them: receivers are stubbed here.
beforeAll(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
});

const consignment = sampleConsignment;

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

const keyRow = (key: string) =>
  env.DB.prepare("SELECT state, request_id, response_status FROM idempotency_keys WHERE key = ?").bind(key).first();

describe("Idempotency-Key on a consignment create", () => {
  it("a retry gets the first response again, marked replayed, and creates nothing more", async () => {
    const { api, ws } = await setup();
    await api("/settings/webhooks", { json: { url: "http://localhost:9999/h", events: ["consignment.created"] } });
    const key = crypto.randomUUID();
    const body = consignment("IDEM-1");
    const first = await api("/consignments", { json: body, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = await first.text();

    const again = await api("/consignments", { json: body, headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("content-type")).toMatch(/application\/json/);
    expect(await again.text()).toBe(firstBody);
    // Its own request id, for its own audit row.
    expect(again.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));

    expect(
      await count("SELECT count(*) AS n FROM consignments WHERE workspace_id = ? AND shipment_ref = 'IDEM-1'", ws.id),
    ).toBe(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM webhook_events WHERE workspace_id = ? AND type = 'consignment.created'",
        ws.id,
      ),
    ).toBe(1);
    expect(await keyRow(key)).toMatchObject({
      state: "done",
      response_status: 201,
      request_id: first.headers.get("X-Request-Id"),
    });
  });

  it("the same key with a different body is refused with 422 and changes nothing", async () => {
    const { api, ws } = await setup();
    const key = crypto.randomUUID();
    expect(
      (await api("/consignments", { json: consignment("IDEM-A"), headers: { "Idempotency-Key": key } })).status,
    ).toBe(201);
    const other = await api("/consignments", { json: consignment("IDEM-B"), headers: { "Idempotency-Key": key } });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ success: false, error: "idempotency_key_mismatch" });
    expect(
      await count("SELECT count(*) AS n FROM consignments WHERE workspace_id = ? AND shipment_ref = 'IDEM-B'", ws.id),
    ).toBe(0);
  });

  it("the same key on another path is a different request (422)", async () => {
    const { api } = await setup();
    const key = crypto.randomUUID();
    await api("/customers", { json: { name: "Kay" }, headers: { "Idempotency-Key": key } });
    const res = await api("/catalogue", { json: { sku: "K-1", title: "Kit" }, headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(422);
  });

  it("a repeat while the first is still running gets 409 with Retry-After; afterwards it is replayed", async () => {
    const { api, ws } = await setup();
    const key = crypto.randomUUID();
    const body = consignment("IDEM-RACE");
    // Hold the first request inside its archive step until the second has been answered.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inside = new Promise<void>((r) => (started = r));
    const put = env.ARCHIVE.put.bind(env.ARCHIVE);
    const spy = vi.spyOn(env.ARCHIVE, "put").mockImplementationOnce(async (...args) => {
      started();
      await held;
      return put(...args);
    });
    try {
      const first = api("/consignments", { json: body, headers: { "Idempotency-Key": key } });
      await inside;
      const second = await api("/consignments", { json: body, headers: { "Idempotency-Key": key } });
      expect(second.status).toBe(409);
      expect(second.headers.get("Retry-After")).toBe("1");
      expect(await second.json()).toMatchObject({ error: "idempotency_key_in_use" });
      release();
      expect((await first).status).toBe(201);
    } finally {
      spy.mockRestore();
    }
    const third = await api("/consignments", { json: body, headers: { "Idempotency-Key": key } });
    expect(third.status).toBe(201);
    expect(third.headers.get("Idempotent-Replayed")).toBe("true");
    expect(
      await count(
        "SELECT count(*) AS n FROM consignments WHERE workspace_id = ? AND shipment_ref = 'IDEM-RACE'",
        ws.id,
      ),
    ).toBe(1);
  });

  it("a refused request releases its key, so the corrected request can use it", async () => {
    const { api } = await setup();
    const key = crypto.randomUUID();
    const bad = await api("/consignments", { json: { shipment_ref: 123 }, headers: { "Idempotency-Key": key } });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(await keyRow(key)).toBeNull();
    const good = await api("/consignments", { json: consignment("IDEM-FIXED"), headers: { "Idempotency-Key": key } });
    expect(good.status).toBe(201);
  });

  it("the key commits in the write's own batch: if its response cannot be stored, a retry is told what happened", async () => {
    const { api } = await setup();
    const key = crypto.randomUUID();
    // Make only the final 'done' update fail, as a crash right after the commit would.
    const prepare = env.DB.prepare.bind(env.DB);
    const spy = vi.spyOn(env.DB, "prepare").mockImplementation((sql: string) => {
      if (sql.startsWith("UPDATE idempotency_keys SET state = 'done'")) throw new Error("crashed");
      return prepare(sql);
    });
    let first: Response;
    try {
      first = await api("/consignments", { json: consignment("IDEM-CRASH"), headers: { "Idempotency-Key": key } });
    } finally {
      spy.mockRestore();
    }
    expect(first.status).toBe(201); // the client still gets its answer
    expect(await keyRow(key)).toMatchObject({ state: "committed", request_id: first.headers.get("X-Request-Id") });
    const retry = await api("/consignments", { json: consignment("IDEM-CRASH"), headers: { "Idempotency-Key": key } });
    expect(retry.status).toBe(409);
    expect(await retry.json()).toMatchObject({
      error: "idempotency_outcome_unknown",
      original_request_id: first.headers.get("X-Request-Id"),
    });
  });

  it("a failed write leaves no key behind: nothing committed, the retry runs", async () => {
    const { api, ws } = await setup();
    const key = crypto.randomUUID();
    const restore = failNextD1Batch(new Error("D1 unavailable"));
    try {
      const res = await api("/consignments", { json: consignment("IDEM-500"), headers: { "Idempotency-Key": key } });
      expect(res.status).toBe(500);
    } finally {
      restore();
    }
    expect(await keyRow(key)).toBeNull();
    const retry = await api("/consignments", { json: consignment("IDEM-500"), headers: { "Idempotency-Key": key } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(
      await count("SELECT count(*) AS n FROM consignments WHERE workspace_id = ? AND shipment_ref = 'IDEM-500'", ws.id),
    ).toBe(1);
  });

  it("an expired key (24 h) is taken over by a new request", async () => {
    const { api, ws } = await setup();
    const key = crypto.randomUUID();
    await env.DB.prepare(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, state, request_id, locked_until, created_at, expires_at)
       VALUES (?, ?, 'old', 'done', 'old-request', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', '2020-01-02T00:00:00.000Z')`,
    )
      .bind(ws.id, key)
      .run();
    const res = await api("/consignments", { json: consignment("IDEM-EXPIRED"), headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
  });
});

describe("Idempotency-Key rules", () => {
  it.each([
    ["too long", "k".repeat(256)],
    ["not ASCII", "clé-1"],
    ["empty string", '""'],
  ])("a key that is %s → 400 and nothing runs", async (_n, key) => {
    const { api, ws } = await setup();
    const res = await api("/consignments", { json: consignment("IDEM-BADKEY"), headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: "bad_request" });
    expect(await count("SELECT count(*) AS n FROM consignments WHERE workspace_id = ?", ws.id)).toBe(0);
  });

  it("accepts 255 characters and the draft's quoted form", async () => {
    const { api } = await setup();
    expect(
      (await api("/customers", { json: { name: "A" }, headers: { "Idempotency-Key": "k".repeat(255) } })).status,
    ).toBe(201);
    const quoted = await api("/customers", { json: { name: "B" }, headers: { "Idempotency-Key": '"8e03978e-40d5"' } });
    expect(quoted.status).toBe(201);
    const again = await api("/customers", { json: { name: "B" }, headers: { "Idempotency-Key": "8e03978e-40d5" } });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("keys are per workspace: the same key in two workspaces are two requests", async () => {
    const a = await setup();
    const b = await setup();
    const key = crypto.randomUUID();
    const ra = await a.api("/customers", { json: { name: "Same" }, headers: { "Idempotency-Key": key } });
    const rb = await b.api("/customers", { json: { name: "Same" }, headers: { "Idempotency-Key": key } });
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("a DELETE retried with its key gets the first 200 again instead of a 404", async () => {
    const { api } = await setup();
    const created = (await (await api("/consignments", { json: consignment("IDEM-DEL") })).json()) as {
      data: { consignment: { id: number } };
    };
    const id = created.data.consignment.id;
    const key = crypto.randomUUID();
    const first = await api(`/consignments/${id}`, { method: "DELETE", headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(200);
    const again = await api(`/consignments/${id}`, { method: "DELETE", headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await api(`/consignments/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("GET ignores the header", async () => {
    const { api } = await setup();
    const res = await api("/me", { headers: { "Idempotency-Key": "k".repeat(300) } });
    expect(res.status).toBe(200);
  });

  it("works on the platform API", async () => {
    const key = crypto.randomUUID();
    const slug = uniqueSlug();
    const send = () =>
      call("/platform/v1/workspaces", {
        token: ADMIN_TOKEN,
        json: { slug, name: "Idem" },
        headers: { "Idempotency-Key": key },
      });
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await count("SELECT count(*) AS n FROM workspaces WHERE slug = ?", slug)).toBe(1);
  });

  it("expired keys are purged (the cron's step); live ones stay", async () => {
    const { api } = await setup();
    const key = crypto.randomUUID();
    await api("/customers", { json: { name: "Purge" }, headers: { "Idempotency-Key": key } });
    await purgeExpiredKeys(env.DB, Date.now());
    expect(await keyRow(key)).not.toBeNull();
    await purgeExpiredKeys(env.DB, Date.now() + 24 * 3600 * 1000 + 1000);
    expect(await keyRow(key)).toBeNull();
  });
});
