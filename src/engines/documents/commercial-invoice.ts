/**
 * Commercial invoice for a consignment, rendered as a self-contained printable HTML page. Pure: the caller
 * hands in the consignment as stored and gets either the document or the reasons it cannot be made (a
 * customs invoice without a seller, a buyer, goods descriptions or currencies would be refused at the border,
 * so it is better not to produce one).
 */
import type Big from "big.js";
import { dec, formatMoney, moneyString } from "../../lib/money";

export interface InvoiceParty {
  company_name?: string | null;
  address_1?: string | null;
  address_2?: string | null;
  address_3?: string | null;
  city?: string | null;
  state_province?: string | null;
  post_code?: string | null;
  country_code?: string | null;
  contact?: { name?: string | null; phone?: string | null; email?: string | null } | null;
  tax_duty?: Record<string, string | null> | null;
}

interface InvoiceItem {
  sku: string | null;
  title: string | null;
  description: string | null;
  quantity: number;
  unitValue: string;
  currency: string | null;
  hsCode: string | null;
  origin: string | null;
  weightKg: string | null;
}

export interface InvoiceInput {
  shipmentRef: string;
  consignmentId: string;
  /** YYYY-MM-DD */
  date: string;
  incoterm: string | null;
  invoiceNumber: string | null;
  sender: InvoiceParty | null;
  receiver: InvoiceParty | null;
  items: InvoiceItem[];
  /** Order-level charges (shipping, insurance, other), each with its currency. */
  charges: { label: string; amount: string; currency: string }[];
  parcelCount: number;
  grossWeightKg: string;
  declaration?: string | undefined;
}

const DEFAULT_DECLARATION =
  "I declare that the information on this invoice is true and correct, and that the contents of this shipment are as stated above.";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** What a party needs to be printed on a trade document (invoice, customs declaration); every gap named. */
export function partyProblems(p: InvoiceParty | null, role: string): string[] {
  if (!p) return [`${role}: the consignment has no ${role}`];
  const out: string[] = [];
  if (!p.company_name && !p.contact?.name) out.push(`${role}: company_name or contact.name is required`);
  if (!p.address_1 || !p.city) out.push(`${role}: address_1 and city are required`);
  if (!p.country_code) out.push(`${role}: country_code is required`);
  return out;
}

/** A party's printed lines: name, contact, address, country, then its tax and duty identifiers. */
export function partyLines(p: InvoiceParty): string[] {
  const lines = [
    p.company_name,
    p.contact?.name && p.contact.name !== p.company_name ? p.contact.name : null,
    p.address_1,
    p.address_2,
    p.address_3,
    [p.city, p.state_province, p.post_code].filter(Boolean).join(" "),
    p.country_code,
  ].filter((l): l is string => Boolean(l));
  const ids = Object.entries(p.tax_duty ?? {}).flatMap(([k, v]) =>
    v ? [`${k.replace(/_id$/, "").toUpperCase()}: ${v}`] : [],
  );
  return [...lines, ...ids];
}

const partyHtml = (p: InvoiceParty) => partyLines(p).map(esc).join("<br>");

interface InvoiceLine {
  name: string;
  /** Printed under the name when the item has both a title and a description. */
  detail: string | null;
  sku: string | null;
  hsCode: string | null;
  origin: string | null;
  quantity: number;
  unitValue: string;
  currency: string;
  lineValue: Big;
}

/** The invoice as computed once, for either rendering (HTML here, PDF in ./commercial-invoice-pdf). */
export interface InvoiceModel {
  input: InvoiceInput;
  invoiceNumber: string;
  sender: InvoiceParty;
  receiver: InvoiceParty;
  lines: InvoiceLine[];
  /** Goods value per currency, in the order the currencies first appear. */
  goodsTotals: [string, Big][];
  declaration: string;
}

export type InvoiceModelResult = { ok: true; model: InvoiceModel } | { ok: false; errors: string[] };

export function invoiceModel(input: InvoiceInput): InvoiceModelResult {
  const errors = [...partyProblems(input.sender, "sender"), ...partyProblems(input.receiver, "receiver")];
  if (!input.items.length) errors.push("items: the consignment has no items to invoice");
  // Items that pass the checks, with the fields the checks guarantee narrowed.
  const invoiced: { item: InvoiceItem; name: string; currency: string }[] = [];
  input.items.forEach((i, n) => {
    const label = `item ${n + 1}${i.sku ? ` (${i.sku})` : ""}`;
    const described = Boolean(i.title || i.description);
    if (!described) errors.push(`${label}: a title or description is required`);
    if (!i.currency) errors.push(`${label}: currency_code is required (on the item or its order)`);
    if (described && i.currency) invoiced.push({ item: i, name: i.title ?? i.description ?? "", currency: i.currency });
  });
  const { sender, receiver } = input;
  if (errors.length || !sender || !receiver) {
    return { ok: false, errors: errors.map((e) => `commercial invoice: ${e}`) };
  }
  const totals = new Map<string, Big>();
  const lines = invoiced.map(({ item: i, name, currency }) => {
    const lineValue = dec(i.unitValue).times(i.quantity);
    totals.set(currency, (totals.get(currency) ?? dec(0)).plus(lineValue));
    const detail = i.title && i.description ? i.description : null;
    return {
      name,
      detail,
      sku: i.sku,
      hsCode: i.hsCode,
      origin: i.origin,
      quantity: i.quantity,
      unitValue: i.unitValue,
      currency,
      lineValue,
    };
  });
  return {
    ok: true,
    model: {
      input,
      invoiceNumber: input.invoiceNumber ?? `CI-${input.shipmentRef}`,
      sender,
      receiver,
      lines,
      goodsTotals: [...totals],
      declaration: input.declaration ?? DEFAULT_DECLARATION,
    },
  };
}

/** Totals per currency as the wire shows them (the currency's minor units). */
export const invoiceTotals = (m: InvoiceModel): Record<string, string> =>
  Object.fromEntries(m.goodsTotals.map(([k, v]) => [k, moneyString(v, k)]));

export type InvoiceResult =
  | { ok: true; html: string; invoiceNumber: string; totals: Record<string, string> }
  | { ok: false; errors: string[] };

export function commercialInvoice(input: InvoiceInput): InvoiceResult {
  const made = invoiceModel(input);
  if (!made.ok) return made;
  const m = made.model;
  return { ok: true, html: invoiceHtml(m), invoiceNumber: m.invoiceNumber, totals: invoiceTotals(m) };
}

function invoiceHtml(m: InvoiceModel): string {
  const { input, invoiceNumber } = m;
  const rows = m.lines.map(
    (l, n) =>
      `<tr><td>${n + 1}</td><td>${esc(l.name)}${l.detail ? `<br><small>${esc(l.detail)}</small>` : ""}</td><td>${esc(l.sku ?? "")}</td><td>${esc(l.hsCode ?? "")}</td><td>${esc(l.origin ?? "")}</td><td class="n">${l.quantity}</td><td class="n">${esc(`${l.unitValue} ${l.currency}`)}</td><td class="n">${esc(formatMoney(l.lineValue, l.currency))}</td></tr>`,
  );
  const goods = m.goodsTotals.map(
    ([ccy, v]) => `<tr><th colspan="7">Total goods value</th><td class="n">${esc(formatMoney(v, ccy))}</td></tr>`,
  );
  const charges = input.charges.map(
    (c) =>
      `<tr><th colspan="7">${esc(c.label)}</th><td class="n">${esc(formatMoney(dec(c.amount), c.currency))}</td></tr>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Commercial invoice ${esc(invoiceNumber)}</title>
<style>body{font:13px sans-serif;margin:2em}table{border-collapse:collapse;width:100%}td,th{border:1px solid #999;padding:4px;text-align:left;vertical-align:top}.n{text-align:right}.parties td{width:50%}</style></head>
<body>
<h1>Commercial invoice</h1>
<p>Invoice number: ${esc(invoiceNumber)}<br>Date: ${esc(input.date)}<br>Shipment reference: ${esc(input.shipmentRef)}<br>Consignment: ${esc(input.consignmentId)}<br>Terms of delivery (Incoterm): ${esc(input.incoterm ?? "not stated")}<br>Packages: ${input.parcelCount}; gross weight ${esc(input.grossWeightKg)} kg</p>
<table class="parties"><tr><th>Seller / exporter</th><th>Buyer / consignee</th></tr><tr><td>${partyHtml(m.sender)}</td><td>${partyHtml(m.receiver)}</td></tr></table>
<h2>Goods</h2>
<table><tr><th>#</th><th>Description</th><th>SKU</th><th>HS code</th><th>Origin</th><th>Qty</th><th>Unit value</th><th>Line value</th></tr>
${rows.join("\n")}
${goods.join("\n")}
${charges.join("\n")}
</table>
<p>${esc(m.declaration)}</p>
</body></html>
`;
}
