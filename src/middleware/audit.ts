/**
 * Every request on the API surfaces gets an audit row, including 401/403/404/429 and 5xx; the health check and
 * the API reference pages are not API requests and are not audited.
 *
 * When the row is written depends on what the client is told:
 * - A mutating request (POST, PUT, PATCH, DELETE) that is acknowledged (a status below 400) has its row in D1
 *   before the response leaves. When the handler writes, the row commits in the same D1 batch as the handler's
 *   first write (db/journal.ts), with the route's success status; the final status and duration follow after
 *   the response. When the handler writes nothing (the compute POSTs), the row is written as soon as the
 *   handler is done, beside the wait for the body's archive put (middleware/archive.ts), so it costs no extra
 *   round trip on the critical path when the put is the longer of the two.
 * - Everything else (reads, refusals) is group-committed after the response (modules/audit/writer), adding no
 *   latency; until its flush the isolate serves the row from its buffer.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { UsageLogInsert } from "../core/context";
import { createDb } from "../db/client";
import { type WriteJournal, withJournal } from "../db/journal";
import { extractRefs } from "../engines/refs/extract";
import type { AppEnv } from "../env";
import { onError } from "../http/errors";
import { isoAt } from "../lib/clock";
import { ApiError } from "../lib/errors";
import { outcomeOf } from "../modules/audit/service";
import { type Entry, entryStatements, flushWindow, queueAudit, writeEntries } from "../modules/audit/writer";
import { MUTATING } from "./archive";

const NOT_AUDITED = new Set(["/health", "/openapi.json", "/docs"]);

/** The status a route answers on success (from its documented responses), for the row written at commit. */
export type SuccessStatus = (method: string, route: string) => number | undefined;

function auditRow(c: Context<AppEnv>, status: number) {
  const matched = routePath(c, -1);
  const archived = c.get("archived");
  const auth = c.get("auth");
  return {
    id: c.get("requestId"),
    workspaceId: c.get("workspace")?.id ?? null,
    surface: c.get("surface") ?? "public",
    // An unmatched request has no route pattern; its path stands in.
    route: matched && matched !== "*" && matched !== "/*" ? matched : c.req.path,
    path: c.req.path,
    method: c.req.method,
    source: "http" as const,
    actor: auth?.clientId ?? (c.get("platformAdmin") ? "platform-admin" : null),
    customerId: auth?.customerId ?? null,
    httpStatus: status,
    outcome: outcomeOf(status),
    durationMs: Math.max(0, Math.round(c.get("deps").clock.now() - c.get("startedAt"))),
    hasBody: Boolean(archived),
    bodyKey: archived?.key ?? null,
    bodyContentType: archived?.contentType ?? null,
    bodySize: archived?.size ?? null,
    errorSummary: status >= 400 ? (c.get("errorSummary") ?? `HTTP ${status}`).slice(0, 500) : null,
    createdAt: isoAt(c.get("startedAt")),
  };
}

/**
 * The request's row with what belongs to it once: its refs (from the archived body) and its engine-call log
 * row. The body is still cached on the request from the archive step, so reading it resolves at once.
 */
async function fullEntry(
  c: Context<AppEnv>,
  status: number,
  usage: UsageLogInsert | UsageLogInsert[] | undefined,
): Promise<Entry> {
  const raw = c.get("archived") && c.get("workspace") ? await c.req.arrayBuffer() : null;
  return { row: auditRow(c, status), refs: async () => (raw ? refsOf(raw) : []), usage };
}

function refsOf(raw: ArrayBuffer) {
  try {
    return extractRefs(JSON.parse(new TextDecoder().decode(raw)));
  } catch {
    return []; // not JSON (it was refused or failed validation): nothing to extract
  }
}

/** Hands the entry to the group commit (through the request's waitUntil), or writes it when there is none. */
async function queueEntry(c: Context<AppEnv>, entry: Entry): Promise<void> {
  const db = createDb(c.env.DB);
  let ctx: { waitUntil(p: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined; // no execution context: plain app.request in unit tests
  }
  if (ctx) queueAudit(db, entry, (p) => ctx.waitUntil(p), flushWindow(c.env.AUDIT_FLUSH_MS));
  else await writeEntries(db, [entry]);
}

const unrecorded = (c: Context<AppEnv>) =>
  onError(new ApiError("unavailable", "The request could not be recorded; retry later"), c);

export const audit = (successStatus: SuccessStatus) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (NOT_AUDITED.has(c.req.path)) return next();
    if (!MUTATING.has(c.req.method)) {
      await next();
      return queueEntry(c, await fullEntry(c, c.res.status, c.get("ctx")?.usage));
    }

    const db = createDb(c.env.DB);
    // What is already durable: the status of the row in D1, and whether its refs and usage row went with it.
    let durable: { status: number; usage: boolean; final: boolean } | undefined;
    // What the journal put in the batch of the first write; durable only if that batch committed.
    let provisional: { status: number; usage: boolean; final: boolean } | undefined;
    const journal: WriteJournal = {
      committed: false,
      closed: false,
      also: [],
      companions: async (d1) => {
        const status = successStatus(c.req.method, routePath(c, -1)) ?? 200;
        const usage = c.get("ctx")?.usage;
        const statements = await entryStatements(db, [await fullEntry(c, status, usage)]);
        provisional = { status, usage: Boolean(usage), final: false };
        const rows = statements.map((q) => {
          const { sql, params } = (q as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
          return d1.prepare(sql).bind(...params);
        });
        return [...rows, ...journal.also.map((f) => f(d1))];
      },
    };

    // An acknowledged request whose handler wrote nothing: its row is written now, before the response.
    let written: Promise<boolean> | undefined;
    const writeNow = () => {
      journal.closed = true;
      if (journal.committed || c.res.status >= 400) return Promise.resolve(true);
      written ??= (async () => {
        const status = c.res.status;
        const usage = c.get("ctx")?.usage;
        try {
          await writeEntries(db, [await fullEntry(c, status, usage)]);
          durable = { status, usage: Boolean(usage), final: true };
          return true;
        } catch (err) {
          console.error(
            JSON.stringify({ msg: "audit write failed", request_id: c.get("requestId"), error: String(err) }),
          );
          return false;
        }
      })();
      return written;
    };
    c.set("auditNow", async () => {
      await writeNow();
    });

    await withJournal(journal, () => next());
    journal.closed = true;
    // A write started in the background before the response was decided may carry the row: wait for it.
    await journal.inflight?.catch(() => undefined);
    if (journal.committed) durable = provisional;
    if (!(await writeNow())) {
      // Without its row the answer could not be shown as evidence: refuse it (nothing was committed).
      c.res = await unrecorded(c);
      return queueEntry(c, await fullEntry(c, c.res.status, undefined));
    }
    const status = c.res.status;
    if (!durable) return queueEntry(c, await fullEntry(c, status, c.get("ctx")?.usage));
    if (durable.final && durable.status === status) return;
    // The row exists; only what the end of the request knows is left to correct (status, duration, error).
    const usage = durable.usage ? undefined : c.get("ctx")?.usage;
    const correction: Entry = { row: auditRow(c, status), refs: async () => [], usage };
    if (durable.status === status) return queueEntry(c, correction);
    // A different status than the one recorded (an archive failure turned into 503, an error after the commit):
    // corrected before the response, so the row never shows a status the client did not get.
    await writeEntries(db, [correction]);
  });
