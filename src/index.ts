import { createApp } from "./app";
import { runCron } from "./jobs/cron";
import { consumeFlowRuns, FLOWS_QUEUE } from "./jobs/flows";
import { consumeDeliveries } from "./jobs/webhooks";
import { systemClock } from "./lib/clock";
import { systemIds } from "./lib/ids";
import type { FlowRunMessage } from "./modules/flows/runs";
import type { DeliveryMessage } from "./modules/webhooks/service";

export { RateLimiter } from "./durable-objects/rate-limiter";

const deps = { clock: systemClock, ids: systemIds };
const app = createApp(deps);

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<DeliveryMessage | FlowRunMessage>, env, _ctx) {
    if (batch.queue === FLOWS_QUEUE) await consumeFlowRuns(batch as MessageBatch<FlowRunMessage>, env, deps);
    else await consumeDeliveries(batch as MessageBatch<DeliveryMessage>, env, deps);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(env, deps, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env, DeliveryMessage | FlowRunMessage>;
