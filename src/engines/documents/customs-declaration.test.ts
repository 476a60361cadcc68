import { describe, expect, it } from "vitest";
import { pdfPages } from "../../../test/pdf-text";
import { categoryOf, customsDeclarationPdf, type DeclarationInput, prepareDeclaration } from "./customs-declaration";

const item = (over: Partial<DeclarationInput["items"][number]> = {}): DeclarationInput["items"][number] => ({
  description: "Men's cotton T-shirt",
  quantity: 2,
  unitValue: "10.10",
  currency: "GBP",
  weightKg: "0.2",
  hsCode: "6109.10",
  origin: "PT",
  natureType: null,
  ...over,
});

const base: DeclarationInput = {
  consignmentId: "con_1",
  shipmentRef: "SHP-1",
  date: "2026-11-27",
  sender: { company_name: "Acme Ltd", address_1: "1 High St", city: "London", country_code: "GB" },
  receiver: {
    contact: { name: "Jo Buyer", phone: "+1 555 0100" },
    address_1: "5 Main St",
    city: "Austin",
    country_code: "US",
    tax_duty: { tax_id: "US-TAX-1" },
  },
  natureType: "sale_of_goods",
  items: [item(), item({ description: "Wool scarf", quantity: 1, unitValue: "0.2", hsCode: "6117.10", origin: "GB" })],
  grossWeightKg: "0.75",
  postalCharges: { amount: "4.5", currency: "GBP" },
  invoiceNumber: "INV-9",
  licences: [],
  certificates: [],
  officeOfOrigin: null,
  trackingNumbers: [],
};

describe("UPU code list 136 categories", () => {
  it.each([
    ["11", "sale_of_goods"],
    ["21", "returned_goods"],
    ["31", "gift"],
    ["32", "commercial_sample"],
    ["91", "documents"],
    ["9", "other"],
    ["gift", "gift"],
    ["Sale of goods", "sale_of_goods"],
    ["SALE_GOODS", "sale_of_goods"],
    ["sale", "sale_of_goods"],
    ["returned", "returned_goods"],
    ["sample", "commercial_sample"],
    ["RETURN_GOODS", "returned_goods"],
    ["commercial-sample", "commercial_sample"],
    ["OTHERS", "other"],
    ["99", null],
    ["present", null],
    ["", null],
  ])("%j → %s", (value, category) => {
    expect(categoryOf(value)).toBe(category);
  });
});

describe("customs declaration", () => {
  it("totals in exact decimals: 2 × 10.10 + 0.2 is 20.40, weights 0.2 × 2 + 0.2 is 0.600 kg", () => {
    const out = prepareDeclaration(base);
    if (!out.ok) throw new Error(out.errors.join("; "));
    const d = out.declaration;
    expect(d.totalValue.toFixed(2)).toBe("20.40");
    expect(d.netWeightKg.toFixed(3)).toBe("0.600");
    expect(d.categories).toEqual(["sale_of_goods"]);
    expect(d.categoryCodes).toEqual(["11"]);
  });

  it.each([
    ["nothing asked, value in GBP", {}, "CN23", "default_cn23"],
    ["CN22 asked", { form: "CN22" }, "CN22", "requested"],
    ["CN23 asked", { form: "CN23" }, "CN23", "requested"],
    [
      "value in SDR within 300",
      { items: [item({ currency: "XDR", unitValue: "150" })] },
      "CN22",
      "value_within_300_sdr",
    ],
    ["value in SDR above 300", { items: [item({ currency: "XDR", unitValue: "150.01" })] }, "CN23", "default_cn23"],
    [
      "in SDR but 2.5 kg",
      { grossWeightKg: "2.5", items: [item({ currency: "XDR", unitValue: "1" })] },
      "CN23",
      "default_cn23",
    ],
    [
      "five lines in SDR",
      { items: Array.from({ length: 5 }, () => item({ currency: "XDR", unitValue: "1" })) },
      "CN23",
      "default_cn23",
    ],
  ] as [string, Partial<DeclarationInput>, string, string][])("%s → %s (%s)", (_, over, form, rule) => {
    const out = prepareDeclaration({ ...base, ...over });
    if (!out.ok) throw new Error(out.errors.join("; "));
    expect([out.declaration.form, out.declaration.formRule]).toEqual([form, rule]);
  });

  it("refuses a CN 22 the rules exclude, and names every problem of the data", () => {
    const heavy = prepareDeclaration({ ...base, form: "CN22", grossWeightKg: "2.001" });
    expect(heavy).toEqual({
      ok: false,
      errors: [
        "customs declaration: form: a CN 22 cannot be used: gross weight 2.001 kg (a small packet is at most 2 kg); use the CN 23",
      ],
    });
    const bad = prepareDeclaration({
      ...base,
      natureType: null,
      receiver: null,
      items: [
        item({ natureType: "present", weightKg: null }),
        item({ natureType: "31", description: null, currency: "EUR" }),
        item(),
      ],
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors).toEqual([
      expect.stringContaining("item 1: nature_type 'present' is not a UPU code list 136 category: 11 (sale_of_goods)"),
      "customs declaration: item 1: weight is required (the form declares each article's net weight)",
      "customs declaration: item 2: a title or description is required",
      expect.stringContaining("item 3: nature_type is required (on the item or the consignment)"),
      "customs declaration: items: one currency per declaration (the form has one total value); found GBP, EUR",
      "customs declaration: receiver: the consignment has no receiver",
    ]);
  });

  it("draws a 4 × 6 in CN 22 with its lines, boxes and totals", async () => {
    const out = prepareDeclaration({ ...base, form: "CN22", items: [...base.items, item({ natureType: "gift" })] });
    if (!out.ok) throw new Error(out.errors.join("; "));
    const { doc, text } = await pdfPages(await customsDeclarationPdf(out.declaration, "2026-11-27T10:00:00Z"));
    expect(doc.getPageCount()).toBe(1);
    expect([doc.getPage(0).getWidth(), doc.getPage(0).getHeight()]).toEqual([288, 432]);
    expect(doc.getKeywords()).toBe("CN22 CL136:31 CL136:11");
    const page = text[0] ?? "";
    for (const s of ["CN 22", "6109.10", "6117.10", "PT", "2 x Men's cotton T-shirt", "40.60 GBP", "0.750", "Gift"])
      expect(page).toContain(s);
    expect(page).toContain("Date and sender's signature (8)");
  });

  it("draws an A4 CN 23 with parties, postal charges, invoice number, and continuation sheets", async () => {
    const many = Array.from({ length: 30 }, (_, n) => item({ description: `Article ${n + 1}`, quantity: 1 }));
    const out = prepareDeclaration({ ...base, items: many });
    if (!out.ok) throw new Error(out.errors.join("; "));
    const { doc, text } = await pdfPages(await customsDeclarationPdf(out.declaration, "2026-11-27T10:00:00Z"));
    // 12 lines on the form, the other 18 on one continuation sheet.
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(0).getWidth()).toBeCloseTo(595.28);
    const [first = "", second = ""] = text;
    for (const s of [
      "CN 23",
      "Business: Acme Ltd",
      "Name: Jo Buyer",
      "TAX US-TAX-1",
      "4.50 GBP",
      "INV-9",
      "303.00 GBP",
    ])
      expect(first).toContain(s);
    expect(first).toContain("Article 12");
    expect(first).not.toContain("Article 13");
    expect(second).toContain("Article 13");
    expect(second).toContain("Article 30");
  });
});
