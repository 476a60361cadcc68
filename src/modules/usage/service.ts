/**
 * Usage log writes and the history listing shared by restrict, classify and calculate.
 * Keyset pagination on (created_at, id), newest first: `starting_after` walks to older rows, `ending_before`
 * to newer ones; both take a request id. Rows inserted between calls never shift a page.
 */
import { and, asc, desc, eq, gt, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { usageLog } from "../../db/schema/index";
import type { UsageLogInsert } from "../../env";
import { badRequest } from "../../lib/errors";

export type UsageKind = (typeof usageLog.$inferInsert)["kind"];
export type UsageRow = typeof usageLog.$inferSelect;
/** A usage-log row as the engines hand it to the audit writer, which inserts it with the request's audit row. */
export type UsageInsert = UsageLogInsert;

export interface HistoryQuery {
  limit: number;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

/**
 * One page of a workspace's history of `kind`, newest first. `customerId` (for customer-pinned callers)
 * narrows to that customer's rows. An unknown cursor id is a 400, not an empty page.
 */
export async function listUsage(
  db: Db,
  workspaceId: string,
  kind: UsageKind,
  query: HistoryQuery,
  customerId: number | null = null,
): Promise<{ rows: UsageRow[]; hasMore: boolean }> {
  if (query.starting_after && query.ending_before) throw badRequest("Use starting_after or ending_before, not both");
  const scope = [eq(usageLog.workspaceId, workspaceId), eq(usageLog.kind, kind)];
  if (customerId !== null) scope.push(eq(usageLog.customerId, customerId));
  const cursorId = query.starting_after ?? query.ending_before;
  let cursor: { createdAt: string; id: string } | undefined;
  if (cursorId) {
    const found = await db
      .select({ createdAt: usageLog.createdAt, id: usageLog.id })
      .from(usageLog)
      .where(and(...scope, eq(usageLog.id, cursorId)))
      .limit(1);
    if (!found[0]) throw badRequest(`Unknown cursor: no ${kind} request ${cursorId} in this workspace`);
    cursor = found[0];
  }
  const older = cursor && query.starting_after;
  const newer = cursor && query.ending_before;
  const where = [...scope];
  if (older)
    where.push(
      or(
        lt(usageLog.createdAt, cursor!.createdAt),
        and(eq(usageLog.createdAt, cursor!.createdAt), lt(usageLog.id, cursor!.id)),
      )!,
    );
  if (newer)
    where.push(
      or(
        gt(usageLog.createdAt, cursor!.createdAt),
        and(eq(usageLog.createdAt, cursor!.createdAt), gt(usageLog.id, cursor!.id)),
      )!,
    );
  // Walking towards newer rows reads ascending from the cursor, then flips, so the page is the nearest rows.
  const order = newer ? [asc(usageLog.createdAt), asc(usageLog.id)] : [desc(usageLog.createdAt), desc(usageLog.id)];
  const rows = await db
    .select()
    .from(usageLog)
    .where(and(...where))
    .orderBy(...order)
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  return { rows: newer ? page.reverse() : page, hasMore };
}
