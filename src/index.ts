import { createApp } from "./app";
import { runCron } from "./jobs/cron";
import { consumeDeliveries } from "./jobs/webhooks";
import type { DeliveryMessage } from "./modules/webhooks/service";
import { systemClock } from "./lib/clock";
import { systemIds } from "./lib/ids";

export { RateLimiter } from "./durable-objects/rate-limiter";

const deps = { clock: systemClock, ids: systemIds };
const app = createApp(deps);

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<DeliveryMessage>, env, _ctx) {
    await consumeDeliveries(batch, env, deps);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(env, deps, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
