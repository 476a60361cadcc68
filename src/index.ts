import { createApp } from "./app";

export { RateLimiter } from "./durable-objects/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
  // Webhook delivery (queue consumer and cron sweep) arrives with the webhooks area.
  async queue(batch: MessageBatch) {
    batch.ackAll();
  },
  async scheduled() {},
} satisfies ExportedHandler<Env>;
