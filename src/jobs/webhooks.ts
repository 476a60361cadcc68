/**
 * Webhook delivery jobs: the queue consumer posts the deliveries named in its messages; the cron sweep
 * enqueues whatever is due (retries, and anything whose immediate enqueue was missed or whose worker died).
 */
import { baseContext, type Deps } from "../core/context";
import { type DeliveryMessage, deliver, dueDeliveries, enqueue } from "../modules/webhooks/service";

export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env, deps: Deps): Promise<void> {
  const ctx = baseContext(env, deps);
  for (const msg of batch.messages) {
    try {
      await deliver({ ctx, input: { deliveryId: msg.body.delivery_id } });
      msg.ack();
    } catch (err) {
      // Storage trouble, not a receiver failure (those are recorded as attempts): let the queue retry.
      console.error(
        JSON.stringify({
          msg: "webhook delivery failed to run",
          delivery_id: msg.body.delivery_id,
          error: String(err),
        }),
      );
      msg.retry();
    }
  }
}

export async function sweepDeliveries(env: Env, deps: Deps): Promise<number> {
  const ids = await dueDeliveries({ ctx: baseContext(env, deps), input: {} });
  await enqueue(env.WEBHOOKS, ids);
  return ids.length;
}
