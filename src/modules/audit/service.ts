/**
 * The request audit trail: one row per request or internal run. Writes happen off the response path
 * (waitUntil); the row is the spec's audit row plus where its archived body lives.
 */
import { requestAudit } from "../../db/schema/index";
import type { Db } from "../../db/client";

export type AuditRow = typeof requestAudit.$inferInsert;

export async function writeAudit(db: Db, row: AuditRow): Promise<void> {
  await db.insert(requestAudit).values(row);
}

/** Status → the spec's outcome: below 400 completed, otherwise failed. */
export const outcomeOf = (status: number): "completed" | "failed" => (status < 400 ? "completed" : "failed");
