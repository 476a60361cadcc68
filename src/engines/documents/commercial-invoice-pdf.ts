/**
 * The commercial invoice as an A4 PDF, drawn from the same computed invoice as the HTML one
 * (./commercial-invoice.ts `invoiceModel`), so both renderings always carry the same lines and totals.
 */
import { PDFDocument } from "pdf-lib";
import { dec, formatMoney } from "../../lib/money";
import { type InvoiceModel, partyLines } from "./commercial-invoice";
import { type Canvas, canvas, standardFonts } from "./pdf-canvas";

const [W, H] = [595.28, 841.89];
// Columns: #, description, SKU, HS code, origin, quantity, unit value, line value (right edge 565).
const COLS = [30, 48, 220, 285, 345, 380, 410, 485, 565];
const HEAD = ["#", "Description", "SKU", "HS code", "Origin", "Qty", "Unit value", "Line value"];

function header(c: Canvas, m: InvoiceModel): number {
  const { input } = m;
  c.text("Commercial invoice", 30, H - 50, { size: 16, bold: true });
  const facts = [
    `Invoice number: ${m.invoiceNumber}`,
    `Date: ${input.date}`,
    `Shipment reference: ${input.shipmentRef}`,
    `Consignment: ${input.consignmentId}`,
    `Terms of delivery (Incoterm): ${input.incoterm ?? "not stated"}`,
    `Packages: ${input.parcelCount}; gross weight ${input.grossWeightKg} kg`,
  ];
  facts.forEach((f, i) => {
    c.text(f, 30, H - 72 - i * 11, { size: 9, width: 535 });
  });
  const top = H - 72 - facts.length * 11 - 6;
  const parties: [string, string[]][] = [
    ["Seller / exporter", partyLines(m.sender)],
    ["Buyer / consignee", partyLines(m.receiver)],
  ];
  parties.forEach(([title, lines], i) => {
    const x = 30 + i * 267.5;
    c.box(x, top, 267.5, 96);
    c.text(title, x + 4, top - 11, { size: 8, bold: true });
    lines.slice(0, 7).forEach((l, j) => {
      c.text(l, x + 4, top - 23 - j * 10, { size: 8, width: 258 });
    });
  });
  return top - 110;
}

function tableHead(c: Canvas, y: number) {
  HEAD.forEach((h, i) => {
    c.text(h, (COLS[i] as number) + 2, y, { size: 8, bold: true });
  });
}

/** One goods line; returns its height (a line with a detail takes two rows). */
function row(c: Canvas, m: InvoiceModel, n: number, y: number): number {
  const l = m.lines[n];
  if (!l) return 0;
  const cells = [
    String(n + 1),
    l.name,
    l.sku ?? "",
    l.hsCode ?? "",
    l.origin ?? "",
    String(l.quantity),
    `${l.unitValue} ${l.currency}`,
    formatMoney(l.lineValue, l.currency),
  ];
  cells.forEach((t, i) => {
    const x = COLS[i] as number;
    c.text(t, x + 2, y, { size: 8, width: (COLS[i + 1] as number) - x - 4 });
  });
  if (l.detail) c.text(l.detail, (COLS[1] as number) + 2, y - 9, { size: 7, width: 165 });
  return l.detail ? 21 : 12;
}

/** Totals per currency and the order charges, right-aligned under the lines. */
function totals(c: Canvas, m: InvoiceModel, y: number): number {
  const rows: [string, string][] = [
    ...m.goodsTotals.map(([ccy, v]): [string, string] => ["Total goods value", formatMoney(v, ccy)]),
    ...m.input.charges.map((ch): [string, string] => [ch.label, formatMoney(dec(ch.amount), ch.currency)]),
  ];
  let at = y;
  for (const [label, value] of rows) {
    c.text(label, 300, at, { size: 9, bold: true, width: 180 });
    c.text(value, 565 - c.font.widthOfTextAtSize(value, 9), at, { size: 9 });
    at -= 13;
  }
  return at;
}

export async function commercialInvoicePdf(m: InvoiceModel, createdAt: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Commercial invoice ${m.invoiceNumber}`);
  pdf.setSubject(`Shipment ${m.input.shipmentRef}`);
  pdf.setCreationDate(new Date(createdAt));
  pdf.setModificationDate(new Date(createdAt));
  pdf.setProducer("trade-compliance-api");
  const { font, bold } = await standardFonts(pdf);
  let c = canvas(pdf.addPage([W, H]), font, bold);
  let y = header(c, m);
  tableHead(c, y);
  y -= 14;
  for (let n = 0; n < m.lines.length; n++) {
    if (y < 70) {
      c = canvas(pdf.addPage([W, H]), font, bold);
      c.text(`Commercial invoice ${m.invoiceNumber} (continued)`, 30, H - 50, { size: 11, bold: true });
      y = H - 74;
      tableHead(c, y);
      y -= 14;
    }
    y -= row(c, m, n, y);
  }
  if (y < 70 + 13 * (m.goodsTotals.length + m.input.charges.length) + 40) {
    c = canvas(pdf.addPage([W, H]), font, bold);
    y = H - 60;
  }
  y = totals(c, m, y - 6);
  c.paragraph(m.declaration, 30, y - 12, 535, 8);
  return pdf.save({ useObjectStreams: false });
}
