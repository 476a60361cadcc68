/**
 * Consignment duty assessment (no Hono): every item of a consignment is priced by the calculate service as
 * one entry into the receiver's country, the result is stored as an assessment and the `duties.calculated`
 * event is put in the webhook outbox in the same batch.
 *
 * What the figures mean (the same split as POST /calculate/multiple, whose numbers they are):
 * - `total_duty`: customs duties of every assessed line, including additional measures (Section 301/232...).
 * - `total_tax`: `total_vat` (VAT/GST of every line) + `total_fees` (entry-level fees such as the US MPF and
 *   HMF, with their floor and cap applied once to the whole entry). `items[].tax` is the line's VAT/GST only,
 *   because fees belong to the entry, not to a line.
 * - Totals are calculate's shipment totals (rounded once, from unrounded line amounts), so the sum of the
 *   rounded `items[].duty` may differ from `total_duty` by a minor unit.
 * - An item that could not be assessed (no HS code and none could be suggested, no origin, a currency without
 *   an ECB rate) or whose code has no tariff line is listed with `duty: null` and the reason; the totals then
 *   cover the other items only and `complete` is false.
 */
import { and, desc, eq, exists, lt, sql } from "drizzle-orm";
import type { Call, ServiceContext, WorkspaceScopedContext } from "../../core/context";
import { consignmentAssessments } from "../../db/schema/index";
import type { CalcInput } from "../../engines/calculate/types";
import type { calcWire } from "../../engines/calculate/wire";
import { isoAt } from "../../lib/clock";
import { ApiError, notFound, unprocessable } from "../../lib/errors";
import { country as isoCountry } from "../../lib/iso";
import { dec, moneyString } from "../../lib/money";
import { unsupported } from "../calculate/reference";
import { countryRuleFailures, priceShipment, today } from "../calculate/service";
import { suggestCodes, UnclassifiableError } from "../classify/service";
import { eventInsert, insertWhen, withdrawOutboxUnless } from "../consignment-records/rows";
import type { ItemRow, Tree } from "../consignment-records/tree";
import { outboxStatements } from "../webhooks/service";
import { consignmentHeadQuery, consignmentNotFound } from "./access";
import { AssessmentRefused } from "./errors";
import { loadConsignment } from "./service";

const METAL_FACTS = [
  "country_of_melt_pour",
  "primary_country_of_smelt",
  "secondary_country_of_smelt",
  "country_of_cast",
] as const;
/** The item's declared metals-traceability countries, from the JSON of its other fields. */
function metalFacts(extra: string): Record<string, string> {
  const e = JSON.parse(extra) as Record<string, unknown>;
  return Object.fromEntries(METAL_FACTS.flatMap((k) => (typeof e[k] === "string" ? [[k, e[k]]] : [])));
}

/**
 * One run prices every line in a single calculate call (shipment-level de minimis and fee floors need the
 * whole entry at once); this bounds the work of one request. Larger consignments are split before assessment.
 */
const MAX_ASSESSED_ITEMS = 250;

/** The calculate input takes 4-10 digits; digits beyond 10 are national statistical suffixes with no rate of their own. */
const CALC_HS_DIGITS = 10;

const TRANSPORT_MODES = new Set(["sea", "air", "road", "rail"]);
const SHIPPING_TERMS = new Set(["FOB", "CIF", "EXW", "DDP"]);

interface RateApplied {
  measure: string;
  code: string | null;
  rate: string;
  type: string;
  /** The duty tier of the base line (`normal_tariff`, `preferential_tariff`, `punitive_tariff`); null for additional measures. */
  tier: string | null;
  amount: string;
  basis: string;
  estimated: boolean;
  exempted: boolean;
  exclusion_code: string | null;
}

interface AssessedItem {
  item_id: string;
  sku: string | null;
  title: string | null;
  hs_code: string | null;
  hs_code_source: string | null;
  classification: { confidence: string; score: number; description: string | null } | null;
  origin_country: string | null;
  quantity: number;
  unit_value: string;
  declared_currency: string | null;
  tariff_line: string | null;
  rate_found: boolean;
  customs_value: string | null;
  duty: string | null;
  tax: string | null;
  rates_applied: RateApplied[];
  notes: string[];
  message: string | null;
  error: string | null;
}

interface Fee {
  code: string;
  name: string;
  amount: string;
  basis: string;
}

export interface Assessment {
  assessment_id: string;
  consignment_id: string;
  destination_country: string;
  currency: string;
  entry_date: string;
  total_duty: string;
  total_tax: string;
  total_vat: string;
  total_fees: string;
  total: string;
  complete: boolean;
  items: AssessedItem[];
  fees: Fee[];
  notes: string[];
  data_source: { version: string; source: string; imported_at: string } | null;
  request_id: string | null;
  created_at: string;
}

type Row = typeof consignmentAssessments.$inferSelect;

export function assessmentOut(r: Row): Assessment {
  const totalTax = dec(r.totalTax);
  return {
    assessment_id: r.id,
    consignment_id: r.consignmentId,
    destination_country: r.destinationCountry,
    currency: r.currency,
    entry_date: r.entryDate,
    total_duty: r.totalDuty,
    total_tax: r.totalTax,
    total_vat: r.totalVat,
    total_fees: r.totalFees,
    total: moneyString(dec(r.totalDuty).plus(totalTax), r.currency),
    complete: r.complete,
    items: JSON.parse(r.items) as AssessedItem[],
    fees: JSON.parse(r.fees) as Fee[],
    notes: JSON.parse(r.notes) as string[],
    data_source: r.dataSource ? (JSON.parse(r.dataSource) as Assessment["data_source"]) : null,
    request_id: r.requestId,
    created_at: r.createdAt,
  };
}

/** A line of calculate/multiple's `results`: a failed line in place, or the full quote of the line. */
type LineResult = { index: number; error: string } | ({ index: number; message: string } & ReturnType<typeof calcWire>);

interface Plan {
  hsCode: string | null;
  hsSource: string | null;
  classification: AssessedItem["classification"];
  origin: string | null;
  currency: string | null;
  error: string | null;
}

type Quote = Awaited<ReturnType<typeof priceShipment>>["quote"];
type ShipmentBody = Parameters<typeof priceShipment>[0]["input"];

/**
 * Runs the duty assessment of one consignment and stores it. 404 for a consignment that is not visible; 422
 * when it has no receiver country, no items, too many items, an unsupported destination, or when a workspace
 * country rule refuses a line. Phases: loadAssessable → planItems (classify what has no code) → shipmentBody →
 * the country-rule check → priceShipment → assessedItems → commit. Returns the stored assessment and the
 * webhook deliveries to enqueue once committed.
 */
export async function runAssessment({
  ctx,
  input,
}: Call<{ id: string }>): Promise<{ assessment: Assessment; deliveryIds: string[] }> {
  const tree = await loadConsignment({ ctx, input: { id: input.id } });
  const row = await assessTree(ctx, tree);
  const deliveryIds = await commit(ctx, tree, row, tree.items.length);
  return { assessment: assessmentOut(row), deliveryIds };
}

/** What an assessment needs: the workspace's data and rules, and the request it runs under (null in a job). */
export type AssessContext = WorkspaceScopedContext & { requestId: string | null };

/**
 * Prices a consignment as given (stored, or about to be inserted by a create) without storing anything: the
 * assessment row a run would store. Throws 422 when it cannot be assessed at all (see runAssessment).
 */
export async function assessTree(ctx: AssessContext, tree: Tree): Promise<Row> {
  const destination = await assessableDestination(ctx, tree);
  const c = tree.consignment;
  const entryDate = c.entryDate ?? today(ctx.deps.clock);
  const plans = await planItems(ctx, tree, destination);
  const { body, lineOf, notes } = shipmentBody(tree, plans, destination, entryDate);

  let quote: Quote | null = null;
  if (body) {
    const refused = await countryRuleFailures({ ctx, input: body });
    if (refused.length) throw new AssessmentRefused(refused);
    ({ quote } = await priceShipment({ ctx, input: body }));
  }
  const currency = quote?.currency ?? isoCountry(destination)?.currency ?? "USD";
  const items = assessedItems(tree.items, plans, lineOf, quote, currency);
  return assessmentRow(ctx, { tree, destination, currency, entryDate, items, notes, quote });
}

/** The consignment's destination, if it can be assessed at all. */
async function assessableDestination(ctx: AssessContext, tree: Tree): Promise<string> {
  const c = tree.consignment;
  const destination = c.receiverCountry;
  if (!destination)
    throw unprocessable(
      `Consignment '${c.id}' has no receiver country: duties cannot be assessed without a destination (receiver.country_code)`,
    );
  if (!tree.items.length) throw unprocessable(`Consignment '${c.id}' has no items to assess`);
  if (tree.items.length > MAX_ASSESSED_ITEMS)
    throw unprocessable(
      `Consignment '${c.id}' has ${tree.items.length} items; an assessment covers at most ${MAX_ASSESSED_ITEMS}`,
    );
  const why = await unsupported(ctx, destination);
  if (why) throw unprocessable(`Duties cannot be assessed for this consignment: ${why}`);
  return destination;
}

/** Codes, origins and currencies per item; items without a code are classified for the destination. */
async function planItems(ctx: AssessContext, tree: Tree, destination: string): Promise<Plan[]> {
  const c = tree.consignment;
  const orderCcy = new Map(tree.orders.map((o) => [o.id, o.currencyCode]));
  const parcelCcy = new Map(tree.parcels.map((p) => [p.id, p.currencyCode]));
  const plans: Plan[] = [];
  for (const item of tree.items) {
    const origin = item.countryOfOrigin ?? c.senderCountry ?? null;
    const currency =
      item.currencyCode ?? (item.orderId ? orderCcy.get(item.orderId) : null) ?? parcelCcy.get(item.parcelId) ?? null;
    const plan: Plan = {
      hsCode: item.hsCode,
      hsSource: item.hsCode ? (item.hsCodeSource ?? "declared") : null,
      classification: null,
      origin,
      currency,
      error: null,
    };
    if (!plan.hsCode) {
      const s = await suggestCode(ctx, item, destination, origin);
      if ("error" in s) plan.error = s.error;
      else Object.assign(plan, { hsCode: s.hsCode, hsSource: "classified", classification: s.classification });
    }
    if (!plan.error && !origin)
      plan.error = "No country of origin on the item and no sender country on the consignment";
    plans.push(plan);
  }
  return plans;
}

/** Suggests a code for an item that came without one; an item the classifier cannot place stays unassessed. */
async function suggestCode(
  ctx: AssessContext,
  item: { title: string | null; description: string | null },
  destination: string,
  origin: string | null,
): Promise<{ error: string } | { hsCode: string; classification: AssessedItem["classification"] }> {
  const title = item.title?.trim().slice(0, 500) || undefined;
  const description = item.description?.trim().slice(0, 2000) || undefined;
  if (!title && !description)
    return { error: "No HS code on the item and no title or description to classify it from" };
  let out: Awaited<ReturnType<typeof suggestCodes>>;
  try {
    out = await suggestCodes({
      ctx,
      input: { title, description, destination_country: destination, country_of_origin: origin ?? undefined },
    });
  } catch (e) {
    // The nomenclature not being loaded (503) fails this item, not the whole run.
    if (e instanceof ApiError) return { error: `No HS code on the item and classification failed: ${e.message}` };
    throw e;
  }
  const top = out instanceof UnclassifiableError ? undefined : out.results[0];
  if (!top)
    return {
      error: `No HS code on the item and the classifier suggested none: ${out.message || "no match"}`,
    };
  return {
    hsCode: top.code,
    classification: { confidence: top.confidence, score: top.score, description: top.tariff.description ?? null },
  };
}

/**
 * One calculate entry for every item that has a code and an origin, in item order (`lineOf`: item index →
 * line index); null when no item can be priced.
 */
function shipmentBody(tree: Tree, plans: Plan[], destination: string, entryDate: string) {
  const c = tree.consignment;
  const notes: string[] = [];
  const lineOf = new Map<number, number>();
  const codes: Record<string, unknown>[] = [];
  tree.items.forEach((item, i) => {
    const p = plans[i];
    if (!p || p.error || !p.hsCode) return;
    lineOf.set(i, codes.length);
    codes.push(calcLine(item, p.hsCode, p));
  });
  if (plans.some((p) => !p.error && !p.currency))
    notes.push("Items with no currency on the item, its order or its parcel are valued in the destination currency");
  const transportMode =
    c.transportMode && TRANSPORT_MODES.has(c.transportMode)
      ? (c.transportMode as CalcInput["transportMode"])
      : undefined;
  if (!transportMode)
    notes.push("No transport mode on the consignment: assessed as sea freight (the calculate default)");
  const terms = c.incoterm && SHIPPING_TERMS.has(c.incoterm) ? (c.incoterm as CalcInput["shippingTerms"]) : undefined;
  const body: ShipmentBody | null = codes.length
    ? {
        destination_country: destination,
        codes,
        reference: c.shipmentRef,
        weight_unit: "kg",
        shipping_cost: 0,
        insurance_cost: 0,
        transport_mode: transportMode ?? "sea",
        shipping_terms: terms ?? "FOB",
        entry_date: entryDate,
      }
    : null;
  return { body, lineOf, notes };
}

function calcLine(item: ItemRow, hsCode: string, p: Plan): Record<string, unknown> {
  return {
    hs_code: hsCode.slice(0, CALC_HS_DIGITS),
    origin_country: p.origin,
    // Exact decimal text to a JS number: calculate takes numbers on its wire and turns them back to decimal text.
    declared_value: Number(item.unitValue),
    quantity: item.quantity,
    ...(p.currency ? { currency: p.currency } : {}),
    // Item weight is per unit, like unit_value; calculate wants the line's net weight.
    ...(item.weightKg !== null
      ? { weight: Number(dec(item.weightKg).times(item.quantity).toString()), weight_unit: "kg" }
      : {}),
    // Metals traceability (Section 232 smelt, cast and melt-and-pour rules), kept with the item's other fields.
    ...metalFacts(item.extra),
  };
}

/** Every item as assessed: its priced line, or `duty: null` and why it was not assessed. */
function assessedItems(
  items: ItemRow[],
  plans: Plan[],
  lineOf: Map<number, number>,
  quote: Quote | null,
  currency: string,
): AssessedItem[] {
  const m = (n: number) => moneyString(dec(n), currency);
  const results = (quote?.results ?? []) as LineResult[];
  return items.map((item, i) => {
    const p = plans[i];
    const base = {
      item_id: item.id,
      sku: item.sku,
      title: item.title,
      hs_code: p?.hsCode ?? null,
      hs_code_source: p?.hsSource ?? null,
      classification: p?.classification ?? null,
      origin_country: p?.origin ?? null,
      quantity: item.quantity,
      unit_value: item.unitValue,
      declared_currency: p?.currency ?? null,
    };
    const unassessed = (error: string): AssessedItem => ({
      ...base,
      tariff_line: null,
      rate_found: false,
      customs_value: null,
      duty: null,
      tax: null,
      rates_applied: [],
      notes: [],
      message: null,
      error,
    });
    if (!p) return unassessed("Not planned");
    if (p.error) return unassessed(p.error);
    const line = lineOf.get(i);
    const r = line === undefined ? undefined : results[line];
    if (!r) return unassessed("Not calculated");
    if ("error" in r) return unassessed(r.error);
    return {
      ...base,
      declared_currency: r.currencies.declared,
      tariff_line: r.tariff_line?.code ?? null,
      rate_found: r.rate_found,
      customs_value: m(r.values.customs_value),
      // Without a tariff line the duty is unknown, not zero.
      duty: r.rate_found ? m(r.totals.duty) : null,
      // Excise (alcohol, tobacco) is a tax collected at import beside the VAT.
      tax: moneyString(dec(r.totals.vat).plus(r.totals.excise ?? 0), currency),
      rates_applied: ratesApplied(r, m),
      notes: r.notes,
      message: r.message || null,
      error: null,
    };
  });
}

function ratesApplied(r: Exclude<LineResult, { error: string }>, m: (n: number) => string): RateApplied[] {
  const tier = r.estimated_duties.tier;
  return r.estimated_duties.tariffs.map((d, k) => ({
    measure: d.name,
    code: d.code ?? null,
    rate: d.rate,
    type: d.type,
    // The engine puts the tier's base line first, then the additional measures stacked on it.
    tier: k === 0 && tier ? tier : null,
    amount: m(d.amount),
    basis: d.basis,
    estimated: d.estimated ?? false,
    exempted: d.exempted ?? false,
    exclusion_code: d.exclusion_code ?? null,
  }));
}

interface RowParts {
  tree: Tree;
  destination: string;
  currency: string;
  entryDate: string;
  items: AssessedItem[];
  notes: string[];
  quote: Quote | null;
}

function assessmentRow(ctx: AssessContext, p: RowParts): Row {
  const { currency } = p;
  const m = (n: number) => moneyString(dec(n), currency);
  const shipment = (p.quote?.shipment ?? null) as {
    fees?: Record<string, { code: string; name: string; amount: number; basis: string }> | null;
  } | null;
  const fees: Fee[] = Object.values(shipment?.fees ?? {}).map((f) => ({
    code: f.code,
    name: f.name,
    amount: m(f.amount),
    basis: f.basis,
  }));
  const totals = p.quote?.totals ?? { duty: 0, fees: 0, vat: 0 };
  return {
    id: ctx.deps.ids.prefixed("asm"),
    workspaceId: ctx.workspace.id,
    consignmentId: p.tree.consignment.id,
    destinationCountry: p.destination,
    currency,
    entryDate: p.entryDate,
    totalDuty: m(totals.duty),
    totalTax: moneyString(
      dec(totals.vat)
        .plus(totals.fees)
        .plus("excise" in totals ? (totals.excise ?? 0) : 0),
      currency,
    ),
    totalVat: m(totals.vat),
    totalFees: m(totals.fees),
    complete: p.items.every((i) => i.error === null && i.rate_found),
    items: JSON.stringify(p.items),
    fees: JSON.stringify(fees),
    notes: JSON.stringify(p.notes),
    dataSource: p.quote?.data_source ? JSON.stringify(p.quote.data_source) : null,
    requestId: ctx.requestId,
    createdAt: isoAt(ctx.deps.clock.now()),
  };
}

/**
 * The assessment, its timeline event and its webhook event commit together or not at all, and only while the
 * consignment is still visible: one racing a delete is either seen by the delete's guard (or removed with the
 * consignment) or not written, and then its webhook is withdrawn in the same batch and the answer is a 404.
 */
async function commit(ctx: ServiceContext, tree: Tree, row: Row, itemCount: number): Promise<string[]> {
  const { db } = ctx;
  const c = tree.consignment;
  const summary = {
    assessment_id: row.id,
    destination_country: row.destinationCountry,
    total_duty: row.totalDuty,
    total_tax: row.totalTax,
    currency: row.currency,
  };
  const outbox = await outboxStatements({
    ctx,
    input: {
      event: {
        type: "duties.calculated",
        data: { consignment_id: c.id, shipment_ref: c.shipmentRef, external_code: c.externalCode, ...summary },
      },
    },
  });
  const stored = sql`EXISTS (SELECT 1 FROM ${consignmentAssessments} WHERE ${consignmentAssessments.id} = ${row.id})`;
  const [inserted] = await db.batch([
    insertWhen(db, consignmentAssessments, row, exists(consignmentHeadQuery(ctx, c.id))).returning({
      id: consignmentAssessments.id,
    }),
    eventInsert(db, ctx.deps.ids, {
      consignmentId: c.id,
      workspaceId: ctx.workspace.id,
      type: "assessment.created",
      data: { ...summary, items: itemCount },
      requestId: ctx.requestId,
      createdAt: row.createdAt,
      when: stored,
    }),
    ...outbox.statements,
    ...withdrawOutboxUnless(db, outbox.eventId, stored),
  ]);
  if (!inserted.length) throw consignmentNotFound(c.id);
  return outbox.deliveryIds;
}

export interface AssessmentPage {
  id: string;
  limit: number;
  starting_after?: string | undefined;
}

/** Assessments of a consignment, newest first, keyset-paged by assessment id; 404 as for the consignment. */
export async function listAssessments({
  ctx,
  input,
}: Call<AssessmentPage>): Promise<{ assessments: Assessment[]; hasMore: boolean }> {
  const where = [
    eq(consignmentAssessments.consignmentId, input.id),
    eq(consignmentAssessments.workspaceId, ctx.workspace.id),
  ];
  if (input.starting_after) where.push(lt(consignmentAssessments.id, input.starting_after));
  const [head, rows] = await ctx.db.batch([
    consignmentHeadQuery(ctx, input.id),
    ctx.db
      .select()
      .from(consignmentAssessments)
      .where(and(...where))
      .orderBy(desc(consignmentAssessments.id))
      .limit(input.limit + 1),
  ]);
  if (!head.length) throw consignmentNotFound(input.id);
  return { assessments: rows.slice(0, input.limit).map(assessmentOut), hasMore: rows.length > input.limit };
}

/** One assessment of a consignment; 404 for an unknown consignment or an assessment of another consignment. */
export async function getAssessment({ ctx, input }: Call<{ id: string; assessmentId: string }>): Promise<Assessment> {
  const [head, rows] = await ctx.db.batch([
    consignmentHeadQuery(ctx, input.id),
    ctx.db
      .select()
      .from(consignmentAssessments)
      .where(
        and(
          eq(consignmentAssessments.id, input.assessmentId),
          eq(consignmentAssessments.consignmentId, input.id),
          eq(consignmentAssessments.workspaceId, ctx.workspace.id),
        ),
      )
      .limit(1),
  ]);
  if (!head.length) throw consignmentNotFound(input.id);
  const [row] = rows;
  if (!row) throw notFound(`Assessment '${input.assessmentId}' not found for consignment '${input.id}'`);
  return assessmentOut(row);
}
