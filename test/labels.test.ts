/**
 * Labels with the real bindings: S10 numbers from the workspace's range, one 4 × 6 in PDF page per parcel with
 * a Code 128 barcode (bwip-js and pdf-lib inside workerd), the label listed under the consignment's documents,
 * cancel and re-issue, and bad input, scopes and another workspace's ids.
 */
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { code128Bars } from "../src/engines/carriers/code128";
import { isS10, s10CheckDigit, s10Identifier } from "../src/engines/carriers/s10";
import { call, createClient, getToken, sampleConsignment, setup } from "./helpers";

const json = async (res: Response) => (await res.json()) as any;

describe("S10 and Code 128", () => {
  it("computes the S10 check digit (UPU S10 example RR 47312482 9 GB) with the 10→0 and 11→5 rules", () => {
    expect(s10CheckDigit("47312482")).toBe(9);
    expect(s10Identifier("RR", 47312482, "GB")).toBe("RR473124829GB");
    expect(isS10("RR473124829GB")).toBe(true);
    expect(isS10("RR473124828GB")).toBe(false);
    // Sum ≡ 1 (mod 11) gives 10, written 0 (8×7 = 56 ≡ 1); sum ≡ 0 gives 11, written 5.
    expect(s10CheckDigit("00000008")).toBe(0);
    expect(s10CheckDigit("00000000")).toBe(5);
    expect(() => s10CheckDigit("1234")).toThrow(RangeError);
  });

  it("encodes a tracking number as Code 128 bars inside workerd", () => {
    const bars = code128Bars("CP000000015GB");
    expect(bars.bars.length).toBeGreaterThan(20);
    expect(bars.width).toBeGreaterThan(100);
  });
});

describe("labels", () => {
  it("issues S10 numbers and a PDF label per parcel, listed with the documents; cancel and re-issue", async () => {
    const { api } = await setup();
    const body = sampleConsignment("L-1");
    const two = { ...body, parcels: [body.parcels[0], body.parcels[0]] };
    const con = (await json(await api("/consignments", { json: two }))).data.consignment.id;

    const res = await api(`/consignments/${con}/labels`, { method: "POST" });
    expect(res.status).toBe(201);
    const { labels } = await json(res);
    expect(labels).toMatchObject({ carrier: "postal", service: "CP" });
    expect(labels.parcels).toHaveLength(2);
    for (const p of labels.parcels) expect(isS10(p.tracking_number)).toBe(true);
    // The sender is in GB: the first two serials of the workspace's CP range.
    expect(labels.parcels.map((p: any) => p.tracking_number)).toEqual([
      s10Identifier("CP", 0, "GB"),
      s10Identifier("CP", 1, "GB"),
    ]);

    const docs = await json(await api(`/consignments/${con}/documents`));
    const label = docs.documents.find((d: any) => d.type === "label");
    expect(label).toBeTruthy();
    const pdf = await api(`/consignments/${con}/documents/${label.id}/content`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const parsed = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(parsed.getPageCount()).toBe(2);
    const [w, h] = [parsed.getPage(0).getWidth(), parsed.getPage(0).getHeight()];
    expect([Math.round(w), Math.round(h)]).toEqual([288, 432]);

    expect((await api(`/consignments/${con}/labels`, { method: "POST" })).status).toBe(409);
    const cancelled = await json(await api(`/consignments/${con}/labels`, { method: "DELETE" }));
    expect(cancelled.cancelled).toEqual(labels.parcels.map((p: any) => p.tracking_number));
    expect((await api(`/consignments/${con}/labels`, { method: "DELETE" })).status).toBe(409);
    // Re-issued numbers come after the cancelled ones: the range never hands a number out twice.
    const again = (await json(await api(`/consignments/${con}/labels`, { method: "POST", json: { service: "RR" } })))
      .labels;
    expect(again.parcels.map((p: any) => p.tracking_number)).toEqual([
      s10Identifier("RR", 0, "GB"),
      s10Identifier("RR", 1, "GB"),
    ]);
    const cp = await json(
      await api(
        `/consignments/${(await json(await api("/consignments", { json: sampleConsignment("L-2") }))).data.consignment.id}/labels`,
        { method: "POST" },
      ),
    );
    expect(cp.labels.parcels[0].tracking_number).toBe(s10Identifier("CP", 2, "GB"));
  });

  it("refuses unknown carriers and services, other workspaces' ids and missing scopes", async () => {
    const { ws, api } = await setup();
    const con = (await json(await api("/consignments", { json: sampleConsignment("L-3") }))).data.consignment.id;
    const unknown = await api(`/consignments/${con}/labels`, { method: "POST", json: { carrier: "dhl-express" } });
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).message).toMatch(/Unknown carrier/);
    expect((await api(`/consignments/${con}/labels`, { method: "POST", json: { service: "ZZ" } })).status).toBe(422);
    expect((await api(`/consignments/${con}/labels`, { method: "POST", json: { service: "cp" } })).status).toBe(400);
    expect((await api(`/consignments/${con}/labels`, { method: "POST", json: { extra: 1 } })).status).toBe(400);
    const other = await setup();
    expect((await other.api(`/consignments/${con}/labels`, { method: "POST" })).status).toBe(404);
    const reader = await getToken(ws, await createClient(ws, ["consignments:read"]));
    expect(
      (await call(`/admin/api/v1/consignments/${con}/labels`, { method: "POST", host: ws.host, token: reader })).status,
    ).toBe(403);
  });

  it("a generate_label flow action: inline it puts tracking numbers on the 201's parcels, a bad carrier rejects the create", async () => {
    const { api } = await setup();
    const flow = await api("/settings/flows", {
      json: { name: "Label everything", actions: [{ type: "generate_label", wait: true }] },
    });
    expect(flow.status).toBe(201);
    const body = {
      ...sampleConsignment("L-4"),
      parcels: [{ ...sampleConsignment("L-4").parcels[0], barcode: "OWN-1" }],
    };
    const created = await json(await api("/consignments", { json: body }));
    const [parcel] = created.data.parcels;
    expect(parcel.barcode).toBe("OWN-1");
    expect(isS10(parcel.tracking_number)).toBe(true);
    expect(created.data.documents.map((d: any) => d.type)).toEqual(["label"]);
    expect(created.data.documents[0].tracking_numbers).toEqual([parcel.tracking_number]);
    // The labels are stored: a second issue is refused until they are cancelled.
    expect((await api(`/consignments/${created.data.consignment.id}/labels`, { method: "POST" })).status).toBe(409);

    const flowId = (await json(flow)).flow.id;
    await api(`/settings/flows/${flowId}`, {
      method: "PATCH",
      json: { actions: [{ type: "generate_label", carrier: "no-such-carrier", wait: true }] },
    });
    const rejected = await api("/consignments", { json: sampleConsignment("L-5") });
    expect(rejected.status).toBe(422);
    expect(JSON.stringify(await json(rejected))).toContain("Unknown carrier");
  });
});
