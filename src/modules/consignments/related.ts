/**
 * What hangs off a consignment: holds (placed by flows or by hand, released by hand), generated documents,
 * pre-alerts, raw events and the timeline built from them; and the delete guards that holds feed.
 *
 * Every read checks the consignment first (workspace, and customer for a pinned client) in the same D1 round
 * trip as the read of its children, which are thrown away unless the check passed: another workspace's
 * consignment id is a 404, never an empty list.
 */
import { and, asc, count, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  consignmentAssessments,
  consignmentDocuments,
  consignmentEvents,
  consignmentHolds,
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignmentPreAlerts,
  consignments,
  flowRuns,
} from "../../db/schema/index";
import type { Deps } from "../../core/context";
import { isoAt } from "../../lib/clock";
import { ApiError, conflict, notFound } from "../../lib/errors";
import { parseDocument, settingsQuery } from "../settings/service";
import { eventInsert } from "./events";
import { consignmentHeadQuery } from "./service";
import { timelineEntry } from "./timeline";

export interface RelatedCtx {
  db: Db;
  deps: Deps;
  archive: R2Bucket;
}

export interface Scope {
  workspaceId: string;
  consignmentId: string;
  pinnedCustomerId: number | null;
}

const headQuery = (db: Db, s: Scope) => consignmentHeadQuery(db, s.workspaceId, s.consignmentId, s.pinnedCustomerId);

const missing = (id: string) => notFound(`Consignment '${id}' not found`);

/** The consignment check and one child query in a single round trip. */
async function withHead<T>(db: Db, s: Scope, child: unknown): Promise<T> {
  const [head, rows] = (await db.batch([headQuery(db, s), child] as never)) as unknown as [unknown[], T];
  if (!head.length) throw missing(s.consignmentId);
  return rows;
}

type HoldRow = typeof consignmentHolds.$inferSelect;
type DocumentRow = typeof consignmentDocuments.$inferSelect;
type PreAlertRow = typeof consignmentPreAlerts.$inferSelect;
type EventRow = typeof consignmentEvents.$inferSelect;

export const listHolds = ({ db }: RelatedCtx, s: Scope, status?: "active" | "released") =>
  withHead<HoldRow[]>(
    db,
    s,
    db
      .select()
      .from(consignmentHolds)
      .where(
        and(
          eq(consignmentHolds.consignmentId, s.consignmentId),
          ...(status ? [eq(consignmentHolds.status, status)] : []),
        ),
      )
      .orderBy(asc(consignmentHolds.id)),
  );

export const listDocuments = ({ db }: RelatedCtx, s: Scope) =>
  withHead<DocumentRow[]>(
    db,
    s,
    db
      .select()
      .from(consignmentDocuments)
      .where(eq(consignmentDocuments.consignmentId, s.consignmentId))
      .orderBy(asc(consignmentDocuments.id)),
  );

export const listPreAlerts = ({ db }: RelatedCtx, s: Scope) =>
  withHead<PreAlertRow[]>(
    db,
    s,
    db
      .select()
      .from(consignmentPreAlerts)
      .where(eq(consignmentPreAlerts.consignmentId, s.consignmentId))
      .orderBy(asc(consignmentPreAlerts.id)),
  );

/** Raw events, oldest first, keyset-paged by event id. */
export async function listEvents(
  { db }: RelatedCtx,
  s: Scope,
  q: { limit: number; starting_after?: string | undefined },
) {
  const where = [eq(consignmentEvents.consignmentId, s.consignmentId)];
  if (q.starting_after) where.push(gt(consignmentEvents.id, q.starting_after));
  const rows = await withHead<EventRow[]>(
    db,
    s,
    db
      .select()
      .from(consignmentEvents)
      .where(and(...where))
      .orderBy(asc(consignmentEvents.id))
      .limit(q.limit + 1),
  );
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export const eventToWire = (e: EventRow) => ({
  id: e.id,
  type: e.type,
  data: JSON.parse(e.data) as Record<string, unknown>,
  request_id: e.requestId,
  created_at: e.createdAt,
});

export async function timeline(ctx: RelatedCtx, s: Scope, q: { limit: number; starting_after?: string | undefined }) {
  const { rows, hasMore } = await listEvents(ctx, s, q);
  return {
    entries: rows.map((e) =>
      timelineEntry({
        id: e.id,
        type: e.type,
        data: JSON.parse(e.data) as Record<string, unknown>,
        createdAt: e.createdAt,
      }),
    ),
    hasMore,
  };
}

/** The bytes of a generated document, from R2. */
export async function documentContent(
  ctx: RelatedCtx,
  s: Scope,
  documentId: string,
): Promise<{ row: DocumentRow; body: R2ObjectBody }> {
  const rows = await withHead<DocumentRow[]>(
    ctx.db,
    s,
    ctx.db
      .select()
      .from(consignmentDocuments)
      .where(and(eq(consignmentDocuments.id, documentId), eq(consignmentDocuments.consignmentId, s.consignmentId)))
      .limit(1),
  );
  const row = rows[0];
  if (!row) throw notFound(`Document '${documentId}' not found on consignment '${s.consignmentId}'`);
  const body = await ctx.archive.get(row.storageKey);
  if (!body)
    throw new ApiError(
      "internal_error",
      `Document '${documentId}' is recorded but its content is missing from storage`,
    );
  return { row, body };
}

const event = (
  ctx: RelatedCtx,
  s: Scope,
  type: string,
  data: Record<string, unknown>,
  requestId: string,
  now: string,
) =>
  eventInsert(ctx.db, ctx.deps.ids, {
    consignmentId: s.consignmentId,
    workspaceId: s.workspaceId,
    type,
    data,
    requestId,
    createdAt: now,
  });

/** A hold placed by hand (a compliance officer stopping a consignment); released by hand too. */
export async function placeHold(
  ctx: RelatedCtx,
  s: Scope,
  input: { reason: string; code?: string | undefined },
  requestId: string,
): Promise<HoldRow> {
  const [head] = await headQuery(ctx.db, s);
  if (!head) throw missing(s.consignmentId);
  const now = isoAt(ctx.deps.clock.now());
  const hold: HoldRow = {
    id: ctx.deps.ids.prefixed("hld"),
    workspaceId: s.workspaceId,
    consignmentId: s.consignmentId,
    code: input.code ?? null,
    reason: input.reason,
    status: "active",
    source: "api",
    flowId: null,
    placedAt: now,
    releasedAt: null,
    releaseReason: null,
  };
  await ctx.db.batch([
    ctx.db.insert(consignmentHolds).values(hold),
    event(ctx, s, "hold.placed", { hold_id: hold.id, code: hold.code, reason: hold.reason }, requestId, now),
  ]);
  return hold;
}

/** Releases an active hold; releasing one already released is a 409 (the first release stands). */
export async function releaseHold(
  ctx: RelatedCtx,
  s: Scope,
  holdId: string,
  reason: string | undefined,
  requestId: string,
): Promise<HoldRow> {
  const rows = await withHead<HoldRow[]>(
    ctx.db,
    s,
    ctx.db
      .select()
      .from(consignmentHolds)
      .where(and(eq(consignmentHolds.id, holdId), eq(consignmentHolds.consignmentId, s.consignmentId)))
      .limit(1),
  );
  const hold = rows[0];
  if (!hold) throw notFound(`Hold '${holdId}' not found on consignment '${s.consignmentId}'`);
  if (hold.status === "released") throw conflict(`Hold '${holdId}' was already released at ${hold.releasedAt}`);
  const now = isoAt(ctx.deps.clock.now());
  const [updated] = (await ctx.db.batch([
    ctx.db
      .update(consignmentHolds)
      .set({ status: "released", releasedAt: now, releaseReason: reason ?? null })
      .where(and(eq(consignmentHolds.id, holdId), eq(consignmentHolds.status, "active")))
      .returning(),
    event(ctx, s, "hold.released", { hold_id: holdId, reason: reason ?? null }, requestId, now),
  ])) as unknown as [HoldRow[]];
  // Two releases racing: the loser's event row is harmless, but it must not claim to have released it.
  if (!updated?.length) throw conflict(`Hold '${holdId}' was already released`);
  return updated[0]!;
}

export const DEFAULT_DELETE_GUARDS = ["active_holds"] as const;

/**
 * Deletes a consignment and everything under it, permanently, unless a workspace guard refuses it. A refusal
 * is recorded as a `deletion.refused` event and answered with 409 saying why. Generated documents' bytes are
 * removed from R2 after the rows.
 */
export async function deleteWithGuards(ctx: RelatedCtx, s: Scope, requestId: string): Promise<void> {
  const { db } = ctx;
  const [head, settingsRows, active, assessed, docs] = (await db.batch([
    headQuery(db, s),
    settingsQuery(db, s.workspaceId),
    db
      .select({ n: count() })
      .from(consignmentHolds)
      .where(and(eq(consignmentHolds.consignmentId, s.consignmentId), eq(consignmentHolds.status, "active"))),
    db
      .select({ n: count() })
      .from(consignmentAssessments)
      .where(eq(consignmentAssessments.consignmentId, s.consignmentId)),
    db
      .select({ key: consignmentDocuments.storageKey })
      .from(consignmentDocuments)
      .where(eq(consignmentDocuments.consignmentId, s.consignmentId)),
  ] as never)) as unknown as [unknown[], { settings: string }[], { n: number }[], { n: number }[], { key: string }[]];
  if (!head.length) throw missing(s.consignmentId);

  const guards: readonly string[] =
    parseDocument(settingsRows[0]?.settings)["consignments.delete_guards"] ?? DEFAULT_DELETE_GUARDS;
  const reasons: string[] = [];
  const holds = active[0]?.n ?? 0;
  const assessments = assessed[0]?.n ?? 0;
  if (guards.includes("active_holds") && holds > 0)
    reasons.push(
      `it has ${holds} active hold(s); release them first (POST /consignments/${s.consignmentId}/holds/{hold_id}/release)`,
    );
  if (guards.includes("assessed") && assessments > 0)
    reasons.push(`it has ${assessments} stored duty assessment(s), and this workspace keeps assessed consignments`);
  if (reasons.length) {
    await event(ctx, s, "deletion.refused", { reasons, guards }, requestId, isoAt(ctx.deps.clock.now()));
    throw conflict(`Consignment '${s.consignmentId}' cannot be deleted: ${reasons.join("; ")}`);
  }

  const id = s.consignmentId;
  await db.batch([
    db.delete(consignmentItems).where(eq(consignmentItems.consignmentId, id)),
    db.delete(consignmentOrders).where(eq(consignmentOrders.consignmentId, id)),
    db.delete(consignmentParcels).where(eq(consignmentParcels.consignmentId, id)),
    db.delete(consignmentEvents).where(eq(consignmentEvents.consignmentId, id)),
    db.delete(consignmentHolds).where(eq(consignmentHolds.consignmentId, id)),
    db.delete(consignmentAssessments).where(eq(consignmentAssessments.consignmentId, id)),
    db.delete(consignmentDocuments).where(eq(consignmentDocuments.consignmentId, id)),
    db.delete(consignmentPreAlerts).where(eq(consignmentPreAlerts.consignmentId, id)),
    db.delete(flowRuns).where(eq(flowRuns.consignmentId, id)),
    db.delete(consignments).where(and(eq(consignments.id, id), eq(consignments.workspaceId, s.workspaceId))),
  ]);
  if (docs.length) await ctx.archive.delete(docs.map((d) => d.key));
}
