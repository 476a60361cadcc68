/**
 * Manifests (no Hono): create with consignments, add and remove them while open, close once (the PDF is
 * generated and stored, the list frozen), list and read. A consignment is on at most one manifest (a unique
 * index decides a race), and every change to the list is conditioned on the manifest still being open in the
 * same batch, so a close and an add that race cannot both win. Events `manifest.created` and
 * `manifest.closed` go into the webhook outbox in the batch of the change.
 */
import { and, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Call, ServiceContext } from "../../core/context";
import type { Db } from "../../db/client";
import { consignmentParcels, consignments, manifestConsignments, manifests, workspaces } from "../../db/schema/index";
import { manifestPdf } from "../../engines/documents/manifest-pdf";
import { isoAt } from "../../lib/clock";
import { ApiError, conflict, notFound, unprocessable } from "../../lib/errors";
import type { Statement } from "../consignment-records/rows";
import { enqueue, outboxStatements } from "../webhooks/service";

type ManifestRow = typeof manifests.$inferSelect;

export const MAX_CONSIGNMENTS = 500;

const manifestNotFound = (id: string) => notFound(`Manifest '${id}' not found`);

/** `column IN (ids)` with the ids as one JSON parameter: a manifest holds up to 500, D1 binds 100 at most. */
const inIds = (column: SQLiteColumn, ids: string[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

function toWire(m: ManifestRow, consignmentIds: string[]) {
  return {
    id: m.id,
    status: m.status,
    carrier: m.carrier,
    reference: m.reference,
    consignment_ids: consignmentIds,
    consignment_count: consignmentIds.length,
    document: m.documentKey
      ? { content_type: "application/pdf", size: m.documentSize ?? 0, sha256: m.documentSha256 ?? "" }
      : null,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    closed_at: m.closedAt,
  };
}

async function manifestOf(ctx: ServiceContext, id: string) {
  const [rows, members] = await ctx.db.batch([
    ctx.db
      .select()
      .from(manifests)
      .where(and(eq(manifests.id, id), eq(manifests.workspaceId, ctx.workspace.id)))
      .limit(1),
    ctx.db
      .select({ id: manifestConsignments.consignmentId })
      .from(manifestConsignments)
      .where(and(eq(manifestConsignments.manifestId, id), eq(manifestConsignments.workspaceId, ctx.workspace.id)))
      .orderBy(manifestConsignments.consignmentId),
  ]);
  const row = rows[0];
  if (!row) throw manifestNotFound(id);
  return { row, ids: members.map((m) => m.id) };
}

/**
 * The consignments as the caller may name them: in this workspace (another workspace's id is unknown here,
 * 422 like a typo), and not on another manifest (409).
 */
async function checkConsignments(ctx: ServiceContext, ids: string[], manifestId: string | null) {
  const unique = [...new Set(ids)];
  const [found, taken] = await ctx.db.batch([
    ctx.db
      .select({ id: consignments.id })
      .from(consignments)
      .where(and(eq(consignments.workspaceId, ctx.workspace.id), inIds(consignments.id, unique))),
    ctx.db
      .select({ id: manifestConsignments.consignmentId, manifestId: manifestConsignments.manifestId })
      .from(manifestConsignments)
      .where(inIds(manifestConsignments.consignmentId, unique)),
  ]);
  const known = new Set(found.map((f) => f.id));
  const missing = unique.filter((id) => !known.has(id));
  if (missing.length)
    throw unprocessable(`Unknown consignment(s): ${missing.join(", ")}`, {
      errors: missing.map((id) => ({ field: "consignment_ids", message: `unknown consignment ${id}` })),
    });
  const elsewhere = taken.filter((t) => t.manifestId !== manifestId);
  if (elsewhere.length)
    throw conflict(
      `Consignment(s) already on another manifest: ${elsewhere.map((t) => `${t.id} (on ${t.manifestId})`).join(", ")}`,
    );
  return unique.filter((id) => !taken.some((t) => t.id === id));
}

const stillOpen = (id: string) =>
  sql`EXISTS (SELECT 1 FROM ${manifests} WHERE ${manifests.id} = ${id} AND ${manifests.status} = 'open')`;

/** Adds rows for `ids` only while the manifest is open (the condition is evaluated inside the batch). */
function addStatements(ctx: ServiceContext, manifestId: string, ids: string[], now: string) {
  if (!ids.length) return [];
  const payload = JSON.stringify(ids);
  return [
    ctx.db
      .insert(manifestConsignments)
      .select(
        sql`SELECT ${manifestId}, value, ${ctx.workspace.id}, ${now} FROM json_each(${payload}) WHERE ${stillOpen(manifestId)}`,
      ),
  ];
}

async function emit(ctx: ServiceContext, type: string, data: Record<string, unknown>) {
  const [ws] = await ctx.db
    .select({ mode: workspaces.mode })
    .from(workspaces)
    .where(eq(workspaces.id, ctx.workspace.id));
  return outboxStatements({
    ctx: { db: ctx.db, deps: ctx.deps, workspace: { id: ctx.workspace.id, mode: ws?.mode ?? ctx.workspace.mode } },
    input: { event: { type, data } },
  });
}

const isUnique = (err: unknown) => /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err));

export async function createManifest({
  ctx,
  input,
}: Call<{ consignment_ids: string[]; carrier?: string | null | undefined; reference?: string | null | undefined }>) {
  const ids = await checkConsignments(ctx, input.consignment_ids, null);
  const now = isoAt(ctx.deps.clock.now());
  const row: ManifestRow = {
    id: ctx.deps.ids.prefixed("man"),
    workspaceId: ctx.workspace.id,
    carrier: input.carrier ?? null,
    reference: input.reference ?? null,
    status: "open",
    documentKey: null,
    documentSize: null,
    documentSha256: null,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  };
  const event = await emit(ctx, "manifest.created", {
    manifest_id: row.id,
    carrier: row.carrier,
    reference: row.reference,
    consignment_ids: ids,
  });
  try {
    await ctx.db.batch([
      ctx.db.insert(manifests).values(row),
      ...addStatements(ctx, row.id, ids, now),
      ...(event.statements as Statement[]),
    ]);
  } catch (err) {
    if (isUnique(err)) throw conflict("A consignment was put on another manifest meanwhile; try again");
    throw err;
  }
  await enqueue(ctx.env.WEBHOOKS, event.deliveryIds);
  return toWire(row, [...ids].sort());
}

export async function getManifest({ ctx, input }: Call<{ id: string }>) {
  const { row, ids } = await manifestOf(ctx, input.id);
  return toWire(row, ids);
}

export async function listManifests({
  ctx,
  input,
}: Call<{ limit: number; starting_after?: string | undefined; status?: "open" | "closed" | undefined }>) {
  const rows = await ctx.db
    .select()
    .from(manifests)
    .where(
      and(
        eq(manifests.workspaceId, ctx.workspace.id),
        input.status ? eq(manifests.status, input.status) : undefined,
        input.starting_after ? lt(manifests.id, input.starting_after) : undefined,
      ),
    )
    .orderBy(desc(manifests.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const counts = page.length
    ? await ctx.db
        .select({ id: manifestConsignments.manifestId, n: count() })
        .from(manifestConsignments)
        .where(
          inArray(
            manifestConsignments.manifestId,
            page.map((m) => m.id),
          ),
        )
        .groupBy(manifestConsignments.manifestId)
    : [];
  const n = new Map(counts.map((c) => [c.id, c.n]));
  return {
    manifests: page.map((m) => ({ ...toWire(m, []), consignment_ids: undefined, consignment_count: n.get(m.id) ?? 0 })),
    has_more: rows.length > input.limit,
  };
}

function refuseClosed(row: ManifestRow): void {
  if (row.status === "closed")
    throw conflict(`Manifest '${row.id}' was closed on ${row.closedAt}; a closed manifest cannot change`);
}

export async function addConsignments({ ctx, input }: Call<{ id: string; consignment_ids: string[] }>) {
  const { row } = await manifestOf(ctx, input.id);
  refuseClosed(row);
  const ids = await checkConsignments(ctx, input.consignment_ids, row.id);
  const now = isoAt(ctx.deps.clock.now());
  try {
    await ctx.db.batch([
      ctx.db.update(manifests).set({ updatedAt: now }).where(eq(manifests.id, row.id)),
      ...addStatements(ctx, row.id, ids, now),
    ]);
  } catch (err) {
    if (isUnique(err)) throw conflict("A consignment was put on another manifest meanwhile; try again");
    throw err;
  }
  const after = await manifestOf(ctx, row.id);
  refuseClosed(after.row);
  return toWire(after.row, after.ids);
}

export async function removeConsignment({ ctx, input }: Call<{ id: string; consignment_id: string }>) {
  const { row, ids } = await manifestOf(ctx, input.id);
  refuseClosed(row);
  if (!ids.includes(input.consignment_id))
    throw notFound(`Consignment '${input.consignment_id}' is not on manifest '${row.id}'`);
  const now = isoAt(ctx.deps.clock.now());
  await ctx.db.batch([
    ctx.db
      .delete(manifestConsignments)
      .where(
        and(
          eq(manifestConsignments.manifestId, row.id),
          eq(manifestConsignments.consignmentId, input.consignment_id),
          stillOpen(row.id),
        ),
      ),
    ctx.db.update(manifests).set({ updatedAt: now }).where(eq(manifests.id, row.id)),
  ]);
  const after = await manifestOf(ctx, row.id);
  refuseClosed(after.row);
  return toWire(after.row, after.ids);
}

/** Closes an open manifest: the PDF is generated from its consignments and stored, then the row closes. */
export async function closeManifest({ ctx, input }: Call<{ id: string }>) {
  const { row, ids } = await manifestOf(ctx, input.id);
  refuseClosed(row);
  if (!ids.length) throw unprocessable(`Manifest '${row.id}' has no consignments; add some before closing it`);
  const [heads, parcels] = await ctx.db.batch([
    ctx.db
      .select({
        id: consignments.id,
        shipmentRef: consignments.shipmentRef,
        receiver: consignments.receiver,
        receiverCountry: consignments.receiverCountry,
      })
      .from(consignments)
      .where(inIds(consignments.id, ids)),
    ctx.db
      .select({
        consignmentId: consignmentParcels.consignmentId,
        n: count(),
        kg: sql<string>`sum(${consignmentParcels.weightKg})`,
      })
      .from(consignmentParcels)
      .where(inIds(consignmentParcels.consignmentId, ids))
      .groupBy(consignmentParcels.consignmentId),
  ]);
  const byId = new Map(parcels.map((p) => [p.consignmentId, p]));
  const nowMs = ctx.deps.clock.now();
  const now = isoAt(nowMs);
  const lines = heads
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((h) => {
      const receiver = h.receiver
        ? (JSON.parse(h.receiver) as { company_name?: string; contact?: { name?: string } })
        : {};
      return {
        consignmentId: h.id,
        shipmentRef: h.shipmentRef,
        receiver: receiver.company_name ?? receiver.contact?.name ?? "-",
        destination: h.receiverCountry,
        parcels: byId.get(h.id)?.n ?? 0,
        weightKg: Number(byId.get(h.id)?.kg ?? 0).toFixed(3),
      };
    });
  const bytes = await manifestPdf({
    id: row.id,
    carrier: row.carrier,
    reference: row.reference,
    closedAt: now,
    workspace: ctx.workspace.slug,
    lines,
  });
  const key = `documents/${ctx.workspace.id}/manifests/${row.id}.pdf`;
  await ctx.env.ARCHIVE.put(key, bytes, { httpMetadata: { contentType: "application/pdf" } });
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  const sha = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const event = await emit(ctx, "manifest.closed", {
    manifest_id: row.id,
    carrier: row.carrier,
    reference: row.reference,
    consignment_ids: ids,
    closed_at: now,
  });
  const [closed] = await ctx.db.batch([
    ctx.db
      .update(manifests)
      .set({
        status: "closed",
        closedAt: now,
        updatedAt: now,
        documentKey: key,
        documentSize: bytes.byteLength,
        documentSha256: sha,
      })
      .where(and(eq(manifests.id, row.id), eq(manifests.status, "open")))
      .returning({ id: manifests.id }),
    ...(event.statements as Statement[]),
  ]);
  if (!closed.length) throw conflict(`Manifest '${row.id}' was closed meanwhile`);
  await enqueue(ctx.env.WEBHOOKS, event.deliveryIds);
  const after = await manifestOf(ctx, row.id);
  return toWire(after.row, after.ids);
}

/** The closed manifest's PDF. */
export async function manifestDocument({ ctx, input }: Call<{ id: string }>) {
  const { row } = await manifestOf(ctx, input.id);
  if (!row.documentKey) throw notFound(`Manifest '${row.id}' has no document yet: it is generated when it closes`);
  const obj = await ctx.env.ARCHIVE.get(row.documentKey);
  if (!obj) throw new ApiError("internal_error", `The document of manifest '${row.id}' is missing from storage`);
  return obj;
}

/** For the consignment delete guard: the manifest a consignment is on, if any. */
export const manifestOfConsignment = (db: Db, consignmentId: string) =>
  db
    .select({ manifestId: manifestConsignments.manifestId })
    .from(manifestConsignments)
    .where(eq(manifestConsignments.consignmentId, consignmentId))
    .limit(1);
