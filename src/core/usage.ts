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
function usageRow(ctx: ServiceContext, summary: UsageSummary): UsageLogInsert {
  const now = ctx.deps.clock.now();
  return {
    id: ctx.requestId,
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
