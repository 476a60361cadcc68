import { describe, expect, it } from "vitest";
import { commercialInvoice, type InvoiceInput } from "./commercial-invoice";

const base: InvoiceInput = {
  shipmentRef: "SHP-1",
  consignmentId: "con_1",
  date: "2026-11-22",
  incoterm: "DAP",
  invoiceNumber: null,
  sender: {
    company_name: "Acme",
    address_1: "1 High St",
    city: "London",
    country_code: "GB",
    tax_duty: { eori_id: "GB1", vat_id: null },
  },
  receiver: { contact: { name: "Jo" }, address_1: "5 Main", city: "Osaka", country_code: "JP" },
  items: [
    {
      sku: "A",
      title: "Tea",
      description: null,
      quantity: 3,
      unitValue: "0.333",
      currency: "JPY",
      hsCode: "0902",
      origin: "JP",
      weightKg: null,
    },
    {
      sku: "B",
      title: null,
      description: "Cup & saucer",
      quantity: 1,
      unitValue: "10.5",
      currency: "EUR",
      hsCode: null,
      origin: "DE",
      weightKg: null,
    },
  ],
  charges: [{ label: "shipping charge", amount: "4.5", currency: "EUR" }],
  parcelCount: 1,
  grossWeightKg: "1.2",
};

describe("commercial invoice", () => {
  it("totals per currency in the currency's minor units; unit values as declared; text escaped", () => {
    const out = commercialInvoice(base);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.invoiceNumber).toBe("CI-SHP-1");
    expect(out.totals).toEqual({ JPY: "1", EUR: "10.50" });
    expect(out.html).toContain("0.333 JPY");
    expect(out.html).toContain("Cup &amp; saucer");
    expect(out.html).toContain("4.50 EUR");
    expect(out.html).toContain("EORI: GB1");
    expect(out.html).not.toContain("VAT:");
    expect(out.html).toContain("Terms of delivery (Incoterm): DAP");
  });

  it("names every reason it cannot be made", () => {
    const out = commercialInvoice({
      ...base,
      sender: null,
      receiver: { country_code: "JP" },
      items: [{ ...base.items[0]!, title: null, currency: null }],
    });
    expect(out).toEqual({
      ok: false,
      errors: [
        "commercial invoice: sender: the consignment has no sender",
        "commercial invoice: receiver: company_name or contact.name is required",
        "commercial invoice: receiver: address_1 and city are required",
        "commercial invoice: item 1 (A): a title or description is required",
        "commercial invoice: item 1 (A): currency_code is required (on the item or its order)",
      ],
    });
    expect(commercialInvoice({ ...base, items: [] })).toEqual({
      ok: false,
      errors: ["commercial invoice: items: the consignment has no items to invoice"],
    });
  });
});
