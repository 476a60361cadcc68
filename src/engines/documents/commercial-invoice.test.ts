import { describe, expect, it } from "vitest";
import { pdfPages } from "../../../test/pdf-text";
import { commercialInvoice, type InvoiceInput, invoiceModel } from "./commercial-invoice";
import { commercialInvoicePdf } from "./commercial-invoice-pdf";

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

  it("as a PDF: the same lines and totals as the HTML, continued on further A4 pages", async () => {
    const items = Array.from({ length: 70 }, (_, n) => ({ ...base.items[1]!, sku: `B${n + 1}` }));
    const made = invoiceModel({ ...base, items });
    if (!made.ok) throw new Error(made.errors.join("; "));
    const { doc, text } = await pdfPages(await commercialInvoicePdf(made.model, "2026-11-22T09:00:00Z"));
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getTitle()).toBe("Commercial invoice CI-SHP-1");
    const all = text.join("\n");
    expect(all).toContain("EORI: GB1");
    expect(all).toContain("B70");
    // 70 × 10.5 EUR, and the shipping charge, once each, on the last page.
    expect(text[1]).toContain("735.00 EUR");
    expect(text[1]).toContain("4.50 EUR");
    const html = commercialInvoice({ ...base, items });
    expect(html.ok && html.html).toContain("735.00 EUR");
  });
});
