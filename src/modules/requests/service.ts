/**
 * The request archive: search the audit trail, read one request with its refs, stream its archived body,
 * record runs that do not come over HTTP, and purge what is past a workspace's retention.
 */
import { and, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { BaseContext, Call, ServiceContext } from "../../core/context";
import { chunksFor } from "../../db/bulk";
import { requestAudit, requestRefs, usageLog, workspaces } from "../../db/schema/index";
import type { Ref } from "../../engines/refs/extract";
import { isoAt } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { archiveKey } from "../../middleware/archive";
import { outcomeOf, refInserts } from "../audit/service";
import {
  type ColdAuditRow,
  findColdAudit,
  hasColdTier,
  mayBeCold,
  pageColdAudit,
  purgeColdTier,
  type RefPair,
} from "../audit/tiers";
import { pendingAudit } from "../audit/writer";

type AuditRow = typeof requestAudit.$inferSelect;

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
function visible(ctx: ServiceContext): SQL[] {
  const scope = [eq(requestAudit.workspaceId, ctx.workspace.id)];
  if (ctx.actor.customerId !== null) scope.push(eq(requestAudit.customerId, ctx.actor.customerId));
  return scope;
}

/** The list's filters as code, for rows read from the cold tier (the same rules as the SQL below). */
function matches(ctx: ServiceContext, q: RequestQuery) {
  return (r: ColdAuditRow): boolean =>
    (ctx.actor.customerId === null || r.customerId === ctx.actor.customerId) &&
    (!q.path_prefix || r.path.startsWith(q.path_prefix)) &&
    (!q.surface || r.surface === q.surface) &&
    (!q.method || r.method === q.method) &&
    (!q.outcome || r.outcome === q.outcome) &&
    (!q.source || r.source === q.source) &&
    (!q.ref || r.refs.some((x) => x.ref_value === q.ref && (!q.ref_type || x.ref_type === q.ref_type)));
}

export interface RequestPage {
  rows: AuditRow[];
  hasMore: boolean;
  /** Where the next page starts: the last row's id, or where a bounded read of the cold tier stopped. */
  next: string | null;
}

/**
 * Newest first by id (UUIDv7, so by time). `starting_after` is a request id: the page holds older requests,
 * so requests that arrive while a client pages never shift what it sees. A page that D1's hot window cannot
 * fill continues into the cold tier in the same order; that read is bounded, so a sparse filter may return a
 * short page with `has_more` and a `next` cursor that is a position rather than a request.
 */
export async function listRequests({ ctx, input: q }: Call<RequestQuery>): Promise<RequestPage> {
  const hot = await listHotRequests({ ctx, input: q });
  if (hot.length > q.limit || !hasColdTier(ctx)) return pageOf(hot, q.limit);
  const cold = await pageColdAudit(ctx, ctx.workspace.id, {
    cursor: q.starting_after,
    need: q.limit + 1 - hot.length,
    keep: matches(ctx, q),
    exclude: new Set(hot.map((r) => r.id)),
  });
  const merged = [...hot, ...cold.rows.map(({ refs: _refs, ...row }) => row)].sort((a, b) =>
    a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
  );
  if (cold.exhausted) return { rows: merged, hasMore: true, next: cold.reached ?? merged.at(-1)?.id ?? null };
  return pageOf(merged, q.limit);
}

function pageOf(rows: AuditRow[], limit: number): RequestPage {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { rows: page, hasMore, next: hasMore ? (page.at(-1)?.id ?? null) : null };
}

/** Up to limit + 1 rows from D1. */
async function listHotRequests({ ctx, input: q }: Call<RequestQuery>): Promise<AuditRow[]> {
  const { db } = ctx;
  const where = visible(ctx);
  if (q.starting_after) where.push(lt(requestAudit.id, q.starting_after));
  // Exact, case-sensitive prefix (SQLite's LIKE folds ASCII case and needs escaping).
  if (q.path_prefix) where.push(sql`substr(${requestAudit.path}, 1, ${q.path_prefix.length}) = ${q.path_prefix}`);
  if (q.surface) where.push(eq(requestAudit.surface, q.surface));
  if (q.method) where.push(eq(requestAudit.method, q.method));
  if (q.outcome) where.push(eq(requestAudit.outcome, q.outcome));
  if (q.source) where.push(eq(requestAudit.source, q.source));
  if (q.ref) {
    const refWhere = [eq(requestRefs.workspaceId, ctx.workspace.id), eq(requestRefs.refValue, q.ref)];
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
  return db
    .select()
    .from(requestAudit)
    .where(and(...where))
    .orderBy(desc(requestAudit.id))
    .limit(q.limit + 1);
}

/**
 * One visible row; 404 for another workspace's request or (pinned client) another customer's. D1 first, then
 * this isolate's unflushed rows, then (for ids older than the hot window) the one cold partition the id's time
 * names. A cold row comes with its refs.
 */
async function loadRequest({ ctx, input }: Call<{ id: string }>): Promise<AuditRow & { refs?: RefPair[] }> {
  const [row] = await ctx.db
    .select()
    .from(requestAudit)
    .where(and(...visible(ctx), eq(requestAudit.id, input.id)))
    .limit(1);
  if (row) return row;
  // A row this isolate has not flushed yet (reads and refusals are group-committed): readable already.
  const pending = pendingAudit(input.id)?.row as AuditRow | undefined;
  const mine = (r: AuditRow | null | undefined): r is AuditRow =>
    r?.workspaceId === ctx.workspace.id && (ctx.actor.customerId === null || r.customerId === ctx.actor.customerId);
  if (mine(pending)) return pending;
  const cold = mayBeCold(ctx, input.id) ? await findColdAudit(ctx, ctx.workspace.id, input.id) : null;
  if (mine(cold)) return cold;
  throw notFound(`Request '${input.id}' not found in this workspace`);
}

export async function getRequest({ ctx, input }: Call<{ id: string }>): Promise<{ row: AuditRow; refs: RefPair[] }> {
  const loaded = await loadRequest({ ctx, input });
  if (loaded.refs) {
    const { refs, ...row } = loaded;
    return { row, refs };
  }
  const row: AuditRow = loaded;
  const pending = pendingAudit(input.id);
  if (pending && (pending.row as AuditRow) === row) return { row, refs: await pending.refs() };
  const refs = await ctx.db
    .select({ ref_type: requestRefs.refType, ref_value: requestRefs.refValue })
    .from(requestRefs)
    .where(and(eq(requestRefs.workspaceId, ctx.workspace.id), eq(requestRefs.requestId, input.id)))
    .orderBy(requestRefs.id);
  return { row, refs };
}

/** A visible request's archived body object, or a 404 that says why (no such request, no body, or purged). */
export async function getRequestBody({ ctx, input }: Call<{ id: string }>): Promise<R2ObjectBody> {
  const row = await loadRequest({ ctx, input });
  if (!row.hasBody || !row.bodyKey) throw notFound("This request had no body");
  const obj = await ctx.env.ARCHIVE.get(row.bodyKey);
  if (!obj) throw notFound("The archived body is no longer available");
  return obj;
}

interface InternalRun {
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

interface RecordRunInput {
  run: InternalRun;
  /** The run's id and time; a fresh UUIDv7 and the clock's now by default. */
  at?: { id: string; nowMs: number } | undefined;
  /** Statements committed in the same batch as the audit row (the run's own effects). */
  alongside?: BatchItem<"sqlite">[] | undefined;
}

/** The archived input of a run: stored in R2 before its row is written, so the row never points at nothing. */
async function archiveRunBody(
  ctx: BaseContext,
  run: InternalRun,
  at: { id: string; nowMs: number },
): Promise<{ key: string; size: number; contentType: string } | null> {
  if (!run.body) return null;
  const bytes = typeof run.body.bytes === "string" ? new TextEncoder().encode(run.body.bytes) : run.body.bytes;
  const key = archiveKey(run.workspaceId, at.nowMs, at.id);
  await ctx.env.ARCHIVE.put(key, bytes, {
    httpMetadata: { contentType: run.body.contentType },
    customMetadata: { request_id: at.id, source: run.source },
  });
  return { key, size: bytes.byteLength, contentType: run.body.contentType };
}

/**
 * Records a run that did not come over HTTP under a UUIDv7, with its input archived in R2 first, so the same
 * archive endpoints read it. Returns the run id.
 */
export async function recordInternalRun({ ctx, input }: Call<RecordRunInput, BaseContext>): Promise<string> {
  const { run } = input;
  const at = input.at ?? { id: ctx.deps.ids.requestId(), nowMs: ctx.deps.clock.now() };
  const createdAt = isoAt(at.nowMs);
  const status = run.httpStatus ?? 200;
  const body = await archiveRunBody(ctx, run, at);
  const insertRow = ctx.db.insert(requestAudit).values({
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
  const refs = refInserts(ctx.db, run.workspaceId, at.id, run.refs ?? [], createdAt);
  await ctx.db.batch([insertRow, ...refs, ...(input.alongside ?? [])]);
  return at.id;
}

/** Rows purged per workspace per run: bounded so one cron invocation stays short; the next run continues. */
const PURGE_BATCH = 500;

/**
 * Deletes one workspace's audit rows, their refs and their archived bodies older than the cutoff; returns how
 * many rows went. Bodies go first: if the run dies midway, the rows that remain still point at what is left,
 * and the next run finishes.
 */
async function purgeWorkspace(ctx: BaseContext, workspaceId: string, cutoff: string): Promise<number> {
  const { db } = ctx;
  const expired = await db
    .select({ id: requestAudit.id, bodyKey: requestAudit.bodyKey })
    .from(requestAudit)
    .where(and(eq(requestAudit.workspaceId, workspaceId), lt(requestAudit.createdAt, cutoff)))
    .orderBy(requestAudit.createdAt)
    .limit(PURGE_BATCH);
  if (!expired.length) return 0;
  const keys = expired.map((r) => r.bodyKey).filter((k): k is string => Boolean(k));
  // R2 deletes at most 1000 keys a call.
  for (let i = 0; i < keys.length; i += 1000) await ctx.env.ARCHIVE.delete(keys.slice(i, i + 1000));
  const statements: BatchItem<"sqlite">[] = [];
  // One bound parameter per id, plus the workspace id on the refs delete.
  const ids = expired.map((r) => r.id);
  for (const chunk of chunksFor(ids, 1, 1)) {
    statements.push(
      db
        .delete(requestRefs)
        .where(and(eq(requestRefs.workspaceId, workspaceId), inArray(requestRefs.requestId, chunk))),
      db.delete(requestAudit).where(inArray(requestAudit.id, chunk)),
    );
  }
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
  return expired.length;
}

/**
 * Deletes one workspace's usage rows older than the cutoff, PURGE_BATCH per kind: they join the audit trail by
 * request id and follow its retention. Per kind, so each delete walks the (workspace, kind, created_at) index.
 */
async function purgeUsage(ctx: BaseContext, workspaceId: string, cutoff: string): Promise<number> {
  const { db } = ctx;
  const deletes = usageLog.kind.enumValues.map((kind) =>
    db
      .delete(usageLog)
      .where(
        inArray(
          usageLog.id,
          db
            .select({ id: usageLog.id })
            .from(usageLog)
            .where(and(eq(usageLog.workspaceId, workspaceId), eq(usageLog.kind, kind), lt(usageLog.createdAt, cutoff)))
            .limit(PURGE_BATCH),
        ),
      )
      .returning({ id: usageLog.id }),
  );
  const [first, ...rest] = deletes;
  if (!first) return 0;
  const results = await db.batch([first, ...rest]);
  return results.reduce((n, rows) => n + rows.length, 0);
}

interface Purge {
  workspaceId: string;
  /** Audit rows removed from both tiers. */
  purged: number;
  purgedUsage: number;
  purgedPartitions: number;
}

/** Both tiers of one workspace: D1 rows past the cutoff, then whole cold partitions that ended before it. */
async function purgeBothTiers(ctx: BaseContext, workspaceId: string, cutoffMs: number): Promise<Purge> {
  const cutoff = isoAt(cutoffMs);
  const hot = await purgeWorkspace(ctx, workspaceId, cutoff);
  const usage = await purgeUsage(ctx, workspaceId, cutoff);
  const cold = await purgeColdTier({ ctx, input: { workspaceId, cutoffMs } });
  return {
    workspaceId,
    purged: hot + cold.requests,
    purgedUsage: usage + cold.usage,
    purgedPartitions: cold.partitions,
  };
}

/**
 * The archive retention job: purges what is past each workspace's retention as of `asOfMs` from both tiers of
 * the audit trail (D1's hot window and the cold partitions in R2, see audit/tiers.ts), and records each
 * purge that removed something as an `internal` run in that workspace's archive, so the trail shows what was
 * removed when. Returns the purges.
 */
export async function runArchiveRetention({ ctx, input }: Call<{ asOfMs: number }, BaseContext>): Promise<Purge[]> {
  const started = ctx.deps.clock.now();
  const all = await ctx.db.select({ id: workspaces.id, days: workspaces.archiveRetentionDays }).from(workspaces);
  const results: Purge[] = [];
  for (const ws of all) {
    const p = await purgeBothTiers(ctx, ws.id, input.asOfMs - ws.days * 86_400_000);
    if (p.purged || p.purgedUsage || p.purgedPartitions) results.push(p);
  }
  for (const p of results) {
    const body = {
      job: "archive-retention",
      purged_requests: p.purged,
      purged_usage_rows: p.purgedUsage,
      purged_cold_partitions: p.purgedPartitions,
      as_of: new Date(input.asOfMs).toISOString(),
    };
    const run: InternalRun = {
      workspaceId: p.workspaceId,
      source: "internal",
      route: "job:archive-retention",
      actor: "system",
      durationMs: ctx.deps.clock.now() - started,
      body: { bytes: JSON.stringify(body), contentType: "application/json" },
    };
    await recordInternalRun({ ctx, input: { run } });
  }
  return results;
}
