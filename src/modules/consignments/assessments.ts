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
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { consignmentAssessments } from "../../db/schema/index";
import type { CalcInput } from "../../engines/calculate/types";
import type { calcWire } from "../../engines/calculate/wire";
import type { Deps, WorkspaceContext } from "../../core/context";
import { isoAt } from "../../lib/clock";
import { ApiError, notFound, unprocessable } from "../../lib/errors";
import { country as isoCountry } from "../../lib/iso";
import { dec, moneyString } from "../../lib/money";
import { unsupported } from "../calculate/reference";
import { calculateMultiple, RuleViolation, today } from "../calculate/service";
import { classify } from "../classify/service";
import { outboxStatements } from "../webhooks/service";
import { eventInsert } from "./events";
import { consignmentHeadQuery, loadConsignment } from "./service";

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

export interface AssessCtx {
  db: Db;
  deps: Deps;
  /** The raw binding: the calculate service reads its reference data through it. */
  d1: D1Database;
  /** What the classifier needs to know about the deployment (image mode, page fetching). */
  classifier: { production: boolean; imageModel: unknown };
}

/**
 * One run prices every line in a single calculate call (shipment-level de minimis and fee floors need the
 * whole entry at once); this bounds the work of one request. Larger consignments are split before assessment.
 */
export const MAX_ASSESSED_ITEMS = 250;

/** The calculate input takes 4-10 digits; digits beyond 10 are national statistical suffixes with no rate of their own. */
const CALC_HS_DIGITS = 10;

const TRANSPORT_MODES = new Set(["sea", "air", "road", "rail"]);
const SHIPPING_TERMS = new Set(["FOB", "CIF", "EXW", "DDP"]);

export interface RateApplied {
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

export interface AssessedItem {
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

export interface Fee {
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

/** Suggests a code for an item that came without one; an item the classifier cannot place stays unassessed. */
async function suggestCode(
  ctx: AssessCtx,
  ws: WorkspaceContext,
  item: { title: string | null; description: string | null },
  destination: string,
  origin: string | null,
  requestId: string,
) {
  const title = item.title?.trim().slice(0, 500) || undefined;
  const description = item.description?.trim().slice(0, 2000) || undefined;
  if (!title && !description)
    return { error: "No HS code on the item and no title or description to classify it from" };
  try {
    const out = await classify(
      {
        db: ctx.db,
        organizationId: ws.organizationId,
        production: ctx.classifier.production,
        imageModel: ctx.classifier.imageModel,
      },
      { title, description, destination_country: destination, country_of_origin: origin ?? undefined },
      requestId,
    );
    const top = out.body.top_result as
      | { code: string; confidence: string; score: number; tariff: { description: string } }
      | null
      | undefined;
    if (out.status !== 200 || !top)
      return {
        error: `No HS code on the item and the classifier suggested none: ${String(out.body.message || "no match")}`,
      };
    return {
      hsCode: top.code,
      classification: { confidence: top.confidence, score: top.score, description: top.tariff.description ?? null },
    };
  } catch (e) {
    // The nomenclature not being loaded (503) fails this item, not the whole run.
    if (e instanceof ApiError) return { error: `No HS code on the item and classification failed: ${e.message}` };
    throw e;
  }
}

/**
 * Runs the duty assessment of one consignment and stores it. 404 for a consignment outside the workspace (or,
 * for a pinned client, outside its customer); 422 when the consignment has no receiver country, no items,
 * too many items, an unsupported destination, or when a workspace country rule refuses a line.
 * Returns the stored assessment and the webhook deliveries to enqueue once committed.
 */
export async function runAssessment(
  ctx: AssessCtx,
  ws: WorkspaceContext,
  consignmentId: string,
  caller: { pinnedCustomerId: number | null; requestId: string },
): Promise<{ assessment: Assessment; deliveryIds: string[] }> {
  const { db, deps } = ctx;
  const t = await loadConsignment(ctx, ws.id, consignmentId, caller.pinnedCustomerId);
  const c = t.consignment;
  const destination = c.receiverCountry;
  if (!destination)
    throw unprocessable(
      `Consignment '${c.id}' has no receiver country: duties cannot be assessed without a destination (receiver.country_code)`,
    );
  if (!t.items.length) throw unprocessable(`Consignment '${c.id}' has no items to assess`);
  if (t.items.length > MAX_ASSESSED_ITEMS)
    throw unprocessable(
      `Consignment '${c.id}' has ${t.items.length} items; an assessment covers at most ${MAX_ASSESSED_ITEMS}`,
    );
  const why = await unsupported(ctx.d1, deps.clock, destination);
  if (why) throw unprocessable(`Duties cannot be assessed for this consignment: ${why}`);

  const entryDate = c.entryDate ?? today(deps.clock);
  const notes: string[] = [];
  const orderCcy = new Map(t.orders.map((o) => [o.id, o.currencyCode]));
  const parcelCcy = new Map(t.parcels.map((p) => [p.id, p.currencyCode]));

  // Codes, origins and currencies per item; items without a code are classified for the destination.
  const plans: Plan[] = [];
  for (const item of t.items) {
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
      const s = await suggestCode(ctx, ws, item, destination, origin, caller.requestId);
      if ("error" in s) plan.error = s.error ?? null;
      else Object.assign(plan, { hsCode: s.hsCode, hsSource: "classified", classification: s.classification });
    }
    if (!plan.error && !origin)
      plan.error = "No country of origin on the item and no sender country on the consignment";
    plans.push(plan);
  }

  // One calculate/multiple entry for every item that has a code and an origin, in item order.
  const lineOf = new Map<number, number>();
  const codes: Record<string, unknown>[] = [];
  plans.forEach((p, i) => {
    if (p.error) return;
    const item = t.items[i]!;
    lineOf.set(i, codes.length);
    codes.push({
      hs_code: p.hsCode!.slice(0, CALC_HS_DIGITS),
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
    });
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

  let body: Awaited<ReturnType<typeof calculateMultiple>>["body"] | null = null;
  if (codes.length) {
    try {
      ({ body } = await calculateMultiple(
        { db: ctx.d1, clock: deps.clock, workspaceId: ws.id },
        {
          destination_country: destination,
          codes,
          reference: c.shipmentRef,
          weight_unit: "kg",
          shipping_cost: 0,
          insurance_cost: 0,
          transport_mode: transportMode ?? "sea",
          shipping_terms: terms ?? "FOB",
          entry_date: entryDate,
        },
      ));
    } catch (e) {
      if (e instanceof RuleViolation) {
        throw unprocessable(`The workspace's country rules refuse this assessment: ${e.message}`, {
          errors: e.errors.map((v) => v.description),
          rule_violations: e.errors,
        });
      }
      throw e;
    }
  }

  const currency = body?.currency ?? isoCountry(destination)?.currency ?? "USD";
  const m = (n: number) => moneyString(dec(n), currency);
  const results = (body?.results ?? []) as LineResult[];
  const items: AssessedItem[] = t.items.map((item, i) => {
    const p = plans[i]!;
    const base = {
      item_id: item.id,
      sku: item.sku,
      title: item.title,
      hs_code: p.hsCode,
      hs_code_source: p.hsSource,
      classification: p.classification,
      origin_country: p.origin,
      quantity: item.quantity,
      unit_value: item.unitValue,
      declared_currency: p.currency,
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
    if (p.error) return unassessed(p.error);
    const r = results[lineOf.get(i)!];
    if (!r) return unassessed("Not calculated");
    if ("error" in r) return unassessed(r.error);
    const tier = r.estimated_duties.tier;
    const rates: RateApplied[] = r.estimated_duties.tariffs.map((d, k) => ({
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
    return {
      ...base,
      declared_currency: r.currencies.declared,
      tariff_line: r.tariff_line?.code ?? null,
      rate_found: r.rate_found,
      customs_value: m(r.values.customs_value),
      // Without a tariff line the duty is unknown, not zero.
      duty: r.rate_found ? m(r.totals.duty) : null,
      tax: m(r.totals.vat),
      rates_applied: rates,
      notes: r.notes,
      message: r.message || null,
      error: null,
    };
  });

  const shipment = (body?.shipment ?? null) as {
    fees?: Record<string, { code: string; name: string; amount: number; basis: string }> | null;
  } | null;
  const fees: Fee[] = Object.values(shipment?.fees ?? {}).map((f) => ({
    code: f.code,
    name: f.name,
    amount: m(f.amount),
    basis: f.basis,
  }));
  const totals = body?.totals ?? { duty: 0, fees: 0, vat: 0 };
  const now = isoAt(deps.clock.now());
  const row: Row = {
    id: deps.ids.prefixed("asm"),
    workspaceId: ws.id,
    consignmentId: c.id,
    destinationCountry: destination,
    currency,
    entryDate,
    totalDuty: m(totals.duty),
    totalTax: moneyString(dec(totals.vat).plus(totals.fees), currency),
    totalVat: m(totals.vat),
    totalFees: m(totals.fees),
    complete: items.every((i) => i.error === null && i.rate_found),
    items: JSON.stringify(items),
    fees: JSON.stringify(fees),
    notes: JSON.stringify(notes),
    dataSource: body?.data_source ? JSON.stringify(body.data_source) : null,
    requestId: caller.requestId,
    createdAt: now,
  };
  const summary = {
    assessment_id: row.id,
    destination_country: destination,
    total_duty: row.totalDuty,
    total_tax: row.totalTax,
    currency,
  };
  const outbox = await outboxStatements(ctx, ws, {
    type: "duties.calculated",
    data: { consignment_id: c.id, shipment_ref: c.shipmentRef, external_code: c.externalCode, ...summary },
  });
  // The assessment, its timeline event and its webhook event commit together or not at all.
  await db.batch([
    db.insert(consignmentAssessments).values(row),
    eventInsert(db, deps.ids, {
      consignmentId: c.id,
      workspaceId: ws.id,
      type: "assessment.created",
      data: { ...summary, items: items.length },
      requestId: caller.requestId,
      createdAt: now,
    }),
    ...outbox.statements,
  ] as never);
  return { assessment: assessmentOut(row), deliveryIds: outbox.deliveryIds };
}

/** Assessments of a consignment, newest first, keyset-paged by assessment id; 404 as for the consignment. */
export async function listAssessments(
  { db }: { db: Db },
  workspaceId: string,
  consignmentId: string,
  q: { limit: number; starting_after?: string | undefined },
  pinnedCustomerId: number | null,
) {
  const where = [
    eq(consignmentAssessments.consignmentId, consignmentId),
    eq(consignmentAssessments.workspaceId, workspaceId),
  ];
  if (q.starting_after) where.push(lt(consignmentAssessments.id, q.starting_after));
  const [head, rows] = await db.batch([
    consignmentHeadQuery(db, workspaceId, consignmentId, pinnedCustomerId),
    db
      .select()
      .from(consignmentAssessments)
      .where(and(...where))
      .orderBy(desc(consignmentAssessments.id))
      .limit(q.limit + 1),
  ]);
  if (!head[0]) throw notFound(`Consignment '${consignmentId}' not found`);
  return { assessments: rows.slice(0, q.limit).map(assessmentOut), hasMore: rows.length > q.limit };
}

/** One assessment of a consignment; 404 for an unknown consignment or an assessment of another consignment. */
export async function getAssessment(
  { db }: { db: Db },
  workspaceId: string,
  consignmentId: string,
  assessmentId: string,
  pinnedCustomerId: number | null,
): Promise<Assessment> {
  const [head, rows] = await db.batch([
    consignmentHeadQuery(db, workspaceId, consignmentId, pinnedCustomerId),
    db
      .select()
      .from(consignmentAssessments)
      .where(
        and(
          eq(consignmentAssessments.id, assessmentId),
          eq(consignmentAssessments.consignmentId, consignmentId),
          eq(consignmentAssessments.workspaceId, workspaceId),
        ),
      )
      .limit(1),
  ]);
  if (!head[0]) throw notFound(`Consignment '${consignmentId}' not found`);
  if (!rows[0]) throw notFound(`Assessment '${assessmentId}' not found for consignment '${consignmentId}'`);
  return assessmentOut(rows[0]);
}
