import { describe, expect, it } from "vitest";
import { extractRefs } from "./extract";

describe("extractRefs", () => {
  it("finds the identifiers of a consignment create in both payload shapes", () => {
    const body = {
      shipment_ref: "SHP-1001",
      external_code: "PLAN-A",
      references: { external_order_code: "EO-9", sender_ukims_number: "XIUKIM123" },
      orders: [{ order_ref: "ORD-1", invoice_number: "INV-7" }],
      parcels: [
        { barcode: "JD0001", items: [{ order_ref: "ORD-1", sku: "SKU-1" }] },
        { tracking_number: "1Z999", orders: [{ order_ref: "ORD-2", items: [] }] },
      ],
    };
    expect(extractRefs(body)).toEqual([
      { ref_type: "shipment_ref", ref_value: "SHP-1001" },
      { ref_type: "external_code", ref_value: "PLAN-A" },
      { ref_type: "external_order_code", ref_value: "EO-9" },
      { ref_type: "sender_ukims_number", ref_value: "XIUKIM123" },
      { ref_type: "order_ref", ref_value: "ORD-1" },
      { ref_type: "invoice_number", ref_value: "INV-7" },
      { ref_type: "tracking_number", ref_value: "JD0001" },
      { ref_type: "tracking_number", ref_value: "1Z999" },
      { ref_type: "order_ref", ref_value: "ORD-2" },
    ]);
  });

  it.each([
    ["not an object", "hello", []],
    ["null", null, []],
    ["empty and blank values", { shipment_ref: "", barcode: "   " }, []],
    ["non-string values", { shipment_ref: { nested: true }, barcode: true }, []],
    ["numbers become strings", { declaration_number: 12345 }, [{ ref_type: "declaration_ref", ref_value: "12345" }]],
    ["duplicates collapse", [{ barcode: "A" }, { barcode: "A" }], [{ ref_type: "tracking_number", ref_value: "A" }]],
    ["over-long values are skipped", { shipment_ref: "x".repeat(201) }, []],
  ])("%s", (_n, body, expected) => {
    expect(extractRefs(body)).toEqual(expected);
  });

  it("is bounded on huge bodies", () => {
    const parcels = Array.from({ length: 5000 }, (_, i) => ({ barcode: `B${i}` }));
    expect(extractRefs({ parcels })).toHaveLength(500);
  });
});
