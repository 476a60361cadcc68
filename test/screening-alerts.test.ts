/**
 * Ongoing screening with the real bindings: parties of stored consignments are filed and screened by the cron
 * steps, a hit opens an alert (and a `screening.match` event), an officer clears or confirms it, a cleared pair
 * stays quiet after a list change unless the listed entry itself changed, and a confirmed alert holds the
 * party's consignments.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { baseContext } from "../src/core/context";
import { resetDatasetCaches } from "../src/core/dataset-cache";
import { systemIds } from "../src/lib/ids";
import { discoverParties, rescreenParties } from "../src/modules/screening/service";
import add from "./fixtures/datasets/add.csv?raw";
import alt from "./fixtures/datasets/alt.csv?raw";
import sdn from "./fixtures/datasets/sdn.csv?raw";
import {
  ADMIN_TOKEN,
  call,
  createClient,
  getToken,
  insertCustomer,
  loadDataset,
  sampleConsignment,
  setup,
} from "./helpers";

const json = async (res: Response) => (await res.json()) as any;
// The cron's clock, past the discovery lag, so parties created a moment ago are filed.
const later = { clock: { now: () => Date.now() + 60_000 }, ids: systemIds };
const cron = async () => {
  const ctx = baseContext(env, later);
  await discoverParties({ ctx, input: {} });
  let n = 0;
  for (let i = 0; i < 10; i++) {
    const screened = await rescreenParties({ ctx, input: {} });
    n += screened;
    if (!screened) break;
  }
  return n;
};

async function uploadSdn(sdnText: string, version: string) {
  const form = new FormData();
  form.append("sdn", new File([sdnText], "sdn.csv"));
  form.append("alt", new File([alt], "alt.csv"));
  form.append("add", new File([add], "add.csv"));
  const r = new Response(form);
  const bytes = new Uint8Array(await r.arrayBuffer());
  const res = await call(`/platform/v1/datasets/sanctions-sdn/versions?activate=true&force=true&version=${version}`, {
    method: "POST",
    token: ADMIN_TOKEN,
    body: bytes,
    headers: { "content-type": r.headers.get("content-type") as string, "content-length": String(bytes.byteLength) },
  });
  expect(res.status).toBe(202);
  for (let i = 0; i < 200; i++) {
    const v = await json(await call(`/platform/v1/datasets/sanctions-sdn/versions/${version}`, { token: ADMIN_TOKEN }));
    if (v.dataset_version.status === "active") return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${version} not active`);
}

describe("ongoing screening", () => {
  it("files and screens stored parties, opens alerts, and keeps a cleared pair quiet until the entry changes", async () => {
    resetDatasetCaches();
    await loadDataset("sanctions", { fixture: true });
    const { ws, api } = await setup();
    const created = await api("/consignments", {
      json: {
        ...sampleConsignment("SCREEN-1"),
        receiver: { company_name: "Banco Nacional de Cuba", address_1: "1 Calle", city: "Havana", country_code: "CU" },
      },
    });
    expect(created.status).toBe(201);
    const consignmentId = (await json(created)).data.consignment.id;
    await insertCustomer(ws, "Ordinary Trading GmbH");

    expect(await cron()).toBeGreaterThanOrEqual(3);
    const page = await json(await api("/screening/alerts?status=open"));
    expect(page.alerts).toHaveLength(1);
    const alert = page.alerts[0];
    expect(alert).toMatchObject({
      status: "open",
      entry_id: "SDN:306",
      list_code: "SDN",
      score: 1,
      party: { name: "Banco Nacional de Cuba", country_code: "CU" },
    });
    expect(alert.match.explanation).toBeTruthy();
    const events = await env.DB.prepare(
      "SELECT type, data FROM webhook_events WHERE workspace_id = ? AND type = 'screening.match'",
    )
      .bind(ws.id)
      .all<{ type: string; data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data).alert_id)).toEqual([alert.id]);
    // Nothing new on a second pass: every party is screened against the current lists.
    expect(await cron()).toBe(0);

    const bad = await api(`/screening/alerts/${alert.id}/decision`, { json: { decision: "maybe", reason: "x" } });
    expect(bad.status).toBe(400);
    const cleared = await api(`/screening/alerts/${alert.id}/decision`, {
      json: { decision: "cleared", reason: "Different bank: ours is a Havana branch of another group" },
    });
    expect(cleared.status).toBe(200);
    expect((await json(cleared)).alert).toMatchObject({ status: "cleared", held_consignments: [] });
    const again = await api(`/screening/alerts/${alert.id}/decision`, { json: { decision: "confirmed", reason: "x" } });
    expect(again.status).toBe(409);

    // A new list version with the same entry: every party is screened again, the cleared pair stays quiet.
    await uploadSdn(sdn, "same-306");
    expect(await cron()).toBeGreaterThanOrEqual(3);
    expect((await json(await api("/screening/alerts?status=open"))).alerts).toEqual([]);

    // The listed entry changes (its remarks): the pair is raised again, and confirming it holds the consignment.
    await uploadSdn(sdn.replace("a.k.a. 'BNC'.", "a.k.a. 'BNC'; amended."), "changed-306");
    await cron();
    const reopened = (await json(await api("/screening/alerts?status=open"))).alerts;
    expect(reopened).toHaveLength(1);
    expect(reopened[0].id).not.toBe(alert.id);
    const confirmed = await json(
      await api(`/screening/alerts/${reopened[0].id}/decision`, {
        json: { decision: "confirmed", reason: "Same bank" },
      }),
    );
    expect(confirmed.alert).toMatchObject({ status: "confirmed", held_consignments: [consignmentId] });
    const holds = await env.DB.prepare("SELECT code, status FROM consignment_holds WHERE consignment_id = ?")
      .bind(consignmentId)
      .all();
    expect(holds.results).toEqual([{ code: "screening", status: "active" }]);
    const placed = await env.DB.prepare(
      "SELECT data FROM webhook_events WHERE workspace_id = ? AND type = 'hold.placed'",
    )
      .bind(ws.id)
      .all<{ data: string }>();
    expect(placed.results.map((r) => JSON.parse(r.data))).toEqual([
      expect.objectContaining({ consignment_id: consignmentId, code: "screening", source: "screening" }),
    ]);
    const one = await json(await api(`/screening/alerts/${reopened[0].id}`));
    expect(one.alert.status).toBe("confirmed");
  });

  it("alerts stay in their workspace; pinned clients and missing scopes are refused", async () => {
    await loadDataset("sanctions", { fixture: true });
    const a = await setup();
    await a.api("/consignments", {
      json: {
        ...sampleConsignment("SCREEN-2"),
        receiver: { company_name: "Banco Nacional de Cuba", address_1: "1 Calle", city: "Havana", country_code: "CU" },
      },
    });
    await cron();
    const [alert] = (await json(await a.api("/screening/alerts"))).alerts;
    expect(alert).toBeTruthy();

    const b = await setup();
    expect((await b.api(`/screening/alerts/${alert.id}`)).status).toBe(404);
    const foreign = await b.api(`/screening/alerts/${alert.id}/decision`, {
      json: { decision: "cleared", reason: "x" },
    });
    expect(foreign.status).toBe(404);
    expect((await json(await b.api("/screening/alerts"))).alerts).toEqual([]);

    const customerId = await insertCustomer(a.ws, "Pinned Co");
    const pinned = await getToken(a.ws, await createClient(a.ws, ["screen:read"], customerId));
    const asPinned = await call("/admin/api/v1/screening/alerts", { host: a.ws.host, token: pinned });
    expect(asPinned.status).toBe(403);
    const noScope = await getToken(a.ws, await createClient(a.ws, ["consignments:read"]));
    expect((await call("/admin/api/v1/screening/alerts", { host: a.ws.host, token: noScope })).status).toBe(403);
    expect((await a.api("/screening/alerts/not-an-id")).status).toBe(400);
  });
});
