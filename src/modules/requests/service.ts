/**
 * The request archive: search the audit trail, read one request with its refs, stream its archived body,
 * record runs that do not come over HTTP, and purge what is past a workspace's retention.
 */

import { and, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { requestAudit, requestRefs, workspaces } from "../../db/schema/index";
import type { Ref } from "../../engines/refs/extract";
import { isoAt } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { archiveKey } from "../../middleware/archive";
import { outcomeOf } from "../audit/service";

export type AuditRow = typeof requestAudit.$inferSelect;

export const SURFACES = ["api", "admin-api", "account-api", "cds"] as const;
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const SOURCES = ["http", "internal", "flow"] as const;

export interface RequestQuery {
  limit: number;
  starting_after?: string | undefined;
  path_prefix?: string | undefined;
  surface?: (typeof SURFACES)[number] | undefined;
  method?: (typeof METHODS)[number] | undefined;
  outcome?: "completed" | "failed" | undefined;
  source?: (typeof SOURCES)[number] | undefined;
  ref?: string | undefined;
  ref_type?: string | undefined;
}

export const requestToWire = (r: AuditRow) => ({
  id: r.id,
  route: r.route,
  path: r.path,
  surface: r.surface,
  method: r.method,
  source: r.source,
  actor: r.actor,
  customer_id: r.customerId,
  http_status: r.httpStatus,
  outcome: r.outcome,
  duration_ms: r.durationMs,
  has_body: r.hasBody,
  body_content_type: r.bodyContentType,
  body_size: r.bodySize,
  error_summary: r.errorSummary,
  created_at: r.createdAt,
});

/** Who may see which rows: the workspace, narrowed to one customer for a customer-pinned client. */
function visible(workspaceId: string, customerId: number | null): SQL[] {
  const scope = [eq(requestAudit.workspaceId, workspaceId)];
  if (customerId !== null) scope.push(eq(requestAudit.customerId, customerId));
  return scope;
}

/**
 * Newest first by id (UUIDv7, so by time). `starting_after` is a request id: the page holds older requests,
 * so requests that arrive while a client pages never shift what it sees.
 */
export async function listRequests(db: Db, workspaceId: string, q: RequestQuery, customerId: number | null) {
  const where = visible(workspaceId, customerId);
  if (q.starting_after) where.push(lt(requestAudit.id, q.starting_after));
  // Exact, case-sensitive prefix (SQLite's LIKE folds ASCII case and needs escaping).
  if (q.path_prefix) where.push(sql`substr(${requestAudit.path}, 1, ${q.path_prefix.length}) = ${q.path_prefix}`);
  if (q.surface) where.push(eq(requestAudit.surface, q.surface));
  if (q.method) where.push(eq(requestAudit.method, q.method));
  if (q.outcome) where.push(eq(requestAudit.outcome, q.outcome));
  if (q.source) where.push(eq(requestAudit.source, q.source));
  if (q.ref) {
    const refWhere = [eq(requestRefs.workspaceId, workspaceId), eq(requestRefs.refValue, q.ref)];
    if (q.ref_type) refWhere.push(eq(requestRefs.refType, q.ref_type));
    where.push(
      inArray(
        requestAudit.id,
        db
          .select({ id: requestRefs.requestId })
          .from(requestRefs)
          .where(and(...refWhere)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(requestAudit)
    .where(and(...where))
    .orderBy(desc(requestAudit.id))
    .limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export async function getRequest(db: Db, workspaceId: string, id: string, customerId: number | null) {
  const rows = await db
    .select()
    .from(requestAudit)
    .where(and(...visible(workspaceId, customerId), eq(requestAudit.id, id)))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound(`Request '${id}' not found in this workspace`);
  const refs = await db
    .select({ ref_type: requestRefs.refType, ref_value: requestRefs.refValue })
    .from(requestRefs)
    .where(and(eq(requestRefs.workspaceId, workspaceId), eq(requestRefs.requestId, id)))
    .orderBy(requestRefs.id);
  return { row, refs };
}

/** The archived body object, or a 404 that says why (no body, or purged). */
export async function getBody(archive: R2Bucket, row: AuditRow): Promise<R2ObjectBody> {
  if (!row.hasBody || !row.bodyKey) throw notFound("This request had no body");
  const obj = await archive.get(row.bodyKey);
  if (!obj) throw notFound("The archived body is no longer available");
  return obj;
}

/** Insert statements for a request's refs (batched with its audit row). */
export function refInserts(db: Db, workspaceId: string, requestId: string, refs: Ref[], createdAt: string) {
  const out = [];
  // 5 values a row: stay well under D1's 100 bound parameters per statement.
  for (let i = 0; i < refs.length; i += 15) {
    const chunk = refs
      .slice(i, i + 15)
      .map((r) => ({ requestId, workspaceId, refType: r.ref_type, refValue: r.ref_value, createdAt }));
    out.push(db.insert(requestRefs).values(chunk));
  }
  return out;
}

export interface InternalRun {
  workspaceId: string;
  source: "internal" | "flow";
  /** What ran, e.g. `flow:consignment.created/add_tags` or `job:archive-retention`. */
  route: string;
  httpStatus?: number;
  durationMs?: number;
  actor?: string | null;
  customerId?: number | null;
  errorSummary?: string | null;
  /** Input of the run, archived like a request body. */
  body?: { bytes: string | Uint8Array; contentType: string };
  refs?: Ref[];
}

/**
 * Records a run that did not come over HTTP under a fresh UUIDv7, with its input archived in R2 first, so the
 * same archive endpoints read it. Returns the run id.
 */
export async function recordInternalRun(
  db: Db,
  archive: R2Bucket,
  run: InternalRun,
  at: { id: string; nowMs: number },
  /** Statements committed in the same batch as the audit row (the run's own effects). */
  alongside: BatchItem<"sqlite">[] = [],
): Promise<string> {
  const createdAt = isoAt(at.nowMs);
  const status = run.httpStatus ?? 200;
  let body: { key: string; size: number; contentType: string } | null = null;
  if (run.body) {
    const bytes = typeof run.body.bytes === "string" ? new TextEncoder().encode(run.body.bytes) : run.body.bytes;
    const key = archiveKey(run.workspaceId, at.nowMs, at.id);
    await archive.put(key, bytes, {
      httpMetadata: { contentType: run.body.contentType },
      customMetadata: { request_id: at.id, source: run.source },
    });
    body = { key, size: bytes.byteLength, contentType: run.body.contentType };
  }
  const insertRow = db.insert(requestAudit).values({
    id: at.id,
    workspaceId: run.workspaceId,
    surface: "internal",
    route: run.route,
    path: run.route,
    method: "RUN",
    source: run.source,
    actor: run.actor ?? null,
    customerId: run.customerId ?? null,
    httpStatus: status,
    outcome: outcomeOf(status),
    durationMs: run.durationMs ?? 0,
    hasBody: body !== null,
    bodyKey: body?.key ?? null,
    bodyContentType: body?.contentType ?? null,
    bodySize: body?.size ?? null,
    errorSummary: run.errorSummary ?? null,
    createdAt,
  });
  await db.batch([insertRow, ...refInserts(db, run.workspaceId, at.id, run.refs ?? [], createdAt), ...alongside]);
  return at.id;
}

/** Rows purged per workspace per run: bounded so one cron invocation stays short; the next run continues. */
export const PURGE_BATCH = 500;

/**
 * Deletes audit rows, their refs and their archived bodies older than each workspace's retention. Bodies go
 * first: if the run dies midway, the rows that remain still point at what is left, and the next run finishes.
 */
export async function purgeExpired(
  db: Db,
  archive: R2Bucket,
  nowMs: number,
): Promise<{ workspaceId: string; purged: number }[]> {
  const all = await db.select({ id: workspaces.id, days: workspaces.archiveRetentionDays }).from(workspaces);
  const results = [];
  for (const ws of all) {
    const cutoff = isoAt(nowMs - ws.days * 86_400_000);
    const expired = await db
      .select({ id: requestAudit.id, bodyKey: requestAudit.bodyKey })
      .from(requestAudit)
      .where(and(eq(requestAudit.workspaceId, ws.id), lt(requestAudit.createdAt, cutoff)))
      .orderBy(requestAudit.createdAt)
      .limit(PURGE_BATCH);
    if (!expired.length) continue;
    const keys = expired.map((r) => r.bodyKey).filter((k): k is string => Boolean(k));
    for (let i = 0; i < keys.length; i += 1000) await archive.delete(keys.slice(i, i + 1000));
    const ids = expired.map((r) => r.id);
    const statements = [];
    for (let i = 0; i < ids.length; i += 90) {
      const chunk = ids.slice(i, i + 90);
      statements.push(
        db.delete(requestRefs).where(and(eq(requestRefs.workspaceId, ws.id), inArray(requestRefs.requestId, chunk))),
      );
      statements.push(db.delete(requestAudit).where(inArray(requestAudit.id, chunk)));
    }
    const [first, ...rest] = statements;
    if (first) await db.batch([first, ...rest]);
    results.push({ workspaceId: ws.id, purged: ids.length });
  }
  return results;
}
