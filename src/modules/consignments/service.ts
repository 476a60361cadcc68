/**
 * Consignments: read, list and delete (create is in ./create). Every read and the delete apply the one
 * visibility rule (./access): the caller's workspace and, for a pinned client, its customer.
 */
import { and, count, desc, eq, getTableColumns, gte, lt, lte, notExists, type SQL } from "drizzle-orm";
import type { Call, ServiceContext } from "../../core/context";
import {
  complianceChecks,
  consignmentAssessments,
  consignmentDocuments,
  consignmentEvents,
  consignmentHolds,
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignmentPreAlerts,
  consignments,
  customers,
  flowRuns,
  manifestConsignments,
  parcelLabels,
} from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { conflict } from "../../lib/errors";
import { eventInsert } from "../consignment-records/rows";
import type { ConsignmentRow, Tree } from "../consignment-records/tree";
import { manifestOfConsignment } from "../manifests/service";
import { parseDocument, settingsQuery } from "../settings/service";
import { consignmentHeadQuery, consignmentNotFound, visibleConsignment } from "./access";
import { consignmentOut, retrievalTree } from "./output";

type Customer = { id: number; name: string };

const customerOf = (c: Pick<ConsignmentRow, "customerId">, name: string | null): Customer | null =>
  c.customerId !== null && name !== null ? { id: c.customerId, name } : null;

/** The consignment with its customer's name (customers of this workspace only). */
const headWithCustomer = (ctx: ServiceContext, id: string) =>
  ctx.db
    .select({ consignment: consignments, customerName: customers.name })
    .from(consignments)
    .leftJoin(customers, and(eq(customers.id, consignments.customerId), eq(customers.workspaceId, ctx.workspace.id)))
    .where(visibleConsignment(ctx, id))
    .limit(1);

/**
 * One consignment with its children and its customer, in a single D1 round trip; 404 when not visible.
 * Children are read by consignment id in the same batch and thrown away unless the consignment passed.
 */
export async function loadConsignment({
  ctx,
  input,
}: Call<{ id: string }>): Promise<Tree & { customer: Customer | null }> {
  const { db } = ctx;
  const { id } = input;
  const [head, parcels, orders, items] = await db.batch([
    headWithCustomer(ctx, id),
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
  const [row] = head;
  if (!row) throw consignmentNotFound(id);
  const c = row.consignment;
  return { consignment: c, parcels, orders, items, customer: customerOf(c, row.customerName) };
}

/**
 * GET /consignments/{id} as JSON text: the head (one row with its customer) and the retrieval snapshot spliced
 * in as it was stored, so the ~100 child rows are neither read nor parsed and re-serialized. Rows from before
 * the snapshot existed are assembled from their children.
 */
export async function getConsignmentJson({ ctx, input }: Call<{ id: string }>): Promise<string> {
  const [row] = await headWithCustomer(ctx, input.id);
  if (!row) throw consignmentNotFound(input.id);
  const c = row.consignment;
  if (c.retrieval === null) {
    const t = await loadConsignment({ ctx, input });
    return JSON.stringify({ ...consignmentOut(t.consignment, t.customer), parcels: retrievalTree(t) });
  }
  const head = JSON.stringify(consignmentOut(c, customerOf(c, row.customerName)));
  return `${head.slice(0, -1)},"parcels":${c.retrieval}}`;
}

export interface ConsignmentListQuery {
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

export type ListedConsignment = Omit<ConsignmentRow, "retrieval">;

/** Newest first, keyset-paged by id; a pinned client lists its own customer's only. */
export async function listConsignments({ ctx, input: q }: Call<ConsignmentListQuery>): Promise<{
  rows: { consignment: ListedConsignment; customer: Customer | null }[];
  hasMore: boolean;
}> {
  const where = [eq(consignments.workspaceId, ctx.workspace.id)];
  const pinned = ctx.actor.customerId;
  if (pinned !== null) where.push(eq(consignments.customerId, pinned));
  else if (q.customer_id !== undefined) where.push(eq(consignments.customerId, q.customer_id));
  if (q.starting_after) where.push(lt(consignments.id, q.starting_after));
  if (q.shipment_ref) where.push(eq(consignments.shipmentRef, q.shipment_ref));
  if (q.external_code) where.push(eq(consignments.externalCode, q.external_code));
  if (q.status) where.push(eq(consignments.status, q.status));
  if (q.created_after) where.push(gte(consignments.createdAt, q.created_after));
  if (q.created_before) where.push(lte(consignments.createdAt, q.created_before));
  const rows = await ctx.db
    .select({ ...listColumns, customerName: customers.name })
    .from(consignments)
    .leftJoin(customers, and(eq(customers.id, consignments.customerId), eq(customers.workspaceId, ctx.workspace.id)))
    .where(and(...where))
    .orderBy(desc(consignments.id))
    .limit(q.limit + 1);
  return {
    rows: rows.slice(0, q.limit).map(({ customerName, ...consignment }) => ({
      consignment,
      customer: customerOf(consignment, customerName),
    })),
    hasMore: rows.length > q.limit,
  };
}

// ---- delete ----------------------------------------------------------------------------------------------------

type Guard = "active_holds" | "assessed";
const DEFAULT_DELETE_GUARDS: readonly Guard[] = ["active_holds"];

/** How often a delete re-checks after a concurrent change (a hold released, a competing delete) before giving up. */
const DELETE_ATTEMPTS = 3;

/**
 * Deletes a consignment and everything under it, permanently, unless a workspace guard refuses it. A refusal
 * is recorded as a `deletion.refused` event and answered with 409 saying why.
 *
 * The guards and the delete are one statement (`DELETE … WHERE NOT EXISTS (guard)`), and the children go in
 * the same batch, conditioned on the consignment being gone: a hold or assessment written concurrently either
 * commits first (and the guard sees it, or the delete removes it) or finds no consignment and writes nothing.
 * Of concurrent deletes exactly one deletes; the others find nothing and answer 404. Generated documents'
 * bytes are removed from R2 after the rows, by the keys the delete itself returned.
 */
export async function deleteConsignment({ ctx, input }: Call<{ id: string }>): Promise<void> {
  for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
    const { guards, reasons } = await deleteCheck(ctx, input.id);
    if (reasons.length) {
      await ctx.db.batch([
        eventInsert(ctx.db, ctx.deps.ids, {
          consignmentId: input.id,
          workspaceId: ctx.workspace.id,
          type: "deletion.refused",
          data: { reasons, guards },
          requestId: ctx.requestId,
          createdAt: isoAt(ctx.deps.clock.now()),
        }),
      ]);
      throw conflict(`Consignment '${input.id}' cannot be deleted: ${reasons.join("; ")}`);
    }
    const storageKeys = await deleteGuarded(ctx, input.id, guards);
    if (storageKeys) {
      if (storageKeys.length) await ctx.env.ARCHIVE.delete(storageKeys);
      return;
    }
  }
  throw conflict(`Consignment '${input.id}' changed while it was being deleted; try again`);
}

/** The workspace's guards and why they refuse this consignment now; 404 when it is not visible (or gone). */
async function deleteCheck(ctx: ServiceContext, id: string): Promise<{ guards: readonly Guard[]; reasons: string[] }> {
  const { db } = ctx;
  const [head, settingsRows, active, assessed, manifested] = await db.batch([
    consignmentHeadQuery(ctx, id),
    settingsQuery(db, ctx.workspace.id),
    db.select({ n: count() }).from(consignmentHolds).where(activeHoldsOf(id)),
    db.select({ n: count() }).from(consignmentAssessments).where(eq(consignmentAssessments.consignmentId, id)),
    manifestOfConsignment(db, id),
  ]);
  if (!head.length) throw consignmentNotFound(id);
  const guards = parseDocument(settingsRows[0]?.settings)["consignments.delete_guards"] ?? DEFAULT_DELETE_GUARDS;
  const holds = active[0]?.n ?? 0;
  const assessments = assessed[0]?.n ?? 0;
  const reasons: string[] = [];
  // The spec's own guard, whatever the workspace settings: a consignment handed over on a manifest stays.
  const onManifest = manifested[0]?.manifestId;
  if (onManifest)
    reasons.push(
      `it is on manifest ${onManifest}; remove it from the manifest first (DELETE /manifests/${onManifest}/consignments/${id}) while the manifest is open`,
    );
  if (guards.includes("active_holds") && holds > 0)
    reasons.push(
      `it has ${holds} active hold(s); release them first (POST /consignments/${id}/holds/{hold_id}/release)`,
    );
  if (guards.includes("assessed") && assessments > 0)
    reasons.push(`it has ${assessments} stored duty assessment(s), and this workspace keeps assessed consignments`);
  return { guards, reasons };
}

const activeHoldsOf = (id: string) =>
  and(eq(consignmentHolds.consignmentId, id), eq(consignmentHolds.status, "active"));

const CHILD_TABLES = [
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignmentEvents,
  consignmentHolds,
  consignmentAssessments,
  complianceChecks,
  consignmentPreAlerts,
  flowRuns,
  parcelLabels,
] as const;

/**
 * One batch: the consignment, only if still visible and no guard applies; then its children, only if it is
 * gone. Returns the deleted documents' storage keys, or null when this batch deleted nothing.
 */
async function deleteGuarded(ctx: ServiceContext, id: string, guards: readonly Guard[]): Promise<string[] | null> {
  const { db } = ctx;
  const blockers: SQL[] = [
    notExists(
      db
        .select({ id: manifestConsignments.consignmentId })
        .from(manifestConsignments)
        .where(eq(manifestConsignments.consignmentId, id)),
    ),
  ];
  if (guards.includes("active_holds"))
    blockers.push(notExists(db.select({ id: consignmentHolds.id }).from(consignmentHolds).where(activeHoldsOf(id))));
  if (guards.includes("assessed"))
    blockers.push(
      notExists(
        db
          .select({ id: consignmentAssessments.id })
          .from(consignmentAssessments)
          .where(eq(consignmentAssessments.consignmentId, id)),
      ),
    );
  const gone = notExists(db.select({ id: consignments.id }).from(consignments).where(eq(consignments.id, id)));
  const [deleted, documents] = await db.batch([
    db
      .delete(consignments)
      .where(and(visibleConsignment(ctx, id), ...blockers))
      .returning({ id: consignments.id }),
    db
      .delete(consignmentDocuments)
      .where(and(eq(consignmentDocuments.consignmentId, id), gone))
      .returning({ key: consignmentDocuments.storageKey }),
    ...CHILD_TABLES.map((t) => db.delete(t).where(and(eq(t.consignmentId, id), gone))),
  ]);
  return deleted.length ? documents.map((d) => d.key) : null;
}
