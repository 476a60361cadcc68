/**
 * Webhook endpoints, the durable outbox and delivery.
 *
 * Endpoint management verbs run inside a workspace request (ServiceContext). Delivery runs in the queue
 * consumer and the cron sweep, outside any request, so `deliver` and `dueDeliveries` take a BaseContext.
 *
 * Delivery is at-least-once and never concurrent: a worker first claims a delivery with one conditional UPDATE
 * (due, pending, not claimed), which sets a claim longer than the post timeout; it posts, then records the
 * attempt and the new state in one batch. A crash between post and record leaves the claim to expire, and the
 * cron sweep hands the delivery out again: a repeat post, never a loss.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lt, lte, notLike, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { BaseContext, Call, Deps, ServiceContext, WorkspaceContext } from "../../core/context";
import { chunkedInserts } from "../../db/bulk";
import type { Db } from "../../db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../db/schema/index";
import { isDelivered, nextAttemptAt } from "../../engines/webhooks/schedule";
import { newWebhookSecret, signedHeaders } from "../../engines/webhooks/sign";
import { matches } from "../../engines/webhooks/subscriptions";
import { urlProblem } from "../../engines/webhooks/url-policy";
import { isoAt } from "../../lib/clock";
import { isDevelopment } from "../../lib/environment";
import { notFound, validationFailed } from "../../lib/errors";
import { readLimited } from "../../lib/outbound";
import { sendAll } from "../../lib/queues";
import { keyringFrom, open, seal } from "../../lib/secret-box";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type Statements = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

const POST_TIMEOUT_MS = 10_000;
const CLAIM_MS = 60_000;
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const EXCERPT_CHARS = 500;

export const endpointToWire = (e: EndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: JSON.parse(e.events) as string[],
  mode: e.mode,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

/** Outside production, loopback and plain-http URLs are allowed so local receivers can be tested. */
function checkUrl(ctx: ServiceContext, url: string) {
  const problem = urlProblem({ url, mode: ctx.workspace.mode, development: isDevelopment(ctx.env) });
  if (problem) throw validationFailed([{ field: "url", message: problem }]);
}

// ---- endpoint management -----------------------------------------------------------------------------------

export interface EndpointInput {
  url: string;
  events?: string[] | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

/** An endpoint with its signing secret in plaintext: returned only by create and rotate, shown once. */
export type EndpointWithSecret = EndpointRow;

/**
 * A new endpoint of the workspace's mode, with a fresh secret. The secret is stored sealed (lib/secret-box);
 * the plaintext is returned for the caller to show once.
 */
export async function createEndpoint({ ctx, input }: Call<EndpointInput>): Promise<EndpointWithSecret> {
  checkUrl(ctx, input.url);
  const ring = await keyringFrom(ctx.env.WEBHOOK_SECRET_KEYS);
  const now = isoAt(ctx.deps.clock.now());
  const id = ctx.deps.ids.prefixed("we");
  const secret = newWebhookSecret();
  const row: EndpointRow = {
    id,
    workspaceId: ctx.workspace.id,
    url: input.url,
    description: input.description ?? null,
    events: JSON.stringify([...new Set(input.events ?? [])]),
    enabled: input.enabled ?? true,
    mode: ctx.workspace.mode,
    secret: await seal(secret, ring, id),
    previousSecret: null,
    previousSecretExpiresAt: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.insert(webhookEndpoints).values(row);
  return { ...row, secret };
}

/** 404 for an id of another workspace. */
export async function getEndpoint({ ctx, input }: Call<{ id: string }>): Promise<EndpointRow> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.workspaceId, ctx.workspace.id)))
    .limit(1);
  if (!row) throw notFound(`Webhook endpoint '${input.id}' not found`);
  return row;
}

export interface PageQuery {
  limit: number;
  starting_after?: string | undefined;
}

export async function listEndpoints({
  ctx,
  input,
}: Call<PageQuery>): Promise<{ rows: EndpointRow[]; hasMore: boolean }> {
  const where = [eq(webhookEndpoints.workspaceId, ctx.workspace.id)];
  if (input.starting_after) where.push(lt(webhookEndpoints.id, input.starting_after));
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(...where))
    .orderBy(desc(webhookEndpoints.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

/** Enabling an endpoint again clears the reason it was disabled. */
export async function updateEndpoint({
  ctx,
  input,
}: Call<{ id: string; patch: Partial<EndpointInput> }>): Promise<EndpointRow> {
  const current = await getEndpoint({ ctx, input: { id: input.id } });
  const { patch: p } = input;
  if (p.url !== undefined) checkUrl(ctx, p.url);
  const patch: Partial<EndpointRow> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (p.url !== undefined) patch.url = p.url;
  if (p.events !== undefined) patch.events = JSON.stringify([...new Set(p.events)]);
  if (p.description !== undefined) patch.description = p.description;
  if (p.enabled !== undefined) {
    patch.enabled = p.enabled;
    if (p.enabled) patch.disabledReason = null;
  }
  await ctx.db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, current.id));
  return getEndpoint({ ctx, input: { id: current.id } });
}

/** Deletes the endpoint; its pending deliveries are failed in the same batch so nothing posts to it again. */
export async function deleteEndpoint({ ctx, input }: Call<{ id: string }>): Promise<void> {
  const current = await getEndpoint({ ctx, input });
  const now = isoAt(ctx.deps.clock.now());
  await ctx.db.batch([
    ctx.db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, current.id), eq(webhookDeliveries.status, "pending"))),
    ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, current.id)),
  ]);
}

/** New secret now; the old one keeps signing beside it for 24 h (until `previousSecretExpiresAt`). */
export async function rotateSecret({
  ctx,
  input,
}: Call<{ id: string }>): Promise<{ endpoint: EndpointWithSecret; previousSecretExpiresAt: string }> {
  const current = await getEndpoint({ ctx, input });
  const ring = await keyringFrom(ctx.env.WEBHOOK_SECRET_KEYS);
  const nowMs = ctx.deps.clock.now();
  const previousSecretExpiresAt = isoAt(nowMs + ROTATION_OVERLAP_MS);
  const secret = newWebhookSecret();
  await ctx.db
    .update(webhookEndpoints)
    .set({
      // The old secret is re-sealed under the current key as it moves (it may have been stored under an older one).
      previousSecret: await seal(await open(current.secret, ring, current.id), ring, current.id),
      previousSecretExpiresAt,
      secret: await seal(secret, ring, current.id),
      updatedAt: isoAt(nowMs),
    })
    .where(eq(webhookEndpoints.id, current.id));
  const endpoint = await getEndpoint({ ctx, input });
  return { endpoint: { ...endpoint, secret }, previousSecretExpiresAt };
}

/**
 * Re-seals, under the current key, up to `limit` endpoints whose secrets are stored under an older key or
 * in plaintext (stored before encryption). Run by the cron, so a key rotation completes without downtime.
 */
export async function resealSecrets({ ctx, input }: Call<{ limit: number }, BaseContext>): Promise<number> {
  const ring = await keyringFrom(ctx.env.WEBHOOK_SECRET_KEYS);
  const current = `sealed:v1:${ring.currentId}:%`;
  const stale = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(
      or(
        notLike(webhookEndpoints.secret, current),
        and(isNotNull(webhookEndpoints.previousSecret), notLike(webhookEndpoints.previousSecret, current)),
      ),
    )
    .limit(input.limit);
  if (!stale.length) return 0;
  const updates = [];
  for (const e of stale) {
    const secret = await seal(await open(e.secret, ring, e.id), ring, e.id);
    const previous = e.previousSecret ? await seal(await open(e.previousSecret, ring, e.id), ring, e.id) : null;
    updates.push(
      ctx.db
        .update(webhookEndpoints)
        .set({ secret, previousSecret: previous })
        // Only if unchanged since read: a rotation in between keeps its own values.
        .where(and(eq(webhookEndpoints.id, e.id), eq(webhookEndpoints.secret, e.secret))),
    );
  }
  const [first, ...rest] = updates;
  if (first) await ctx.db.batch([first, ...rest]);
  return stale.length;
}

/** Puts a `webhook.test` event for this endpoint only through the outbox and posts it once, now (no retry). */
export async function sendTestEvent({ ctx, input }: Call<{ id: string }>): Promise<DeliveryWire> {
  const endpoint = await getEndpoint({ ctx, input });
  const out = await outboxStatements({
    ctx,
    input: {
      event: {
        type: "webhook.test",
        data: { webhook_id: endpoint.id, message: "This is a test event", request_id: ctx.requestId },
        onlyEndpointId: endpoint.id,
      },
    },
  });
  await ctx.db.batch(out.statements);
  const [deliveryId] = out.deliveryIds;
  if (!deliveryId) throw new Error(`test event for ${endpoint.id} produced no delivery`);
  await deliver({ ctx, input: { deliveryId, retry: false } });
  const [delivery] = (await deliveryHistory(ctx.db, endpoint.id, { limit: 1 })).deliveries;
  if (!delivery) throw new Error(`test delivery ${deliveryId} not found after its attempt`);
  return delivery;
}

/** Delivery history of one endpoint of the workspace (404 for another workspace's), newest first. */
export async function listEndpointDeliveries({
  ctx,
  input,
}: Call<PageQuery & { id: string }>): Promise<{ deliveries: DeliveryWire[]; hasMore: boolean }> {
  const endpoint = await getEndpoint({ ctx, input: { id: input.id } });
  return deliveryHistory(ctx.db, endpoint.id, input);
}

// ---- outbox ------------------------------------------------------------------------------------------------

/**
 * What writing to the outbox needs: the database, the clock and ids, and the workspace whose event it is.
 * A ServiceContext or a job's context qualifies.
 */
export interface OutboxContext {
  db: Db;
  deps: Deps;
  workspace: Pick<WorkspaceContext, "id" | "mode">;
}

export interface OutboxEvent {
  type: string;
  data: Record<string, unknown>;
  /** Only this endpoint (the test event); otherwise every subscribed, enabled endpoint of the workspace. */
  onlyEndpointId?: string;
}

/**
 * The workspace's enabled endpoints of its own mode: the candidates for every event. Exposed as a query so a
 * write path can read it in the same round trip as its other reads and hand the rows to outboxStatements.
 */
export const liveEndpointsQuery = (db: Db, ws: Pick<WorkspaceContext, "id" | "mode">) =>
  db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, ws.id),
        eq(webhookEndpoints.enabled, true),
        eq(webhookEndpoints.mode, ws.mode),
      ),
    );

async function eventTargets(ctx: OutboxContext, event: OutboxEvent, endpoints?: EndpointRow[]) {
  const { db, workspace } = ctx;
  if (event.onlyEndpointId)
    return db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, workspace.id), eq(webhookEndpoints.id, event.onlyEndpointId)));
  const candidates = endpoints ?? (await liveEndpointsQuery(db, workspace));
  return candidates.filter((e) => matches(JSON.parse(e.events) as string[], event.type));
}

/**
 * The statements that put an event and its deliveries into the outbox; the caller runs them in the same
 * `db.batch` as the change that caused the event, so either both happen or neither. `endpoints`: the rows of
 * liveEndpointsQuery when the caller already read them.
 */
export async function outboxStatements({
  ctx,
  input,
}: Call<{ event: OutboxEvent; endpoints?: EndpointRow[] | undefined }, OutboxContext>): Promise<{
  eventId: string;
  deliveryIds: string[];
  statements: Statements;
}> {
  const { db, deps, workspace } = ctx;
  const { event } = input;
  const nowMs = deps.clock.now();
  const now = isoAt(nowMs);
  const targets = await eventTargets(ctx, event, input.endpoints);
  const eventId = deps.ids.prefixed("evt");
  const deliveries = targets.map((e) => ({
    id: deps.ids.prefixed("whd"),
    workspaceId: workspace.id,
    eventId,
    endpointId: e.id,
    eventType: event.type,
    status: "pending" as const,
    attemptCount: 0,
    nextAttemptAt: nowMs,
    lockedUntil: null,
    lastStatus: null,
    createdAt: now,
    updatedAt: now,
  }));
  const data = JSON.stringify(event.data);
  const statements: Statements = [
    db
      .insert(webhookEvents)
      .values({ id: eventId, workspaceId: workspace.id, mode: workspace.mode, type: event.type, data, createdAt: now }),
    ...chunkedInserts(db, webhookDeliveries, deliveries),
  ];
  return { eventId, deliveryIds: deliveries.map((d) => d.id), statements };
}

export interface DeliveryMessage {
  delivery_id: string;
}

/** Hands deliveries to the queue (ids only); used right after a commit and by the cron sweep. */
export const enqueue = (queue: Queue, deliveryIds: string[]) =>
  sendAll<DeliveryMessage>(
    queue,
    deliveryIds.map((id) => ({ delivery_id: id })),
  );

// ---- delivery (jobs) ---------------------------------------------------------------------------------------

/** Due, unclaimed pending deliveries, oldest due first: what the cron sweep enqueues. */
export async function dueDeliveries({ ctx, input }: Call<{ limit?: number }, BaseContext>): Promise<string[]> {
  const nowMs = ctx.deps.clock.now();
  const rows = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, nowMs),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, nowMs)),
      ),
    )
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(input.limit ?? 500);
  return rows.map((r) => r.id);
}

type DeliveryStatus = "pending" | "delivered" | "failed";

export type DeliveryOutcome =
  | { kind: "skipped" }
  | {
      kind: "attempted";
      attempt: number;
      status: DeliveryStatus;
      httpStatus: number | null;
      error: string | null;
      durationMs: number;
      nextAttemptAt: number | null;
    };

export interface DeliverInput {
  deliveryId: string;
  /** false (the test event): a failed attempt is final. */
  retry?: boolean;
  /** The outbound boundary, injectable for tests. */
  fetcher?: typeof fetch;
}

/**
 * Claims and posts one delivery: claim → load its endpoint and event → sign and post → record.
 * Returns `skipped` when the delivery is not due, already claimed, or finished.
 */
export async function deliver({ ctx, input }: Call<DeliverInput, BaseContext>): Promise<DeliveryOutcome> {
  const { db, deps } = ctx;
  const claimAt = deps.clock.now();
  const delivery = await claim(db, input.deliveryId, claimAt);
  if (!delivery) return { kind: "skipped" };
  const target = await loadTarget(db, delivery, isDevelopment(ctx.env));
  if ("problem" in target) {
    const attempt = { httpStatus: null, error: target.problem, durationMs: 0, excerpt: null, at: claimAt };
    return record(db, delivery, { ...attempt, status: "failed", nextAttemptAt: null });
  }
  const { url, body, headers } = await signedPost(ctx.env, target, delivery, claimAt);
  const started = deps.clock.now();
  const posted = await post(input.fetcher ?? fetch, url, body, headers);
  const doneAt = deps.clock.now();
  const ok = posted.httpStatus !== null && isDelivered(posted.httpStatus);
  const gone = posted.httpStatus === 410;
  const next = ok || gone || input.retry === false ? null : nextAttemptAt(delivery.attemptCount, doneAt);
  const status = ok ? "delivered" : next === null ? "failed" : "pending";
  const durationMs = Math.max(0, doneAt - started);
  const attempt: AttemptRecord = { ...posted, status, nextAttemptAt: next, durationMs, at: started };
  return record(db, delivery, attempt, gone ? target.endpoint.id : undefined);
}

/** One conditional UPDATE: only a due, pending, unclaimed delivery is claimed, so no two workers post it. */
async function claim(db: Db, deliveryId: string, claimAt: number): Promise<DeliveryRow | undefined> {
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({
      lockedUntil: claimAt + CLAIM_MS,
      attemptCount: sql`${webhookDeliveries.attemptCount} + 1`,
      updatedAt: isoAt(claimAt),
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, claimAt),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, claimAt)),
      ),
    )
    .returning();
  return claimed;
}

type EventRow = typeof webhookEvents.$inferSelect;

/** The endpoint and event of a claimed delivery, or why it cannot be posted (a final failure). */
async function loadTarget(
  db: Db,
  delivery: DeliveryRow,
  development: boolean,
): Promise<{ endpoint: EndpointRow; event: EventRow } | { problem: string }> {
  const [[endpoint], [event]] = await db.batch([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).limit(1),
    db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.eventId)).limit(1),
  ]);
  if (!endpoint) return { problem: "endpoint deleted" };
  if (!event) return { problem: "event missing" };
  // A test is sent even to a disabled endpoint: checking a receiver before enabling it is its purpose.
  if (!endpoint.enabled && delivery.eventType !== "webhook.test") return { problem: "endpoint disabled" };
  // Checked again at every delivery: an endpoint saved under an older, looser policy is never posted to, and a
  // refused target is never contacted, so it leaves no response excerpt.
  const refused = urlProblem({ url: endpoint.url, mode: endpoint.mode, development });
  if (refused) return { problem: `refused by the URL policy: ${refused}` };
  return { endpoint, event };
}

/** Secrets that sign a post at `nowMs`: the current one, and the previous one during its overlap. */
async function signingSecrets(env: Env, e: EndpointRow, nowMs: number): Promise<string[]> {
  const ring = await keyringFrom(env.WEBHOOK_SECRET_KEYS);
  const out = [await open(e.secret, ring, e.id)];
  if (e.previousSecret && e.previousSecretExpiresAt && Date.parse(e.previousSecretExpiresAt) > nowMs)
    out.push(await open(e.previousSecret, ring, e.id));
  return out;
}

async function signedPost(
  env: Env,
  target: { endpoint: EndpointRow; event: EventRow },
  delivery: DeliveryRow,
  at: number,
) {
  const { endpoint, event } = target;
  // `id` is the delivery id (the spec's, for deduplicating retries); `event_id` names the event itself, the
  // same for every endpoint it went to.
  const body = JSON.stringify({
    id: delivery.id,
    event_id: event.id,
    type: event.type,
    created_at: event.createdAt,
    data: JSON.parse(event.data),
  });
  const headers = await signedHeaders(
    await signingSecrets(env, endpoint, at),
    delivery.id,
    Math.floor(at / 1000),
    body,
  );
  return { url: endpoint.url, body, headers };
}

interface Posted {
  httpStatus: number | null;
  error: string | null;
  excerpt: string | null;
}

/** One POST; a receiver's answer, a timeout or a network error, never a throw. Redirects are not followed. */
async function post(
  fetcher: typeof fetch,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<Posted> {
  try {
    const res = await fetcher(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "trade-compliance-webhooks/1" },
      body,
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      redirect: "manual",
    });
    // Bounded: at most 4 bytes per character of the excerpt are read; the rest is never downloaded.
    const excerpt = (await readLimited(res, EXCERPT_CHARS * 4).catch(() => "")).slice(0, EXCERPT_CHARS);
    return { httpStatus: res.status, error: null, excerpt };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const error = timedOut ? "timeout" : `network_error: ${String(err).slice(0, 200)}`;
    return { httpStatus: null, error, excerpt: null };
  }
}

interface AttemptRecord {
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
  at: number;
}

/** The attempt, the delivery's new state and (on 410) the endpoint's disabling, in one batch. */
async function record(
  db: Db,
  delivery: DeliveryRow,
  r: AttemptRecord,
  disableEndpointId?: string,
): Promise<DeliveryOutcome> {
  const statements: Statements = [
    db.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attempt: delivery.attemptCount,
      attemptedAt: isoAt(r.at),
      httpStatus: r.httpStatus,
      durationMs: r.durationMs,
      error: r.error,
      responseExcerpt: r.excerpt,
    }),
    db
      .update(webhookDeliveries)
      .set({
        status: r.status,
        nextAttemptAt: r.nextAttemptAt,
        lockedUntil: null,
        lastStatus: r.httpStatus,
        updatedAt: isoAt(r.at + r.durationMs),
      })
      .where(eq(webhookDeliveries.id, delivery.id)),
  ];
  if (disableEndpointId) {
    // 410 Gone: the receiver says the endpoint no longer exists. Stop sending to it.
    statements.push(
      db
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "receiver answered 410 Gone", updatedAt: isoAt(r.at) })
        .where(eq(webhookEndpoints.id, disableEndpointId)),
    );
  }
  await db.batch(statements);
  const { status, httpStatus, error, durationMs, nextAttemptAt } = r;
  return { kind: "attempted", attempt: delivery.attemptCount, status, httpStatus, error, durationMs, nextAttemptAt };
}

// ---- history -----------------------------------------------------------------------------------------------

type AttemptRow = typeof webhookAttempts.$inferSelect;

const attemptToWire = (a: AttemptRow) => ({
  attempt: a.attempt,
  attempted_at: a.attemptedAt,
  http_status: a.httpStatus,
  duration_ms: a.durationMs,
  error: a.error,
  response_excerpt: a.responseExcerpt,
});

const deliveryToWire = (d: DeliveryRow, attempts: AttemptRow[]) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempt_count: attempts.length,
  next_attempt_at: d.nextAttemptAt !== null && d.status === "pending" ? isoAt(d.nextAttemptAt) : null,
  created_at: d.createdAt,
  attempts: attempts.map(attemptToWire),
});

export type DeliveryWire = ReturnType<typeof deliveryToWire>;

/** Delivery history of one endpoint, newest first, with every attempt. */
async function deliveryHistory(
  db: Db,
  endpointId: string,
  q: PageQuery,
): Promise<{ deliveries: DeliveryWire[]; hasMore: boolean }> {
  const where = [eq(webhookDeliveries.endpointId, endpointId)];
  if (q.starting_after) where.push(lt(webhookDeliveries.id, q.starting_after));
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(...where))
    .orderBy(desc(webhookDeliveries.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const ids = page.map((d) => d.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(webhookAttempts.attempt)
    : [];
  const byDelivery = new Map<string, AttemptRow[]>(ids.map((id) => [id, []]));
  for (const a of attempts) byDelivery.get(a.deliveryId)?.push(a);
  return {
    hasMore: rows.length > q.limit,
    deliveries: page.map((d) => deliveryToWire(d, byDelivery.get(d.id) ?? [])),
  };
}
