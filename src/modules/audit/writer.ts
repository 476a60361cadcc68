/**
 * Group commit for audit rows. Every request's row goes into an isolate-wide buffer; the first request of a
 * burst schedules one flush a moment later and hands that flush to its own waitUntil, so the isolate stays
 * alive until the rows are written. Later requests only add to the buffer: no request waits on a promise
 * that belongs to another request, and every buffered row is covered by the waitUntil of the request that
 * scheduled the flush. Under load, many rows share one D1 round trip and one transaction instead of one each.
 */
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { UsageLogInsert } from "../../core/context";
import { chunkedInserts } from "../../db/bulk";
import type { Db } from "../../db/client";
import { requestAudit, usageLog } from "../../db/schema/index";
import type { Ref } from "../../engines/refs/extract";
import { refInserts } from "./service";

type AuditInsert = typeof requestAudit.$inferInsert;

export interface Entry {
  row: AuditInsert;
  /** The request's usage-log row, when its handler left one (same batch, same durability). */
  usage?: UsageLogInsert | UsageLogInsert[] | undefined;
  /** Parsed lazily at flush time, off the response path. */
  refs: () => Promise<Ref[]>;
}

/**
 * How long a flush waits for company (var AUDIT_FLUSH_MS). 50 ms is invisible to callers (the rows are written
 * after their responses) and long enough that a steady stream of requests shares one D1 write transaction per
 * window instead of paying one each: D1 takes writes one at a time per database, and under `wrangler dev` every
 * flush also runs on the same thread as the next request. The window only delays when a row becomes readable
 * through the request archive.
 */
export const DEFAULT_FLUSH_MS = 50;

/** The window from the var: a whole number of milliseconds 0-1000, else the default. */
export function flushWindow(raw: string | undefined): number {
  const n = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 1000 ? n : DEFAULT_FLUSH_MS;
}

let buffer: Entry[] = [];
let scheduled = false;

export function queueAudit(
  db: Db,
  entry: Entry,
  waitUntil: (p: Promise<unknown>) => void,
  windowMs = DEFAULT_FLUSH_MS,
): void {
  buffer.push(entry);
  if (scheduled) return; // the flush already scheduled by an earlier request takes this row too
  scheduled = true;
  waitUntil(flushSoon(db, windowMs));
}

async function flushSoon(db: Db, windowMs: number): Promise<void> {
  await new Promise((r) => setTimeout(r, windowMs));
  const entries = buffer;
  buffer = [];
  scheduled = false;
  try {
    await writeEntries(db, entries);
  } catch (err) {
    // The responses are already on their way; the failure goes to the logs (never bodies or headers).
    console.error(
      JSON.stringify({ msg: "audit write failed", request_ids: entries.map((e) => e.row.id), error: String(err) }),
    );
  }
}

/** The isolate's rows not yet flushed, for the archive's read path (a row is readable as soon as it exists). */
export function pendingAudit(id: string): Entry | undefined {
  return buffer.find((e) => e.row.id === id);
}

/**
 * A row may already be in D1: written with the request's first write (db/journal.ts) before its final status
 * was known. The later write replaces what only the end of the request knows.
 */
const FINAL_FIELDS = {
  httpStatus: sql`excluded.http_status`,
  outcome: sql`excluded.outcome`,
  durationMs: sql`excluded.duration_ms`,
  errorSummary: sql`excluded.error_summary`,
  hasBody: sql`excluded.has_body`,
  bodyKey: sql`excluded.body_key`,
  bodyContentType: sql`excluded.body_content_type`,
  bodySize: sql`excluded.body_size`,
};

/** The statements for some entries: audit rows (inserted or corrected), usage rows, refs. */
export async function entryStatements(db: Db, entries: Entry[]): Promise<BatchItem<"sqlite">[]> {
  const auditRows = entries.map((e) => e.row);
  const usageRows = entries.flatMap((e) => (e.usage === undefined ? [] : Array.isArray(e.usage) ? e.usage : [e.usage]));
  const statements: BatchItem<"sqlite">[] = [
    ...chunkedInserts(db, requestAudit, auditRows).map((q) =>
      q.onConflictDoUpdate({ target: requestAudit.id, set: FINAL_FIELDS }),
    ),
    ...chunkedInserts(db, usageLog, usageRows),
  ];
  for (const e of entries) {
    const refs = await e.refs();
    if (refs.length && e.row.workspaceId)
      statements.push(...refInserts(db, e.row.workspaceId, e.row.id, refs, e.row.createdAt));
  }
  return statements;
}

export async function writeEntries(db: Db, entries: Entry[]): Promise<void> {
  const [first, ...rest] = await entryStatements(db, entries);
  if (first) await db.batch([first, ...rest]);
}
