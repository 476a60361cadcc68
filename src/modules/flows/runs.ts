/**
 * Background flow runs: the actions of a matched flow that do not `wait` are stored as a run with the
 * consignment, handed to the flows queue after the create commits, and carried out here by the queue
 * consumer (or after the cron sweep re-enqueues a run whose message was lost). Runs belong to no request,
 * so these verbs take a BaseContext; a run acts inside its own workspace.
 */
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { BaseContext, Call } from "../../core/context";
import {
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignments,
  flowRuns,
  workspaces,
} from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { sendAll } from "../../lib/queues";
import { eventInsert, type Statement } from "../consignment-records/rows";
import type { Tree } from "../consignment-records/tree";
import { recordInternalRun } from "../requests/service";
import { liveEndpointsQuery } from "../webhooks/service";
import {
  type ActionContext,
  type ActionOutcome,
  discardDocuments,
  extraWithTags,
  type Failed,
  outcomeToWire,
  type RunInfo,
  runAction,
  type Succeeded,
} from "./actions";
import type { ActionT } from "./schemas";

const RUN_CLAIM_MS = 60_000;
const MAX_RUN_ATTEMPTS = 5;

type RunRow = typeof flowRuns.$inferSelect;

export interface FlowRunMessage {
  flow_run_id: string;
}

export const enqueueRuns = (queue: Queue, ids: string[]) =>
  sendAll<FlowRunMessage>(
    queue,
    ids.map((id) => ({ flow_run_id: id })),
  );

/** Pending runs that are due and not claimed: what the cron sweep hands to the queue. */
export async function dueRuns({ ctx, input }: Call<{ limit?: number }, BaseContext>): Promise<string[]> {
  const nowMs = ctx.deps.clock.now();
  const rows = await ctx.db
    .select({ id: flowRuns.id })
    .from(flowRuns)
    .where(
      and(
        eq(flowRuns.status, "pending"),
        lte(flowRuns.nextAttemptAt, nowMs),
        or(isNull(flowRuns.lockedUntil), lte(flowRuns.lockedUntil, nowMs)),
      ),
    )
    .orderBy(flowRuns.nextAttemptAt)
    .limit(input.limit ?? 200);
  return rows.map((r) => r.id);
}

export type RunOutcome = { status: "skipped" } | { status: "succeeded" | "failed"; deliveryIds: string[] };

/**
 * Carries out one background run. A conditional UPDATE claims it (pending, unclaimed or claim expired), so
 * two workers never run it at once; the claim also pushes its next attempt back, so a worker that dies
 * mid-run leaves it to the sweep after the claim expires. Action failures (a consignment that cannot be
 * invoiced, say) are outcomes, recorded with the run; storage errors throw, and the run is tried again.
 * The run's audit row (source `flow`, its input archived in R2) is committed in the same batch as its effects.
 */
export async function executeRun({ ctx, input }: Call<{ runId: string }, BaseContext>): Promise<RunOutcome> {
  const started = ctx.deps.clock.now();
  const run = await claim(ctx, input.runId, started);
  if (!run) return { status: "skipped" };
  const { workspace, tree } = await loadSubject(ctx, run);
  const record = recorder(ctx, run, started, tree?.consignment.customerId ?? null);
  if (!workspace || !tree) {
    const error = `consignment ${run.consignmentId} no longer exists`;
    await record(404, error, [finish(ctx, run, "failed", [], error)]);
    return { status: "failed", deliveryIds: [] };
  }
  if (run.attemptCount > MAX_RUN_ATTEMPTS) {
    const error = `gave up after ${MAX_RUN_ATTEMPTS} attempts`;
    await record(500, error, [finish(ctx, run, "failed", [], error)]);
    return { status: "failed", deliveryIds: [] };
  }

  const actionCtx: ActionContext = { ...ctx, workspace };
  const { outcomes, nowMs } = await runActions(actionCtx, run, tree);
  const failed = outcomes.filter((o): o is Failed => !o.ok);
  const succeeded = outcomes.filter((o): o is Succeeded => o.ok);
  const error = failed.length ? failed.flatMap((f) => f.errors).join("; ") : null;
  const statements = [
    ...effectStatements(actionCtx, run, tree, outcomes, nowMs),
    finish(ctx, run, failed.length ? "failed" : "succeeded", outcomes.map(outcomeToWire), error),
  ];
  try {
    await record(failed.length ? 422 : 200, error, statements);
  } catch (err) {
    await discardDocuments(
      ctx.env.ARCHIVE,
      succeeded.flatMap((o) => o.r2Keys),
    );
    throw err;
  }
  return { status: failed.length ? "failed" : "succeeded", deliveryIds: succeeded.flatMap((o) => o.deliveryIds) };
}

/** Claims a due run for this worker: null when another worker has it or it is no longer pending. */
async function claim(ctx: BaseContext, runId: string, nowMs: number): Promise<RunRow | undefined> {
  const [run] = await ctx.db
    .update(flowRuns)
    .set({
      lockedUntil: nowMs + RUN_CLAIM_MS,
      nextAttemptAt: nowMs + RUN_CLAIM_MS,
      attemptCount: sql`${flowRuns.attemptCount} + 1`,
    })
    .where(
      and(
        eq(flowRuns.id, runId),
        eq(flowRuns.status, "pending"),
        or(isNull(flowRuns.lockedUntil), lte(flowRuns.lockedUntil, nowMs)),
      ),
    )
    .returning();
  return run;
}

/** The run's workspace and its consignment as stored, in one round trip; either is missing once deleted. */
async function loadSubject(ctx: BaseContext, run: RunRow) {
  const { db } = ctx;
  const [wsRows, head, parcels, orders, items] = await db.batch([
    db
      .select({ id: workspaces.id, mode: workspaces.mode, organizationId: workspaces.organizationId })
      .from(workspaces)
      .where(eq(workspaces.id, run.workspaceId))
      .limit(1),
    db
      .select()
      .from(consignments)
      .where(and(eq(consignments.id, run.consignmentId), eq(consignments.workspaceId, run.workspaceId)))
      .limit(1),
    db
      .select()
      .from(consignmentParcels)
      .where(eq(consignmentParcels.consignmentId, run.consignmentId))
      .orderBy(consignmentParcels.position),
    db
      .select()
      .from(consignmentOrders)
      .where(eq(consignmentOrders.consignmentId, run.consignmentId))
      .orderBy(consignmentOrders.position),
    db
      .select()
      .from(consignmentItems)
      .where(eq(consignmentItems.consignmentId, run.consignmentId))
      .orderBy(consignmentItems.position),
  ]);
  const [consignment] = head;
  const tree: Tree | null = consignment ? { consignment, parcels, orders, items } : null;
  return { workspace: wsRows[0], tree };
}

/** The run's actions in order; later actions see earlier tags (the invoice and pre-alert read the consignment). */
async function runActions(ctx: ActionContext, run: RunRow, tree: Tree) {
  const actions = JSON.parse(run.actions) as ActionT[];
  const endpoints = actions.some((a) => a.type === "send_pre_alert")
    ? await liveEndpointsQuery(ctx.db, ctx.workspace)
    : [];
  const nowMs = ctx.deps.clock.now();
  const info: RunInfo = {
    flow: { id: run.flowId, name: run.flowName },
    runId: run.id,
    requestId: null,
    endpoints,
    nowMs,
  };
  const outcomes: ActionOutcome[] = [];
  for (const action of actions) {
    const o = await runAction({ ctx, input: { tree, action, run: info } });
    outcomes.push(o);
    if (o.ok && o.tags)
      tree.consignment = { ...tree.consignment, extra: extraWithTags(tree.consignment.extra, o.tags) };
  }
  return { outcomes, nowMs };
}

/** The successful actions' effects, the new tags, and a `flow.action_failed` event per failed action. */
function effectStatements(ctx: ActionContext, run: RunRow, tree: Tree, outcomes: ActionOutcome[], nowMs: number) {
  const { db, deps } = ctx;
  const statements: Statement[] = [];
  for (const o of outcomes) if (o.ok) statements.push(...o.statements);
  if (outcomes.some((o) => o.ok && o.tags)) {
    statements.push(
      db
        .update(consignments)
        .set({ extra: tree.consignment.extra, updatedAt: isoAt(nowMs) })
        .where(eq(consignments.id, tree.consignment.id)),
    );
  }
  for (const f of outcomes) {
    if (f.ok) continue;
    statements.push(
      eventInsert(db, deps.ids, {
        consignmentId: tree.consignment.id,
        workspaceId: ctx.workspace.id,
        type: "flow.action_failed",
        data: { flow_id: run.flowId, flow_name: run.flowName, run_id: run.id, action: f.type, errors: f.errors },
        requestId: null,
        createdAt: isoAt(nowMs),
      }),
    );
  }
  return statements;
}

const finish = (
  ctx: BaseContext,
  run: RunRow,
  status: "succeeded" | "failed",
  results: unknown[],
  error: string | null,
) =>
  ctx.db
    .update(flowRuns)
    .set({
      status,
      results: JSON.stringify(results),
      error,
      lockedUntil: null,
      finishedAt: isoAt(ctx.deps.clock.now()),
    })
    .where(eq(flowRuns.id, run.id));

/** Commits the run's audit row (its input archived like a request body) with the given statements. */
function recorder(ctx: BaseContext, run: RunRow, started: number, customerId: number | null) {
  return (status: number, errorSummary: string | null, statements: Statement[]) =>
    recordInternalRun({
      ctx,
      input: {
        run: {
          workspaceId: run.workspaceId,
          source: "flow",
          route: `flow:consignment.created/${run.flowId}`,
          actor: `flow:${run.flowId}`,
          customerId,
          httpStatus: status,
          durationMs: ctx.deps.clock.now() - started,
          errorSummary,
          body: {
            bytes: JSON.stringify({
              flow_run_id: run.id,
              flow_id: run.flowId,
              flow_name: run.flowName,
              trigger: "consignment.created",
              consignment_id: run.consignmentId,
              actions: JSON.parse(run.actions) as ActionT[],
            }),
            contentType: "application/json",
          },
          refs: [{ ref_type: "consignment_id", ref_value: run.consignmentId }],
        },
        at: { id: run.id, nowMs: ctx.deps.clock.now() },
        alongside: statements,
      },
    });
}
