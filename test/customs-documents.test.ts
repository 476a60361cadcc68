/**
 * Customs declarations (UPU CN 22 / CN 23) and the commercial invoice as PDFs, with the real bindings: made on
 * demand and by flow actions, listed under the consignment's documents, downloaded with their content type and
 * read back with pdf-lib (page size, and the text really drawn on the page).
 */
import { describe, expect, it } from "vitest";
import { call, createClient, getToken, sampleConsignment, setup } from "./helpers";
import { pdfPages } from "./pdf-text";

const json = async (res: Response) => (await res.json()) as any;
type Api = Awaited<ReturnType<typeof setup>>["api"];

/** The sample GB → US parcel, declarable: two articles with weights, a nature_type and postage. */
function declarable(ref: string, over: { currency?: string; tshirtValue?: number; natureType?: string } = {}) {
  const s = sampleConsignment(ref);
  const currency = over.currency ?? "GBP";
  const [parcel] = s.parcels;
  const tshirt = { ...parcel?.items[0], unit_value: over.tshirtValue ?? 10, currency_code: currency, weight: 0.3 };
  const scarf = {
    sku: "S2",
    title: "Silk scarf",
    quantity: 2,
    unit_value: 4.25,
    currency_code: currency,
    country_of_origin: "IT",
    hs_code: "6214.10",
    weight: 0.05,
    nature_type: "gift",
  };
  return {
    ...s,
    nature_type: over.natureType ?? "sale",
    shipping: { amount: 3.2, currency_code: currency },
    parcels: [{ ...parcel, weight_value: 0.5, items: [tshirt, scarf] }],
  };
}

async function consignment(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api("/consignments", { json: body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return (await json(res)).data.consignment.id;
}

const make = (api: Api, id: string, body: Record<string, unknown>) =>
  api(`/consignments/${id}/documents`, { method: "POST", json: body });

/** Downloads a listed document and checks it is the PDF that was stored. */
async function download(api: Api, doc: { download_path: string; size: number; content_type: string }) {
  const res = await api(doc.download_path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe(doc.content_type);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(bytes.byteLength).toBe(doc.size);
  return bytes;
}

describe("customs declarations", () => {
  it("a CN 22 when asked: 4 × 6 in, listed, downloadable as application/pdf, with its lines drawn", async () => {
    const { api } = await setup();
    const id = await consignment(api, declarable("CD-1"));
    const res = await make(api, id, { type: "customs_declaration", form: "CN22" });
    expect(res.status).toBe(201);
    const { document, message } = await json(res);
    expect(message).toBe("Customs declaration generated");
    expect(document).toMatchObject({
      type: "customs_declaration",
      content_type: "application/pdf",
      form: "CN22",
      form_rule: "requested",
      categories: ["gift", "sale_of_goods"],
      category_codes: ["31", "11"],
      // 1 × 10 + 2 × 4.25, in exact decimals.
      totals: { GBP: "18.50" },
      flow_id: null,
    });
    expect(document.form_reason).toMatch(/not converted to SDR/);

    const listed = (await json(await api(`/consignments/${id}/documents`))).documents;
    expect(listed).toEqual([document]);
    const { doc, text } = await pdfPages(await download(api, document));
    expect(doc.getPageCount()).toBe(1);
    expect([doc.getPage(0).getWidth(), doc.getPage(0).getHeight()]).toEqual([288, 432]);
    for (const s of ["CN 22", "610910", "621410", "PT", "IT", "1 x Cotton T-shirt", "2 x Silk scarf", "18.50 GBP"])
      expect(text[0]).toContain(s);

    const events = (await json(await api(`/consignments/${id}/events`))).events;
    expect(events.find((e: any) => e.type === "document.generated")?.data).toEqual({
      document_id: document.id,
      type: "customs_declaration",
      form: "CN22",
      form_rule: "requested",
    });
    const timeline = (await json(await api(`/consignments/${id}/timeline`))).timeline;
    expect(timeline.at(-1)).toMatchObject({
      title: "Customs declaration generated",
      detail: `CN22 (document ${document.id})`,
    });
  });

  it("the CN 23 by default (no SDR rate to compare GBP with 300 SDR): A4, parties, postage", async () => {
    const { api } = await setup();
    const id = await consignment(api, declarable("CD-2"));
    const { document } = await json(await make(api, id, { type: "customs_declaration" }));
    expect(document).toMatchObject({ form: "CN23", form_rule: "default_cn23", content_type: "application/pdf" });
    const { doc, text } = await pdfPages(await download(api, document));
    expect(doc.getPageCount()).toBe(1);
    expect(Math.round(doc.getPage(0).getWidth())).toBe(595);
    for (const s of ["CN 23", "Business: Acme Ltd", "Business: Buyer Inc", "3.20 GBP", "18.50 GBP", "621410"])
      expect(text[0]).toContain(s);
  });

  it("a value declared in SDR: within 300 SDR the CN 22 is chosen, above it the CN 23 (and a CN 22 is refused)", async () => {
    const { api } = await setup();
    const low = await consignment(api, declarable("CD-3", { currency: "XDR", tshirtValue: 291.5 }));
    expect((await json(await make(api, low, { type: "customs_declaration" }))).document).toMatchObject({
      form: "CN22",
      form_rule: "value_within_300_sdr",
      totals: { XDR: "300.00" },
    });
    const high = await consignment(api, declarable("CD-4", { currency: "XDR", tshirtValue: 291.51 }));
    expect((await json(await make(api, high, { type: "customs_declaration" }))).document).toMatchObject({
      form: "CN23",
      form_rule: "default_cn23",
    });
    const refused = await make(api, high, { type: "customs_declaration", form: "CN22" });
    expect(refused.status).toBe(422);
    expect((await json(refused)).errors).toEqual([
      { field: "form", message: "a CN 22 cannot be used: value 300.01 XDR (above 300 SDR); use the CN 23" },
    ]);
  });

  it("an unknown nature_type is a 422 naming the accepted UPU code list 136 values, and nothing is stored", async () => {
    const { api } = await setup();
    const id = await consignment(api, declarable("CD-5", { natureType: "present" }));
    const res = await make(api, id, { type: "customs_declaration" });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error).toBe("unprocessable");
    expect(body.errors).toEqual([
      {
        field: "item 1",
        message: expect.stringMatching(
          /^nature_type 'present' is not a UPU code list 136 category: 11 \(sale_of_goods\), 21/,
        ),
      },
    ]);
    expect((await json(await api(`/consignments/${id}/documents`))).documents).toEqual([]);
  });
});

describe("commercial invoice", () => {
  it("as a PDF by default, as HTML when asked, from the same figures", async () => {
    const { api } = await setup();
    const id = await consignment(api, declarable("CI-1"));
    const res = await make(api, id, { type: "commercial_invoice" });
    expect(res.status).toBe(201);
    const pdf = (await json(res)).document;
    expect(pdf).toMatchObject({
      type: "commercial_invoice",
      content_type: "application/pdf",
      invoice_number: "CI-CI-1",
      totals: { GBP: "18.50" },
    });
    const { doc, text } = await pdfPages(await download(api, pdf));
    expect(doc.getPageCount()).toBe(1);
    for (const s of ["Commercial invoice", "Invoice number: CI-CI-1", "610910", "Silk scarf", "18.50 GBP", "3.20 GBP"])
      expect(text[0]).toContain(s);

    const html = (await json(await make(api, id, { type: "commercial_invoice", format: "html" }))).document;
    expect(html).toMatchObject({ content_type: "text/html; charset=utf-8", totals: pdf.totals });
    expect(await (await api(html.download_path)).text()).toContain("18.50 GBP");
    const listed = (await json(await api(`/consignments/${id}/documents`))).documents;
    expect(listed.map((d: any) => d.content_type)).toEqual(["application/pdf", "text/html; charset=utf-8"]);
  });
});

describe("flow actions", () => {
  it("inline, the declaration and both invoice formats are in the create's 201 data.documents", async () => {
    const { api } = await setup();
    const flow = await api("/settings/flows", {
      json: {
        name: "Customs paperwork",
        actions: [
          { type: "generate_customs_declaration", form: "CN22", wait: true },
          { type: "generate_commercial_invoice", format: "pdf", wait: true },
          // Without `format`, as every flow stored before it existed: HTML.
          { type: "generate_commercial_invoice", wait: true },
        ],
      },
    });
    expect(flow.status).toBe(201);
    const created = await json(await api("/consignments", { json: declarable("FL-1") }));
    const docs = created.data.documents;
    expect(docs.map((d: any) => [d.type, d.content_type])).toEqual([
      ["customs_declaration", "application/pdf"],
      ["commercial_invoice", "application/pdf"],
      ["commercial_invoice", "text/html; charset=utf-8"],
    ]);
    expect(docs[0]).toMatchObject({ form: "CN22", form_rule: "requested", flow_id: (await json(flow)).flow.id });
    expect(created.data.flows[0].actions[0]).toEqual({
      type: "generate_customs_declaration",
      status: "succeeded",
      document_id: docs[0].id,
      form: "CN22",
    });
    const { text } = await pdfPages(await download(api, docs[0]));
    expect(text[0]).toContain("621410");
  });

  it("inline, a consignment whose nature_type is unknown is rejected with 422 and nothing is written", async () => {
    const { api } = await setup();
    await api("/settings/flows", {
      json: { name: "Declare", actions: [{ type: "generate_customs_declaration", wait: true }] },
    });
    const res = await api("/consignments", { json: declarable("FL-2", { natureType: "present" }) });
    expect(res.status).toBe(422);
    expect(JSON.stringify((await json(res)).errors)).toMatch(
      /generate_customs_declaration: customs declaration: item 1: nature_type 'present'/,
    );
    const list = await json(await api("/consignments?shipment_ref=FL-2"));
    expect(list.consignments).toEqual([]);
  });
});

describe("validation and security", () => {
  it("bad bodies → 400; unknown or another workspace's consignment → 404; no consignments:write → 403", async () => {
    const { ws, api } = await setup();
    const id = await consignment(api, declarable("SEC-1"));
    for (const body of [
      {},
      { type: "packing_list" },
      { type: "commercial_invoice", form: "CN22" },
      { type: "customs_declaration", format: "pdf" },
      { type: "customs_declaration", form: "CN24" },
    ])
      expect((await make(api, id, body)).status).toBe(400);
    expect((await make(api, "con_00000000000070008000000000000000", { type: "customs_declaration" })).status).toBe(404);
    const other = await setup();
    expect((await make(other.api, id, { type: "customs_declaration" })).status).toBe(404);
    expect((await make(other.api, id, { type: "commercial_invoice" })).status).toBe(404);
    const reader = await getToken(ws, await createClient(ws, ["consignments:read"]));
    const res = await call(`/admin/api/v1/consignments/${id}/documents`, {
      host: ws.host,
      token: reader,
      json: { type: "customs_declaration" },
    });
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe("Missing scope: consignments:write");
    expect((await json(await api(`/consignments/${id}/documents`))).documents).toEqual([]);
  });
});
