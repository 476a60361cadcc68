/**
 * Webhook endpoints, the durable outbox and delivery.
 *
 * Delivery is at-least-once and never concurrent: a worker first claims a delivery with one conditional UPDATE
 * (due, pending, not claimed), which sets a claim longer than the post timeout; it posts, then records the
 * attempt and the new state in one batch. A crash between post and record leaves the claim to expire, and the
 * cron sweep hands the delivery out again: a repeat post, never a loss.
 */
import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../db/schema/index";
import { isDelivered, MAX_ATTEMPTS, nextAttemptAt } from "../../engines/webhooks/schedule";
import { newWebhookSecret, signedHeaders } from "../../engines/webhooks/sign";
import { matches } from "../../engines/webhooks/subscriptions";
import { urlProblem } from "../../engines/webhooks/url-policy";
import type { Deps, WorkspaceContext } from "../../core/context";
import { isoAt } from "../../lib/clock";
import { notFound, validationFailed } from "../../lib/errors";
import { sendAll } from "../../lib/queues";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const POST_TIMEOUT_MS = 10_000;
export const CLAIM_MS = 60_000;
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const EXCERPT_CHARS = 500;

export interface Ctx {
  db: Db;
  deps: Deps;
}

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

function checkUrl(url: string, ws: WorkspaceContext, development: boolean) {
  const problem = urlProblem({ url, mode: ws.mode, development });
  if (problem) throw validationFailed([{ field: "url", message: problem }]);
}

export interface EndpointInput {
  url: string;
  events?: string[] | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

export async function createEndpoint(
  { db, deps }: Ctx,
  ws: WorkspaceContext,
  input: EndpointInput,
  development: boolean,
) {
  checkUrl(input.url, ws, development);
  const now = isoAt(deps.clock.now());
  const row: EndpointRow = {
    id: deps.ids.prefixed("we"),
    workspaceId: ws.id,
    url: input.url,
    description: input.description ?? null,
    events: JSON.stringify([...new Set(input.events ?? [])]),
    enabled: input.enabled ?? true,
    mode: ws.mode,
    secret: newWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.insert(webhookEndpoints).values(row);
  return row;
}

export async function getEndpoint({ db }: Ctx, workspaceId: string, id: string): Promise<EndpointRow> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspaceId)))
    .limit(1);
  if (!rows[0]) throw notFound(`Webhook endpoint '${id}' not found`);
  return rows[0];
}

export async function listEndpoints(
  { db }: Ctx,
  workspaceId: string,
  q: { limit: number; starting_after?: string | undefined },
) {
  const where = [eq(webhookEndpoints.workspaceId, workspaceId)];
  if (q.starting_after) where.push(lt(webhookEndpoints.id, q.starting_after));
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(...where))
    .orderBy(desc(webhookEndpoints.id))
    .limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export async function updateEndpoint(
  ctx: Ctx,
  ws: WorkspaceContext,
  id: string,
  input: Partial<EndpointInput>,
  development: boolean,
) {
  const current = await getEndpoint(ctx, ws.id, id);
  if (input.url !== undefined) checkUrl(input.url, ws, development);
  const patch: Partial<EndpointRow> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (input.url !== undefined) patch.url = input.url;
  if (input.events !== undefined) patch.events = JSON.stringify([...new Set(input.events)]);
  if (input.description !== undefined) patch.description = input.description;
  if (input.enabled !== undefined) {
    patch.enabled = input.enabled;
    if (input.enabled) patch.disabledReason = null;
  }
  await ctx.db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, current.id));
  return getEndpoint(ctx, ws.id, id);
}

/** Deletes the endpoint; its pending deliveries are failed in the same batch so nothing posts to it again. */
export async function deleteEndpoint(ctx: Ctx, workspaceId: string, id: string) {
  const current = await getEndpoint(ctx, workspaceId, id);
  const nowMs = ctx.deps.clock.now();
  await ctx.db.batch([
    ctx.db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: isoAt(nowMs) })
      .where(and(eq(webhookDeliveries.endpointId, current.id), eq(webhookDeliveries.status, "pending"))),
    ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, current.id)),
  ]);
}

/** New secret now; the old one keeps signing beside it for 24 h. */
export async function rotateSecret(ctx: Ctx, workspaceId: string, id: string) {
  const current = await getEndpoint(ctx, workspaceId, id);
  const nowMs = ctx.deps.clock.now();
  const expires = isoAt(nowMs + ROTATION_OVERLAP_MS);
  await ctx.db
    .update(webhookEndpoints)
    .set({
      previousSecret: current.secret,
      previousSecretExpiresAt: expires,
      secret: newWebhookSecret(),
      updatedAt: isoAt(nowMs),
    })
    .where(eq(webhookEndpoints.id, current.id));
  return getEndpoint(ctx, workspaceId, id);
}

/** Secrets that sign a post at `nowMs`: the current one, and the previous one during its overlap. */
export function signingSecrets(e: EndpointRow, nowMs: number): string[] {
  const out = [e.secret];
  if (e.previousSecret && e.previousSecretExpiresAt && Date.parse(e.previousSecretExpiresAt) > nowMs)
    out.push(e.previousSecret);
  return out;
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
export type { EndpointRow };

/**
 * The statements that put an event and its deliveries into the outbox; the caller runs them in the same
 * `db.batch` as the change that caused the event, so either both happen or neither.
 */
export async function outboxStatements(
  ctx: Ctx,
  ws: Pick<WorkspaceContext, "id" | "mode">,
  event: OutboxEvent,
  preloaded?: EndpointRow[],
) {
  const { db, deps } = ctx;
  const nowMs = deps.clock.now();
  const now = isoAt(nowMs);
  const endpoints = event.onlyEndpointId
    ? await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.workspaceId, ws.id), eq(webhookEndpoints.id, event.onlyEndpointId)))
    : (preloaded ?? (await liveEndpointsQuery(db, ws)));
  const targets = event.onlyEndpointId
    ? endpoints
    : endpoints.filter((e) => matches(JSON.parse(e.events) as string[], event.type));
  const eventId = deps.ids.prefixed("evt");
  const deliveries = targets.map((e) => ({
    id: deps.ids.prefixed("whd"),
    workspaceId: ws.id,
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
  const statements = [
    db
      .insert(webhookEvents)
      .values({
        id: eventId,
        workspaceId: ws.id,
        mode: ws.mode,
        type: event.type,
        data: JSON.stringify(event.data),
        createdAt: now,
      }),
  ];
  // 12 columns a row: stay under D1's 100 bound parameters per statement.
  for (let i = 0; i < deliveries.length; i += 8)
    statements.push(db.insert(webhookDeliveries).values(deliveries.slice(i, i + 8)) as never);
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

/** Due, unclaimed pending deliveries, oldest due first: what the cron sweep enqueues. */
export async function dueDeliveries({ db, deps }: Ctx, limit = 500): Promise<string[]> {
  const nowMs = deps.clock.now();
  const rows = await db
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
    .limit(limit);
  return rows.map((r) => r.id);
}

export type DeliveryOutcome =
  | { kind: "skipped" }
  | {
      kind: "attempted";
      attempt: number;
      status: "pending" | "delivered" | "failed";
      httpStatus: number | null;
      error: string | null;
      durationMs: number;
      nextAttemptAt: number | null;
    };

/**
 * Claims and posts one delivery. `retry: false` (the test event) makes a failed attempt final.
 * Returns `skipped` when the delivery is not due, already claimed, or finished.
 */
export async function deliver(
  ctx: Ctx,
  deliveryId: string,
  opts: { retry?: boolean; fetcher?: typeof fetch } = {},
): Promise<DeliveryOutcome> {
  const { db, deps } = ctx;
  const claimAt = deps.clock.now();
  const claimed = await db
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
  const delivery = claimed[0];
  if (!delivery) return { kind: "skipped" };

  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, delivery.endpointId))
    .limit(1);
  const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.eventId)).limit(1);
  if (!endpoint || !event || (!endpoint.enabled && delivery.eventType !== "webhook.test")) {
    const reason = !endpoint ? "endpoint deleted" : !event ? "event missing" : "endpoint disabled";
    await finish(db, delivery, {
      status: "failed",
      nextAttemptAt: null,
      httpStatus: null,
      error: reason,
      durationMs: 0,
      excerpt: null,
      at: claimAt,
    });
    return {
      kind: "attempted",
      attempt: delivery.attemptCount,
      status: "failed",
      httpStatus: null,
      error: reason,
      durationMs: 0,
      nextAttemptAt: null,
    };
  }

  const body = JSON.stringify({
    id: delivery.id,
    type: event.type,
    created_at: event.createdAt,
    data: JSON.parse(event.data),
  });
  const headers = await signedHeaders(signingSecrets(endpoint, claimAt), delivery.id, Math.floor(claimAt / 1000), body);
  const started = deps.clock.now();
  let httpStatus: number | null = null;
  let error: string | null = null;
  let excerpt: string | null = null;
  try {
    const res = await (opts.fetcher ?? fetch)(endpoint.url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "trade-compliance-webhooks/1" },
      body,
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      redirect: "manual",
    });
    httpStatus = res.status;
    excerpt = (await res.text().catch(() => "")).slice(0, EXCERPT_CHARS);
  } catch (err) {
    error =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
        ? "timeout"
        : `network_error: ${String(err).slice(0, 200)}`;
  }
  const doneAt = deps.clock.now();
  const durationMs = Math.max(0, doneAt - started);
  const ok = httpStatus !== null && isDelivered(httpStatus);
  const gone = httpStatus === 410;
  const next = ok || gone || opts.retry === false ? null : nextAttemptAt(delivery.attemptCount, doneAt);
  const status = ok ? "delivered" : next === null ? "failed" : "pending";
  await finish(
    db,
    delivery,
    { status, nextAttemptAt: next, httpStatus, error, durationMs, excerpt, at: started },
    gone ? endpoint.id : undefined,
  );
  return {
    kind: "attempted",
    attempt: delivery.attemptCount,
    status,
    httpStatus,
    error,
    durationMs,
    nextAttemptAt: next,
  };
}

async function finish(
  db: Db,
  delivery: DeliveryRow,
  r: {
    status: "pending" | "delivered" | "failed";
    nextAttemptAt: number | null;
    httpStatus: number | null;
    error: string | null;
    durationMs: number;
    excerpt: string | null;
    at: number;
  },
  disableEndpointId?: string,
) {
  const statements = [
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
        .where(eq(webhookEndpoints.id, disableEndpointId)) as never,
    );
  }
  const [first, ...rest] = statements;
  await db.batch([first!, ...rest]);
}

/** Delivery history of one endpoint, newest first, with every attempt. */
export async function listDeliveries(
  { db }: Ctx,
  endpointId: string,
  q: { limit: number; starting_after?: string | undefined },
) {
  const where = [eq(webhookDeliveries.endpointId, endpointId)];
  if (q.starting_after) where.push(lt(webhookDeliveries.id, q.starting_after));
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(...where))
    .orderBy(desc(webhookDeliveries.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const attempts = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            page.map((d) => d.id),
          ),
        )
        .orderBy(webhookAttempts.attempt)
    : [];
  return {
    hasMore: rows.length > q.limit,
    deliveries: page.map((d) => ({
      id: d.id,
      event_id: d.eventId,
      event_type: d.eventType,
      status: d.status,
      attempt_count: attempts.filter((a) => a.deliveryId === d.id).length,
      next_attempt_at: d.nextAttemptAt !== null && d.status === "pending" ? isoAt(d.nextAttemptAt) : null,
      created_at: d.createdAt,
      attempts: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({
          attempt: a.attempt,
          attempted_at: a.attemptedAt,
          http_status: a.httpStatus,
          duration_ms: a.durationMs,
          error: a.error,
          response_excerpt: a.responseExcerpt,
        })),
    })),
  };
}

export const MAX_DELIVERY_ATTEMPTS = MAX_ATTEMPTS;
