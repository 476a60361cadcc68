/**
 * The usage-history listing shared by restrict, classify and calculate, over the usage log.
 * Keyset pagination on (created_at, id), newest first: `starting_after` walks to older rows, `ending_before`
 * to newer ones; both take a request id. Rows inserted between calls never shift a page.
 */
import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { Call, ServiceContext } from "../../core/context";
import { usageLog } from "../../db/schema/index";
import { badRequest } from "../../lib/errors";
import { findColdUsage, hasColdTier, mayBeCold, pageColdUsage, usageOrderKey } from "../audit/tiers";

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

/** The cursor row: from D1, or (for ids older than the hot window) from the cold tier. */
async function findCursor(
  ctx: ServiceContext,
  kind: UsageKind,
  scope: SQL[],
  cursorId: string,
): Promise<(Cursor & { cold: boolean }) | null> {
  const [hot] = await ctx.db
    .select({ createdAt: usageLog.createdAt, id: usageLog.id })
    .from(usageLog)
    .where(and(...scope, eq(usageLog.id, cursorId)))
    .limit(1);
  if (hot) return { ...hot, cold: false };
  if (!mayBeCold(ctx, cursorId)) return null;
  const cold = await findColdUsage(ctx, ctx.workspace.id, kind, cursorId);
  const visible = cold && (ctx.actor.customerId === null || cold.customerId === ctx.actor.customerId);
  return visible ? { createdAt: cold.createdAt, id: cold.id, cold: true } : null;
}

/**
 * One page of the workspace's history of `kind`, newest first. A customer-pinned caller sees only its
 * customer's rows. An unknown cursor id is a 400, not an empty page. Rows older than the hot window are read
 * from the cold tier in the same (created_at, id) order; that read is bounded, so a pinned client whose rows are
 * sparse there may get a short page with `has_more`.
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
  const cursor = cursorId ? await findCursor(ctx, kind, scope, cursorId) : null;
  if (cursorId && !cursor) throw badRequest(`Unknown cursor: no ${kind} request ${cursorId} in this workspace`);
  if (cursor) where.push(beyond(cursor, newer ? "newer" : "older"));
  // Walking towards newer rows reads ascending from the cursor, then flips, so the page is the nearest rows.
  const order = newer ? [asc(usageLog.createdAt), asc(usageLog.id)] : [desc(usageLog.createdAt), desc(usageLog.id)];
  const hot = await ctx.db
    .select()
    .from(usageLog)
    .where(and(...where))
    .orderBy(...order)
    .limit(query.limit + 1);
  // Cold rows are older than hot ones: they matter walking older when D1 runs out, or walking newer from a
  // cursor that is itself cold.
  const coldNeeded = newer ? cursor?.cold === true : hot.length <= query.limit && hasColdTier(ctx);
  const cold = coldNeeded
    ? await pageColdUsage(ctx, ctx.workspace.id, kind, {
        direction: newer ? "newer" : "older",
        cursor: cursor ? usageOrderKey(cursor) : undefined,
        need: newer ? query.limit + 1 : query.limit + 1 - hot.length,
        keep: (r) => ctx.actor.customerId === null || r.customerId === ctx.actor.customerId,
        exclude: new Set(hot.map((r) => r.id)),
      })
    : { rows: [], exhausted: false };
  const sign = newer ? 1 : -1;
  const rows = [...hot, ...cold.rows].sort((a, b) => {
    const ka = usageOrderKey(a);
    const kb = usageOrderKey(b);
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * sign;
  });
  const hasMore = rows.length > query.limit || cold.exhausted;
  const page = rows.slice(0, query.limit);
  return { rows: newer ? page.reverse() : page, hasMore };
}
