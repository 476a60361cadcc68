/**
 * Consignments: create (both payload shapes, atomically, with the consignment.created outbox event in the
 * same batch), read, list and delete. Every create rejection is collected and reported at once, in the
 * spec's 422 body.
 */
import { and, desc, eq, getTableColumns, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import { bulkInsert } from "../../db/bulk";
import type { Db } from "../../db/client";
import {
  type consignmentDocuments,
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignments,
  customers,
  flowRuns,
} from "../../db/schema/index";
import { computedFacts, evaluate } from "../../engines/validation-rules/evaluate";
import type { Deps, WorkspaceContext } from "../../core/context";
import { isoAt } from "../../lib/clock";
import { ApiError, notFound } from "../../lib/errors";
import { EU_MEMBERS } from "../../lib/iso";
import { dec } from "../../lib/money";
import { type CatalogueRow, catalogueBySkuQuery } from "../catalogue/service";
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
} from "../flows/service";
import { enabledRulesQuery, ruleFromRow, type ValidationRuleRow } from "../validation-rules/service";
import { type EndpointRow, liveEndpointsQuery, outboxStatements } from "../webhooks/service";
import { eventInsert } from "./events";
import { consignmentOut, partyOut, retrievalTree, type Tree } from "./output";
import type { ConsignmentInputT, ItemT } from "./schemas";
import { decText, type LengthUnit, toCm, toKg, type WeightUnit } from "./units";

export interface Ctx {
  db: Db;
  deps: Deps;
}

/** The spec's 422 for consignment create: `{success: false, message, errors: [strings], validation_errors: [{message}]}`. */
export function createRejected(errors: string[]): ApiError {
  const message = errors.length === 1 ? errors[0]! : `The consignment was rejected: ${errors.length} problems`;
  const err = new ApiError("unprocessable", message, {
    errors,
    validation_errors: errors.map((m) => ({ message: m })),
  });
  return err;
}

type ConsignmentRow = typeof consignments.$inferInsert;
type ParcelRow = typeof consignmentParcels.$inferInsert;
type OrderRow = typeof consignmentOrders.$inferInsert;
type ItemRow = typeof consignmentItems.$inferInsert;

interface Located {
  item: ItemT;
  path: string;
  parcelIdx: number;
  nestedOrderIdx: number | null;
}

function allItems(input: ConsignmentInputT): Located[] {
  const out: Located[] = [];
  input.parcels.forEach((p, pi) => {
    p.items.forEach((item, ii) =>
      out.push({ item, path: `parcels[${pi}].items[${ii}]`, parcelIdx: pi, nestedOrderIdx: null }),
    );
    p.orders.forEach((o, oi) =>
      o.items.forEach((item, ii) =>
        out.push({ item, path: `parcels[${pi}].orders[${oi}].items[${ii}]`, parcelIdx: pi, nestedOrderIdx: oi }),
      ),
    );
  });
  return out;
}

/** The catalogue code for a destination: the national one, the EU one for member states, else the default. */
function catalogueCode(
  hsCodes: Record<string, string>,
  fallback: string | null,
  destination: string | null | undefined,
) {
  if (destination && hsCodes[destination]) return hsCodes[destination]!;
  if (destination && EU_MEMBERS.has(destination) && hsCodes.EU) return hsCodes.EU;
  return fallback;
}

export interface CreateResult {
  tree: Tree;
  warnings: { rule_id: number; name: string; message: string }[];
  customer: { id: number; name: string } | null;
  deliveryIds: string[];
  /** Background flow runs committed with the consignment, for the queue. */
  runIds: string[];
  /** Documents made by inline flow actions. */
  documents: (typeof consignmentDocuments.$inferSelect)[];
  /** Inline flow actions and their results (empty when none ran). */
  flowsRan: { flow_id: number; name: string; actions: Record<string, unknown>[] }[];
}

export async function createConsignment(
  ctx: Ctx & { archive: R2Bucket },
  ws: WorkspaceContext,
  input: ConsignmentInputT,
  caller: { pinnedCustomerId: number | null; requestId: string; beforeCommit?: () => Promise<void> },
): Promise<CreateResult> {
  const { db, deps } = ctx;
  const errors: string[] = [];

  // Every read the create needs, in one round trip: customer, catalogue items named by sku, validation
  // rules, webhook endpoints (for the outbox) and flows. The rest of the create is computed in the isolate.
  const customerId = caller.pinnedCustomerId ?? input.customer_id ?? null;
  const located = allItems(input);
  // The catalogue only fills in what an item lacks: items that carry both an HS code and an origin need no lookup.
  const skus = [
    ...new Set(
      located
        .filter((l) => !(l.item.harmonised_code ?? l.item.hs_code) || !l.item.country_of_origin)
        .map((l) => l.item.sku)
        .filter((s): s is string => Boolean(s)),
    ),
  ];
  const skuChunks: string[][] = [];
  for (let i = 0; i < skus.length; i += 90) skuChunks.push(skus.slice(i, i + 90));
  const [customerRows, ruleRows, endpoints, flowRows, ...catalogueChunks] = (await db.batch([
    db
      .select({ id: customers.id, name: customers.name })
      .from(customers)
      .where(and(eq(customers.id, customerId ?? -1), eq(customers.workspaceId, ws.id)))
      .limit(1),
    enabledRulesQuery(db, ws.id),
    liveEndpointsQuery(db, ws),
    enabledFlowsQuery(db, ws.id, "consignment.created"),
    ...skuChunks.map((chunk) => catalogueBySkuQuery(db, ws.id, chunk)),
  ] as never)) as unknown as [
    { id: number; name: string }[],
    ValidationRuleRow[],
    EndpointRow[],
    FlowRow[],
    ...CatalogueRow[][],
  ];

  // Customer: a pinned client always creates for its own customer.
  let customer: { id: number; name: string } | null = null;
  if (customerId !== null) {
    const row = customerRows[0];
    if (!row) errors.push(`customer_id: no customer ${customerId} in this workspace`);
    customer = row ?? null;
  }

  // order_ref: unique across the consignment; item links must name a consignment-level order.
  const topRefs = new Set<string>();
  const seen = new Set<string>();
  const allRefs = [
    ...(input.orders ?? []).map((o) => o.order_ref),
    ...input.parcels.flatMap((p) => p.orders.map((o) => o.order_ref)).filter((r): r is string => Boolean(r)),
  ];
  for (const ref of allRefs) {
    if (seen.has(ref)) errors.push(`orders: order_ref '${ref}' is used more than once`);
    seen.add(ref);
  }
  for (const o of input.orders ?? []) topRefs.add(o.order_ref);
  for (const { item, path, parcelIdx, nestedOrderIdx } of located) {
    if (!item.order_ref) continue;
    if (nestedOrderIdx !== null) {
      const own = input.parcels[parcelIdx]!.orders[nestedOrderIdx]!.order_ref;
      if (own && item.order_ref !== own)
        errors.push(`${path}.order_ref: '${item.order_ref}' differs from its order's order_ref '${own}'`);
    } else if (!topRefs.has(item.order_ref)) {
      errors.push(`${path}.order_ref: no order '${item.order_ref}' in orders[]`);
    }
  }

  // Catalogue: items that name a known sku borrow its HS code and origin when they carry none.
  const destination = input.receiver?.country_code ?? null;
  const catalogue = new Map(catalogueChunks.flat().map((r) => [r.sku, r]));
  const hsOf = (i: ItemT) => (i.harmonised_code ?? i.hs_code)?.replace(/[. ]/g, "") ?? null;
  const resolved = located.map((l) => {
    const cat = l.item.sku ? catalogue.get(l.item.sku) : undefined;
    const declared = hsOf(l.item);
    return {
      ...l,
      hsCode:
        declared ??
        (cat ? catalogueCode(JSON.parse(cat.hsCodes) as Record<string, string>, cat.hsCode, destination) : null),
      hsSource: declared ? (l.item.hs_code_source ?? "declared") : cat ? "catalogue" : null,
      origin: l.item.country_of_origin ?? cat?.countryOfOrigin ?? null,
    };
  });

  // International consignments need items, each with an origin; domestic ones are exempt.
  const from = input.sender?.country_code;
  const to = input.receiver?.country_code;
  if (from && to && from !== to) {
    if (!resolved.length)
      errors.push(`parcels: an international consignment (${from} → ${to}) needs at least one item`);
    for (const r of resolved)
      if (!r.origin)
        errors.push(`${r.path}.country_of_origin: required for an international consignment (${from} → ${to})`);
  }
  if (input.shipping && !input.shipping.currency_code)
    errors.push("shipping.currency_code: required when shipping is given");
  if (errors.length) throw createRejected(errors);

  // Workspace validation rules: error hits block the create, warnings are reported with it.
  const rules = ruleRows.map(ruleFromRow);
  let warnings: { rule_id: number; name: string; message: string }[] = [];
  if (rules.length) {
    const weightKg = input.parcels
      .reduce((s, p) => s.plus(toKg(p.weight_value, input.weight_unit as WeightUnit)), dec(0))
      .toString();
    const facts = {
      payload: input as unknown as Record<string, unknown>,
      computed: computedFacts({
        sender: input.sender,
        receiver: input.receiver,
        items: resolved.map((r) => r.item),
        parcelCount: input.parcels.length,
        weightKg,
      }),
    };
    const hits = evaluate(rules, facts);
    if (hits.errors.length) throw createRejected(hits.errors.map((h) => h.message));
    warnings = hits.warnings.map(({ rule_id, name, message }) => ({ rule_id, name, message }));
  }

  // Rows, with ids minted here so the whole tree goes in one batch.
  const nowMs = deps.clock.now();
  const now = isoAt(nowMs);
  const weightUnit = input.weight_unit as WeightUnit;
  const lengthUnit = input.measurement_unit as LengthUnit;
  const {
    shipment_ref,
    customer_id: _c,
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
    orders,
    parcels,
    ...rest
  } = input;
  const consignment: ConsignmentRow = {
    id: deps.ids.prefixed("con"),
    workspaceId: ws.id,
    customerId: customer?.id ?? null,
    shipmentRef: shipment_ref,
    externalCode: external_code ?? null,
    type,
    status: "created",
    incoterm: incoterm ?? null,
    entryDate: entry_date ?? null,
    transportMode: transport_mode ?? null,
    weightUnit: weight_unit,
    measurementUnit: measurement_unit,
    movementIndicator: movement_indicator ?? null,
    senderCountry: from ?? null,
    receiverCountry: to ?? null,
    sender: sender ? JSON.stringify(partyOut(sender, false)) : null,
    receiver: receiver ? JSON.stringify(partyOut(receiver, true)) : null,
    extra: JSON.stringify(rest),
    createdAt: now,
    updatedAt: now,
  };
  const orderRows: OrderRow[] = [];
  const orderIdByRef = new Map<string, string>();
  const orderRow = (
    o: NonNullable<ConsignmentInputT["orders"]>[number] | ConsignmentInputT["parcels"][number]["orders"][number],
    position: number,
    parcelId: string | null,
  ): OrderRow => {
    const id = deps.ids.prefixed("ord");
    const charges = Object.fromEntries(
      (["shipping_charge", "insurance_charge", "other_charge"] as const)
        .filter((k) => o[k])
        .map((k) => [k, { amount: decText(o[k]!.amount), currency_code: o[k]!.currency_code }]),
    );
    return {
      id,
      consignmentId: consignment.id,
      parcelId,
      position,
      orderRef: o.order_ref ?? null,
      amount: o.amount != null ? decText(o.amount) : null,
      currencyCode: o.currency_code ?? null,
      orderDate: o.order_date ?? null,
      invoiceNumber: o.invoice_number ?? null,
      charges: JSON.stringify(charges),
    };
  };
  (orders ?? []).forEach((o, i) => {
    const row = orderRow(o, i, null);
    orderIdByRef.set(o.order_ref, row.id);
    orderRows.push(row);
  });
  const parcelRows: ParcelRow[] = [];
  const nestedOrderIds: string[][] = [];
  parcels.forEach((p, pi) => {
    const dims = Object.fromEntries(
      (["height", "width", "depth"] as const)
        .filter((k) => p[k] != null)
        .flatMap((k) => [
          [k, decText(p[k]!)],
          [`${k}_cm`, toCm(p[k]!, lengthUnit)],
        ]),
    );
    const row: ParcelRow = {
      id: deps.ids.prefixed("par"),
      consignmentId: consignment.id,
      position: pi,
      senderRef: p.sender_ref ?? null,
      barcode: p.barcode ?? null,
      packagingType: p.packaging_type,
      weightValue: decText(p.weight_value),
      weightKg: toKg(p.weight_value, weightUnit),
      dimensions: Object.keys(dims).length ? JSON.stringify(dims) : null,
      declaredValue: p.declared_value != null ? decText(p.declared_value) : null,
      currencyCode: p.currency_code ?? null,
    };
    parcelRows.push(row);
    nestedOrderIds.push(
      p.orders.map((o, oi) => {
        const r = orderRow(o, (orders?.length ?? 0) + pi * 1000 + oi, row.id);
        orderRows.push(r);
        return r.id;
      }),
    );
  });
  const itemRows: ItemRow[] = resolved.map((r, position) => {
    const {
      quantity,
      unit_value,
      currency_code,
      order_ref,
      sku,
      title,
      description,
      harmonised_code: _h,
      hs_code: _hs,
      hs_code_source: _s,
      country_of_origin: _o,
      weight,
      ...itemExtra
    } = r.item;
    return {
      id: deps.ids.prefixed("itm"),
      consignmentId: consignment.id,
      parcelId: parcelRows[r.parcelIdx]!.id as string,
      orderId:
        r.nestedOrderIdx !== null
          ? nestedOrderIds[r.parcelIdx]![r.nestedOrderIdx]!
          : order_ref
            ? (orderIdByRef.get(order_ref) ?? null)
            : null,
      position,
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
      weightKg: weight != null ? toKg(weight, weightUnit) : null,
      extra: JSON.stringify(itemExtra),
    };
  });

  const createdEventId = deps.ids.prefixed("cev");
  const tree: Tree = {
    consignment: consignment as Tree["consignment"],
    parcels: parcelRows as Tree["parcels"],
    orders: orderRows as Tree["orders"],
    items: itemRows as Tree["items"],
  };
  tree.consignment.retrieval = JSON.stringify(retrievalTree(tree));

  // Flows: actions marked `wait` run now, against the consignment about to be inserted; their effects join
  // the batch, and any failure rejects the create before anything is written. The rest become flow runs.
  const matched = matchingFlows(flowRows, consignment.externalCode ?? null);
  const inline: { flow: FlowRow; outcomes: ActionOutcome[] }[] = [];
  const inlineErrors: string[] = [];
  for (const flow of matched) {
    const waits = actionsOf(flow).filter((a) => a.wait);
    if (!waits.length) continue;
    const outcomes: ActionOutcome[] = [];
    for (const action of waits) {
      const o = await runAction(ctx, { ws, tree }, action, {
        flow: { id: flow.id, name: flow.name },
        runId: null,
        requestId: caller.requestId,
        endpoints,
        nowMs,
      });
      outcomes.push(o);
      if (o.ok && o.tags) tree.consignment.extra = extraWithTags(tree.consignment.extra, o.tags);
      if (!o.ok) inlineErrors.push(...o.errors.map((e) => `flow '${flow.name}' (${flow.id}) ${action.type}: ${e}`));
    }
    inline.push({ flow, outcomes });
  }
  const done = inline.flatMap((f) => f.outcomes).filter((o): o is Extract<ActionOutcome, { ok: true }> => o.ok);
  const r2Keys = done.flatMap((o) => o.r2Keys);
  if (inlineErrors.length) {
    await discardDocuments(ctx.archive, r2Keys);
    throw createRejected(inlineErrors);
  }
  const runs = runRows(deps, ws.id, consignment.id, matched, nowMs);

  const statements: unknown[] = [db.insert(consignments).values(tree.consignment)];
  if (parcelRows.length) statements.push(bulkInsert(db, consignmentParcels, parcelRows));
  if (orderRows.length) statements.push(bulkInsert(db, consignmentOrders, orderRows));
  if (itemRows.length) statements.push(bulkInsert(db, consignmentItems, itemRows));
  statements.push(
    eventInsert(db, deps.ids, {
      id: createdEventId,
      consignmentId: consignment.id,
      workspaceId: ws.id,
      type: "consignment.created",
      data: {
        shipment_ref,
        parcels: parcelRows.length,
        items: itemRows.length,
        flows_matched: matched.map((f) => f.id),
      },
      requestId: caller.requestId,
      createdAt: now,
    }),
  );
  statements.push(...done.flatMap((o) => o.statements));
  for (let i = 0; i < runs.length; i += 8) statements.push(db.insert(flowRuns).values(runs.slice(i, i + 8)));
  const outbox = await outboxStatements(
    ctx,
    ws,
    {
      type: "consignment.created",
      data: {
        consignment_id: consignment.id,
        shipment_ref,
        external_code: external_code ?? null,
        customer_id: customer?.id ?? null,
        status: "created",
      },
    },
    endpoints,
  );
  statements.push(...outbox.statements);
  try {
    // The request's verbatim body must be in the archive before anything it asks for is committed.
    await caller.beforeCommit?.();
    await db.batch(statements as never);
  } catch (err) {
    await discardDocuments(ctx.archive, r2Keys);
    throw err;
  }

  const flowsRan = inline.map(({ flow, outcomes }) => ({
    flow_id: flow.id,
    name: flow.name,
    actions: outcomes.map(outcomeToWire),
  }));
  return {
    tree,
    customer,
    deliveryIds: [...outbox.deliveryIds, ...done.flatMap((o) => o.deliveryIds)],
    runIds: runs.map((r) => r.id),
    warnings,
    documents: done.flatMap((o) => (o.document ? [o.document] : [])),
    flowsRan,
  };
}

/** The one visibility rule for a consignment: in this workspace and, for a pinned client, its own customer's. */
export function visibleConsignment(workspaceId: string, id: string, pinnedCustomerId: number | null): SQL {
  const where = [eq(consignments.id, id), eq(consignments.workspaceId, workspaceId)];
  if (pinnedCustomerId !== null) where.push(eq(consignments.customerId, pinnedCustomerId));
  return and(...where)!;
}

/** That rule as a query, for a read to batch with the child rows it guards (one D1 round trip, 404 if empty). */
export const consignmentHeadQuery = (db: Db, workspaceId: string, id: string, pinnedCustomerId: number | null) =>
  db
    .select({ id: consignments.id })
    .from(consignments)
    .where(visibleConsignment(workspaceId, id, pinnedCustomerId))
    .limit(1);

/**
 * One consignment with its children and its customer, in a single D1 round trip; 404 outside the workspace
 * or, for a pinned client, outside its customer. Children are read by consignment id in the same batch and
 * thrown away unless the consignment itself passed the workspace check.
 */
export async function loadConsignment(
  { db }: Ctx,
  workspaceId: string,
  id: string,
  pinnedCustomerId: number | null,
): Promise<Tree & { customer: { id: number; name: string } | null }> {
  const [head, parcels, orders, items] = await db.batch([
    db
      .select({ consignment: consignments, customerName: customers.name })
      .from(consignments)
      .leftJoin(customers, and(eq(customers.id, consignments.customerId), eq(customers.workspaceId, workspaceId)))
      .where(visibleConsignment(workspaceId, id, pinnedCustomerId))
      .limit(1),
    db
      .select()
      .from(consignmentParcels)
      .where(eq(consignmentParcels.consignmentId, id))
      .orderBy(consignmentParcels.position),
    db
      .select()
      .from(consignmentOrders)
      .where(eq(consignmentOrders.consignmentId, id))
      .orderBy(consignmentOrders.position),
    db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, id)).orderBy(consignmentItems.position),
  ]);
  const row = head[0];
  if (!row) throw notFound(`Consignment '${id}' not found`);
  const c = row.consignment;
  const customer =
    c.customerId !== null && row.customerName !== null ? { id: c.customerId, name: row.customerName } : null;
  return { consignment: c, parcels, orders, items, customer };
}

/**
 * GET /consignments/{id} as JSON text: the head (one row with its customer) and the retrieval snapshot spliced
 * in as it was stored, so the ~100 child rows are neither read nor parsed and re-serialized. Rows from before
 * the snapshot existed are assembled from their children.
 */
export async function readConsignmentJson(
  ctx: Ctx,
  workspaceId: string,
  id: string,
  pinnedCustomerId: number | null,
): Promise<string> {
  const [row] = await ctx.db
    .select({ consignment: consignments, customerName: customers.name })
    .from(consignments)
    .leftJoin(customers, and(eq(customers.id, consignments.customerId), eq(customers.workspaceId, workspaceId)))
    .where(visibleConsignment(workspaceId, id, pinnedCustomerId))
    .limit(1);
  if (!row) throw notFound(`Consignment '${id}' not found`);
  const c = row.consignment;
  if (c.retrieval === null) {
    const t = await loadConsignment(ctx, workspaceId, id, pinnedCustomerId);
    return JSON.stringify({ ...consignmentOut(t.consignment, t.customer), parcels: retrievalTree(t) });
  }
  const customer =
    c.customerId !== null && row.customerName !== null ? { id: c.customerId, name: row.customerName } : null;
  const head = JSON.stringify(consignmentOut(c, customer));
  return `${head.slice(0, -1)},"parcels":${c.retrieval}}`;
}

export interface ListQuery {
  limit: number;
  starting_after?: string | undefined;
  shipment_ref?: string | undefined;
  external_code?: string | undefined;
  status?: string | undefined;
  customer_id?: number | undefined;
  created_after?: string | undefined;
  created_before?: string | undefined;
}

// A page of consignments never needs their retrieval snapshots (tens of kilobytes each).
const { retrieval: _snapshot, ...listColumns } = getTableColumns(consignments);

export async function listConsignments(
  { db }: Ctx,
  workspaceId: string,
  q: ListQuery,
  pinnedCustomerId: number | null,
) {
  const where = [eq(consignments.workspaceId, workspaceId)];
  if (pinnedCustomerId !== null) where.push(eq(consignments.customerId, pinnedCustomerId));
  else if (q.customer_id !== undefined) where.push(eq(consignments.customerId, q.customer_id));
  if (q.starting_after) where.push(lt(consignments.id, q.starting_after));
  if (q.shipment_ref) where.push(eq(consignments.shipmentRef, q.shipment_ref));
  if (q.external_code) where.push(eq(consignments.externalCode, q.external_code));
  if (q.status) where.push(eq(consignments.status, q.status));
  if (q.created_after) where.push(gte(consignments.createdAt, q.created_after));
  if (q.created_before) where.push(lte(consignments.createdAt, q.created_before));
  const rows = await db
    .select(listColumns)
    .from(consignments)
    .where(and(...where))
    .orderBy(desc(consignments.id))
    .limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export async function customersById({ db }: Ctx, workspaceId: string, ids: number[]) {
  if (!ids.length) return new Map<number, { id: number; name: string }>();
  const rows = await db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(eq(customers.workspaceId, workspaceId), inArray(customers.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, r]));
}
