import { createApp } from "./app";
import { meteredEnv } from "./core/meter";
import { runCron } from "./jobs/cron";
import { consumeDatasetLoads, DATASETS_QUEUE, type DatasetMessage } from "./jobs/datasets";
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
  // Requests see their bindings metered, for the Server-Timing header (core/meter.ts).
  fetch: (request, env, ctx) => app.fetch(request, meteredEnv(env), ctx),
  async queue(batch: MessageBatch<DeliveryMessage | FlowRunMessage | DatasetMessage>, env, _ctx) {
    if (batch.queue === FLOWS_QUEUE) await consumeFlowRuns(batch as MessageBatch<FlowRunMessage>, env, deps);
    else if (batch.queue === DATASETS_QUEUE)
      await consumeDatasetLoads(batch as MessageBatch<DatasetMessage>, env, deps);
    else await consumeDeliveries(batch as MessageBatch<DeliveryMessage>, env, deps);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(env, deps, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env, DeliveryMessage | FlowRunMessage | DatasetMessage>;
