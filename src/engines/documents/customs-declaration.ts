/**
 * Postal customs declarations, UPU forms CN 22 and CN 23, as PDFs. Pure: the consignment's data in, either the
 * form's bytes or every reason it cannot be made.
 *
 * Sources (checked November 2026):
 * - Layout and numbered boxes of the CN 23: the UPU form as reproduced in OECD (2018), "Misuse of Small Parcels
 *   for Trade in Counterfeit Goods", Annex A (https://docslib.org/doc/3085148/annex-a-cn-23-customs-declaration-form-81),
 *   and Hongkong Post's CN23 guidance (https://www.hongkongpost.hk/en/sending_mail/clearance/cn23.html).
 * - The CN 22 boxes (1)-(8) and its instructions, "If the value of the contents is over 300 SDR, you must use a
 *   CN 23": https://www.taxheal.com/customs-declaration-cn-22-form-download-print.html and
 *   https://indiacustomercare.com/customs-declaration-cn-22 (reproductions of the UPU form); the WCO–UPU Postal
 *   Customs Guide (June 2018), section IV.j.
 * - The categories of item as UPU code list 136 codes: 11 sale of goods, 21 returned goods, 31 gift, 32
 *   commercial sample, 91 documents, 9 other (smart-dato/dhl-connect-plus-sdk, src/Enums/NatureCode.php), and the
 *   word forms SALE_GOODS, RETURN_GOODS, GIFT, COMMERCIAL_SAMPLE, DOCUMENTS, OTHERS of Deutsche Post's
 *   Warenpost API ("nature of the pieces in this item, based on UPU code list 136").
 *
 * Which form: the CN 22 is for contents worth up to 300 SDR in a small packet (at most 2 kg); the CN 23 is
 * acceptable for anything. This deployment holds no SDR exchange rate with a source and date, so a value can
 * only be shown to be within 300 SDR when it is declared in SDR itself (ISO 4217 `XDR`). Otherwise the CN 23 is
 * chosen unless the caller asks for the CN 22 (then the sender answers for the limit, and the document's
 * metadata says so).
 */
import type Big from "big.js";
import { PDFDocument } from "pdf-lib";
import { dec, moneyString } from "../../lib/money";
import { type InvoiceParty, partyProblems } from "./commercial-invoice";
import { type Canvas, canvas, standardFonts } from "./pdf-canvas";

export type Form = "CN22" | "CN23";
type Category = "gift" | "documents" | "commercial_sample" | "returned_goods" | "sale_of_goods" | "other";

/** UPU code list 136 code of each category box. */
const CL136: Record<Category, string> = {
  sale_of_goods: "11",
  returned_goods: "21",
  gift: "31",
  commercial_sample: "32",
  documents: "91",
  other: "9",
};
const BOX_LABEL: Record<Category, string> = {
  gift: "Gift",
  documents: "Documents",
  commercial_sample: "Commercial sample",
  returned_goods: "Returned goods",
  sale_of_goods: "Sale of goods",
  other: "Other",
};
/**
 * Word forms accepted beside the codes: the form's own words, the CL 136 word codes, and short words that fit
 * the consignment's `nature_type` field (10 characters: "sale_of_goods" itself does not).
 */
const WORDS: Record<string, Category> = {
  gift: "gift",
  documents: "documents",
  document: "documents",
  commercial_sample: "commercial_sample",
  sample: "commercial_sample",
  returned_goods: "returned_goods",
  return_goods: "returned_goods",
  returned: "returned_goods",
  sale_of_goods: "sale_of_goods",
  sale_goods: "sale_of_goods",
  sale: "sale_of_goods",
  other: "other",
  others: "other",
};
const ACCEPTED = Object.entries(CL136)
  .map(([k, code]) => `${code} (${k})`)
  .join(", ");

/** The category box of a `nature_type`: a CL 136 code or its word form; null when it is neither. */
export function categoryOf(natureType: string): Category | null {
  const key = natureType
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const byCode = (Object.keys(CL136) as Category[]).find((c) => CL136[c] === key);
  return byCode ?? WORDS[key] ?? null;
}

/** The CN 22's table has room for four article lines; more need the CN 23 (which continues on further sheets). */
const CN22_LINES = 4;
/** UPU small packets weigh at most 2 kg; heavier items travel as parcels, with a CN 23. */
const SMALL_PACKET_MAX_KG = "2";
const CN22_MAX_SDR = "300";

/** A party as the consignment stores it: the same shape the commercial invoice prints. */
export type DeclarationParty = InvoiceParty;

interface DeclarationItem {
  description: string | null;
  quantity: number;
  unitValue: string;
  currency: string | null;
  /** Net weight of one unit, kg. */
  weightKg: string | null;
  hsCode: string | null;
  origin: string | null;
  /** The item's own `nature_type`; the consignment's applies when null. */
  natureType: string | null;
}

export interface DeclarationInput {
  consignmentId: string;
  shipmentRef: string;
  /** YYYY-MM-DD: the date beside the signature and of posting. */
  date: string;
  form?: Form | undefined;
  sender: DeclarationParty | null;
  receiver: DeclarationParty | null;
  natureType: string | null;
  items: DeclarationItem[];
  grossWeightKg: string;
  postalCharges: { amount: string; currency: string } | null;
  invoiceNumber: string | null;
  licences: string[];
  certificates: string[];
  officeOfOrigin: string | null;
  trackingNumbers: string[];
  declaration?: string | undefined;
}

interface Line {
  description: string;
  quantity: number;
  netWeightKg: Big;
  value: Big;
  hsCode: string | null;
  origin: string | null;
}

/** Why the form is the one it is: asked for, shown within 300 SDR, or the CN 23 by default. */
type FormRule = "requested" | "value_within_300_sdr" | "default_cn23";

export interface Declaration {
  form: Form;
  formRule: FormRule;
  formReason: string;
  categories: Category[];
  /** CL 136 codes of the ticked boxes. */
  categoryCodes: string[];
  currency: string;
  lines: Line[];
  totalValue: Big;
  netWeightKg: Big;
  grossWeightKg: Big;
  input: DeclarationInput;
}

const DEFAULT_DECLARATION =
  "I certify that the particulars given in this customs declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.";

/** Lines, currency and categories from the items; every problem named. */
function readItems(input: DeclarationInput, errors: string[]) {
  const lines: Line[] = [];
  const categories = new Set<Category>();
  const currencies = new Set<string>();
  if (!input.items.length) errors.push("items: the consignment has no items to declare");
  input.items.forEach((i, n) => {
    const label = `item ${n + 1}`;
    const nature = i.natureType ?? input.natureType;
    const category = nature ? categoryOf(nature) : null;
    if (!nature) errors.push(`${label}: nature_type is required (on the item or the consignment): ${ACCEPTED}`);
    else if (!category)
      errors.push(`${label}: nature_type '${nature}' is not a UPU code list 136 category: ${ACCEPTED}`);
    else categories.add(category);
    if (!i.description) errors.push(`${label}: a title or description is required`);
    if (!i.weightKg) errors.push(`${label}: weight is required (the form declares each article's net weight)`);
    if (i.currency) currencies.add(i.currency);
    else errors.push(`${label}: currency_code is required (on the item, its order or its parcel)`);
    lines.push({
      description: i.description ?? "",
      quantity: i.quantity,
      netWeightKg: dec(i.weightKg ?? 0).times(i.quantity),
      value: dec(i.unitValue).times(i.quantity),
      hsCode: i.hsCode,
      origin: i.origin,
    });
  });
  if (currencies.size > 1)
    errors.push(
      `items: one currency per declaration (the form has one total value); found ${[...currencies].join(", ")}`,
    );
  const order = Object.keys(BOX_LABEL) as Category[];
  return { lines, currency: [...currencies][0] ?? "", categories: order.filter((c) => categories.has(c)) };
}

/** What keeps a CN 22 from being used, from the rules above; empty when it may be. */
function cn22Blockers(lines: number, currency: string, total: Big, gross: Big): string[] {
  const out: string[] = [];
  if (lines > CN22_LINES) out.push(`${lines} article lines (the CN 22 has room for ${CN22_LINES})`);
  if (gross.gt(SMALL_PACKET_MAX_KG)) out.push(`gross weight ${gross.toString()} kg (a small packet is at most 2 kg)`);
  if (currency === "XDR" && total.gt(CN22_MAX_SDR)) out.push(`value ${total.toString()} XDR (above 300 SDR)`);
  return out;
}

function chooseForm(
  requested: Form | undefined,
  blockers: string[],
  currency: string,
): { form: Form; rule: FormRule; reason: string } | { error: string } {
  const inSdr = currency === "XDR";
  if (requested === "CN23") return { form: "CN23", rule: "requested", reason: "CN 23 requested (always acceptable)" };
  if (requested === "CN22") {
    if (blockers.length) return { error: `form: a CN 22 cannot be used: ${blockers.join("; ")}; use the CN 23` };
    const reason = inSdr
      ? "CN 22 requested; the value, declared in SDR, is within 300 SDR"
      : `CN 22 requested; the value in ${currency} was not converted to SDR (no SDR rate held): the sender answers for the 300 SDR limit`;
    return { form: "CN22", rule: "requested", reason };
  }
  if (inSdr && !blockers.length)
    return { form: "CN22", rule: "value_within_300_sdr", reason: "value declared in SDR, within 300 SDR" };
  const why = blockers.length
    ? blockers.join("; ")
    : `the value in ${currency} cannot be shown to be within 300 SDR without an SDR rate`;
  return { form: "CN23", rule: "default_cn23", reason: `CN 23 by default: ${why}` };
}

export type PreparedDeclaration = { ok: true; declaration: Declaration } | { ok: false; errors: string[] };

/** Checks the data and decides the form; `customsDeclarationPdf` draws it. */
export function prepareDeclaration(input: DeclarationInput): PreparedDeclaration {
  const errors: string[] = [];
  const { lines, currency, categories } = readItems(input, errors);
  const totalValue = lines.reduce((s, l) => s.plus(l.value), dec(0));
  const grossWeightKg = dec(input.grossWeightKg);
  const choice = chooseForm(input.form, cn22Blockers(lines.length, currency, totalValue, grossWeightKg), currency);
  if ("error" in choice) errors.push(choice.error);
  // The CN 22 carries no addresses (they are on the item itself); the CN 23 has the sender and addressee blocks.
  if (!("error" in choice) && choice.form === "CN23")
    errors.push(...partyProblems(input.sender, "sender"), ...partyProblems(input.receiver, "receiver"));
  if (errors.length || "error" in choice) return { ok: false, errors: errors.map((e) => `customs declaration: ${e}`) };
  return {
    ok: true,
    declaration: {
      form: choice.form,
      formRule: choice.rule,
      formReason: choice.reason,
      categories,
      categoryCodes: categories.map((c) => CL136[c]),
      currency,
      lines,
      totalValue,
      netWeightKg: lines.reduce((s, l) => s.plus(l.netWeightKg), dec(0)),
      grossWeightKg,
      input,
    },
  };
}

// ---- drawing ------------------------------------------------------------------------------------------------

const kg = (v: Big) => v.toFixed(3);
const money = (d: Declaration, v: Big) => `${moneyString(v, d.currency)} ${d.currency}`;

function categoryBoxes(c: Canvas, d: Declaration, x: number, y: number, colWidth: number, perRow: number) {
  (Object.keys(BOX_LABEL) as Category[]).forEach((cat, i) => {
    const col = i % perRow;
    const row = Math.floor(i / perRow);
    c.tick(BOX_LABEL[cat], x + col * colWidth, y - row * 12, d.categories.includes(cat));
  });
}

function partyName(p: DeclarationParty | null): string {
  return p?.contact?.name || p?.company_name || "";
}

function drawCn22(c: Canvas, d: Declaration) {
  const W = 288;
  c.text("CUSTOMS DECLARATION", 10, 416, { size: 10, bold: true });
  c.text("CN 22", W - 52, 414, { size: 14, bold: true });
  c.text("May be opened officially", 10, 405, { size: 6 });
  c.text(`Item: ${d.input.trackingNumbers[0] ?? d.input.shipmentRef}`, 130, 405, { size: 6, width: 148 });
  c.box(10, 398, 268, 46, "Category of item (tick one or more boxes)");
  categoryBoxes(c, d, 16, 380, 88, 3);
  // Columns: description (1), HS tariff number (4), origin (5), weight (2), value (3).
  const cols = [10, 122, 170, 198, 232, 278];
  const head = [
    "Quantity and detailed description of contents (1)",
    "HS tariff number (4) *",
    "Country of origin (5) *",
    "Weight (kg) (2)",
    "Value (3)",
  ];
  const top = 346;
  head.forEach((h, i) => {
    c.box(cols[i] as number, top, (cols[i + 1] as number) - (cols[i] as number), 20, h);
  });
  for (let r = 0; r < CN22_LINES; r++) {
    const y = top - 20 - r * 24;
    head.forEach((_, i) => {
      c.box(cols[i] as number, y, (cols[i + 1] as number) - (cols[i] as number), 24);
    });
    const l = d.lines[r];
    if (!l) continue;
    c.text(`${l.quantity} x ${l.description}`, 12, y - 14, { size: 7, width: 108 });
    c.text(l.hsCode ?? "", 124, y - 14, { size: 7, width: 44 });
    c.text(l.origin ?? "", 172, y - 14, { size: 7, width: 24 });
    c.text(kg(l.netWeightKg), 200, y - 14, { size: 7, width: 30 });
    c.text(moneyString(l.value, d.currency), 234, y - 14, { size: 7, width: 42 });
  }
  const totals = top - 20 - CN22_LINES * 24;
  c.box(10, totals, 188, 28, "* For commercial items only");
  c.box(198, totals, 34, 28, "Total weight (kg) (6)");
  c.box(232, totals, 46, 28, "Total value (7)");
  c.text(kg(d.grossWeightKg), 200, totals - 23, { size: 7, width: 30 });
  c.text(money(d, d.totalValue), 234, totals - 23, { size: 7, width: 42 });
  const below = c.paragraph(d.input.declaration ?? DEFAULT_DECLARATION, 10, totals - 38, 268, 6.5);
  c.box(10, below - 2, 268, 30, "Date and sender's signature (8)");
  c.text(`${d.input.date}   ${partyName(d.input.sender)}`, 14, below - 22, { size: 8, width: 260 });
  c.text(`Form rule: ${d.formReason}`, 10, 12, { size: 5, width: 268 });
}

const CN23_COLS = [30, 235, 280, 335, 405, 490, 565];
const CN23_HEAD = [
  "Detailed description of contents (1)",
  "Quantity (2)",
  "Net weight kg (3)",
  "Value (5)",
  "HS tariff number (7)",
  "Country of origin (8)",
];
const CN23_FIRST_ROWS = 12;
const CN23_MORE_ROWS = 40;

function rowBoxes(c: Canvas, y: number) {
  for (let i = 0; i + 1 < CN23_COLS.length; i++) {
    const x = CN23_COLS[i] as number;
    c.box(x, y, (CN23_COLS[i + 1] as number) - x, 16);
  }
}

function cn23Rows(c: Canvas, d: Declaration, top: number, from: number, count: number): number {
  CN23_HEAD.forEach((h, i) => {
    c.box(CN23_COLS[i] as number, top, (CN23_COLS[i + 1] as number) - (CN23_COLS[i] as number), 18, h);
  });
  let y = top - 18;
  const lines = d.lines.slice(from, from + count);
  // The first sheet keeps the form's full table, ruled to its last row; continuation sheets end with their lines.
  const rows = from === 0 ? count : lines.length;
  for (let r = 0; r < rows; r++) {
    const l = lines[r];
    if (!l) {
      rowBoxes(c, y);
      y -= 16;
      continue;
    }
    const cells = [
      l.description,
      String(l.quantity),
      kg(l.netWeightKg),
      money(d, l.value),
      l.hsCode ?? "",
      l.origin ?? "",
    ];
    rowBoxes(c, y);
    cells.forEach((t, i) => {
      const x = CN23_COLS[i] as number;
      c.text(t, x + 3, y - 11, { size: 7.5, width: (CN23_COLS[i + 1] as number) - x - 6 });
    });
    y -= 16;
  }
  return y;
}

function partyBlock(c: Canvas, p: DeclarationParty | null, role: string, top: number) {
  c.box(30, top, 300, 78, role);
  const lines = [
    `Name: ${p?.contact?.name ?? ""}`,
    `Business: ${p?.company_name ?? ""}`,
    `Street: ${[p?.address_1, p?.address_2].filter(Boolean).join(", ")}`,
    `Postcode / City: ${[p?.post_code, p?.city, p?.state_province].filter(Boolean).join(" ")}`,
    `Country: ${p?.country_code ?? ""}`,
  ];
  lines.forEach((l, i) => {
    c.text(l, 36, top - 18 - i * 12, { size: 8, width: 288 });
  });
}

const taxIds = (p: DeclarationParty | null) =>
  Object.entries(p?.tax_duty ?? {})
    .flatMap(([k, v]) => (v ? [`${k.replace(/_id$/, "").toUpperCase()} ${v}`] : []))
    .join(", ");

function cn23Head(c: Canvas, d: Declaration) {
  const { sender, receiver } = d.input;
  c.text("CUSTOMS DECLARATION", 30, 808, { size: 12, bold: true });
  c.text("CN 23", 515, 806, { size: 16, bold: true });
  c.text("May be opened officially", 30, 796, { size: 7 });
  c.text(`No. of item (barcode, if any): ${d.input.trackingNumbers.join(", ") || "-"}`, 240, 796, {
    size: 7,
    width: 270,
  });
  partyBlock(c, sender, "From", 786);
  partyBlock(c, receiver, "To", 704);
  const side: [string, string][] = [
    ["Sender's customs reference (if any)", taxIds(sender)],
    ["Importer's reference (if any) (tax code/VAT No./importer code)", taxIds(receiver)],
    [
      "Importer's telephone/fax/e-mail (if known)",
      [receiver?.contact?.phone, receiver?.contact?.email].filter(Boolean).join("  "),
    ],
    ["Sender's reference (shipment)", `${d.input.shipmentRef}  (${d.input.consignmentId})`],
  ];
  side.forEach(([caption, value], i) => {
    const top = 786 - i * 40;
    c.box(335, top, 230, 38, caption);
    c.text(value, 340, top - 24, { size: 8, width: 220 });
  });
}

function cn23Foot(c: Canvas, d: Declaration, top: number) {
  const charges = d.input.postalCharges;
  const totals: [string, string, number][] = [
    ["Total gross weight kg (4)", kg(d.grossWeightKg), 185],
    ["Total value (6)", money(d, d.totalValue), 175],
    [
      "Postal charges/Fees (9)",
      charges ? `${moneyString(dec(charges.amount), charges.currency)} ${charges.currency}` : "",
      175,
    ],
  ];
  let x = 30;
  for (const [caption, value, w] of totals) {
    c.box(x, top, w, 26, caption);
    c.text(value, x + 4, top - 20, { size: 8.5, bold: true, width: w - 8 });
    x += w;
  }
  c.box(30, top - 30, 535, 52, "Category of item (10)");
  categoryBoxes(c, d, 36, top - 46, 100, 5);
  c.text(`Explanation: UPU code list 136 ${d.categoryCodes.join(", ")}`, 36, top - 74, { size: 7, width: 520 });
  c.box(
    30,
    top - 86,
    535,
    26,
    "Comments (11): e.g. goods subject to quarantine, sanitary/phytosanitary inspection or other restrictions",
  );
  const docs: [string, string][] = [
    ["Licence (12) No(s). of licence(s)", d.input.licences.join(", ")],
    ["Certificate (13) No(s). of certificate(s)", d.input.certificates.join(", ")],
    ["Invoice (14) No. of invoice", d.input.invoiceNumber ?? ""],
  ];
  docs.forEach(([caption, value], i) => {
    c.box(30 + i * 178.3, top - 116, 178.3, 28, caption);
    c.text(value, 34 + i * 178.3, top - 138, { size: 8, width: 170 });
  });
  c.box(30, top - 148, 200, 44, "Office of origin/Date of posting");
  c.text(`${d.input.officeOfOrigin ?? ""} ${d.input.date}`.trim(), 34, top - 176, { size: 8, width: 192 });
  c.paragraph(d.input.declaration ?? DEFAULT_DECLARATION, 236, top - 156, 325, 7);
  c.box(236, top - 172, 329, 20, "");
  c.text(`Date and sender's signature (15): ${d.input.date}  ${partyName(d.input.sender)}`, 240, top - 186, {
    size: 7.5,
    width: 320,
  });
  c.text(`Form rule: ${d.formReason}`, 30, 24, { size: 6, width: 535 });
}

/** The declaration's PDF: a 4 × 6 in CN 22, or an A4 CN 23 with continuation sheets for long item lists. */
export async function customsDeclarationPdf(d: Declaration, createdAt: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${d.form} customs declaration ${d.input.shipmentRef}`);
  pdf.setSubject(d.formReason);
  pdf.setKeywords([d.form, ...d.categoryCodes.map((code) => `CL136:${code}`)]);
  pdf.setCreationDate(new Date(createdAt));
  pdf.setModificationDate(new Date(createdAt));
  pdf.setProducer("trade-compliance-api");
  const { font, bold } = await standardFonts(pdf);
  if (d.form === "CN22") {
    drawCn22(canvas(pdf.addPage([288, 432]), font, bold), d);
    return pdf.save({ useObjectStreams: false });
  }
  const first = canvas(pdf.addPage([595.28, 841.89]), font, bold);
  cn23Head(first, d);
  const end = cn23Rows(first, d, 612, 0, CN23_FIRST_ROWS);
  cn23Foot(first, d, Math.min(end, 612 - 18 - CN23_FIRST_ROWS * 16) - 6);
  for (let from = CN23_FIRST_ROWS; from < d.lines.length; from += CN23_MORE_ROWS) {
    const more = canvas(pdf.addPage([595.28, 841.89]), font, bold);
    more.text(`CN 23 continuation sheet: ${d.input.shipmentRef}`, 30, 808, { size: 11, bold: true });
    cn23Rows(more, d, 790, from, CN23_MORE_ROWS);
  }
  return pdf.save({ useObjectStreams: false });
}
