/**
 * The every-minute Cron Trigger: enqueue due webhook deliveries and flow runs, then the archive retention purge. Each purge
 * that removed something is itself recorded in that workspace's archive as an `internal` run, so the trail
 * shows what was removed when.
 */
import { createDb } from "../db/client";
import type { Deps } from "../core/context";
import { purgeExpired, recordInternalRun } from "../modules/requests/service";
import { sweepFlowRuns } from "./flows";
import { sweepDeliveries } from "./webhooks";

export async function runCron(env: Env, deps: Deps, scheduledTimeMs: number): Promise<void> {
  const db = createDb(env.DB);
  await sweepDeliveries(env, deps);
  await sweepFlowRuns(env, deps);
  const started = deps.clock.now();
  const purged = await purgeExpired(db, env.ARCHIVE, scheduledTimeMs);
  for (const p of purged) {
    await recordInternalRun(
      db,
      env.ARCHIVE,
      {
        workspaceId: p.workspaceId,
        source: "internal",
        route: "job:archive-retention",
        actor: "system",
        durationMs: deps.clock.now() - started,
        body: {
          bytes: JSON.stringify({
            job: "archive-retention",
            purged_requests: p.purged,
            as_of: new Date(scheduledTimeMs).toISOString(),
          }),
          contentType: "application/json",
        },
      },
      { id: deps.ids.requestId(), nowMs: deps.clock.now() },
    );
  }
}
