/**
 * The one way to log an engine call (restrict, classify, calculate, screen): a usage row keyed by the request
 * id, so it joins the audit trail. The row is kept on the service context and written with the request's
 * audit row, so the log never adds a round trip to the answer.
 */
import { isoAt } from "../lib/clock";
import type { ServiceContext, UsageLogInsert } from "./context";

export interface UsageSummary {
  kind: UsageLogInsert["kind"];
  senderCountryCode: string | null;
  receiverCountryCode: string | null;
  itemCount: number;
  matchCount: number;
  /** What the engine saw and answered, per kind (documented with each module). */
  detail: Record<string, unknown>;
}

/** Builds the row from the context (who, which workspace, when, how long) and the engine's summary. */
function usageRow(ctx: ServiceContext, summary: UsageSummary, id = ctx.requestId): UsageLogInsert {
  const now = ctx.deps.clock.now();
  return {
    id,
    workspaceId: ctx.workspace.id,
    kind: summary.kind,
    customerId: ctx.actor.customerId,
    actor: ctx.actor.clientId,
    senderCountryCode: summary.senderCountryCode,
    receiverCountryCode: summary.receiverCountryCode,
    itemCount: summary.itemCount,
    matchCount: summary.matchCount,
    durationMs: Math.max(0, Math.round(now - ctx.startedAt)),
    detail: JSON.stringify(summary.detail),
    createdAt: isoAt(now),
  };
}

/** Records this request's engine call; the audit step writes the row beside the audit row. */
export function recordUsage(ctx: ServiceContext, summary: UsageSummary): UsageLogInsert {
  ctx.usage = usageRow(ctx, summary);
  return ctx.usage;
}

/**
 * Records one row per item of a bulk request (POST /classify/bulk), each under its own id so the history lists
 * every item; the summaries' `detail` ties each row to the request. Written with the audit row, like one row.
 */
export function recordUsageRows(ctx: ServiceContext, summaries: UsageSummary[]): UsageLogInsert[] {
  const rows = summaries.map((s) => usageRow(ctx, s, ctx.deps.ids.requestId()));
  ctx.usage = rows.length ? rows : undefined;
  return rows;
}
