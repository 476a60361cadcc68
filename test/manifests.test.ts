/**
 * Manifests through the Worker with the real bindings: create, add, remove, close (a real PDF in R2), events,
 * the consignment delete guard, and bad input, scopes, pinned clients and another workspace's ids.
 */
import { env } from "cloudflare:workers";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call, createClient, getToken, insertCustomer, sampleConsignment, setup } from "./helpers";

const json = async (res: Response) => (await res.json()) as any;

// Manifest events go out through the real webhook queue: the receiver is stubbed at the fetch boundary.
beforeAll(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
});

async function consignment(api: Awaited<ReturnType<typeof setup>>["api"], ref: string) {
  const res = await api("/consignments", { json: sampleConsignment(ref) });
  expect(res.status).toBe(201);
  return (await json(res)).data.consignment.id as string;
}

describe("manifests", () => {
  it("create, add, remove, close with a PDF; a closed manifest is frozen; events go out", async () => {
    const { ws, api } = await setup();
    await api("/settings/webhooks", { json: { url: "https://hooks.example.com/m", events: ["manifest.*"] } });
    const [a, b, c] = [await consignment(api, "M-1"), await consignment(api, "M-2"), await consignment(api, "M-3")];

    const created = await api("/manifests", {
      json: { consignment_ids: [a, b, a], carrier: "Royal Mail", reference: "RM-001" },
    });
    expect(created.status).toBe(201);
    const m = (await json(created)).manifest;
    expect(m).toMatchObject({ status: "open", carrier: "Royal Mail", consignment_count: 2, document: null });
    expect(m.consignment_ids).toEqual([a, b].sort());

    const added = await json(await api(`/manifests/${m.id}/consignments`, { json: { consignment_ids: [c] } }));
    expect(added.manifest.consignment_count).toBe(3);
    const removed = await json(await api(`/manifests/${m.id}/consignments/${b}`, { method: "DELETE" }));
    expect(removed.manifest.consignment_ids).toEqual([a, c].sort());
    expect((await api(`/manifests/${m.id}/consignments/${b}`, { method: "DELETE" })).status).toBe(404);

    // The delete guard: a consignment on a manifest stays; one taken off it can go.
    const refused = await api(`/consignments/${a}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toContain(m.id);
    expect((await api(`/consignments/${b}`, { method: "DELETE" })).status).toBe(200);

    const closed = await api(`/manifests/${m.id}/close`, { method: "POST" });
    expect(closed.status).toBe(200);
    const cm = (await json(closed)).manifest;
    expect(cm).toMatchObject({ status: "closed", consignment_count: 2 });
    expect(cm.document.content_type).toBe("application/pdf");
    const pdf = await api(`/manifests/${m.id}/document`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(bytes.byteLength).toBe(cm.document.size);
    const parsed = await PDFDocument.load(bytes);
    expect(parsed.getPageCount()).toBe(1);
    expect(parsed.getTitle()).toBe(`Manifest ${m.id}`);

    // Frozen: no add, no remove, no second close; the delete guard still holds.
    expect((await api(`/manifests/${m.id}/consignments`, { json: { consignment_ids: [c] } })).status).toBe(409);
    expect((await api(`/manifests/${m.id}/consignments/${a}`, { method: "DELETE" })).status).toBe(409);
    expect((await api(`/manifests/${m.id}/close`, { method: "POST" })).status).toBe(409);
    expect((await api(`/consignments/${c}`, { method: "DELETE" })).status).toBe(409);

    const events = await env.DB.prepare(
      "SELECT type FROM webhook_events WHERE workspace_id = ? AND type LIKE 'manifest.%' ORDER BY created_at",
    )
      .bind(ws.id)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toEqual(["manifest.created", "manifest.closed"]);
    const deliveries = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE workspace_id = ? AND event_type LIKE 'manifest.%'",
    )
      .bind(ws.id)
      .first<{ n: number }>();
    expect(deliveries?.n).toBe(2);

    const list = await json(await api("/manifests?status=closed"));
    expect(list.manifests.map((x: any) => [x.id, x.consignment_count])).toEqual([[m.id, 2]]);
  });

  it("a consignment is on one manifest at a time; unknown and foreign ids are refused", async () => {
    const mine = await setup();
    const other = await setup();
    const a = await consignment(mine.api, "N-1");
    const theirs = await consignment(other.api, "N-2");
    const first = (await json(await mine.api("/manifests", { json: { consignment_ids: [a] } }))).manifest;
    const again = await mine.api("/manifests", { json: { consignment_ids: [a] } });
    expect(again.status).toBe(409);
    expect((await json(again)).message).toContain(first.id);

    const foreign = await mine.api("/manifests", { json: { consignment_ids: [theirs] } });
    expect(foreign.status).toBe(422);
    expect((await mine.api("/manifests", { json: { consignment_ids: [] } })).status).toBe(400);
    expect((await mine.api("/manifests", { json: { consignment_ids: [a], extra: 1 } })).status).toBe(400);
    expect((await mine.api("/manifests", { body: "{", headers: { "content-type": "application/json" } })).status).toBe(
      400,
    );
    expect((await other.api(`/manifests/${first.id}`)).status).toBe(404);
    expect((await other.api(`/manifests/${first.id}/close`, { method: "POST" })).status).toBe(404);
    expect((await mine.api("/manifests/not-a-manifest")).status).toBe(400);

    const empty = (await json(await other.api("/manifests", { json: { consignment_ids: [theirs] } }))).manifest;
    await other.api(`/manifests/${empty.id}/consignments/${theirs}`, { method: "DELETE" });
    expect((await other.api(`/manifests/${empty.id}/close`, { method: "POST" })).status).toBe(422);
    expect((await other.api(`/manifests/${empty.id}/document`)).status).toBe(404);
  });

  it("scopes and customer-pinned clients", async () => {
    const { ws } = await setup();
    const reader = await getToken(ws, await createClient(ws, ["consignments:read"]));
    const asReader = await call("/admin/api/v1/manifests", {
      host: ws.host,
      token: reader,
      json: { consignment_ids: ["con_x"] },
    });
    expect(asReader.status).toBe(403);
    expect((await call("/admin/api/v1/manifests", { host: ws.host, token: reader })).status).toBe(200);
    const pinned = await getToken(ws, await createClient(ws, ["consignments:read"], await insertCustomer(ws, "P")));
    expect((await call("/admin/api/v1/manifests", { host: ws.host, token: pinned })).status).toBe(403);
  });

  it("holds more consignments than D1 binds parameters in one statement, and closes with a multi-page PDF", async () => {
    const { api } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 130; i++) ids.push(await consignment(api, `BIG-${i}`));
    const m = (await json(await api("/manifests", { json: { consignment_ids: ids } }))).manifest;
    expect(m.consignment_count).toBe(130);
    const closed = await json(await api(`/manifests/${m.id}/close`, { method: "POST" }));
    expect(closed.manifest.status).toBe("closed");
    const pdf = await PDFDocument.load(new Uint8Array(await (await api(`/manifests/${m.id}/document`)).arrayBuffer()));
    expect(pdf.getPageCount()).toBeGreaterThan(1);
  }, 60_000);
});
