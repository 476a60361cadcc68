/**
 * Ongoing screening in the every-minute cron: parties of new consignments and customers are filed, then the
 * parties whose screening predates the active list versions are screened, PARTIES_PER_RUN at a time, so a list
 * change re-screens a large book of parties over successive minutes without one long invocation.
 */
import { baseContext, type Deps } from "../core/context";
import { discoverParties, rescreenParties } from "../modules/screening/service";

/** Runs per cron minute: at 2,000 parties a run, 10,000 a minute, so 100,000 parties in ten minutes. */
const RUNS = 5;

export async function sweepScreening(env: Env, deps: Deps): Promise<void> {
  const ctx = baseContext(env, deps);
  await discoverParties({ ctx, input: {} });
  for (let i = 0; i < RUNS; i++) if ((await rescreenParties({ ctx, input: {} })) === 0) break;
}
