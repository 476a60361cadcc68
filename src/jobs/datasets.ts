/**
 * Dataset loads in the background: the DATASETS queue carries one message per version being staged; each
 * message writes the next rows (ROWS_PER_RUN) and, while rows remain, queues the next message, so a large
 * list loads across many short invocations. The cron sweep re-queues a load whose run died, and runs the
 * scheduled fetch of the official lists (production only).
 */
import { baseContext, type Deps } from "../core/context";
import { fetchDueDatasets, fetchEnabled, stageNext, stalledStaging } from "../modules/datasets/service";

export const DATASETS_QUEUE = "trade-compliance-datasets";

export interface DatasetMessage {
  dataset: string;
  version: string;
}

/** A staging run that has not advanced for this long is presumed dead. */
const STALLED_MS = 5 * 60_000;

export async function consumeDatasetLoads(batch: MessageBatch<DatasetMessage>, env: Env, deps: Deps): Promise<void> {
  const ctx = baseContext(env, deps);
  for (const msg of batch.messages) {
    try {
      const outcome = await stageNext({ ctx, input: msg.body });
      if (outcome === "more") await env.DATASETS.send(msg.body);
      msg.ack();
    } catch (err) {
      console.error(JSON.stringify({ msg: "dataset load failed", ...msg.body, error: String(err) }));
      msg.retry();
    }
  }
}

export async function sweepDatasets(env: Env, deps: Deps, nowMs: number): Promise<void> {
  const ctx = baseContext(env, deps);
  const stalled = await stalledStaging({ ctx, input: { nowMs, olderThanMs: STALLED_MS } });
  if (stalled.length)
    await env.DATASETS.sendBatch(stalled.map((s) => ({ body: { dataset: s.dataset, version: s.version } })));
  // One list per minute: a full list is tens of megabytes to download and validate, and one invocation of
  // the every-minute cron should not carry several.
  if (fetchEnabled(env)) await fetchDueDatasets({ ctx, input: { nowMs, limit: 1 } });
}
