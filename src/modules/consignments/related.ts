/**
 * What hangs off a consignment: holds (placed by flows or by hand, released by hand), generated documents,
 * pre-alerts, raw events and the timeline built from them.
 *
 * Every read checks the consignment first (./access) in the same D1 round trip as the read of its children,
 * which are thrown away unless the check passed: another workspace's consignment id is a 404, never an empty
 * list. Every write is conditional on the consignment in the statement itself, so a hold placed while the
 * consignment is being deleted is either seen by the delete or not written at all.
 */
import { and, asc, eq, exists, gt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Call, ServiceContext } from "../../core/context";
import {
  consignmentDocuments,
  consignmentEvents,
  consignmentHolds,
  consignmentPreAlerts,
  consignments,
} from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { ApiError, conflict, notFound, unprocessable } from "../../lib/errors";
import { eventInsert, insertWhen, withdrawOutboxUnless } from "../consignment-records/rows";
import type { DocumentRow, HoldRow, PreAlertRow } from "../consignment-records/tree";
import { holdPlacedEvent } from "../consignment-records/wire";
import { outboxStatements } from "../webhooks/service";
import { consignmentHeadQuery, consignmentNotFound, visibleConsignment } from "./access";
import { timelineEntry } from "./timeline";

type EventRow = typeof consignmentEvents.$inferSelect;

/** The consignment check and one child query in a single round trip; 404 unless the consignment is visible. */
async function withHead<Q extends BatchItem<"sqlite">>(ctx: ServiceContext, id: string, child: Q) {
  const [head, rows] = await ctx.db.batch([consignmentHeadQuery(ctx, id), child]);
  if (!head.length) throw consignmentNotFound(id);
  return rows;
}

export async function listHolds({
  ctx,
  input,
}: Call<{ id: string; status?: "active" | "released" | undefined }>): Promise<HoldRow[]> {
  const where = [eq(consignmentHolds.consignmentId, input.id)];
  if (input.status) where.push(eq(consignmentHolds.status, input.status));
  return withHead(
    ctx,
    input.id,
    ctx.db
      .select()
      .from(consignmentHolds)
      .where(and(...where))
      .orderBy(asc(consignmentHolds.id)),
  );
}

export const listDocuments = ({ ctx, input }: Call<{ id: string }>): Promise<DocumentRow[]> =>
  withHead(
    ctx,
    input.id,
    ctx.db
      .select()
      .from(consignmentDocuments)
      .where(eq(consignmentDocuments.consignmentId, input.id))
      .orderBy(asc(consignmentDocuments.id)),
  );

export const listPreAlerts = ({ ctx, input }: Call<{ id: string }>): Promise<PreAlertRow[]> =>
  withHead(
    ctx,
    input.id,
    ctx.db
      .select()
      .from(consignmentPreAlerts)
      .where(eq(consignmentPreAlerts.consignmentId, input.id))
      .orderBy(asc(consignmentPreAlerts.id)),
  );

export interface EventPage {
  id: string;
  limit: number;
  starting_after?: string | undefined;
}

/** Raw events, oldest first, keyset-paged by event id. */
export async function listEvents({ ctx, input }: Call<EventPage>): Promise<{ rows: EventRow[]; hasMore: boolean }> {
  const where = [eq(consignmentEvents.consignmentId, input.id)];
  if (input.starting_after) where.push(gt(consignmentEvents.id, input.starting_after));
  const rows = await withHead(
    ctx,
    input.id,
    ctx.db
      .select()
      .from(consignmentEvents)
      .where(and(...where))
      .orderBy(asc(consignmentEvents.id))
      .limit(input.limit + 1),
  );
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

export const eventToWire = (e: EventRow) => ({
  id: e.id,
  type: e.type,
  data: JSON.parse(e.data) as Record<string, unknown>,
  request_id: e.requestId,
  created_at: e.createdAt,
});

/** The events as the human-readable timeline. */
export async function timeline({ ctx, input }: Call<EventPage>) {
  const { rows, hasMore } = await listEvents({ ctx, input });
  const entries = rows.map((e) =>
    timelineEntry({
      id: e.id,
      type: e.type,
      data: JSON.parse(e.data) as Record<string, unknown>,
      createdAt: e.createdAt,
    }),
  );
  return { entries, hasMore };
}

/** The bytes of a generated document, from R2. */
export async function documentContent({
  ctx,
  input,
}: Call<{ id: string; documentId: string }>): Promise<{ row: DocumentRow; body: R2ObjectBody }> {
  const rows = await withHead(
    ctx,
    input.id,
    ctx.db
      .select()
      .from(consignmentDocuments)
      .where(and(eq(consignmentDocuments.id, input.documentId), eq(consignmentDocuments.consignmentId, input.id)))
      .limit(1),
  );
  const [row] = rows;
  if (!row) throw notFound(`Document '${input.documentId}' not found on consignment '${input.id}'`);
  const body = await ctx.env.ARCHIVE.get(row.storageKey);
  if (!body)
    throw new ApiError(
      "internal_error",
      `Document '${input.documentId}' is recorded but its content is missing from storage`,
    );
  return { row, body };
}

const holdIs = (holdId: string, status: "active" | "released") =>
  sql`EXISTS (SELECT 1 FROM ${consignmentHolds} WHERE ${consignmentHolds.id} = ${holdId} AND ${consignmentHolds.status} = ${status})`;

/** The references a webhook names a consignment by, read with the visibility check (empty: 404). */
const refsQuery = (ctx: ServiceContext, id: string) =>
  ctx.db
    .select({ id: consignments.id, shipmentRef: consignments.shipmentRef, externalCode: consignments.externalCode })
    .from(consignments)
    .where(visibleConsignment(ctx, id))
    .limit(1);

/** The webhook event of a hold change, withdrawn in the same batch unless the change itself was written. */
async function holdWebhook(ctx: ServiceContext, event: { type: string; data: Record<string, unknown> }, written: SQL) {
  const outbox = await outboxStatements({ ctx, input: { event } });
  return {
    statements: [...outbox.statements, ...withdrawOutboxUnless(ctx.db, outbox.eventId, written)],
    deliveryIds: outbox.deliveryIds,
  };
}

/**
 * A hold placed by hand (a compliance officer stopping a consignment); released by hand too. One batch: the
 * hold, written only if the consignment is visible, its event and its webhook (`hold.placed`), written only if
 * the hold was.
 */
export async function placeHold({
  ctx,
  input,
}: Call<{ id: string; reason: string; code?: string | undefined }>): Promise<{ hold: HoldRow; deliveryIds: string[] }> {
  const now = isoAt(ctx.deps.clock.now());
  const [ref] = await refsQuery(ctx, input.id);
  if (!ref) throw consignmentNotFound(input.id);
  const hold: HoldRow = {
    id: ctx.deps.ids.prefixed("hld"),
    workspaceId: ctx.workspace.id,
    consignmentId: input.id,
    code: input.code ?? null,
    reason: input.reason,
    status: "active",
    source: "api",
    flowId: null,
    placedAt: now,
    releasedAt: null,
    releaseReason: null,
  };
  const placedNow = holdIs(hold.id, "active");
  const webhook = await holdWebhook(ctx, holdPlacedEvent(ref, hold), placedNow);
  const [placed] = await ctx.db.batch([
    insertWhen(ctx.db, consignmentHolds, hold, exists(consignmentHeadQuery(ctx, input.id))).returning({
      id: consignmentHolds.id,
    }),
    eventInsert(ctx.db, ctx.deps.ids, {
      consignmentId: input.id,
      workspaceId: ctx.workspace.id,
      type: "hold.placed",
      data: { hold_id: hold.id, code: hold.code, reason: hold.reason },
      requestId: ctx.requestId,
      createdAt: now,
      when: placedNow,
    }),
    ...webhook.statements,
  ]);
  if (!placed.length) throw consignmentNotFound(input.id);
  return { hold, deliveryIds: webhook.deliveryIds };
}

/** Holds an officer must explain releasing: those a compliance check or ongoing screening placed. */
const NEEDS_REASON = new Set(["compliance", "screening"]);

/**
 * Releases an active hold (event and `hold.released` webhook); releasing one already released is a 409 (the
 * first release stands). A hold placed by a compliance check or by screening needs a reason (422 without).
 */
export async function releaseHold({
  ctx,
  input,
}: Call<{ id: string; holdId: string; reason?: string | undefined }>): Promise<{
  hold: HoldRow;
  deliveryIds: string[];
}> {
  const { db } = ctx;
  const { id, holdId } = input;
  const thisHold = and(eq(consignmentHolds.id, holdId), eq(consignmentHolds.consignmentId, id));
  const [refs, holds] = await db.batch([
    refsQuery(ctx, id),
    db.select().from(consignmentHolds).where(thisHold).limit(1),
  ]);
  const [ref] = refs;
  if (!ref) throw consignmentNotFound(id);
  const [hold] = holds;
  if (!hold) throw notFound(`Hold '${holdId}' not found on consignment '${id}'`);
  if (hold.status === "released") throw conflict(`Hold '${holdId}' was already released at ${hold.releasedAt}`);
  if (!input.reason && NEEDS_REASON.has(hold.source))
    throw unprocessable(`Hold '${holdId}' was placed by ${hold.source}: releasing it needs a reason`);
  const now = isoAt(ctx.deps.clock.now());
  const webhook = await holdWebhook(
    ctx,
    {
      type: "hold.released",
      data: {
        consignment_id: ref.id,
        shipment_ref: ref.shipmentRef,
        external_code: ref.externalCode,
        hold_id: holdId,
        code: hold.code,
        reason: input.reason ?? null,
      },
    },
    // This release, not a racing one: the hold carries this release's time.
    sql`EXISTS (SELECT 1 FROM ${consignmentHolds} WHERE ${consignmentHolds.id} = ${holdId} AND ${consignmentHolds.releasedAt} = ${now})`,
  );
  const [updated, , head] = await db.batch([
    db
      .update(consignmentHolds)
      .set({ status: "released", releasedAt: now, releaseReason: input.reason ?? null })
      .where(and(thisHold, eq(consignmentHolds.status, "active")))
      .returning(),
    // Two releases racing: the loser's event row is harmless, but it must not claim to have released it.
    eventInsert(db, ctx.deps.ids, {
      consignmentId: id,
      workspaceId: ctx.workspace.id,
      type: "hold.released",
      data: { hold_id: holdId, reason: input.reason ?? null },
      requestId: ctx.requestId,
      createdAt: now,
      when: holdIs(holdId, "released"),
    }),
    consignmentHeadQuery(ctx, id),
    ...webhook.statements,
  ]);
  const [released] = updated;
  if (released) return { hold: released, deliveryIds: webhook.deliveryIds };
  if (!head.length) throw consignmentNotFound(id);
  throw conflict(`Hold '${holdId}' was already released`);
}
