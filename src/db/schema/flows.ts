/**
 * Automation flows and what they leave on consignments: holds, generated documents and pre-alerts.
 * A flow run is written in the same batch as the consignment that triggered it (status `pending`), so a
 * committed consignment always has its background work on record; the queue consumer and the cron sweep
 * carry it out. Its id is a UUIDv7: the run is also recorded in the request archive (source `flow`).
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const flows = sqliteTable(
  "flows",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull(),
    name: text("name").notNull(),
    trigger: text("trigger").notNull(),
    /** When set, only consignments with this external_code trigger the flow. */
    externalCode: text("external_code"),
    /** JSON array of actions (src/modules/flows/actions.ts). */
    actions: text("actions").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("flows_ws_idx").on(t.workspaceId, t.trigger, t.id)],
);

export const flowRuns = sqliteTable(
  "flow_runs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    flowId: integer("flow_id").notNull(),
    flowName: text("flow_name").notNull(),
    consignmentId: text("consignment_id").notNull(),
    /** JSON: the background actions as they were when the run was created (later edits do not change it). */
    actions: text("actions").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lockedUntil: integer("locked_until"),
    /** JSON: one result per action once the run finished. */
    results: text("results"),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("flow_runs_due_idx").on(t.status, t.nextAttemptAt), index("flow_runs_con_idx").on(t.consignmentId)],
);

export const consignmentHolds = sqliteTable(
  "consignment_holds",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    consignmentId: text("consignment_id").notNull(),
    code: text("code"),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["active", "released"] }).notNull(),
    /** `flow` or `api`; flowId names the flow that placed it. */
    source: text("source").notNull(),
    flowId: integer("flow_id"),
    placedAt: text("placed_at").notNull(),
    releasedAt: text("released_at"),
    releaseReason: text("release_reason"),
  },
  (t) => [index("consignment_holds_con_idx").on(t.consignmentId, t.status)],
);

export const consignmentDocuments = sqliteTable(
  "consignment_documents",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    consignmentId: text("consignment_id").notNull(),
    type: text("type").notNull(),
    /** R2 key in the ARCHIVE bucket. */
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    /** JSON: what the document says in brief (e.g. invoice number and totals). */
    meta: text("meta").notNull().default("{}"),
    flowId: integer("flow_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("consignment_documents_con_idx").on(t.consignmentId, t.id)],
);

export const consignmentPreAlerts = sqliteTable(
  "consignment_pre_alerts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    consignmentId: text("consignment_id").notNull(),
    recipient: text("recipient").notNull(),
    channel: text("channel").notNull(),
    /** The webhook event that carries it to subscribed endpoints. */
    eventId: text("event_id"),
    /** JSON: what the pre-alert says (consignment summary at the time it was sent). */
    payload: text("payload").notNull(),
    flowId: integer("flow_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("consignment_pre_alerts_con_idx").on(t.consignmentId, t.id)],
);
