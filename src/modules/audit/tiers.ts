/**
 * The audit trail in two tiers. D1 holds a hot window (var AUDIT_HOT_DAYS) of audit rows with their refs and of
 * usage rows; older rows move to the archive bucket as gzipped NDJSON parts, partitioned by workspace and UTC
 * day (cold-format.ts), so D1's size stays flat however long the retention. Readers prefer D1 and dedupe by id,
 * which is what makes a move safe without transactions across D1 and R2: a move writes the part, then its
 * manifests, then deletes exactly the rows it wrote in one D1 batch. A crash anywhere leaves the rows in D1
 * (still read from there) and the next run writes the same part again under the same name.
 */
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { BaseContext, Call, ServiceContext } from "../../core/context";
import { requestAudit, requestRefs, usageLog, workspaces } from "../../db/schema/index";
import {
  DAY_MS,
  type DayManifest,
  dayEndMs,
  dayPrefix,
  daySummary,
  decodeNdjson,
  encodeNdjson,
  fromRecord,
  gunzip,
  gzip,
  hotWindowDays,
  manifestKey,
  type PartEntry,
  partKey,
  type Stream,
  type StreamManifest,
  streamPrefix,
  toRecord,
  utcDay,
  uuidv7Floor,
  uuidv7Ms,
  withDay,
  withPart,
} from "./cold-format";

type AuditRow = typeof requestAudit.$inferSelect;
type UsageRow = typeof usageLog.$inferSelect;
export type RefPair = { ref_type: string; ref_value: string };
/** An audit row as the cold tier keeps it: the row with its refs (the refs table is an index; files have none). */
export type ColdAuditRow = AuditRow & { refs: RefPair[] };

const hotDays = hotWindowDays;

/** Rows per part: one D1 select, one R2 object of roughly 100-200 KB, one delete batch. */
const ROWS_PER_PART = 1000;
/**
 * Parts moved per cron invocation across all workspaces: 40,000 rows a minute. A request leaves one audit and
 * one usage row, so that is about 333 requests/s, above one organization at the spec's limit (200/s).
 */
const PARTS_PER_RUN = 40;
/** Parts opened by one cold retention pass (their body keys are read before deletion). */
const PURGE_PARTS_PER_RUN = 200;
/** What one list page may read from the cold tier before it answers with what it found. */
const PAGE_DAY_READS = 62;
const PAGE_PART_READS = 8;

const KINDS = usageLog.kind.enumValues;
const auditStream = (workspaceId: string): Stream => ({ table: "request_audit", workspaceId });
const usageStream = (workspaceId: string, kind: string): Stream => ({ table: "usage_log", workspaceId, kind });
const streamsOf = (workspaceId: string): Stream[] => [
  auditStream(workspaceId),
  ...KINDS.map((k) => usageStream(workspaceId, k)),
];

/**
 * The order each table is listed in: audit rows by id (UUIDv7, so by time), usage rows by (created_at, id).
 * created_at is always a 24-character ISO instant, so the joined string compares as the pair does.
 */
const auditKey = (r: { id: string }) => r.id;
export const usageOrderKey = (r: { createdAt: string; id: string }) => `${r.createdAt} ${r.id}`;

// ---------------------------------------------------------------------------------------------------------------
// R2 helpers

async function readJson<T>(bucket: R2Bucket, key: string): Promise<{ value: T; etag: string } | null> {
  const obj = await bucket.get(key);
  return obj ? { value: (await obj.json()) as T, etag: obj.etag } : null;
}

/**
 * Read, change, write back only if nobody wrote in between (R2 conditional put), retrying a few times: two
 * overlapping cron invocations must not lose each other's parts from a manifest.
 */
async function updateJson<T>(bucket: R2Bucket, key: string, init: () => T, change: (v: T) => T): Promise<T> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await readJson<T>(bucket, key);
    const next = change(current?.value ?? init());
    const onlyIf: R2Conditional = current ? { etagMatches: current.etag } : { etagDoesNotMatch: "*" };
    const put = await bucket.put(key, JSON.stringify(next), {
      httpMetadata: { contentType: "application/json" },
      onlyIf,
    });
    if (put) return next;
  }
  throw new Error(`cold tier manifest ${key} kept changing`);
}

async function readPart(bucket: R2Bucket, key: string): Promise<Record<string, unknown>[]> {
  const obj = await bucket.get(key);
  return obj ? decodeNdjson(await gunzip(obj.body)) : [];
}

async function deleteKeys(bucket: R2Bucket, keys: string[]): Promise<void> {
  // R2 deletes at most 1000 keys a call.
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

const readStream = (bucket: R2Bucket, s: Stream) => readJson<StreamManifest>(bucket, manifestKey(streamPrefix(s)));
const readDay = (bucket: R2Bucket, s: Stream, day: string) =>
  readJson<DayManifest>(bucket, manifestKey(dayPrefix(s, day)));

// ---------------------------------------------------------------------------------------------------------------
// Moving rows out of D1

/** A row on its way to the cold tier: its record, its order key and its partition day. */
interface Outgoing {
  id: string;
  key: string;
  day: string;
  record: Record<string, unknown>;
}

/** The workspace's oldest audit rows before `floor`, with their refs, in one D1 round trip. */
async function oldestAudit(ctx: BaseContext, workspaceId: string, floor: string): Promise<Outgoing[]> {
  const where = and(eq(requestAudit.workspaceId, workspaceId), lt(requestAudit.id, floor));
  const ids = ctx.db.select({ id: requestAudit.id }).from(requestAudit).where(where).orderBy(asc(requestAudit.id));
  const [rows, refs] = await ctx.db.batch([
    ctx.db.select().from(requestAudit).where(where).orderBy(asc(requestAudit.id)).limit(ROWS_PER_PART),
    ctx.db
      .select({ requestId: requestRefs.requestId, ref_type: requestRefs.refType, ref_value: requestRefs.refValue })
      .from(requestRefs)
      .where(inArray(requestRefs.requestId, ids.limit(ROWS_PER_PART)))
      .orderBy(asc(requestRefs.id)),
  ]);
  const byRequest = new Map<string, RefPair[]>();
  for (const r of refs) {
    const list = byRequest.get(r.requestId) ?? [];
    list.push({ ref_type: r.ref_type, ref_value: r.ref_value });
    byRequest.set(r.requestId, list);
  }
  return rows.map((row) => {
    const ms = uuidv7Ms(row.id);
    const day = Number.isFinite(ms) ? utcDay(ms) : row.createdAt.slice(0, 10);
    const record = { ...toRecord(requestAudit, row), refs: byRequest.get(row.id) ?? [] };
    return { id: row.id, key: auditKey(row), day, record };
  });
}

async function oldestUsage(ctx: BaseContext, s: Stream, cutoffIso: string): Promise<Outgoing[]> {
  const rows = await ctx.db
    .select()
    .from(usageLog)
    .where(
      and(
        eq(usageLog.workspaceId, s.workspaceId),
        eq(usageLog.kind, s.kind as UsageRow["kind"]),
        lt(usageLog.createdAt, cutoffIso),
      ),
    )
    .orderBy(asc(usageLog.createdAt), asc(usageLog.id))
    .limit(ROWS_PER_PART);
  return rows.map((row) => ({
    id: row.id,
    key: usageOrderKey(row),
    day: row.createdAt.slice(0, 10),
    record: toRecord(usageLog, row),
  }));
}

/** Writes one part and records it in its day and stream manifests. Returns the part's entry. */
async function writePart(bucket: R2Bucket, s: Stream, day: string, rows: Outgoing[]): Promise<PartEntry> {
  const first = rows[0]?.key ?? "";
  const last = rows.at(-1)?.key ?? "";
  const ids = rows.map((r) => r.id).sort();
  const text = encodeNdjson(rows.map((r) => r.record));
  const bytes = await gzip(text);
  const key = partKey(s, day, rows[0]?.id ?? "", rows.at(-1)?.id ?? "");
  await bucket.put(key, bytes, {
    httpMetadata: { contentType: "application/gzip" },
    customMetadata: { rows: String(rows.length), first, last },
  });
  const part: PartEntry = {
    key,
    rows: rows.length,
    first,
    last,
    min_id: ids[0] ?? "",
    max_id: ids.at(-1) ?? "",
    bytes: bytes.byteLength,
    ndjson_bytes: new TextEncoder().encode(text).byteLength,
  };
  let replaced: string[] = [];
  const emptyDay = (): DayManifest => ({
    schema_version: 1,
    format: "ndjson.gz",
    table: s.table,
    workspace_id: s.workspaceId,
    ...(s.kind === undefined ? {} : { kind: s.kind }),
    day,
    columns: Object.keys(rows[0]?.record ?? {}),
    parts: [],
  });
  const dayManifest = await updateJson(bucket, manifestKey(dayPrefix(s, day)), emptyDay, (m) => {
    const next = withPart(m, part);
    replaced = next.replaced;
    return next.manifest;
  });
  const emptyStream = (): StreamManifest => ({
    schema_version: 1,
    table: s.table,
    workspace_id: s.workspaceId,
    ...(s.kind === undefined ? {} : { kind: s.kind }),
    days: [],
  });
  await updateJson(bucket, manifestKey(streamPrefix(s)), emptyStream, (m) => withDay(m, daySummary(dayManifest)));
  await deleteKeys(bucket, replaced);
  return part;
}

/** Deletes exactly the rows a part holds, in one D1 batch (the refs go with their audit rows). */
async function deleteMoved(ctx: BaseContext, s: Stream, ids: string[]): Promise<void> {
  const list = sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  if (s.table === "usage_log") {
    await ctx.db.delete(usageLog).where(sql`${usageLog.id} IN ${list}`);
    return;
  }
  await ctx.db.batch([
    ctx.db
      .delete(requestRefs)
      .where(and(eq(requestRefs.workspaceId, s.workspaceId), sql`${requestRefs.requestId} IN ${list}`)),
    ctx.db.delete(requestAudit).where(sql`${requestAudit.id} IN ${list}`),
  ]);
}

/** What a move (or a pause between writing and deleting, in the tests) did. */
interface MoveBudget {
  parts: number;
  rows: number;
  /** Test hook: stop after writing a part and before deleting its rows, as a crash there would. */
  crashBeforeDelete?: boolean | undefined;
}

/** Moves one stream's rows older than the cutoff, one day-partition part at a time, within the budget. */
async function tierStream(ctx: BaseContext, s: Stream, cutoffMs: number, budget: MoveBudget): Promise<void> {
  while (budget.parts > 0) {
    const rows =
      s.table === "request_audit"
        ? await oldestAudit(ctx, s.workspaceId, uuidv7Floor(cutoffMs))
        : await oldestUsage(ctx, s, new Date(cutoffMs).toISOString());
    const day = rows[0]?.day;
    if (day === undefined) return;
    // A part never spans two days: take the leading run of the oldest day, the rest goes next time round.
    const end = rows.findIndex((r) => r.day !== day);
    const batch = end === -1 ? rows : rows.slice(0, end);
    await writePart(ctx.env.ARCHIVE, s, day, batch);
    budget.parts -= 1;
    if (budget.crashBeforeDelete) throw new Error("simulated crash after the R2 write");
    await deleteMoved(
      ctx,
      s,
      batch.map((r) => r.id),
    );
    budget.rows += batch.length;
    if (end === -1 && rows.length < ROWS_PER_PART) return;
  }
}

/**
 * The cron's tiering step: moves audit rows (with refs) and usage rows older than the hot window as of `asOfMs`
 * to the cold tier, oldest first, at most PARTS_PER_RUN parts per invocation; the next invocation continues.
 * Idempotent: a re-run finds nothing left to move, or re-moves rows a crash left in D1 under the same names.
 */
export async function tierAuditTrail({
  ctx,
  input,
}: Call<{ asOfMs: number; crashBeforeDelete?: boolean }, BaseContext>): Promise<{ parts: number; rows: number }> {
  const cutoffMs = input.asOfMs - hotDays(ctx.env.AUDIT_HOT_DAYS) * DAY_MS;
  const all = await ctx.db.select({ id: workspaces.id }).from(workspaces).orderBy(asc(workspaces.id));
  const budget: MoveBudget = { parts: PARTS_PER_RUN, rows: 0, crashBeforeDelete: input.crashBeforeDelete };
  for (const ws of all) for (const s of streamsOf(ws.id)) await tierStream(ctx, s, cutoffMs, budget);
  return { parts: PARTS_PER_RUN - budget.parts, rows: budget.rows };
}

// ---------------------------------------------------------------------------------------------------------------
// Retention in the cold tier

export interface ColdPurge {
  partitions: number;
  requests: number;
  usage: number;
}

/** Deletes one expired day partition: the request bodies its rows point at, its parts, then its manifest. */
async function purgeDay(bucket: R2Bucket, s: Stream, day: string): Promise<{ rows: number; parts: number }> {
  const m = await readDay(bucket, s, day);
  const parts = m?.value.parts ?? [];
  if (s.table === "request_audit") {
    const bodies: string[] = [];
    for (const p of parts)
      for (const rec of await readPart(bucket, p.key)) if (typeof rec.body_key === "string") bodies.push(rec.body_key);
    await deleteKeys(bucket, bodies);
  }
  await deleteKeys(
    bucket,
    parts.map((p) => p.key),
  );
  await bucket.delete(manifestKey(dayPrefix(s, day)));
  return { rows: parts.reduce((n, p) => n + p.rows, 0), parts: parts.length };
}

/**
 * Deletes whole day partitions that ended before the cutoff (the workspace's retention) in every stream of
 * the workspace, with the archived bodies of the audit rows in them. Bounded by PURGE_PARTS_PER_RUN; a
 * partition is dropped from its stream manifest only after its files are gone, so a crash is finished next run.
 */
export async function purgeColdTier({
  ctx,
  input,
}: Call<{ workspaceId: string; cutoffMs: number }, BaseContext>): Promise<ColdPurge> {
  const bucket = ctx.env.ARCHIVE;
  const out: ColdPurge = { partitions: 0, requests: 0, usage: 0 };
  let budget = PURGE_PARTS_PER_RUN;
  for (const s of streamsOf(input.workspaceId)) {
    const manifest = await readStream(bucket, s);
    const expired = (manifest?.value.days ?? []).filter((d) => dayEndMs(d.day) <= input.cutoffMs);
    const done = new Set<string>();
    for (const d of expired) {
      if (budget <= 0) break;
      const r = await purgeDay(bucket, s, d.day);
      budget -= r.parts;
      done.add(d.day);
      out.partitions += 1;
      if (s.table === "request_audit") out.requests += r.rows;
      else out.usage += r.rows;
    }
    if (done.size)
      await updateJson(
        bucket,
        manifestKey(streamPrefix(s)),
        () => ({ schema_version: 1, table: s.table, workspace_id: s.workspaceId, days: [] }) as StreamManifest,
        (m) => ({ ...m, days: m.days.filter((d) => !done.has(d.day)) }),
      );
    if (budget <= 0) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the cold tier

/** One day of slack for the cron's schedule: the hot window is never trimmed early, only late. */
const coldBefore = (ctx: BaseContext): number => ctx.deps.clock.now() - (hotDays(ctx.env.AUDIT_HOT_DAYS) - 1) * DAY_MS;

/** Whether a request id is old enough to have been moved: younger ids are answered from D1 alone. */
export function mayBeCold(ctx: BaseContext, id: string): boolean {
  const ms = uuidv7Ms(id);
  return Number.isFinite(ms) && ms < coldBefore(ctx);
}

/** Whether the workspace is old enough to have anything in the cold tier (saves an R2 read on young ones). */
export const hasColdTier = (ctx: ServiceContext): boolean => Date.parse(ctx.workspace.createdAt) < coldBefore(ctx);

/** The record with this id in the given days of a stream, reading only the parts whose id range holds it. */
async function findInDays(bucket: R2Bucket, s: Stream, days: string[], id: string) {
  for (const day of days) {
    const m = await readDay(bucket, s, day);
    for (const p of m?.value.parts ?? []) {
      if (id < p.min_id || id > p.max_id) continue;
      const rec = (await readPart(bucket, p.key)).find((r) => r.id === id);
      if (rec) return rec;
    }
  }
  return null;
}

const auditFromRecord = (rec: Record<string, unknown>): ColdAuditRow => ({
  ...fromRecord<AuditRow>(requestAudit, rec),
  refs: (rec.refs as RefPair[] | undefined) ?? [],
});

/** A moved audit row by id: the UUIDv7's time names the one day partition to open. */
export async function findColdAudit(ctx: BaseContext, workspaceId: string, id: string): Promise<ColdAuditRow | null> {
  const ms = uuidv7Ms(id);
  if (!Number.isFinite(ms)) return null;
  const rec = await findInDays(ctx.env.ARCHIVE, auditStream(workspaceId), [utcDay(ms)], id);
  return rec ? auditFromRecord(rec) : null;
}

/** A moved usage row by id. Usage is partitioned by created_at, which may fall a moment after the id's day. */
export async function findColdUsage(ctx: BaseContext, workspaceId: string, kind: string, id: string) {
  const ms = uuidv7Ms(id);
  if (!Number.isFinite(ms)) return null;
  const days = [utcDay(ms), utcDay(ms + DAY_MS)];
  const rec = await findInDays(ctx.env.ARCHIVE, usageStream(workspaceId, kind), days, id);
  return rec ? fromRecord<UsageRow>(usageLog, rec) : null;
}

interface ColdPage<R> {
  rows: R[];
  /** The read budget ran out before `need` rows were found: more may lie beyond `reached`. */
  exhausted: boolean;
  /** The order key the scan reached (every row between the cursor and it was examined). */
  reached?: string | undefined;
}

interface PageInput<R> {
  direction: "older" | "newer";
  /** Order key: rows strictly beyond it in the walk's direction. */
  cursor?: string | undefined;
  need: number;
  keep: (row: R) => boolean;
  /** Ids already answered from D1: a crash may leave a row in both tiers, and D1's copy wins. */
  exclude: Set<string>;
}

/**
 * Up to `need` rows of a stream beyond the cursor, nearest first, reading day manifests and parts in order and
 * stopping at the first part that completes the page, or when the read budget is spent.
 */
async function pageCold<R extends { id: string }>(
  bucket: R2Bucket,
  s: Stream,
  decode: (rec: Record<string, unknown>) => R,
  key: (row: R) => string,
  q: PageInput<R>,
): Promise<ColdPage<R>> {
  const older = q.direction === "older";
  const beyond = (k: string) => q.cursor === undefined || (older ? k < q.cursor : k > q.cursor);
  const reaches = (range: { first: string; last: string }) => beyond(older ? range.first : range.last);
  const manifest = await readStream(bucket, s);
  const days = (manifest?.value.days ?? []).filter(reaches);
  if (older) days.reverse();
  const out: R[] = [];
  let dayReads = 0;
  let partReads = 0;
  let reached: string | undefined;
  for (const d of days) {
    if (out.length >= q.need) break;
    if (dayReads++ >= PAGE_DAY_READS) return { rows: out, exhausted: true, reached };
    const parts = ((await readDay(bucket, s, d.day))?.value.parts ?? []).filter(reaches);
    if (older) parts.reverse();
    for (const p of parts) {
      if (out.length >= q.need) break;
      if (partReads++ >= PAGE_PART_READS) return { rows: out, exhausted: true, reached };
      for (const rec of await readPart(bucket, p.key)) {
        const row = decode(rec);
        if (!q.exclude.has(row.id) && beyond(key(row)) && q.keep(row)) out.push(row);
      }
      reached = older ? p.first : p.last;
    }
  }
  out.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0) * (older ? 1 : -1));
  return { rows: out.slice(0, q.need), exhausted: false };
}

/** Audit rows of a workspace older than the cursor (a request id), newest first. */
export function pageColdAudit(ctx: BaseContext, workspaceId: string, q: Omit<PageInput<ColdAuditRow>, "direction">) {
  return pageCold(ctx.env.ARCHIVE, auditStream(workspaceId), auditFromRecord, auditKey, { ...q, direction: "older" });
}

/** Usage rows of one kind beyond the cursor (a usageOrderKey), nearest first. */
export function pageColdUsage(ctx: BaseContext, workspaceId: string, kind: string, q: PageInput<UsageRow>) {
  return pageCold(
    ctx.env.ARCHIVE,
    usageStream(workspaceId, kind),
    (rec) => fromRecord<UsageRow>(usageLog, rec),
    usageOrderKey,
    q,
  );
}
