/**
 * Usage log: one row per engine call (restrict, classify, calculate, screen), keyed by the request id so it
 * joins the audit trail. Summary columns serve the history listings; `detail` keeps what the engine saw and
 * answered (for screening: inputs, lists and versions, matches) as compliance evidence.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const usageLog = sqliteTable(
  "usage_log",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    kind: text("kind", { enum: ["restrict", "classify", "calculate", "screen"] }).notNull(),
    customerId: integer("customer_id"),
    actor: text("actor"),
    senderCountryCode: text("sender_country_code"),
    receiverCountryCode: text("receiver_country_code"),
    itemCount: integer("item_count").notNull().default(0),
    matchCount: integer("match_count").notNull().default(0),
    durationMs: integer("duration_ms").notNull().default(0),
    /** JSON object; per kind (documented with each module). */
    detail: text("detail").notNull().default("{}"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("usage_log_ws_kind_created_idx").on(t.workspaceId, t.kind, t.createdAt, t.id)],
);
