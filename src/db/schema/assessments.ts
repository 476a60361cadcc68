/**
 * Duty and tax assessments of consignments: one row per run, kept as the run computed it (the consignment
 * and the reference data may change afterwards; an assessment is evidence of what was quoted at the time).
 * Money is exact decimal text in the assessment's currency; the per-item detail is one JSON document because
 * it is only ever read whole, with its assessment.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const consignmentAssessments = sqliteTable(
  "consignment_assessments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    consignmentId: text("consignment_id").notNull(),
    destinationCountry: text("destination_country").notNull(),
    currency: text("currency").notNull(),
    entryDate: text("entry_date").notNull(),
    totalDuty: text("total_duty").notNull(),
    /** VAT/GST plus entry-level fees (total_vat + total_fees). */
    totalTax: text("total_tax").notNull(),
    totalVat: text("total_vat").notNull(),
    totalFees: text("total_fees").notNull(),
    /** False when an item was not assessed or had no rate: the totals then understate what is owed. */
    complete: integer("complete", { mode: "boolean" }).notNull(),
    /** JSON array: the wire items (codes, values, duty, tax, rates applied, errors). */
    items: text("items").notNull(),
    /** JSON array of entry-level fees `{code, name, amount, basis}`. */
    fees: text("fees").notNull().default("[]"),
    /** JSON array of strings: assumptions and caveats of the run. */
    notes: text("notes").notNull().default("[]"),
    /** JSON `{version, source, imported_at}` of the tariff data used, or null. */
    dataSource: text("data_source"),
    requestId: text("request_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("consignment_assessments_con_idx").on(t.consignmentId, t.id)],
);
