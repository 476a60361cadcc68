/**
 * `Idempotency-Key` on POST, PUT, PATCH and DELETE (the IETF httpapi idempotency-key draft, with Stripe's
 * semantics), for the workspace API and the platform API:
 *
 * - The first request with a key takes it (a `running` row per workspace and key). Its write commits the key as
 *   `committed` in the same D1 batch (db/journal.ts), and its response (status, content type, location, body)
 *   is stored before it is returned, for 24 hours.
 * - A repeat with the same method, path and body gets that response again with `Idempotent-Replayed: true`,
 *   and nothing runs: no second row, event or webhook.
 * - The same key with a different request → 422 `idempotency_key_mismatch`; a repeat while the first still
 *   runs → 409 `idempotency_key_in_use` (Retry-After: 1).
 * - A request that changed nothing and was refused (4xx) or failed (5xx) releases its key, so the client can
 *   correct it and retry with the same key. A holder that died before committing anything loses the key after
 *   LOCK_SECONDS. One that died after committing but before its response was stored leaves the key
 *   `committed`: a repeat gets 409 `idempotency_outcome_unknown` naming the original request, whose audit row
 *   and body the archive serves.
 *
 * The key's rows are written on the raw binding, outside the request's journal: taking a key is not the write
 * the audit row must travel with.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { timed } from "../core/meter";
import { currentJournal } from "../db/journal";
import type { AppEnv } from "../env";
import { isoAt } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { MUTATING, readBodyLimited } from "./archive";

const IDEMPOTENCY_TTL_HOURS = 24;
/** How long a holder that has not answered keeps the key; a Worker request cannot run longer. */
const LOCK_SECONDS = 60;
const MAX_KEY_LENGTH = 255;
/** D1 stores values up to 2,000,000 bytes; a larger response is not kept for replay. */
const MAX_STORED_BODY = 1_900_000;
const REPLAYED_HEADERS = ["content-type", "location", "etag"];

/** The key as sent: a bare token, or an RFC 8941 string (the draft's form) whose quotes are removed. */
function parseKey(raw: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw);
  const key = quoted ? (quoted[1] ?? "").replace(/\\(.)/g, "$1") : raw;
  if (!key || key.length > MAX_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
    throw new ApiError(
      "bad_request",
      `Idempotency-Key must be 1-${MAX_KEY_LENGTH} printable ASCII characters (a UUID is a good choice)`,
    );
  }
  return key;
}

async function fingerprintOf(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const body = new Uint8Array(await readBodyLimited(c.req));
  const head = new TextEncoder().encode(`${c.req.method} ${url.pathname}${url.search}\n`);
  const all = new Uint8Array(head.byteLength + body.byteLength);
  all.set(head);
  all.set(body, head.byteLength);
  return sha256Hex(all);
}

interface KeyRow {
  fingerprint: string;
  state: "running" | "committed" | "done";
  request_id: string;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
}

/**
 * Takes the key, or takes it over when it expired, or when its holder died before committing anything (same
 * request only). Returns true when this request now holds it.
 */
async function take(db: D1Database, scope: string, key: string, fingerprint: string, requestId: string, now: number) {
  const row = await timed("d1", () =>
    db
      .prepare(
        `INSERT INTO idempotency_keys (scope, key, fingerprint, state, request_id, locked_until, created_at, expires_at)
       VALUES (?1, ?2, ?3, 'running', ?4, ?5, ?6, ?7)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running',
         request_id = excluded.request_id, locked_until = excluded.locked_until, created_at = excluded.created_at,
         expires_at = excluded.expires_at, response_status = NULL, response_headers = NULL, response_body = NULL
       WHERE idempotency_keys.expires_at <= excluded.created_at
          OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_until <= excluded.created_at
              AND idempotency_keys.fingerprint = excluded.fingerprint)
       RETURNING request_id`,
      )
      .bind(
        scope,
        key,
        fingerprint,
        requestId,
        isoAt(now + LOCK_SECONDS * 1000),
        isoAt(now),
        isoAt(now + IDEMPOTENCY_TTL_HOURS * 3600 * 1000),
      )
      .first<{ request_id: string }>(),
  );
  return row?.request_id === requestId;
}

function replay(row: KeyRow): Response {
  const headers = new Headers(JSON.parse(row.response_headers ?? "{}") as Record<string, string>);
  headers.set("Idempotent-Replayed", "true");
  return new Response(row.response_body, { status: row.response_status ?? 200, headers });
}

/** What a request that could not take the key gets: the stored response, or why not. */
async function answerHeld(db: D1Database, scope: string, key: string, fingerprint: string): Promise<Response> {
  const row = await timed("d1", () =>
    db
      .prepare(
        "SELECT fingerprint, state, request_id, response_status, response_headers, response_body FROM idempotency_keys WHERE scope = ? AND key = ?",
      )
      .bind(scope, key)
      .first<KeyRow>(),
  );
  if (!row) {
    // Released between our attempt and this read: the client may simply retry.
    throw new ApiError(
      "conflict",
      "The request holding this Idempotency-Key just finished; retry",
      {
        error: "idempotency_key_in_use",
      },
      { "Retry-After": "1" },
    );
  }
  if (row.fingerprint !== fingerprint) {
    throw new ApiError(
      "unprocessable",
      "This Idempotency-Key was used with a different request (method, path or body); use a new key for a new request",
      { error: "idempotency_key_mismatch" },
    );
  }
  if (row.state === "running") {
    throw new ApiError(
      "conflict",
      "A request with this Idempotency-Key is still being processed; retry after it completes",
      { error: "idempotency_key_in_use", original_request_id: row.request_id },
      { "Retry-After": "1" },
    );
  }
  if (row.state === "committed" || row.response_body === null) {
    throw new ApiError(
      "conflict",
      `The request with this Idempotency-Key (${row.request_id}) committed, but its response was not kept; read it at GET /api/requests/${row.request_id}`,
      { error: "idempotency_outcome_unknown", original_request_id: row.request_id },
    );
  }
  return replay(row);
}

async function store(db: D1Database, scope: string, key: string, requestId: string, res: Response) {
  const body = await res.clone().text();
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const v = res.headers.get(name);
    if (v) headers[name] = v;
  }
  const kept = new TextEncoder().encode(body).byteLength <= MAX_STORED_BODY;
  await timed("d1", () =>
    db
      .prepare(
        "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_headers = ?, response_body = ? WHERE scope = ? AND key = ? AND request_id = ?",
      )
      .bind(res.status, JSON.stringify(headers), kept ? body : null, scope, key, requestId)
      .run(),
  );
}

export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const raw = c.req.header("idempotency-key");
  if (raw === undefined || !MUTATING.has(c.req.method)) return next();
  const key = parseKey(raw.trim());
  const db = c.env.DB; // the raw binding: see the note at the top
  const scope = c.get("workspace")?.id ?? "platform";
  const requestId = c.get("requestId");
  const fingerprint = await fingerprintOf(c);
  if (!(await take(db, scope, key, fingerprint, requestId, c.get("deps").clock.now()))) {
    return answerHeld(db, scope, key, fingerprint);
  }
  // Committed with the request's first write, so a committed write always has its key.
  currentJournal()?.also.push((d1) =>
    d1
      .prepare("UPDATE idempotency_keys SET state = 'committed' WHERE scope = ? AND key = ? AND request_id = ?")
      .bind(scope, key, requestId),
  );
  try {
    await next();
  } catch (err) {
    await release(db, scope, key, requestId);
    throw err;
  }
  const committed = currentJournal()?.committed ?? false;
  try {
    if (c.res.status < 400 || committed) await store(db, scope, key, requestId, c.res);
    else await release(db, scope, key, requestId);
  } catch (err) {
    // The answer stands (what it reports happened). The key stays as it was: `committed` when the write
    // committed (a repeat is told so and where to read the outcome), `running` otherwise (taken over later).
    console.error(JSON.stringify({ msg: "idempotency key update failed", request_id: requestId, error: String(err) }));
  }
});

function release(db: D1Database, scope: string, key: string, requestId: string) {
  return timed("d1", () =>
    db
      .prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND request_id = ? AND state = 'running'")
      .bind(scope, key, requestId)
      .run(),
  );
}

/** Keys past their 24 hours, removed by the every-minute cron in bounded batches. */
export async function purgeExpiredKeys(db: D1Database, nowMs: number, limit = 1000): Promise<number> {
  const res = await db
    .prepare(
      "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)",
    )
    .bind(isoAt(nowMs), limit)
    .run();
  return res.meta.changes ?? 0;
}
