/**
 * Consignment create, in phases: loadInputs (every read, one round trip) → resolveItems (catalogue codes and
 * origins) → checkStructure and applyRules (every rejection at once, in the spec's 422) → buildTree (rows with
 * ids minted here) → runInlineFlows (`wait` actions, against the consignment about to be inserted) →
 * buildStatements → commit (one batch: the tree, its events, flow effects and runs, the webhook outbox).
 */
import { and, eq } from "drizzle-orm";
import type { Call, ServiceContext } from "../../core/context";
import { bulkInsert, chunkedInserts, chunksFor } from "../../db/bulk";
import {
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignments,
  customers,
  flowRuns,
} from "../../db/schema/index";
import { computedFacts, evaluate } from "../../engines/validation-rules/evaluate";
import { isoAt } from "../../lib/clock";
import { EU_MEMBERS } from "../../lib/iso";
import { dec } from "../../lib/money";
import { type CatalogueRow, catalogueBySkuQuery } from "../catalogue/service";
import { eventInsert, type Statement } from "../consignment-records/rows";
import type { ConsignmentRow, DocumentRow, ItemRow, OrderRow, ParcelRow, Tree } from "../consignment-records/tree";
import {
  type ActionOutcome,
  actionsOf,
  discardDocuments,
  enabledFlowsQuery,
  extraWithTags,
  type FlowRow,
  matchingFlows,
  outcomeToWire,
  runAction,
  runRows,
  type Succeeded,
} from "../flows/actions";
import { enabledRulesQuery, ruleFromRow, type ValidationRuleRow } from "../validation-rules/service";
import { type EndpointRow, liveEndpointsQuery, outboxStatements } from "../webhooks/service";
import { ConsignmentRejected } from "./errors";
import { partyOut, retrievalTree } from "./output";
import type { ConsignmentInputT, ItemT } from "./schemas";
import { decText, toCm, toKg } from "./units";

type Customer = { id: number; name: string };
export type Warning = { rule_id: number; name: string; message: string };

export interface CreateInput {
  consignment: ConsignmentInputT;
  /** Awaited right before the commit: the request's verbatim body must be archived before what it asks for. */
  beforeCommit: () => Promise<void>;
}

export interface CreateResult {
  tree: Tree;
  warnings: Warning[];
  customer: Customer | null;
  deliveryIds: string[];
  /** Background flow runs committed with the consignment, for the queue. */
  runIds: string[];
  /** Documents made by inline flow actions. */
  documents: DocumentRow[];
  /** Tracking numbers issued by inline label actions, per parcel. */
  labels: { parcelId: string; trackingNumber: string }[];
  /** Inline flow actions and their results (empty when none ran). */
  flowsRan: { flow_id: number; name: string; actions: Record<string, unknown>[] }[];
}

/** Creates a consignment atomically; every rejection is collected and thrown at once as ConsignmentRejected. */
export async function createConsignment({ ctx, input }: Call<CreateInput>): Promise<CreateResult> {
  const body = input.consignment;
  const located = allItems(body);
  const reads = await loadInputs(ctx, body, located);
  const resolved = resolveItems(located, reads.catalogue, body.receiver?.country_code ?? null);
  const problems = checkStructure(body, located, resolved, reads.customer);
  if (problems.length) throw new ConsignmentRejected(problems);
  const warnings = applyRules(reads.rules, body, resolved);

  const nowMs = ctx.deps.clock.now();
  const tree = buildTree(ctx, body, resolved, reads.customer.row, nowMs);
  // Minted before the inline actions' events, so the timeline (ordered by event id) starts with the create.
  const createdEventId = ctx.deps.ids.prefixed("cev");
  const matched = matchingFlows(reads.flows, tree.consignment.externalCode);
  const inline = await runInlineFlows(ctx, tree, matched, reads.endpoints, nowMs);
  const runs = runRows(ctx.deps, ctx.workspace.id, tree.consignment.id, matched, nowMs);
  const outbox = await outboxStatements({
    ctx,
    input: {
      event: {
        type: "consignment.created",
        data: {
          consignment_id: tree.consignment.id,
          shipment_ref: body.shipment_ref,
          external_code: body.external_code ?? null,
          customer_id: reads.customer.row?.id ?? null,
          status: "created",
        },
      },
      endpoints: reads.endpoints,
    },
  });
  const statements = buildStatements(ctx, { tree, createdEventId, matched, inline: inline.succeeded, runs });
  await commit(ctx, [...statements, ...outbox.statements], input.beforeCommit, inline.r2Keys);

  return {
    tree,
    customer: reads.customer.row,
    deliveryIds: [...outbox.deliveryIds, ...inline.succeeded.flatMap((o) => o.deliveryIds)],
    runIds: runs.map((r) => r.id),
    warnings,
    documents: inline.succeeded.flatMap((o) => (o.document ? [o.document] : [])),
    labels: inline.succeeded.flatMap((o) => o.labels ?? []),
    flowsRan: inline.ran.map(({ flow, outcomes }) => ({
      flow_id: flow.id,
      name: flow.name,
      actions: outcomes.map(outcomeToWire),
    })),
  };
}

// ---- loadInputs ------------------------------------------------------------------------------------------------

interface Located {
  item: ItemT;
  path: string;
  parcelIdx: number;
  /** Index of the parcel-level order the item sits in, or null for an item directly in its parcel. */
  nestedOrderIdx: number | null;
  /** That order's own order_ref, which the item's must agree with. */
  nestedOrderRef: string | null;
}

export function allItems(input: ConsignmentInputT): Located[] {
  const out: Located[] = [];
  for (const [pi, p] of input.parcels.entries()) {
    for (const [ii, item] of p.items.entries())
      out.push({
        item,
        path: `parcels[${pi}].items[${ii}]`,
        parcelIdx: pi,
        nestedOrderIdx: null,
        nestedOrderRef: null,
      });
    for (const [oi, o] of p.orders.entries())
      for (const [ii, item] of o.items.entries())
        out.push({
          item,
          path: `parcels[${pi}].orders[${oi}].items[${ii}]`,
          parcelIdx: pi,
          nestedOrderIdx: oi,
          nestedOrderRef: o.order_ref ?? null,
        });
  }
  return out;
}

export interface Reads {
  customer: { asked: number | null; row: Customer | null };
  rules: ValidationRuleRow[];
  endpoints: EndpointRow[];
  flows: FlowRow[];
  catalogue: Map<string, CatalogueRow>;
}

/**
 * Every read the create needs, in one round trip: customer, catalogue items named by sku, validation rules,
 * webhook endpoints (for the outbox) and flows. The rest of the create is computed in the isolate.
 */
export async function loadInputs(ctx: ServiceContext, body: ConsignmentInputT, located: Located[]): Promise<Reads> {
  const { db, workspace } = ctx;
  // A pinned client always creates for its own customer.
  const customerId = ctx.actor.customerId ?? body.customer_id ?? null;
  // The catalogue only fills in what an item lacks: items that carry both an HS code and an origin need no lookup.
  const skus = [
    ...new Set(
      located
        .filter((l) => !(l.item.harmonised_code ?? l.item.hs_code) || !l.item.country_of_origin)
        .map((l) => l.item.sku)
        .filter((s): s is string => Boolean(s)),
    ),
  ];
  const [customerRows, rules, endpoints, flowRows, ...catalogueChunks] = await db.batch([
    db
      .select({ id: customers.id, name: customers.name })
      .from(customers)
      .where(and(eq(customers.id, customerId ?? -1), eq(customers.workspaceId, workspace.id)))
      .limit(1),
    enabledRulesQuery(db, workspace.id),
    liveEndpointsQuery(db, workspace),
    enabledFlowsQuery(db, workspace.id, "consignment.created"),
    // One parameter is the workspace id.
    ...chunksFor(skus, 1, 1).map((chunk) => catalogueBySkuQuery(db, workspace.id, chunk)),
  ]);
  return {
    customer: { asked: customerId, row: customerId === null ? null : (customerRows[0] ?? null) },
    rules,
    endpoints,
    flows: flowRows,
    catalogue: new Map(catalogueChunks.flat().map((r) => [r.sku, r])),
  };
}

// ---- resolveItems ----------------------------------------------------------------------------------------------

interface Resolved extends Located {
  hsCode: string | null;
  hsSource: string | null;
  origin: string | null;
}

/** The catalogue code for a destination: the national one, the EU one for member states, else the default. */
function catalogueCode(hsCodes: Record<string, string>, fallback: string | null, destination: string | null) {
  const national = destination ? hsCodes[destination] : undefined;
  if (national) return national;
  if (destination && EU_MEMBERS.has(destination) && hsCodes.EU) return hsCodes.EU;
  return fallback;
}

/** Items that name a known sku borrow its HS code and origin when they carry none. */
export function resolveItems(located: Located[], catalogue: Map<string, CatalogueRow>, destination: string | null) {
  return located.map((l): Resolved => {
    const cat = l.item.sku ? catalogue.get(l.item.sku) : undefined;
    const declared = (l.item.harmonised_code ?? l.item.hs_code)?.replace(/[. ]/g, "") ?? null;
    const fromCatalogue = cat
      ? catalogueCode(JSON.parse(cat.hsCodes) as Record<string, string>, cat.hsCode, destination)
      : null;
    return {
      ...l,
      hsCode: declared ?? fromCatalogue,
      hsSource: declared ? (l.item.hs_code_source ?? "declared") : cat ? "catalogue" : null,
      origin: l.item.country_of_origin ?? cat?.countryOfOrigin ?? null,
    };
  });
}

// ---- checkStructure and applyRules ------------------------------------------------------------------------------

/** The create's own rules: customer, order_ref links, origins of international consignments, shipping. */
export function checkStructure(
  body: ConsignmentInputT,
  located: Located[],
  resolved: Resolved[],
  customer: Reads["customer"],
): string[] {
  const errors: string[] = [];
  if (customer.asked !== null && !customer.row)
    errors.push(`customer_id: no customer ${customer.asked} in this workspace`);
  errors.push(...orderRefProblems(body, located));

  // International consignments need items, each with an origin; domestic ones are exempt.
  const from = body.sender?.country_code;
  const to = body.receiver?.country_code;
  if (from && to && from !== to) {
    if (!resolved.length)
      errors.push(`parcels: an international consignment (${from} → ${to}) needs at least one item`);
    for (const r of resolved)
      if (!r.origin)
        errors.push(`${r.path}.country_of_origin: required for an international consignment (${from} → ${to})`);
  }
  if (body.shipping && !body.shipping.currency_code)
    errors.push("shipping.currency_code: required when shipping is given");
  return errors;
}

/** order_ref is unique across the consignment; item links must name a consignment-level order (or their own). */
function orderRefProblems(body: ConsignmentInputT, located: Located[]): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  const allRefs = [
    ...(body.orders ?? []).map((o) => o.order_ref),
    ...body.parcels.flatMap((p) => p.orders.map((o) => o.order_ref)).filter((r): r is string => Boolean(r)),
  ];
  for (const ref of allRefs) {
    if (seen.has(ref)) errors.push(`orders: order_ref '${ref}' is used more than once`);
    seen.add(ref);
  }
  const topRefs = new Set((body.orders ?? []).map((o) => o.order_ref));
  for (const { item, path, nestedOrderIdx, nestedOrderRef } of located) {
    if (!item.order_ref) continue;
    if (nestedOrderIdx !== null) {
      if (nestedOrderRef && item.order_ref !== nestedOrderRef)
        errors.push(`${path}.order_ref: '${item.order_ref}' differs from its order's order_ref '${nestedOrderRef}'`);
    } else if (!topRefs.has(item.order_ref)) {
      errors.push(`${path}.order_ref: no order '${item.order_ref}' in orders[]`);
    }
  }
  return errors;
}

/** Workspace validation rules: error hits reject the create, warnings are reported with it. */
export function applyRules(rows: ValidationRuleRow[], body: ConsignmentInputT, resolved: Resolved[]): Warning[] {
  if (!rows.length) return [];
  const weightKg = body.parcels.reduce((s, p) => s.plus(toKg(p.weight_value, body.weight_unit)), dec(0)).toString();
  const facts = {
    payload: body as Record<string, unknown>,
    computed: computedFacts({
      sender: body.sender,
      receiver: body.receiver,
      items: resolved.map((r) => r.item),
      parcelCount: body.parcels.length,
      weightKg,
    }),
  };
  const hits = evaluate(rows.map(ruleFromRow), facts);
  if (hits.errors.length) throw new ConsignmentRejected(hits.errors.map((h) => h.message));
  return hits.warnings.map(({ rule_id, name, message }) => ({ rule_id, name, message }));
}

// ---- buildTree -------------------------------------------------------------------------------------------------

/**
 * What an amend carries over into the rebuilt tree: the consignment row itself (its id, status and creation
 * time stay) and the ids of the parcels, orders and items that stay, by their path in the body
 * (`parcels[1]`, `orders[0]`, `parcels[0].orders[2]`, `parcels[1].items[0]`).
 */
interface Previous {
  consignment: ConsignmentRow;
  ids: ReadonlyMap<string, string>;
}

/**
 * The rows of the consignment, ids minted here so the whole tree goes in one batch; an amend passes
 * `previous` so that what stays keeps its id.
 */
export function buildTree(
  ctx: ServiceContext,
  body: ConsignmentInputT,
  resolved: Resolved[],
  customer: Customer | null,
  nowMs: number,
  previous?: Previous,
): Tree {
  const idOf = (path: string, prefix: "par" | "ord" | "itm") =>
    previous?.ids.get(path) ?? ctx.deps.ids.prefixed(prefix);
  const consignment = consignmentRow(body, customer, isoAt(nowMs), {
    id: previous?.consignment.id ?? ctx.deps.ids.prefixed("con"),
    workspaceId: ctx.workspace.id,
    status: previous?.consignment.status ?? "created",
    createdAt: previous?.consignment.createdAt ?? null,
  });
  const orders: OrderRow[] = [];
  const orderIdByRef = new Map<string, string>();
  (body.orders ?? []).forEach((o, i) => {
    const row = orderRow(idOf(`orders[${i}]`, "ord"), consignment.id, o, i, null);
    orderIdByRef.set(o.order_ref, row.id);
    orders.push(row);
  });
  const parcels = body.parcels.map((p, pi) => {
    const row = parcelRow(idOf(`parcels[${pi}]`, "par"), consignment.id, p, pi, body);
    // Parcel-level orders sort after the consignment-level ones, parcel by parcel.
    const nested = p.orders.map((o, oi) =>
      orderRow(
        idOf(`parcels[${pi}].orders[${oi}]`, "ord"),
        consignment.id,
        o,
        (body.orders?.length ?? 0) + pi * 1000 + oi,
        row.id,
      ),
    );
    orders.push(...nested);
    return { row, nestedOrderIds: nested.map((o) => o.id) };
  });
  const items = resolved.map((r, position): ItemRow => {
    const parcel = parcels[r.parcelIdx];
    if (!parcel) throw new Error(`item ${r.path} names no parcel`);
    const orderId =
      r.nestedOrderIdx !== null
        ? (parcel.nestedOrderIds[r.nestedOrderIdx] ?? null)
        : r.item.order_ref
          ? (orderIdByRef.get(r.item.order_ref) ?? null)
          : null;
    const at = { parcelId: parcel.row.id, orderId, position };
    return itemRow(idOf(r.path, "itm"), consignment.id, r, at, body);
  });
  const tree: Tree = { consignment, parcels: parcels.map((p) => p.row), orders, items };
  tree.consignment.retrieval = JSON.stringify(retrievalTree(tree));
  return tree;
}

function consignmentRow(
  body: ConsignmentInputT,
  customer: Customer | null,
  now: string,
  own: { id: string; workspaceId: string; status: string; createdAt: string | null },
): ConsignmentRow {
  const {
    shipment_ref,
    customer_id: _customerId,
    type,
    external_code,
    incoterm,
    entry_date,
    transport_mode,
    weight_unit,
    measurement_unit,
    movement_indicator,
    sender,
    receiver,
    orders: _orders,
    parcels: _parcels,
    ...rest
  } = body;
  return {
    id: own.id,
    workspaceId: own.workspaceId,
    customerId: customer?.id ?? null,
    shipmentRef: shipment_ref,
    externalCode: external_code ?? null,
    type,
    status: own.status,
    incoterm: incoterm ?? null,
    entryDate: entry_date ?? null,
    transportMode: transport_mode ?? null,
    weightUnit: weight_unit,
    measurementUnit: measurement_unit,
    movementIndicator: movement_indicator ?? null,
    senderCountry: sender?.country_code ?? null,
    receiverCountry: receiver?.country_code ?? null,
    sender: sender ? JSON.stringify(partyOut(sender, false)) : null,
    receiver: receiver ? JSON.stringify(partyOut(receiver, true)) : null,
    extra: JSON.stringify(rest),
    retrieval: null,
    createdAt: own.createdAt ?? now,
    updatedAt: now,
  };
}

type OrderInput =
  | NonNullable<ConsignmentInputT["orders"]>[number]
  | ConsignmentInputT["parcels"][number]["orders"][number];

const CHARGES = ["shipping_charge", "insurance_charge", "other_charge"] as const;

function orderRow(
  id: string,
  consignmentId: string,
  o: OrderInput,
  position: number,
  parcelId: string | null,
): OrderRow {
  const charges: Record<string, { amount: string; currency_code: string }> = {};
  for (const k of CHARGES) {
    const charge = o[k];
    if (charge) charges[k] = { amount: decText(charge.amount), currency_code: charge.currency_code };
  }
  return {
    id,
    consignmentId,
    parcelId,
    position,
    orderRef: o.order_ref ?? null,
    amount: o.amount != null ? decText(o.amount) : null,
    currencyCode: o.currency_code ?? null,
    orderDate: o.order_date ?? null,
    invoiceNumber: o.invoice_number ?? null,
    charges: JSON.stringify(charges),
  };
}

const DIMENSIONS = ["height", "width", "depth"] as const;

function parcelRow(
  id: string,
  consignmentId: string,
  p: ConsignmentInputT["parcels"][number],
  position: number,
  body: ConsignmentInputT,
): ParcelRow {
  const dims: Record<string, string> = {};
  for (const k of DIMENSIONS) {
    const v = p[k];
    if (v == null) continue;
    dims[k] = decText(v);
    dims[`${k}_cm`] = toCm(v, body.measurement_unit);
  }
  return {
    id,
    consignmentId,
    position,
    senderRef: p.sender_ref ?? null,
    barcode: p.barcode ?? null,
    packagingType: p.packaging_type,
    weightValue: decText(p.weight_value),
    weightKg: toKg(p.weight_value, body.weight_unit),
    dimensions: Object.keys(dims).length ? JSON.stringify(dims) : null,
    declaredValue: p.declared_value != null ? decText(p.declared_value) : null,
    currencyCode: p.currency_code ?? null,
  };
}

function itemRow(
  id: string,
  consignmentId: string,
  r: Resolved,
  at: { parcelId: string; orderId: string | null; position: number },
  body: ConsignmentInputT,
): ItemRow {
  const {
    quantity,
    unit_value,
    currency_code,
    order_ref: _orderRef,
    sku,
    title,
    description,
    harmonised_code: _harmonised,
    hs_code: _hs,
    hs_code_source: _source,
    country_of_origin: _origin,
    weight,
    ...itemExtra
  } = r.item;
  return {
    id,
    consignmentId,
    parcelId: at.parcelId,
    orderId: at.orderId,
    position: at.position,
    sku: sku ?? null,
    title: title ?? null,
    description: description ?? null,
    quantity,
    unitValue: decText(unit_value),
    currencyCode: currency_code ?? null,
    hsCode: r.hsCode,
    hsCodeSource: r.hsSource,
    countryOfOrigin: r.origin,
    weight: weight != null ? decText(weight) : null,
    weightKg: weight != null ? toKg(weight, body.weight_unit) : null,
    extra: JSON.stringify(itemExtra),
  };
}

// ---- runInlineFlows --------------------------------------------------------------------------------------------

/**
 * Flow actions marked `wait` run now, against the consignment about to be inserted; their effects join the
 * batch, and any failure rejects the create before anything is written. The rest become flow runs.
 */
async function runInlineFlows(
  ctx: ServiceContext,
  tree: Tree,
  matched: FlowRow[],
  endpoints: EndpointRow[],
  nowMs: number,
) {
  const ran: { flow: FlowRow; outcomes: ActionOutcome[] }[] = [];
  const errors: string[] = [];
  for (const flow of matched) {
    const waits = actionsOf(flow).filter((a) => a.wait);
    if (!waits.length) continue;
    const run = { flow: { id: flow.id, name: flow.name }, runId: null, requestId: ctx.requestId, endpoints, nowMs };
    const outcomes: ActionOutcome[] = [];
    for (const action of waits) {
      const o = await runAction({ ctx, input: { tree, action, run } });
      outcomes.push(o);
      if (o.ok && o.tags) tree.consignment.extra = extraWithTags(tree.consignment.extra, o.tags);
      if (!o.ok) errors.push(...o.errors.map((e) => `flow '${flow.name}' (${flow.id}) ${action.type}: ${e}`));
    }
    ran.push({ flow, outcomes });
  }
  const succeeded = ran.flatMap((f) => f.outcomes).filter((o): o is Succeeded => o.ok);
  const r2Keys = succeeded.flatMap((o) => o.r2Keys);
  if (errors.length) {
    await discardDocuments(ctx.env.ARCHIVE, r2Keys);
    throw new ConsignmentRejected(errors);
  }
  return { ran, succeeded, r2Keys };
}

// ---- buildStatements and commit --------------------------------------------------------------------------------

interface Parts {
  tree: Tree;
  createdEventId: string;
  matched: FlowRow[];
  inline: Succeeded[];
  runs: (typeof flowRuns.$inferInsert)[];
}

function buildStatements(ctx: ServiceContext, { tree, createdEventId, matched, inline, runs }: Parts): Statement[] {
  const { db } = ctx;
  const c = tree.consignment;
  const statements: Statement[] = [db.insert(consignments).values(c)];
  if (tree.parcels.length) statements.push(bulkInsert(db, consignmentParcels, tree.parcels));
  if (tree.orders.length) statements.push(bulkInsert(db, consignmentOrders, tree.orders));
  if (tree.items.length) statements.push(bulkInsert(db, consignmentItems, tree.items));
  statements.push(
    eventInsert(db, ctx.deps.ids, {
      id: createdEventId,
      consignmentId: c.id,
      workspaceId: ctx.workspace.id,
      type: "consignment.created",
      data: {
        shipment_ref: c.shipmentRef,
        parcels: tree.parcels.length,
        items: tree.items.length,
        flows_matched: matched.map((f) => f.id),
      },
      requestId: ctx.requestId,
      createdAt: c.createdAt,
    }),
  );
  statements.push(...inline.flatMap((o) => o.statements));
  statements.push(...chunkedInserts(db, flowRuns, runs));
  return statements;
}

/** Archive gate, then one batch; inline documents' bytes are removed again if it fails. */
async function commit(
  ctx: ServiceContext,
  statements: Statement[],
  beforeCommit: () => Promise<void>,
  r2Keys: string[],
): Promise<void> {
  const [first, ...rest] = statements;
  if (!first) throw new Error("a consignment create has at least its own insert");
  try {
    await beforeCommit();
    await ctx.db.batch([first, ...rest]);
  } catch (err) {
    await discardDocuments(ctx.env.ARCHIVE, r2Keys);
    throw err;
  }
}
