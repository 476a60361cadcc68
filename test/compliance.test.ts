/**
 * The consignment compliance pass with the real bindings and data: screening (fixture lists), restrictions
 * (platform rules and an organization rule), classification of an uncoded item and the landed cost (fixture
 * tariffs), one stored check with each engine's run id and dataset version, holds by the workspace policy,
 * their release with a reason, the webhook events, the PDF summary, the inline flow action, and the security
 * cases (scopes, another workspace's ids, a customer-pinned client).
 */
import { env } from "cloudflare:workers";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { decide } from "../src/engines/compliance/policy";
import { createClient, getToken, insertCustomer, loadDataset, sampleConsignment, setup } from "./helpers";

const json = async (res: Response) => (await res.json()) as any;

beforeAll(async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
  await loadDataset("sanctions", { fixture: true });
  await loadDataset("restrictions");
  for (const d of ["tariffs", "vat", "fx", "customs_rules", "hs"]) await loadDataset(d, { fixture: true });
}, 180_000);

type Api = Awaited<ReturnType<typeof setup>>["api"];

/** A US import with a sanctioned importer of record, an uncoded ivory carving and a licensed toy. */
const troubled = (ref: string) => {
  const body = sampleConsignment(ref) as any;
  return {
    ...body,
    supporting_agents: {
      importer_of_record: { company_name: "Banco Nacional de Cuba", city: "Havana", country_code: "CU" },
    },
    parcels: [
      {
        weight_value: 2,
        items: [
          ...body.parcels[0].items,
          {
            sku: "IV-1",
            title: "Hand-carved ivory figurine",
            quantity: 1,
            unit_value: 80,
            currency_code: "GBP",
            country_of_origin: "IN",
          },
          {
            sku: "TOY-1",
            title: "Plastic toy construction set",
            quantity: 2,
            unit_value: 15,
            currency_code: "GBP",
            country_of_origin: "CN",
            hs_code: "9503.00",
          },
        ],
      },
    ],
  };
};

async function licensedToys(api: Api) {
  const res = await api("/restrict/rules", {
    json: {
      title: "Toy import permit",
      rule_type: "restriction",
      measure_direction: "IMPORT",
      imposing_country_code: "US",
      hs_code: "9503",
      requirement: "required",
    },
  });
  expect(res.status).toBe(201);
}

const create = async (api: Api, body: unknown) => {
  const res = await api("/consignments", { json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data.consignment.id as string;
};

describe("compliance policy (pure)", () => {
  const policy = { holds: true, screeningHoldScore: 0.85 };
  const party = (score: number) => ({
    role: "receiver",
    name: "X",
    matches: [{ score, list_code: "SDN", entry_name: "X", matched_name: "X" }],
  });
  const goods = (rule_type: any, requirement: any) => ({
    item_id: "i",
    label: "1",
    matches: [
      { id: "r", rule_type, requirement, title: "T", imposing_country_code: "US", measure_direction: "IMPORT" },
    ],
  });
  const empty = { parties: [], goods: [], classifications: [], gaps: [] };

  it("holds at the hold score, warns below it", () => {
    expect(decide({ ...empty, parties: [party(0.85)] }, policy).holds.map((h) => h.code)).toEqual(["screening"]);
    const low = decide({ ...empty, parties: [party(0.84)] }, policy);
    expect(low).toMatchObject({ outcome: "release", holds: [] });
    expect(low.warnings[0]).toContain("below the hold score 0.85");
    expect(decide({ ...empty, parties: [party(0.9)] }, { ...policy, screeningHoldScore: 0.95 }).holds).toEqual([]);
  });

  it("a prohibition and a required licence hold; may-be-required and observations warn", () => {
    const d = decide(
      {
        ...empty,
        goods: [
          goods("prohibition", null),
          goods("restriction", "required"),
          goods("restriction", "may_be_required"),
          goods("observation", null),
        ],
      },
      policy,
    );
    expect(d.holds.map((h) => h.code)).toEqual(["prohibited_goods", "licence_required"]);
    expect(d.warnings).toHaveLength(2);
    expect(d.outcome).toBe("hold");
  });

  it("a low-confidence or missing suggestion and the gaps are warnings, never holds", () => {
    const d = decide(
      {
        ...empty,
        classifications: [
          { item_id: "a", label: "1", code: "950300", confidence: "low", error: null },
          { item_id: "b", label: "2", code: "610910", confidence: "high", error: null },
          { item_id: "c", label: "3", code: null, confidence: null, error: "no text" },
        ],
        gaps: ["Landed cost was not quoted: no tariff"],
      },
      policy,
    );
    expect(d).toMatchObject({ outcome: "release", holds: [] });
    expect(d.warnings).toHaveLength(3);
  });
});

describe("POST /consignments/{id}/compliance-check", () => {
  it("a clean consignment is released: every engine ran, with its run id and dataset version", async () => {
    const { ws, api } = await setup();
    const id = await create(api, sampleConsignment("CC-CLEAN"));
    const res = await api(`/consignments/${id}/compliance-check`, { method: "POST" });
    expect(res.status).toBe(201);
    const { compliance_check: check } = await json(res);
    expect(check).toMatchObject({ consignment_id: id, outcome: "release", holds: [], source: "api" });
    expect(check.id).toMatch(/^cck_/);
    expect(check.policy).toEqual({ holds: "on", screening_hold_score: 0.85 });
    const parts = [check.screening, check.restrictions, check.classification, check.landed_cost];
    expect(parts.map((p: any) => p.status)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(new Set(parts.map((p: any) => p.run_id)).size).toBe(4);
    for (const p of parts) expect(p.run_id).toMatch(/^run_/);
    expect(check.screening.data_source.version).toBeTruthy();
    expect(check.screening.result.parties.map((p: any) => p.role)).toEqual(["sender", "receiver"]);
    expect(check.restrictions.data_source.version).toBeTruthy();
    expect(check.landed_cost.data_source.version).toContain("fixture");
    expect(check.landed_cost.result).toMatchObject({ destination_country: "US", currency: "USD" });

    const list = await json(await api(`/consignments/${id}/compliance-checks`));
    expect(list.compliance_checks.map((c: any) => c.id)).toEqual([check.id]);
    expect(list.has_more).toBe(false);
    const one = await json(await api(`/consignments/${id}/compliance-checks/${check.id}`));
    expect(one.compliance_check).toEqual(check);
    const timeline = await json(await api(`/consignments/${id}/timeline`));
    expect(timeline.timeline.map((t: any) => t.title)).toContain("Compliance check: release");
    const events = await env.DB.prepare("SELECT data FROM webhook_events WHERE workspace_id = ? AND type = ?")
      .bind(ws.id, "compliance.checked")
      .all<{ data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data))).toEqual([
      {
        consignment_id: id,
        shipment_ref: "CC-CLEAN",
        external_code: null,
        check_id: check.id,
        outcome: "release",
        hold_ids: [],
        warning_count: check.warnings.length,
      },
    ]);

    const pdf = await api(`/consignments/${id}/compliance-checks/${check.id}/document`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const doc = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(doc.getTitle()).toBe(`Compliance check ${check.id}`);
    expect(doc.getSubject()).toContain(": release");
  });

  it("holds a sanctioned party, prohibited goods and a required licence; releases need a reason", async () => {
    const { ws, api } = await setup();
    await licensedToys(api);
    const id = await create(api, troubled("CC-HOLD"));
    const res = await api(`/consignments/${id}/compliance-check`, { method: "POST" });
    expect(res.status).toBe(201);
    const { compliance_check: check } = await json(res);
    expect(check.outcome).toBe("hold");
    // The ivory is both prohibited (African elephant) and under the CITES permit rule; the toy under the org's rule.
    expect(check.holds.map((h: any) => h.code).sort()).toEqual([
      "licence_required",
      "licence_required",
      "prohibited_goods",
      "screening",
    ]);
    expect(check.holds.find((h: any) => h.reason.includes("TOY-1")).reason).toContain("Toy import permit");
    const screened = check.screening.result.parties.find((p: any) => p.role === "importer_of_record");
    expect(screened.matches[0]).toMatchObject({ list_code: "SDN", score: 1 });
    // The ivory carving came without a code: the classifier suggested one and the quote priced it.
    const classified = check.classification.result.items;
    expect(classified).toHaveLength(1);
    expect(classified[0].code).toMatch(/^\d{6,}/);
    expect(check.holds.find((h: any) => h.code === "screening").reason).toContain("Banco Nacional de Cuba");

    const holds = (await json(await api(`/consignments/${id}/holds?status=active`))).holds;
    expect(holds).toHaveLength(4);
    expect(holds.every((h: any) => h.source === "compliance")).toBe(true);
    const placed = await env.DB.prepare("SELECT count(*) AS n FROM webhook_events WHERE workspace_id = ? AND type = ?")
      .bind(ws.id, "hold.placed")
      .first<{ n: number }>();
    expect(placed?.n).toBe(4);

    const screeningHold = check.holds.find((h: any) => h.code === "screening");
    const release = (reason?: string) =>
      api(`/consignments/${id}/holds/${screeningHold.hold_id}/release`, {
        method: "POST",
        ...(reason ? { json: { reason } } : {}),
      });
    const bare = await release();
    expect(bare.status).toBe(422);
    expect((await json(bare)).message).toContain("needs a reason");
    expect((await release("Different bank: verified with the broker")).status).toBe(200);
    expect((await release("again")).status).toBe(409);
    const released = await env.DB.prepare("SELECT data FROM webhook_events WHERE workspace_id = ? AND type = ?")
      .bind(ws.id, "hold.released")
      .all<{ data: string }>();
    expect(released.results.map((e) => JSON.parse(e.data))).toEqual([
      {
        consignment_id: id,
        shipment_ref: "CC-HOLD",
        external_code: null,
        hold_id: screeningHold.hold_id,
        code: "screening",
        reason: "Different bank: verified with the broker",
      },
    ]);
    // A delete is refused while the other holds stand (the default delete guard).
    expect((await api(`/consignments/${id}`, { method: "DELETE" })).status).toBe(409);
  });

  it("with holds off the outcome is recorded and nothing is held; the hold score is the workspace's", async () => {
    const { api } = await setup();
    const id = await create(api, troubled("CC-OFF"));
    const patched = await api("/settings", { method: "PATCH", json: { "compliance.holds": "off" } });
    expect(patched.status).toBe(200);
    const { compliance_check: check } = await json(
      await api(`/consignments/${id}/compliance-check`, { method: "POST" }),
    );
    expect(check).toMatchObject({ outcome: "hold", holds: [], policy: { holds: "off" } });
    expect((await json(await api(`/consignments/${id}/holds`))).holds).toEqual([]);
    const bad = await api("/settings", { method: "PATCH", json: { "compliance.screening_hold_score": 0.5 } });
    expect(bad.status).toBe(400);
  });

  it("parts that cannot run are recorded as not run, with the reason, and the rest still runs", async () => {
    const { api } = await setup();
    const body = sampleConsignment("CC-NODEST") as any;
    const id = await create(api, { ...body, receiver: { ...body.receiver, country_code: undefined } });
    const { compliance_check: check } = await json(
      await api(`/consignments/${id}/compliance-check`, { method: "POST" }),
    );
    expect(check.screening.status).toBe("completed");
    expect(check.restrictions).toMatchObject({ status: "not_run", result: null });
    expect(check.restrictions.reason).toContain("No receiver country");
    expect(check.landed_cost.status).toBe("not_run");
    expect(check.warnings.join(" ")).toContain("restrictions were not checked");
  });

  it("runs inline as a flow action at create: the check and its holds are in the 201", async () => {
    const { api } = await setup();
    const flow = await api("/settings/flows", {
      json: { name: "Compliance at create", actions: [{ type: "compliance_check", wait: true }] },
    });
    expect(flow.status).toBe(201);
    const res = await api("/consignments", { json: troubled("CC-FLOW") });
    expect(res.status).toBe(201);
    const { data } = await json(res);
    const action = data.flows[0].actions[0];
    expect(action).toMatchObject({ type: "compliance_check", status: "succeeded", outcome: "hold" });
    expect(action.holds.map((h: any) => h.code)).toContain("screening");
    const id = data.consignment.id;
    const checks = (await json(await api(`/consignments/${id}/compliance-checks`))).compliance_checks;
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ id: action.check_id, source: "flow" });
    const holds = (await json(await api(`/consignments/${id}/holds`))).holds;
    expect(holds.map((h: any) => h.id).sort()).toEqual(action.holds.map((h: any) => h.hold_id).sort());
  });

  it("refuses unknown ids, other workspaces' consignments, missing scopes and another customer's consignment", async () => {
    const a = await setup();
    const b = await setup();
    const mine = await create(a.api, sampleConsignment("CC-SEC"));
    expect((await a.api("/consignments/con_nope/compliance-check", { method: "POST" })).status).toBe(404);
    expect((await b.api(`/consignments/${mine}/compliance-check`, { method: "POST" })).status).toBe(404);
    const { compliance_check: check } = await json(
      await a.api(`/consignments/${mine}/compliance-check`, { method: "POST" }),
    );
    for (const path of [
      `/consignments/${mine}/compliance-checks`,
      `/consignments/${mine}/compliance-checks/${check.id}`,
      `/consignments/${mine}/compliance-checks/${check.id}/document`,
    ])
      expect((await b.api(path)).status, path).toBe(404);
    expect((await a.api(`/consignments/${mine}/compliance-checks/cck_nope`)).status).toBe(404);

    const reader = await createClient(a.ws, ["consignments:read"]);
    const readToken = await getToken(a.ws, reader);
    const asReader = (path: string, method = "GET") => a.api(path, { method, token: readToken });
    expect((await asReader(`/consignments/${mine}/compliance-check`, "POST")).status).toBe(403);
    expect((await asReader(`/consignments/${mine}/compliance-checks`)).status).toBe(200);

    const customer = await insertCustomer(a.ws, "Other customer");
    const pinned = await createClient(a.ws, ["consignments:read", "consignments:write"], customer);
    const pinnedToken = await getToken(a.ws, pinned);
    const asPinned = (path: string, method = "GET") => a.api(path, { method, token: pinnedToken });
    expect((await asPinned(`/consignments/${mine}/compliance-check`, "POST")).status).toBe(404);
    expect((await asPinned(`/consignments/${mine}/compliance-checks`)).status).toBe(404);
  });
});
