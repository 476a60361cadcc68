/**
 * An acknowledged request's audit row is durable before its response: these calls drop everything the Worker
 * hands to waitUntil (as a process killed right after answering would) and stretch the group-commit window,
 * then look in D1 at once. Its own file, so the stretched window cannot delay another file's rows.
 */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import {
  auditRow,
  type CallOptions,
  failNextD1Batch,
  loadDataset,
  sampleCalculateLine,
  sampleConsignment,
  setup,
} from "./helpers";

beforeAll(async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
  for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d, { fixture: true });
}, 120_000);

// Rows left in the isolate's buffer by these calls flush when the window ends; let them, before the file ends.
afterAll(() => new Promise((r) => setTimeout(r, 1_200)));

const FLUSH_MS = "1000";

/** Calls the Worker and returns as soon as it answers; nothing it left to waitUntil is waited for. */
async function callAndCrash(url: string, opts: CallOptions & { host: string; token: string }): Promise<Response> {
  const headers = new Headers(opts.headers);
  headers.set("host", opts.host);
  headers.set("authorization", `Bearer ${opts.token}`);
  let body: string | null = null;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers.set("content-type", "application/json");
  }
  const request = new Request(`http://${opts.host}${url}`, {
    method: opts.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const dropped: ExecutionContext = {
    waitUntil: () => undefined,
    passThroughOnException: () => undefined,
    props: {},
  } as unknown as ExecutionContext;
  return worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, AUDIT_FLUSH_MS: FLUSH_MS } as unknown as Env,
    dropped,
  );
}

const consignment = sampleConsignment("SHP-DURABLE");

describe("audit rows of acknowledged requests are durable before the response", () => {
  it("a consignment create commits its audit row and refs in the same batch as the consignment", async () => {
    const { ws, token } = await setup();
    const res = await callAndCrash("/admin/api/v1/consignments", { host: ws.host, token, json: consignment });
    expect(res.status).toBe(201);
    const id = res.headers.get("X-Request-Id")!;
    // No flush has run (its window is a second away and its waitUntil was dropped): this row came with the write.
    expect(await auditRow(id)).toMatchObject({
      workspace_id: ws.id,
      method: "POST",
      http_status: 201,
      outcome: "completed",
      has_body: 1,
    });
    const refs = await env.DB.prepare("SELECT ref_type, ref_value FROM request_refs WHERE request_id = ?")
      .bind(id)
      .all();
    expect(refs.results).toContainEqual({ ref_type: "shipment_ref", ref_value: "SHP-DURABLE" });
  });

  it("a compute POST writes its row (and its usage row) before answering", async () => {
    const { ws, token } = await setup();
    const res = await callAndCrash("/admin/api/v1/calculate", {
      host: ws.host,
      token,
      json: sampleCalculateLine,
    });
    expect(res.status).toBe(200);
    const id = res.headers.get("X-Request-Id")!;
    expect(await auditRow(id)).toMatchObject({
      http_status: 200,
      outcome: "completed",
      has_body: 1,
      route: "/admin/api/v1/calculate",
    });
    const usage = await env.DB.prepare("SELECT count(*) AS n FROM usage_log WHERE id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(usage?.n).toBe(1);
  });

  it("GET /api/requests/{id} and /body answer at once for a write whose response the client holds", async () => {
    const { ws, token } = await setup();
    const res = await callAndCrash("/admin/api/v1/consignments", {
      host: ws.host,
      token,
      json: { ...consignment, shipment_ref: "SHP-READ" },
    });
    const id = res.headers.get("X-Request-Id")!;
    const read = await callAndCrash(`/api/requests/${id}`, { host: ws.host, token });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ request: { id, http_status: 201 } });
    const body = await callAndCrash(`/api/requests/${id}/body`, { host: ws.host, token });
    expect(body.status).toBe(200);
    expect(JSON.parse(await body.text())).toMatchObject({ shipment_ref: "SHP-READ" });
  });

  it("a read's row, still in the isolate's buffer, is served before its flush", async () => {
    const { ws, token } = await setup();
    const me = await callAndCrash("/admin/api/v1/me", { host: ws.host, token });
    const id = me.headers.get("X-Request-Id")!;
    expect(await auditRow(id)).toBeNull(); // not flushed yet: the window is a second long
    const read = await callAndCrash(`/api/requests/${id}`, { host: ws.host, token });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ request: { id, method: "GET", http_status: 200 } });
  });

  it("a write whose batch fails leaves no row claiming it succeeded", async () => {
    const { ws, token } = await setup();
    // Fault injection for one call: D1 cannot be made to fail on demand otherwise.
    const restore = failNextD1Batch(new Error("D1 unavailable"));
    try {
      const res = await callAndCrash("/admin/api/v1/consignments", {
        host: ws.host,
        token,
        json: { ...consignment, shipment_ref: "SHP-FAIL" },
      });
      expect(res.status).toBe(500);
      const id = res.headers.get("X-Request-Id")!;
      // Nothing committed, so neither did a provisional 201 row; the failure's row follows with the group commit.
      expect(await auditRow(id)).toBeNull();
      await new Promise((r) => setTimeout(r, 1_200));
      expect(await auditRow(id)).toMatchObject({ http_status: 500, outcome: "failed" });
      const stored = await env.DB.prepare(
        "SELECT count(*) AS n FROM consignments WHERE shipment_ref = 'SHP-FAIL'",
      ).first<{ n: number }>();
      expect(stored?.n).toBe(0);
    } finally {
      restore();
    }
  });
});
