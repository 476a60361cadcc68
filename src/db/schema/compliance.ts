/**
 * Compliance checks of consignments: one row per pass, kept as the pass found it (lists, rules, tariffs and
 * the consignment may change afterwards; a check is the evidence of what was known when the holds were
 * decided). Each engine's result is one JSON document because it is only ever read whole, with its check.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const complianceChecks = sqliteTable(
  "compliance_checks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    consignmentId: text("consignment_id").notNull(),
    /** `release` (nothing to hold) or `hold` (at least one hold placed, or one would have been with holds off). */
    outcome: text("outcome", { enum: ["release", "hold"] }).notNull(),
    /** JSON: the policy the pass applied (holds on or off, the screening score that holds). */
    policy: text("policy").notNull(),
    /** JSON documents: each engine's result, with its internal run id and the dataset version it used. */
    screening: text("screening").notNull(),
    restrictions: text("restrictions").notNull(),
    classification: text("classification").notNull(),
    landedCost: text("landed_cost").notNull(),
    /** JSON array: `{hold_id, code, reason}` of the holds this pass placed. */
    holds: text("holds").notNull(),
    /** JSON array of strings: what an officer should look at that does not hold the consignment. */
    warnings: text("warnings").notNull(),
    /** How the pass started: `api` (POST …/compliance-check) or `flow` (the `compliance_check` action). */
    source: text("source").notNull(),
    requestId: text("request_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("compliance_checks_con_idx").on(t.consignmentId, t.id)],
);
