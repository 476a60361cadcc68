/**
 * The usage-history listing shared by restrict, classify and calculate, over the usage log.
 * Keyset pagination on (created_at, id), newest first: `starting_after` walks to older rows, `ending_before`
 * to newer ones; both take a request id. Rows inserted between calls never shift a page.
 */
import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { Call } from "../../core/context";
import { usageLog } from "../../db/schema/index";
import { badRequest } from "../../lib/errors";

export type UsageKind = (typeof usageLog.$inferInsert)["kind"];
export type UsageRow = typeof usageLog.$inferSelect;

export interface HistoryQuery {
  limit: number;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

type Cursor = { createdAt: string; id: string };

/** Rows strictly older (or newer) than the cursor in (created_at, id) order. */
function beyond(cursor: Cursor, direction: "older" | "newer"): SQL | undefined {
  const past = direction === "older" ? lt : gt;
  return or(
    past(usageLog.createdAt, cursor.createdAt),
    and(eq(usageLog.createdAt, cursor.createdAt), past(usageLog.id, cursor.id)),
  );
}

/**
 * One page of the workspace's history of `kind`, newest first. A customer-pinned caller sees only its
 * customer's rows. An unknown cursor id is a 400, not an empty page.
 */
export async function listUsage({
  ctx,
  input: { kind, query },
}: Call<{ kind: UsageKind; query: HistoryQuery }>): Promise<{ rows: UsageRow[]; hasMore: boolean }> {
  if (query.starting_after && query.ending_before) throw badRequest("Use starting_after or ending_before, not both");
  const scope = [eq(usageLog.workspaceId, ctx.workspace.id), eq(usageLog.kind, kind)];
  if (ctx.actor.customerId !== null) scope.push(eq(usageLog.customerId, ctx.actor.customerId));
  const cursorId = query.starting_after ?? query.ending_before;
  const where: (SQL | undefined)[] = [...scope];
  const newer = query.ending_before !== undefined;
  if (cursorId) {
    const [cursor] = await ctx.db
      .select({ createdAt: usageLog.createdAt, id: usageLog.id })
      .from(usageLog)
      .where(and(...scope, eq(usageLog.id, cursorId)))
      .limit(1);
    if (!cursor) throw badRequest(`Unknown cursor: no ${kind} request ${cursorId} in this workspace`);
    where.push(beyond(cursor, newer ? "newer" : "older"));
  }
  // Walking towards newer rows reads ascending from the cursor, then flips, so the page is the nearest rows.
  const order = newer ? [asc(usageLog.createdAt), asc(usageLog.id)] : [desc(usageLog.createdAt), desc(usageLog.id)];
  const rows = await ctx.db
    .select()
    .from(usageLog)
    .where(and(...where))
    .orderBy(...order)
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  return { rows: newer ? page.reverse() : page, hasMore };
}
