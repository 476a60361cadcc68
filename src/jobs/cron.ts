/**
 * The every-minute Cron Trigger: enqueue due webhook deliveries and flow runs, the archive retention purge
 * (which records each purge in that workspace's archive, see runArchiveRetention), and re-sealing of webhook
 * secrets still stored under an older key (a key rotation completes in batches, see lib/secret-box.ts), and
 * the removal of idempotency keys past their 24 hours, and the dataset registry's sweep (stalled loads, the
 * scheduled fetch of the official lists), and ongoing screening (new parties, and parties whose screening
 * predates the active list versions), and the move of audit and usage rows older than the hot window from D1 to
 * the cold tier in R2 (after retention, so nothing past retention is moved only to be deleted).
 */
import { baseContext, type Deps } from "../core/context";
import { purgeExpiredKeys } from "../middleware/idempotency";
import { tierAuditTrail } from "../modules/audit/tiers";
import { runArchiveRetention } from "../modules/requests/service";
import { resealSecrets } from "../modules/webhooks/service";
import { sweepDatasets } from "./datasets";
import { sweepFlowRuns } from "./flows";
import { sweepScreening } from "./screening";
import { sweepDeliveries } from "./webhooks";

export async function runCron(env: Env, deps: Deps, scheduledTimeMs: number): Promise<void> {
  await sweepDeliveries(env, deps);
  await sweepFlowRuns(env, deps);
  const ctx = baseContext(env, deps);
  await runArchiveRetention({ ctx, input: { asOfMs: scheduledTimeMs } });
  await tierAuditTrail({ ctx, input: { asOfMs: scheduledTimeMs } });
  await resealSecrets({ ctx, input: { limit: RESEAL_PER_RUN } });
  await purgeExpiredKeys(env.DB, scheduledTimeMs);
  await sweepDatasets(env, deps, scheduledTimeMs);
  await sweepScreening(env, deps);
}

/** Endpoints re-sealed per minute: small, so a rotation never makes one cron run slow. */
const RESEAL_PER_RUN = 50;
