/**
 * Background flow runs: the queue consumer carries out the runs named in its messages; the cron sweep
 * enqueues pending runs that are due (anything whose immediate enqueue was missed or whose worker died).
 */
import { baseContext, type Deps } from "../core/context";
import { dueRuns, enqueueRuns, executeRun, type FlowRunMessage } from "../modules/flows/runs";
import { enqueue } from "../modules/webhooks/service";

export const FLOWS_QUEUE = "trade-compliance-flows";

export async function consumeFlowRuns(batch: MessageBatch<FlowRunMessage>, env: Env, deps: Deps): Promise<void> {
  const ctx = baseContext(env, deps);
  for (const msg of batch.messages) {
    try {
      const out = await executeRun({ ctx, input: { runId: msg.body.flow_run_id } });
      if (out.status !== "skipped" && out.deliveryIds.length) await enqueue(env.WEBHOOKS, out.deliveryIds);
      msg.ack();
    } catch (err) {
      // Storage trouble: the run stays pending and claimed; the queue retries it, or the sweep once the claim expires.
      console.error(
        JSON.stringify({ msg: "flow run failed to execute", flow_run_id: msg.body.flow_run_id, error: String(err) }),
      );
      msg.retry();
    }
  }
}

export async function sweepFlowRuns(env: Env, deps: Deps): Promise<number> {
  const ids = await dueRuns({ ctx: baseContext(env, deps), input: {} });
  await enqueueRuns(env.FLOWS, ids);
  return ids.length;
}
