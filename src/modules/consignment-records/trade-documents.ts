/**
 * Trade documents made from a consignment's rows (commercial invoice, CN 22 / CN 23 customs declaration): the
 * engines' inputs built from the tree, the bytes rendered, and the document's R2 object and row. Shared by the
 * flow actions (inline or background) and `POST /consignments/{id}/documents`, so a document made either way is
 * the same document.
 */

import {
  commercialInvoice,
  type InvoiceInput,
  invoiceModel,
  invoiceTotals,
} from "../../engines/documents/commercial-invoice";
import { commercialInvoicePdf } from "../../engines/documents/commercial-invoice-pdf";
import {
  customsDeclarationPdf,
  type DeclarationInput,
  type DeclarationParty,
  type Form,
  prepareDeclaration,
} from "../../engines/documents/customs-declaration";
import { isoAt } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { dec, moneyString } from "../../lib/money";
import type { DocumentRow, Tree } from "./tree";

export type TradeDocumentSpec =
  | { type: "commercial_invoice"; format: "html" | "pdf"; declaration?: string | undefined }
  | { type: "customs_declaration"; form?: Form | undefined; declaration?: string | undefined };

export interface BuiltDocument {
  type: TradeDocumentSpec["type"];
  bytes: Uint8Array;
  contentType: string;
  extension: "pdf" | "html";
  /** Listed with the document (`DocumentSchema`'s optional fields). */
  meta: Record<string, unknown>;
}

export type BuildResult = { ok: true; document: BuiltDocument } | { ok: false; errors: string[] };

const party = (json: string | null) => (json ? (JSON.parse(json) as Record<string, unknown>) : null);

/** Order charges and the consignment's shipping, as invoice lines below the goods. */
function invoiceCharges(t: Tree, extra: Record<string, unknown>) {
  const charges: { label: string; amount: string; currency: string }[] = [];
  for (const o of t.orders) {
    const ch = JSON.parse(o.charges) as Record<string, { amount: string; currency_code: string }>;
    for (const [k, v] of Object.entries(ch))
      charges.push({
        label: `${k.replace("_charge", "")} charge${o.orderRef ? ` (order ${o.orderRef})` : ""}`,
        amount: v.amount,
        currency: v.currency_code,
      });
  }
  const shipping = shippingOf(extra);
  if (shipping) charges.push({ label: "shipping", amount: shipping.amount, currency: shipping.currency });
  return charges;
}

function shippingOf(extra: Record<string, unknown>) {
  const shipping = extra.shipping as { amount: number; currency_code: string } | undefined;
  return shipping?.currency_code ? { amount: String(shipping.amount), currency: shipping.currency_code } : null;
}

/** An item's currency: its own, else its order's, else its parcel's. */
function currencyResolver(t: Tree) {
  const orderOf = new Map(t.orders.map((o) => [o.id, o]));
  const parcelOf = new Map(t.parcels.map((p) => [p.id, p]));
  return (i: Tree["items"][number]) =>
    i.currencyCode ??
    (i.orderId ? (orderOf.get(i.orderId)?.currencyCode ?? null) : null) ??
    parcelOf.get(i.parcelId)?.currencyCode ??
    null;
}

/** The consignment's invoice number, else the one its orders share. */
function invoiceNumberOf(t: Tree, extra: Record<string, unknown>): string | null {
  const numbers = [...new Set(t.orders.map((o) => o.invoiceNumber).filter((x): x is string => Boolean(x)))];
  const [onlyOne] = numbers.length === 1 ? numbers : [];
  return (extra.invoice_number as string | undefined) ?? onlyOne ?? null;
}

const grossWeight = (t: Tree) => t.parcels.reduce((s, p) => s.plus(p.weightKg), dec(0)).toString();

function invoiceInput(t: Tree, declaration: string | undefined): InvoiceInput {
  const c = t.consignment;
  const extra = JSON.parse(c.extra) as Record<string, unknown>;
  const currencyOf = currencyResolver(t);
  return {
    shipmentRef: c.shipmentRef,
    consignmentId: c.id,
    date: c.createdAt.slice(0, 10),
    incoterm: c.incoterm,
    invoiceNumber: invoiceNumberOf(t, extra),
    sender: party(c.sender),
    receiver: party(c.receiver),
    items: t.items.map((i) => ({
      sku: i.sku,
      title: i.title,
      description: i.description,
      quantity: i.quantity,
      unitValue: i.unitValue,
      currency: currencyOf(i),
      hsCode: i.hsCode,
      origin: i.countryOfOrigin,
      weightKg: i.weightKg,
    })),
    charges: invoiceCharges(t, extra),
    parcelCount: t.parcels.length,
    grossWeightKg: grossWeight(t),
    declaration,
  };
}

/** The declaration's data: `nature_type` of each item (else the consignment's), postage from `shipping`. */
function declarationInput(
  t: Tree,
  spec: Extract<TradeDocumentSpec, { type: "customs_declaration" }>,
  nowMs: number,
): DeclarationInput {
  const c = t.consignment;
  const extra = JSON.parse(c.extra) as Record<string, unknown>;
  const currencyOf = currencyResolver(t);
  const itemExtra = t.items.map(
    (i) => JSON.parse(i.extra) as { nature_type?: string | null; certificate_number?: string | null },
  );
  return {
    consignmentId: c.id,
    shipmentRef: c.shipmentRef,
    date: (extra.shipping_date as string | undefined) ?? isoAt(nowMs).slice(0, 10),
    form: spec.form,
    sender: party(c.sender) as DeclarationParty | null,
    receiver: party(c.receiver) as DeclarationParty | null,
    natureType: (extra.nature_type as string | null | undefined) ?? null,
    items: t.items.map((i, n) => ({
      description: i.title ?? i.description,
      quantity: i.quantity,
      unitValue: i.unitValue,
      currency: currencyOf(i),
      weightKg: i.weightKg,
      hsCode: i.hsCode,
      origin: i.countryOfOrigin,
      natureType: itemExtra[n]?.nature_type ?? null,
    })),
    grossWeightKg: grossWeight(t),
    postalCharges: shippingOf(extra),
    invoiceNumber: invoiceNumberOf(t, extra),
    licences: [],
    certificates: [...new Set(itemExtra.map((e) => e.certificate_number).filter((x): x is string => Boolean(x)))],
    officeOfOrigin: (extra.office_of_origin as string | null | undefined) ?? null,
    trackingNumbers: t.parcels.map((p) => p.barcode).filter((b): b is string => Boolean(b)),
    declaration: spec.declaration,
  };
}

const PDF = "application/pdf";
const HTML = "text/html; charset=utf-8";

async function buildInvoice(
  t: Tree,
  spec: Extract<TradeDocumentSpec, { type: "commercial_invoice" }>,
  nowMs: number,
): Promise<BuildResult> {
  const input = invoiceInput(t, spec.declaration);
  if (spec.format === "html") {
    const made = commercialInvoice(input);
    if (!made.ok) return made;
    const meta = { invoice_number: made.invoiceNumber, totals: made.totals };
    const bytes = new TextEncoder().encode(made.html);
    return { ok: true, document: { type: spec.type, bytes, contentType: HTML, extension: "html", meta } };
  }
  const made = invoiceModel(input);
  if (!made.ok) return made;
  const bytes = await commercialInvoicePdf(made.model, isoAt(nowMs));
  const meta = { invoice_number: made.model.invoiceNumber, totals: invoiceTotals(made.model) };
  return { ok: true, document: { type: spec.type, bytes, contentType: PDF, extension: "pdf", meta } };
}

async function buildDeclaration(
  t: Tree,
  spec: Extract<TradeDocumentSpec, { type: "customs_declaration" }>,
  nowMs: number,
): Promise<BuildResult> {
  const made = prepareDeclaration(declarationInput(t, spec, nowMs));
  if (!made.ok) return made;
  const d = made.declaration;
  const bytes = await customsDeclarationPdf(d, isoAt(nowMs));
  const meta = {
    form: d.form,
    form_rule: d.formRule,
    form_reason: d.formReason,
    categories: d.categories,
    category_codes: d.categoryCodes,
    totals: { [d.currency]: moneyString(d.totalValue, d.currency) },
  };
  return { ok: true, document: { type: spec.type, bytes, contentType: PDF, extension: "pdf", meta } };
}

/** The document's bytes and listing fields, or every reason it cannot be made (the client's to fix: 422). */
export const buildTradeDocument = (t: Tree, spec: TradeDocumentSpec, nowMs: number): Promise<BuildResult> =>
  spec.type === "commercial_invoice" ? buildInvoice(t, spec, nowMs) : buildDeclaration(t, spec, nowMs);

/**
 * Stores the bytes in R2 under `documents/{workspace}/{consignment}/{document}.{ext}` and returns the row that
 * lists them; the caller commits the row (and deletes the object again if its batch does not go in).
 */
export async function storeTradeDocument(
  archive: R2Bucket,
  at: { id: string; workspaceId: string; consignmentId: string; flowId: number | null; createdAt: string },
  built: BuiltDocument,
): Promise<DocumentRow> {
  const key = `documents/${at.workspaceId}/${at.consignmentId}/${at.id}.${built.extension}`;
  await archive.put(key, built.bytes, {
    httpMetadata: { contentType: built.contentType },
    customMetadata: { consignment_id: at.consignmentId, type: built.type },
  });
  return {
    ...at,
    type: built.type,
    storageKey: key,
    contentType: built.contentType,
    size: built.bytes.byteLength,
    sha256: await sha256Hex(built.bytes),
    meta: JSON.stringify(built.meta),
  };
}
