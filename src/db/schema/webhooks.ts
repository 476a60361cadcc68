/**
 * Webhooks: endpoints, the durable outbox (events + one delivery per subscribed endpoint) and every attempt.
 * Events are written in the same D1 batch as the change that caused them; queue messages carry only
 * delivery ids, and the body is always rebuilt from the event row.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    /** JSON array of exact types or `category.*`; empty = every event. */
    events: text("events").notNull().default("[]"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** The workspace's mode when created; events reach only endpoints of their own mode. */
    mode: text("mode", { enum: ["live", "sandbox"] }).notNull(),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    disabledReason: text("disabled_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_ws_idx").on(t.workspaceId, t.id)],
);

export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    mode: text("mode", { enum: ["live", "sandbox"] }).notNull(),
    type: text("type").notNull(),
    /** JSON object: the envelope's `data`. */
    data: text("data").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_events_ws_idx").on(t.workspaceId, t.createdAt)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** ms since the epoch; null once delivered or failed. */
    nextAttemptAt: integer("next_attempt_at"),
    /** A claim: nobody else posts this delivery before this time (ms). Longer than the post timeout. */
    lockedUntil: integer("locked_until"),
    lastStatus: integer("last_status"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    attemptedAt: text("attempted_at").notNull(),
    httpStatus: integer("http_status"),
    durationMs: integer("duration_ms").notNull(),
    /** `timeout`, `network_error: ...`, or null when a response came back. */
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);
