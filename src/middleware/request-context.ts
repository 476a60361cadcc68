/**
 * First in the chain: mints the request id (UUIDv7), starts the clock, and stamps X-Request-Id and
 * Server-Timing (core/meter.ts) on every response, errors and 429s included (onError and notFound run inside
 * `next`, so their responses pass here).
 */
import { createMiddleware } from "hono/factory";
import type { Deps } from "../core/context";
import { newMeter, serverTiming, withMeter } from "../core/meter";
import type { AppEnv } from "../env";

export const requestContext = (deps: Deps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const requestId = deps.ids.requestId();
    c.set("requestId", requestId);
    c.set("startedAt", deps.clock.now());
    c.set("deps", deps);
    const meter = newMeter();
    const started = performance.now();
    await withMeter(meter, () => next());
    c.res.headers.set("X-Request-Id", requestId);
    c.res.headers.set("Server-Timing", serverTiming(meter, performance.now() - started));
  });
