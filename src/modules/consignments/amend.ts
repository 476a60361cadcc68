/**
 * Consignment amend (PATCH), in phases: loadAmendable (the tree, refused while labels are issued or the
 * consignment is on a closed manifest) → merge the patch into the consignment's document (./amend-document)
 * → validate the result exactly as a create body (schema, structure, workspace rules: the create's own
 * phases) → rebuild the tree, keeping the ids of what stays → commit one guarded batch that rewrites the rows
 * and records a `consignment.updated` event and webhook.
 *
 * The batch is conditional on the version read (`updated_at`) and on there still being no labels and no
 * closed manifest: a concurrent amend, label issue, manifest close or delete that commits first makes this
 * batch change nothing, and the caller gets the 404 or 409 that applies, never a half-applied amend.
 */
import { and, eq, notExists, sql } from "drizzle-orm";
import type { Call, ServiceContext } from "../../core/context";
import { bulkInsert } from "../../db/bulk";
import {
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignments,
  manifestConsignments,
  manifests,
  parcelLabels,
} from "../../db/schema/index";
import { ApiError, conflict } from "../../lib/errors";
import { eventInsert, type Statement, withdrawOutboxUnless } from "../consignment-records/rows";
import type { Tree } from "../consignment-records/tree";
import { outboxStatements } from "../webhooks/service";
import { visibleConsignment } from "./access";
import { type Changes, changesBetween, documentOf, type JsonObject, mergeDocument, splitIds } from "./amend-document";
import {
  allItems,
  applyRules,
  buildTree,
  checkStructure,
  loadInputs,
  type Reads,
  resolveItems,
  type Warning,
} from "./create";
import { ConsignmentRejected, schemaProblems } from "./errors";
import { ConsignmentInput } from "./schemas";
import { loadConsignment } from "./service";

export interface AmendInput {
  id: string;
  /** The `If-Match` header as sent, when it was: the amend applies only to that version. */
  ifMatch?: string | undefined;
  /** The validated merge patch (./amend-schema). */
  patch: Record<string, unknown>;
  /** Awaited right before the commit: the request's verbatim body must be archived before what it asks for. */
  beforeCommit: () => Promise<void>;
}

export interface AmendResult {
  tree: Tree;
  customer: Reads["customer"]["row"];
  warnings: Warning[];
  changes: Changes;
  /** New webhook deliveries, for the queue. */
  deliveryIds: string[];
}

/**
 * Amends a consignment: 404 when it is not visible to the caller; 409 while labels are issued, on a closed
 * manifest, or when another write changed it meanwhile; 412 when `ifMatch` names another version; 422 (every
 * problem at once, as at create) when the amended consignment would not be accepted by a create. A patch that
 * changes nothing writes nothing. No flows run: they are triggered by `consignment.created` only.
 */
export async function amendConsignment({ ctx, input }: Call<AmendInput>): Promise<AmendResult> {
  const current = await loadAmendable(ctx, input.id);
  requireVersion(input, current.consignment.updatedAt);
  const before = documentOf(current);
  const { merged, problems } = mergeDocument(before, input.patch as JsonObject);
  if (problems.length) throw new ConsignmentRejected(problems);
  const { body: raw, ids } = splitIds(merged);
  const parsed = ConsignmentInput.safeParse(raw);
  if (!parsed.success) throw new ConsignmentRejected(schemaProblems(parsed.error.issues));
  const body = parsed.data;

  const located = allItems(body);
  const reads = await loadInputs(ctx, body, located);
  const resolved = resolveItems(located, reads.catalogue, body.receiver?.country_code ?? null);
  const structural = checkStructure(body, located, resolved, reads.customer);
  if (structural.length) throw new ConsignmentRejected(structural);
  const warnings = applyRules(reads.rules, body, resolved);

  const nowMs = nextVersion(current.consignment.updatedAt, ctx.deps.clock.now());
  const previous = { consignment: current.consignment, ids };
  const tree = buildTree(ctx, body, resolved, reads.customer.row, nowMs, previous);
  const changes = changesBetween(before, documentOf(tree));
  if (!changes.changed.length) return { tree: current, customer: current.customer, warnings, changes, deliveryIds: [] };

  const outbox = await outboxStatements({
    ctx,
    input: {
      event: {
        type: "consignment.updated",
        data: {
          consignment_id: tree.consignment.id,
          shipment_ref: tree.consignment.shipmentRef,
          external_code: tree.consignment.externalCode,
          customer_id: tree.consignment.customerId,
          changed_fields: changes.changed,
          updated_at: tree.consignment.updatedAt,
        },
      },
      endpoints: reads.endpoints,
    },
  });
  const { update, rest } = rewriteStatements(ctx, current, tree, changes);
  await input.beforeCommit();
  const [updated] = await ctx.db.batch([
    update,
    ...rest,
    ...outbox.statements,
    ...withdrawOutboxUnless(ctx.db, outbox.eventId, applied(tree)),
  ]);
  if (!updated.length) await lostRace(ctx, input);
  return { tree, customer: reads.customer.row, warnings, changes, deliveryIds: outbox.deliveryIds };
}

/**
 * The new `updated_at`, later than the one read even within the same millisecond: it is the version the
 * batch's statements recognise their own update by.
 */
function nextVersion(updatedAt: string, nowMs: number): number {
  const previous = Date.parse(updatedAt);
  return Number.isNaN(previous) ? nowMs : Math.max(nowMs, previous + 1);
}

// ---- loadAmendable ---------------------------------------------------------------------------------------------

const labelsOf = (ctx: ServiceContext, id: string) =>
  ctx.db.select({ parcelId: parcelLabels.parcelId }).from(parcelLabels).where(eq(parcelLabels.consignmentId, id));

const closedManifestOf = (ctx: ServiceContext, id: string) =>
  ctx.db
    .select({ id: manifests.id, closedAt: manifests.closedAt })
    .from(manifestConsignments)
    .innerJoin(manifests, eq(manifests.id, manifestConsignments.manifestId))
    .where(and(eq(manifestConsignments.consignmentId, id), eq(manifests.status, "closed")))
    .limit(1);

/** The consignment with its children and customer (404 when not visible), unless something forbids amending it. */
async function loadAmendable(ctx: ServiceContext, id: string) {
  const [tree, [labels, closed]] = await Promise.all([
    loadConsignment({ ctx, input: { id } }),
    ctx.db.batch([labelsOf(ctx, id), closedManifestOf(ctx, id)]),
  ]);
  if (labels.length)
    throw conflict(
      `Consignment '${id}' has labels issued for ${labels.length} parcel(s); cancel them first (DELETE /consignments/${id}/labels) to amend it`,
    );
  const [manifest] = closed;
  if (manifest)
    throw conflict(
      `Consignment '${id}' is on manifest ${manifest.id}, closed on ${manifest.closedAt}; a consignment handed over on a closed manifest cannot be amended`,
    );
  return tree;
}

/** The guarded batch changed nothing: say why (gone, labelled, manifest closed) or that another amend won. */
async function lostRace(ctx: ServiceContext, input: AmendInput): Promise<never> {
  const now = await loadAmendable(ctx, input.id);
  requireVersion(input, now.consignment.updatedAt);
  throw conflict(`Consignment '${input.id}' was changed by another request meanwhile; read it again and retry`);
}

// ---- versions --------------------------------------------------------------------------------------------------

/** The consignment's entity tag: its `updated_at`, which every amend moves forward (see nextVersion). */
export const etagOf = (updatedAt: string) => `"${updatedAt}"`;

/**
 * `If-Match` (RFC 9110 §13.1.1): `*` or a list of entity tags, compared strongly (a weak `W/"…"` tag never
 * matches). Refused with 412 when the consignment is no longer at the version the client last read.
 */
function requireVersion(input: AmendInput, updatedAt: string): void {
  if (input.ifMatch === undefined) return;
  const tags = input.ifMatch.split(",").map((t) => t.trim());
  if (tags.includes("*") || tags.includes(etagOf(updatedAt))) return;
  throw new ApiError(
    "precondition_failed",
    `Consignment '${input.id}' is no longer at the version given in If-Match; it is now ${etagOf(updatedAt)} (its updated_at): read it again and retry`,
  );
}

// ---- the guarded rewrite ---------------------------------------------------------------------------------------

/** True once this amend's update has applied: the row carries the new version. */
const applied = (tree: Tree) =>
  sql`EXISTS (SELECT 1 FROM ${consignments} WHERE ${consignments.id} = ${tree.consignment.id} AND ${consignments.updatedAt} = ${tree.consignment.updatedAt})`;

/**
 * The update first (conditional on the version read, no labels, no closed manifest; it returns the row only
 * when it applied), then the children replaced and the event written only if it did. Children are replaced
 * rather than updated in place: what stays keeps its id, and labels and manifests refer to the consignment.
 */
function rewriteStatements(ctx: ServiceContext, current: Tree, tree: Tree, changes: Changes) {
  const { db } = ctx;
  const c = tree.consignment;
  const { id, workspaceId: _ws, createdAt: _created, status: _status, ...columns } = c;
  const unblocked = and(
    visibleConsignment(ctx, id),
    eq(consignments.updatedAt, current.consignment.updatedAt),
    notExists(labelsOf(ctx, id)),
    notExists(closedManifestOf(ctx, id)),
  );
  const done = applied(tree);
  const children = [consignmentItems, consignmentOrders, consignmentParcels] as const;
  const update = db.update(consignments).set(columns).where(unblocked).returning({ id: consignments.id });
  const rest: Statement[] = [
    ...children.map((t) => db.delete(t).where(and(eq(t.consignmentId, id), done))),
    ...(tree.parcels.length ? [bulkInsert(db, consignmentParcels, tree.parcels, done)] : []),
    ...(tree.orders.length ? [bulkInsert(db, consignmentOrders, tree.orders, done)] : []),
    ...(tree.items.length ? [bulkInsert(db, consignmentItems, tree.items, done)] : []),
    eventInsert(db, ctx.deps.ids, {
      consignmentId: id,
      workspaceId: ctx.workspace.id,
      type: "consignment.updated",
      data: {
        shipment_ref: c.shipmentRef,
        changed_fields: changes.changed,
        added: changes.added,
        removed: changes.removed,
      },
      requestId: ctx.requestId,
      createdAt: c.updatedAt,
      when: done,
    }),
  ];
  return { update, rest };
}
