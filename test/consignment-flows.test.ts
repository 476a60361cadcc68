/**
 * Flows on consignment create (background through the queue, inline `wait` actions with rollback), and what
 * they leave behind: holds, documents, pre-alerts, raw events and the timeline; delete guards; the cron
 * sweep for runs whose enqueue was missed.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { baseContext } from "../src/core/context";
import worker from "../src/index";
import { systemClock } from "../src/lib/clock";
import { systemIds } from "../src/lib/ids";
import { executeRun } from "../src/modules/flows/runs";
import { call, createClient, getToken, insertCustomer, loadDataset, setup } from "./helpers";

beforeAll(async () => {
  // Pre-alerts and consignment events go out as webhooks through the real queue: receivers are stubbed.
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
  for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d, { fixture: true });
}, 120_000);

type Api = Awaited<ReturnType<typeof setup>>["api"];

const sender = {
  company_name: "Acme Ltd",
  address_1: "1 High St",
  city: "London",
  post_code: "E1 6AN",
  country_code: "GB",
  eori_id: "GB123456789000",
  contact: { name: "Ann" },
};
const receiver = {
  company_name: "Buyer Inc",
  address_1: "5 Main St",
  city: "Austin",
  state_province: "TX",
  post_code: "73301",
  country_code: "US",
};
const consignment = (over: Record<string, unknown> = {}) => ({
  shipment_ref: `SHP-${crypto.randomUUID().slice(0, 8)}`,
  external_code: "DDP-EXPRESS",
  incoterm: "DDP",
  transport_mode: "air",
  sender,
  receiver,
  parcels: [
    {
      weight_value: 1.5,
      barcode: "JD0001",
      items: [
        {
          sku: "TS-1",
          title: "Cotton T-shirt <b>",
          quantity: 3,
          unit_value: 12.5,
          currency_code: "GBP",
          country_of_origin: "PT",
          hs_code: "6109.10",
        },
        {
          sku: "MUG-2",
          title: "Ceramic mug",
          quantity: 2,
          unit_value: 7.25,
          currency_code: "GBP",
          country_of_origin: "GB",
          hs_code: "6912.00",
        },
      ],
    },
  ],
  ...over,
});

async function newFlow(api: Api, body: Record<string, unknown>) {
  const res = await api("/settings/flows", { json: { name: "Flow", ...body } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { flow: { id: number } }).flow;
}

async function create(api: Api, body: Record<string, unknown>) {
  const res = await api("/consignments", { json: body });
  return { res, body: (await res.json()) as any };
}

async function waitForRuns(consignmentId: string) {
  for (let i = 0; i < 200; i++) {
    const r = await env.DB.prepare("SELECT id, status FROM flow_runs WHERE consignment_id = ?")
      .bind(consignmentId)
      .all<{ id: string; status: string }>();
    if (r.results.length && r.results.every((x) => x.status !== "pending")) return r.results;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`flow runs of ${consignmentId} still pending`);
}

const json = async (res: Response) => (await res.json()) as any;

/** Rows still pointing at a consignment, by table (empty when none). */
async function childRows(consignmentId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    "consignment_parcels",
    "consignment_orders",
    "consignment_items",
    "consignment_events",
    "consignment_holds",
    "consignment_assessments",
    "consignment_documents",
    "consignment_pre_alerts",
    "flow_runs",
  ]) {
    const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE consignment_id = ?`)
      .bind(consignmentId)
      .first<{ n: number }>();
    if (row?.n) out[table] = row.n;
  }
  return out;
}

describe("flow definitions", () => {
  it("create, read, list, update and delete; 404 across workspaces", async () => {
    const { api } = await setup();
    const res = await api("/settings/flows", {
      json: {
        name: "Invoice DDP",
        external_code: "DDP-EXPRESS",
        actions: [
          { type: "generate_commercial_invoice", wait: true },
          { type: "add_tags", tags: ["ddp", "ddp"] },
        ],
      },
    });
    expect(res.status).toBe(201);
    const { flow } = await json(res);
    expect(flow).toEqual({
      id: expect.any(Number),
      name: "Invoice DDP",
      trigger: "consignment.created",
      external_code: "DDP-EXPRESS",
      actions: [
        { type: "generate_commercial_invoice", wait: true },
        { type: "add_tags", tags: ["ddp", "ddp"], wait: false },
      ],
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await json(await api(`/settings/flows/${flow.id}`))).flow).toEqual(flow);
    const patched = await api(`/settings/flows/${flow.id}`, {
      method: "PATCH",
      json: { enabled: false, external_code: null },
    });
    expect(patched.status).toBe(200);
    expect((await json(patched)).flow).toMatchObject({ enabled: false, external_code: null, name: "Invoice DDP" });
    const second = await newFlow(api, { actions: [{ type: "place_hold", reason: "check" }] });
    const page = await json(await api("/settings/flows?limit=1"));
    expect(page.flows.map((f: { id: number }) => f.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);
    const rest = await json(await api(`/settings/flows?limit=1&starting_after=${second.id}`));
    expect(rest.flows.map((f: { id: number }) => f.id)).toEqual([flow.id]);

    const other = await setup();
    expect((await other.api(`/settings/flows/${flow.id}`)).status).toBe(404);
    expect((await other.api(`/settings/flows/${flow.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(`/settings/flows/${flow.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/settings/flows/${flow.id}`)).status).toBe(404);
  });

  it("rejects bad definitions with 400 and field errors, and writes nothing", async () => {
    const { api, ws } = await setup();
    const bad = [
      [{ name: "x", actions: [] }, "actions"],
      [{ name: "x", actions: [{ type: "send_email" }] }, "actions.0.type"],
      [{ name: "x", actions: [{ type: "add_tags", tags: [] }] }, "actions.0.tags"],
      [{ name: "x", actions: [{ type: "add_tags", tags: ["<script>"] }] }, "actions.0.tags.0"],
      [{ name: "x", actions: [{ type: "place_hold", reason: "r", wait: "yes" }] }, "actions.0.wait"],
      [{ name: "x", actions: [{ type: "send_pre_alert" }] }, "actions.0.recipient"],
      [{ name: "x", trigger: "consignment.deleted", actions: [{ type: "place_hold", reason: "r" }] }, "trigger"],
      [{ name: "", actions: [{ type: "place_hold", reason: "r" }] }, "name"],
      [{ name: "x", actions: [{ type: "place_hold", reason: "r" }], extra: 1 }, ""],
    ] as const;
    for (const [body, field] of bad) {
      const res = await api("/settings/flows", { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const out = await json(res);
      if (field) expect(out.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const malformed = await api("/settings/flows", {
      body: "{not json",
      headers: { "content-type": "application/json" },
      method: "POST",
    });
    expect(malformed.status).toBe(400);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM flows WHERE workspace_id = ?")
      .bind(ws.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("needs settings:write to change flows and settings:read to see them", async () => {
    const { ws } = await setup();
    const reader = await getToken(ws, await createClient(ws, ["settings:read"]));
    const none = await getToken(ws, await createClient(ws, ["consignments:read"]));
    const post = await call("/admin/api/v1/settings/flows", {
      host: ws.host,
      token: reader,
      json: { name: "x", actions: [{ type: "place_hold", reason: "r" }] },
    });
    expect(post.status).toBe(403);
    expect((await json(post)).message).toBe("Missing scope: settings:write");
    expect((await call("/admin/api/v1/settings/flows", { host: ws.host, token: reader })).status).toBe(200);
    expect((await call("/admin/api/v1/settings/flows", { host: ws.host, token: none })).status).toBe(403);
  });
});

describe("background flows", () => {
  it("run after the create through the queue: tags, hold, invoice, pre-alert, recorded as a flow run in the archive", async () => {
    const { api } = await setup();
    await api("/settings/webhooks", {
      json: { url: "https://hooks.example.com/in", events: ["consignment.pre_alert"] },
    });
    const flow = await newFlow(api, {
      name: "DDP paperwork",
      external_code: "DDP-EXPRESS",
      actions: [
        { type: "add_tags", tags: ["ddp", "express"] },
        { type: "place_hold", reason: "Check DDP duty account", code: "DDP" },
        { type: "generate_commercial_invoice" },
        { type: "send_pre_alert", recipient: "broker@customs.example" },
      ],
    });
    const { res, body } = await create(api, consignment({ tags: ["web"] }));
    expect(res.status).toBe(201);
    // Background actions are not part of the response.
    expect(body.data.documents).toEqual([]);
    expect(body.data.flows).toBeUndefined();
    const id = body.data.consignment.id as string;

    const [run] = await waitForRuns(id);
    expect(run!.status).toBe("succeeded");

    const read = await json(await api(`/consignments/${id}`));
    expect(read.tags).toEqual(["web", "ddp", "express"]);

    const holds = await json(await api(`/consignments/${id}/holds`));
    expect(holds.holds).toEqual([
      {
        id: expect.stringMatching(/^hld_/),
        code: "DDP",
        reason: "Check DDP duty account",
        status: "active",
        source: "flow",
        flow_id: flow.id,
        placed_at: expect.any(String),
        released_at: null,
        release_reason: null,
      },
    ]);
    // The hold's webhook event went into the outbox with the run's effects.
    const placed = await env.DB.prepare("SELECT data FROM webhook_events WHERE type = 'hold.placed' AND data LIKE ?")
      .bind(`%${id}%`)
      .all<{ data: string }>();
    expect(placed.results.map((r) => JSON.parse(r.data))).toEqual([
      expect.objectContaining({ consignment_id: id, hold_id: holds.holds[0].id, code: "DDP", source: "flow" }),
    ]);

    const docs = await json(await api(`/consignments/${id}/documents`));
    expect(docs.documents).toHaveLength(1);
    const doc = docs.documents[0];
    expect(doc).toMatchObject({
      type: "commercial_invoice",
      content_type: "text/html; charset=utf-8",
      invoice_number: `CI-${body.data.consignment.shipment_ref}`,
      totals: { GBP: "52.00" },
      flow_id: flow.id,
    });
    const content = await api(doc.download_path);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await content.text();
    expect(html).toContain("Commercial invoice");
    expect(html).toContain("37.50 GBP"); // 3 × 12.5
    expect(html).toContain("14.50 GBP"); // 2 × 7.25
    expect(html).toContain("52.00 GBP");
    expect(html).toContain("Cotton T-shirt &lt;b&gt;"); // escaped, never markup
    expect(html).toContain("EORI: GB123456789000");
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(html))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    expect(doc.sha256).toBe(digest);

    const alerts = await json(await api(`/consignments/${id}/pre-alerts`));
    expect(alerts.pre_alerts).toHaveLength(1);
    expect(alerts.pre_alerts[0]).toMatchObject({
      recipient: "broker@customs.example",
      channel: "webhook",
      payload: {
        shipment_ref: body.data.consignment.shipment_ref,
        item_count: 2,
        declared_values: { GBP: "52" },
        hs_codes: ["610910", "691200"],
      },
    });
    expect(await json(await api(`/consignments/${id}/pre/alerts`))).toEqual(alerts);
    const event = await env.DB.prepare("SELECT type, data FROM webhook_events WHERE id = ?")
      .bind(alerts.pre_alerts[0].event_id)
      .first<{ type: string; data: string }>();
    expect(event!.type).toBe("consignment.pre_alert");
    expect(JSON.parse(event!.data)).toMatchObject({ consignment_id: id, recipient: "broker@customs.example" });
    const deliveries = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ?")
      .bind(alerts.pre_alerts[0].event_id)
      .first<{ n: number }>();
    expect(deliveries!.n).toBe(1);

    // The run is in the request archive under its UUIDv7, source flow, with its input as the body.
    const audit = await json(await api(`/requests/${run!.id}`));
    expect(audit.request).toMatchObject({
      id: run!.id,
      source: "flow",
      method: "RUN",
      http_status: 200,
      outcome: "completed",
      has_body: true,
    });
    expect(audit.refs).toContainEqual({ ref_type: "consignment_id", ref_value: id });
    const input = await json(await api(`/requests/${run!.id}/body`));
    expect(input).toMatchObject({ flow_id: flow.id, consignment_id: id, actions: expect.any(Array) });

    const events = await json(await api(`/consignments/${id}/events`));
    expect(events.events.map((e: { type: string }) => e.type)).toEqual([
      "consignment.created",
      "tags.added",
      "hold.placed",
      "document.generated",
      "pre_alert.sent",
    ]);
    expect(events.events[1].data).toMatchObject({
      tags: ["ddp", "express"],
      flow_id: flow.id,
      run_id: run!.id,
      inline: false,
    });
  });

  it("match on external_code; disabled flows and other codes do not run", async () => {
    const { api } = await setup();
    await newFlow(api, { external_code: "OTHER", actions: [{ type: "place_hold", reason: "x" }] });
    const off = await newFlow(api, { actions: [{ type: "place_hold", reason: "x" }] });
    await api(`/settings/flows/${off.id}`, { method: "PATCH", json: { enabled: false } });
    const { body } = await create(api, consignment());
    const runs = await env.DB.prepare("SELECT COUNT(*) AS n FROM flow_runs WHERE consignment_id = ?")
      .bind(body.data.consignment.id)
      .first<{ n: number }>();
    expect(runs!.n).toBe(0);
  });

  it("an action that cannot be carried out fails the run, says why, and keeps the other actions' effects", async () => {
    const { api } = await setup();
    await newFlow(api, { actions: [{ type: "generate_commercial_invoice" }, { type: "add_tags", tags: ["seen"] }] });
    const { res, body } = await create(api, consignment({ receiver: { country_code: "US" } }));
    expect(res.status).toBe(201);
    const id = body.data.consignment.id;
    const [run] = await waitForRuns(id);
    expect(run!.status).toBe("failed");
    const row = await env.DB.prepare("SELECT error, results FROM flow_runs WHERE id = ?")
      .bind(run!.id)
      .first<{ error: string; results: string }>();
    expect(row!.error).toContain("commercial invoice: receiver: company_name or contact.name is required");
    expect(JSON.parse(row!.results)).toEqual([
      { type: "generate_commercial_invoice", status: "failed", errors: expect.any(Array) },
      { type: "add_tags", status: "succeeded", tags_added: ["seen"] },
    ]);
    expect((await json(await api(`/consignments/${id}`))).tags).toEqual(["seen"]);
    expect((await json(await api(`/consignments/${id}/documents`))).documents).toEqual([]);
    const audit = await json(await api(`/requests/${run!.id}`));
    expect(audit.request).toMatchObject({
      source: "flow",
      http_status: 422,
      outcome: "failed",
      error_summary: expect.stringContaining("receiver"),
    });
    const timeline = await json(await api(`/consignments/${id}/timeline`));
    expect(timeline.timeline.map((t: { title: string }) => t.title)).toContain(
      "Flow action failed: generate_commercial_invoice",
    );
  });

  it("a run is claimed once: a second worker skips it; the cron sweep runs one whose enqueue was missed", async () => {
    const { api, ws } = await setup();
    const flow = await newFlow(api, { actions: [{ type: "add_tags", tags: ["swept"] }] });
    // A consignment created while the flow was off, then a pending run written as a missed enqueue would leave it.
    await api(`/settings/flows/${flow.id}`, { method: "PATCH", json: { enabled: false } });
    const { body } = await create(api, consignment());
    const id = body.data.consignment.id;
    const runId = systemIds.requestId();
    await env.DB.prepare(
      "INSERT INTO flow_runs (id, workspace_id, flow_id, flow_name, consignment_id, actions, status, attempt_count, next_attempt_at, created_at) VALUES (?, ?, ?, 'Flow', ?, ?, 'pending', 0, ?, ?)",
    )
      .bind(
        runId,
        ws.id,
        flow.id,
        id,
        JSON.stringify([{ type: "add_tags", tags: ["swept"], wait: false }]),
        Date.now() - 1000,
        new Date().toISOString(),
      )
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const [run] = await waitForRuns(id);
    expect(run).toMatchObject({ id: runId, status: "succeeded" });
    expect((await json(await api(`/consignments/${id}`))).tags).toEqual(["swept"]);
    // Already done: another worker (a duplicate message) finds nothing to claim.
    const again = await executeRun({
      ctx: baseContext(env, { clock: systemClock, ids: systemIds }),
      input: { runId },
    });
    expect(again).toEqual({ status: "skipped" });
    const tagEvents = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM consignment_events WHERE consignment_id = ? AND type = 'tags.added'",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(tagEvents!.n).toBe(1);
  });
});

describe("inline (wait) flow actions", () => {
  it("run inside the create: the invoice is in data.documents, tags on the consignment, results in data.flows", async () => {
    const { api } = await setup();
    const flow = await newFlow(api, {
      name: "Inline paperwork",
      actions: [
        { type: "generate_commercial_invoice", wait: true },
        { type: "add_tags", tags: ["invoiced"], wait: true },
        { type: "place_hold", reason: "later", wait: false },
      ],
    });
    const { res, body } = await create(api, consignment());
    expect(res.status).toBe(201);
    expect(Object.keys(body.data).sort()).toEqual(["consignment", "documents", "flows", "orders", "parcels"]);
    expect(body.data.consignment.tags).toEqual(["invoiced"]);
    expect(body.data.documents).toHaveLength(1);
    expect(body.data.documents[0]).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      type: "commercial_invoice",
      flow_id: flow.id,
    });
    expect(body.data.flows).toEqual([
      {
        flow_id: flow.id,
        name: "Inline paperwork",
        actions: [
          {
            type: "generate_commercial_invoice",
            status: "succeeded",
            document_id: body.data.documents[0].id,
            invoice_number: expect.any(String),
          },
          { type: "add_tags", status: "succeeded", tags_added: ["invoiced"] },
        ],
      },
    ]);
    const id = body.data.consignment.id;
    const content = await api(body.data.documents[0].download_path);
    expect(content.status).toBe(200);
    // The background part (the hold) still runs after.
    const [run] = await waitForRuns(id);
    expect(run!.status).toBe("succeeded");
    expect((await json(await api(`/consignments/${id}/holds`))).holds).toHaveLength(1);
    const events = await json(await api(`/consignments/${id}/events`));
    expect(events.events.map((e: { type: string }) => e.type)).toEqual([
      "consignment.created",
      "document.generated",
      "tags.added",
      "hold.placed",
    ]);
    expect(events.events[1].data.inline).toBe(true);
  });

  it("a failing wait action rolls the create back: 422 with its messages, no rows, no stored document", async () => {
    const { api, ws } = await setup();
    await newFlow(api, {
      name: "Tags first",
      actions: [
        { type: "add_tags", tags: ["x"], wait: true },
        { type: "generate_commercial_invoice", wait: true },
      ],
    });
    await newFlow(api, { name: "Invoice", actions: [{ type: "generate_commercial_invoice", wait: true }] });
    const before = await env.ARCHIVE.list({ prefix: `documents/${ws.id}/` });
    const payload = consignment({ receiver: { country_code: "US", city: "Austin" } });
    const res = await api("/consignments", { json: payload });
    expect(res.status).toBe(422);
    const out = await json(res);
    expect(Object.keys(out).sort()).toEqual([
      "error",
      "errors",
      "message",
      "request_id",
      "success",
      "validation_errors",
    ]);
    expect(out.errors).toContain(
      "flow 'Tags first' (" +
        out.errors[0].match(/\((\d+)\)/)[1] +
        ") generate_commercial_invoice: commercial invoice: receiver: company_name or contact.name is required",
    );
    expect(out.errors.join("\n")).toContain("flow 'Invoice'");
    expect(out.validation_errors).toEqual(out.errors.map((message: string) => ({ message })));
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM consignments WHERE workspace_id = ? AND shipment_ref = ?")
      .bind(ws.id, payload.shipment_ref)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
    for (const table of ["consignment_documents", "consignment_events", "flow_runs", "consignment_parcels"]) {
      const rows = await env.DB.prepare(
        `SELECT COUNT(*) AS n FROM ${table} WHERE ${table === "consignment_parcels" ? "consignment_id IN (SELECT id FROM consignments WHERE workspace_id = ?)" : "workspace_id = ?"}`,
      )
        .bind(ws.id)
        .first<{ n: number }>();
      expect(rows!.n, table).toBe(0);
    }
    const after = await env.ARCHIVE.list({ prefix: `documents/${ws.id}/` });
    expect(after.objects.length).toBe(before.objects.length);
  });
});

describe("holds and delete guards", () => {
  it("an active hold refuses deletion (409, recorded); released, the delete removes everything", async () => {
    const { api, ws } = await setup();
    await newFlow(api, { actions: [{ type: "generate_commercial_invoice", wait: true }] });
    const { body } = await create(api, consignment());
    const id = body.data.consignment.id;
    const placed = await api(`/consignments/${id}/holds`, {
      json: { reason: "Awaiting export licence", code: "LICENCE" },
    });
    expect(placed.status).toBe(201);
    const hold = (await json(placed)).hold;
    expect(hold).toMatchObject({
      id: expect.stringMatching(/^hld_/),
      status: "active",
      source: "api",
      code: "LICENCE",
      flow_id: null,
    });

    const refused = await api(`/consignments/${id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    const r = await json(refused);
    expect(r).toMatchObject({ success: false, error: "conflict" });
    expect(r.message).toContain("1 active hold(s)");
    expect((await api(`/consignments/${id}`)).status).toBe(200);

    const released = await api(`/consignments/${id}/holds/${hold.id}/release`, {
      json: { reason: "Licence received" },
    });
    expect(released.status).toBe(200);
    expect((await json(released)).hold).toMatchObject({
      status: "released",
      release_reason: "Licence received",
      released_at: expect.any(String),
    });
    expect((await api(`/consignments/${id}/holds/${hold.id}/release`, { json: {} })).status).toBe(409);
    expect((await json(await api(`/consignments/${id}/holds?status=active`))).holds).toEqual([]);
    expect((await json(await api(`/consignments/${id}/holds?status=released`))).holds).toHaveLength(1);

    const timeline = await json(await api(`/consignments/${id}/timeline`));
    expect(timeline.timeline.map((t: { title: string }) => t.title)).toEqual([
      "Consignment created",
      "Commercial invoice generated",
      "Hold placed",
      "Deletion refused",
      "Hold released",
    ]);
    expect(timeline.timeline[2]).toMatchObject({ detail: "[LICENCE] Awaiting export licence", actor: "api" });

    const docKey = (await env.DB.prepare("SELECT storage_key FROM consignment_documents WHERE consignment_id = ?")
      .bind(id)
      .first<{ storage_key: string }>())!.storage_key;
    expect(await env.ARCHIVE.head(docKey)).not.toBeNull();
    const del = await api(`/consignments/${id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ deleted: true, id });
    for (const table of [
      "consignment_holds",
      "consignment_documents",
      "consignment_events",
      "consignment_items",
      "flow_runs",
    ]) {
      const n = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE consignment_id = ?`)
        .bind(id)
        .first<{ n: number }>();
      expect(n!.n, table).toBe(0);
    }
    expect(await env.ARCHIVE.head(docKey)).toBeNull();
    expect((await api(`/consignments/${id}/holds`)).status).toBe(404);
    expect(ws.id).toBeTruthy();
  });

  it("guards are a workspace setting: [] allows deleting a held consignment; `assessed` keeps assessed ones", async () => {
    const { api } = await setup();
    const a = (await create(api, consignment())).body.data.consignment.id;
    await api(`/consignments/${a}/holds`, { json: { reason: "r" } });
    expect((await api("/settings", { method: "PATCH", json: { "consignments.delete_guards": [] } })).status).toBe(200);
    expect((await api(`/consignments/${a}`, { method: "DELETE" })).status).toBe(200);

    expect(
      (await api("/settings", { method: "PATCH", json: { "consignments.delete_guards": ["assessed"] } })).status,
    ).toBe(200);
    const b = (await create(api, consignment())).body.data.consignment.id;
    expect((await api(`/consignments/${b}/assessments`, { method: "POST" })).status).toBe(200);
    const refused = await api(`/consignments/${b}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toContain("1 stored duty assessment(s)");
    const bad = await api("/settings", { method: "PATCH", json: { "consignments.delete_guards": ["on_friday"] } });
    expect(bad.status).toBe(400);
  });

  it("of 20 concurrent deletes of one consignment exactly one succeeds; the others are 404", async () => {
    const { api } = await setup();
    await newFlow(api, { actions: [{ type: "generate_commercial_invoice", wait: true }] });
    const id = (await create(api, consignment())).body.data.consignment.id;
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => api(`/consignments/${id}`, { method: "DELETE" }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(19);
    expect(await childRows(id)).toEqual({});
  });

  it("holds and assessments racing a delete never outlive the consignment", async () => {
    const { api } = await setup();
    for (const guards of [[], ["active_holds"], ["assessed"]]) {
      expect((await api("/settings", { method: "PATCH", json: { "consignments.delete_guards": guards } })).status).toBe(
        200,
      );
      // The delete starts a little after the assessments (which read, price, then commit) and around the holds.
      for (const [round, deleteAfterMs] of [2, 4, 6, 8, 10].entries()) {
        const id = (await create(api, consignment())).body.data.consignment.id;
        const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
        const assessments = Array.from({ length: 6 }, (_, ms) =>
          later(ms)
            .then(() => api(`/consignments/${id}/assessments`, { method: "POST" }))
            .then((r) => r.status),
        );
        const deletion = later(deleteAfterMs)
          .then(() => api(`/consignments/${id}`, { method: "DELETE" }))
          .then((r) => r.status);
        const holds = [0, 3, 6, 10, 20].map((ms, i) =>
          later(ms)
            .then(() => api(`/consignments/${id}/holds`, { json: { reason: `race ${i}` } }))
            .then((r) => r.status),
        );
        const [held, assessed, deleted] = await Promise.all([Promise.all(holds), Promise.all(assessments), deletion]);
        for (const s of [...held, ...assessed]) expect([200, 201, 404]).toContain(s);
        expect([200, 409]).toContain(deleted);
        const exists = (await api(`/consignments/${id}`)).status === 200;
        expect(exists).toBe(deleted === 409);
        if (!exists) expect(await childRows(id), `guards ${guards} round ${round}`).toEqual({});
        // A webhook goes out for exactly the assessments that were answered 200.
        const hooks = await env.DB.prepare(
          "SELECT COUNT(*) AS n FROM webhook_events WHERE type = 'duties.calculated' AND data LIKE ?",
        )
          .bind(`%${id}%`)
          .first<{ n: number }>();
        expect(hooks?.n).toBe(assessed.filter((s) => s === 200).length);
      }
    }
  });

  it("hold routes validate input and scope, and 404 other workspaces' and other customers' consignments", async () => {
    const { api, ws } = await setup();
    const id = (await create(api, consignment())).body.data.consignment.id;
    expect((await api(`/consignments/${id}/holds`, { json: { reason: "" } })).status).toBe(400);
    expect((await api(`/consignments/${id}/holds`, { json: { reason: "x", note: 1 } })).status).toBe(400);
    expect((await api(`/consignments/${id}/holds/hld_nope/release`, { json: {} })).status).toBe(404);
    expect((await api(`/consignments/con_nope/holds`)).status).toBe(404);
    const other = await setup();
    for (const path of ["holds", "documents", "pre-alerts", "pre/alerts", "events", "timeline"]) {
      expect((await other.api(`/consignments/${id}/${path}`)).status, path).toBe(404);
    }
    expect((await other.api(`/consignments/${id}/holds`, { json: { reason: "x" } })).status).toBe(404);
    // A client pinned to a customer sees only that customer's consignments.
    const customer = await insertCustomer(ws, "Pinned Co");
    const pinned = await getToken(ws, await createClient(ws, ["consignments:read", "consignments:write"], customer));
    expect((await call(`/admin/api/v1/consignments/${id}/events`, { host: ws.host, token: pinned })).status).toBe(404);
    expect(
      (await call(`/admin/api/v1/consignments/${id}/holds`, { host: ws.host, token: pinned, json: { reason: "x" } }))
        .status,
    ).toBe(404);
    const reader = await getToken(ws, await createClient(ws, ["consignments:read"]));
    expect(
      (await call(`/admin/api/v1/consignments/${id}/holds`, { host: ws.host, token: reader, json: { reason: "x" } }))
        .status,
    ).toBe(403);
    expect((await call(`/admin/api/v1/consignments/${id}/holds`, { host: ws.host, token: reader })).status).toBe(200);
  });
});

describe("events and timeline", () => {
  it("page by event id, oldest first", async () => {
    const { api } = await setup();
    const id = (await create(api, consignment())).body.data.consignment.id;
    for (const reason of ["one", "two", "three"]) await api(`/consignments/${id}/holds`, { json: { reason } });
    const first = await json(await api(`/consignments/${id}/events?limit=2`));
    expect(first.events.map((e: { type: string }) => e.type)).toEqual(["consignment.created", "hold.placed"]);
    expect(first.has_more).toBe(true);
    const next = await json(await api(`/consignments/${id}/events?limit=2&starting_after=${first.events[1].id}`));
    expect(next.events.map((e: { data: { reason: string } }) => e.data.reason)).toEqual(["two", "three"]);
    expect(next.has_more).toBe(false);
    const tl = await json(await api(`/consignments/${id}/timeline?limit=1`));
    expect(tl.timeline).toEqual([
      {
        at: expect.any(String),
        event_id: first.events[0].id,
        type: "consignment.created",
        title: "Consignment created",
        detail: expect.stringContaining("1 parcel(s), 2 item(s)"),
        actor: "api",
      },
    ]);
    expect((await api(`/consignments/${id}/events?limit=0`)).status).toBe(400);
  });
});
