import { createApp } from "./app";
import { runCron } from "./jobs/cron";
import { systemClock } from "./lib/clock";
import { systemIds } from "./lib/ids";

export { RateLimiter } from "./durable-objects/rate-limiter";

const deps = { clock: systemClock, ids: systemIds };
const app = createApp(deps);

export default {
  fetch: app.fetch,
  // Webhook delivery (the queue consumer) arrives with the webhooks area.
  async queue(batch: MessageBatch) {
    batch.ackAll();
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runCron(env, deps, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
