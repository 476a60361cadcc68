/**
 * What a request waited on: each kind of storage (D1, R2, the Durable Object, Queues) with the number of round
 * trips and the time spent in them, answered in a W3C `Server-Timing` header on every response:
 *
 *   Server-Timing: d1;count=2;dur=1.4, r2;count=1;dur=2.1, do;count=1;dur=0.6, total;dur=5.3
 *
 * The bindings are wrapped once per isolate (`meteredEnv`); each call finds its request's meter through
 * AsyncLocalStorage, so services keep using `env` as they are given it. D1 is metered inside the journaled
 * binding (db/journal.ts), where its calls already pass. Durations are summed per kind, so two calls of one
 * kind that overlap count twice; work left to waitUntil after the response is not in the header.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const STORAGE_KINDS = ["d1", "r2", "do", "queue"] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

export type Meter = Record<StorageKind, { count: number; ms: number }>;

const store = new AsyncLocalStorage<Meter>();

export const newMeter = (): Meter => ({
  d1: { count: 0, ms: 0 },
  r2: { count: 0, ms: 0 },
  do: { count: 0, ms: 0 },
  queue: { count: 0, ms: 0 },
});

export function withMeter<T>(meter: Meter, fn: () => Promise<T>): Promise<T> {
  return store.run(meter, fn);
}

/** Counts one round trip of `kind` for the current request (if any) and times it until it settles. */
export function timed<T>(kind: StorageKind, run: () => Promise<T>): Promise<T> {
  const meter = store.getStore();
  if (!meter) return run();
  const start = performance.now();
  meter[kind].count++;
  const settle = () => {
    meter[kind].ms += performance.now() - start;
  };
  const p = run();
  p.then(settle, settle);
  return p;
}

/** The header value: the kinds waited on, then the total. */
export function serverTiming(meter: Meter, totalMs: number): string {
  const parts: string[] = [];
  for (const kind of STORAGE_KINDS) {
    const m = meter[kind];
    if (m.count) parts.push(`${kind};count=${m.count};dur=${m.ms.toFixed(1)}`);
  }
  parts.push(`total;dur=${totalMs.toFixed(1)}`);
  return parts.join(", ");
}

/**
 * Wraps every method of an object so that its calls are timed as `kind`. Calls go through Reflect.apply: a
 * Durable Object stub answers any property, `apply` and `bind` included, as a remote method.
 */
function timedMethods<T extends object>(target: T, kind: StorageKind): T {
  return new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => timed(kind, () => Promise.resolve(Reflect.apply(value, t, args)));
    },
  });
}

/** A Durable Object namespace whose stubs time their calls; naming ids is local and not timed. */
function meteredNamespace<T extends object>(ns: T): T {
  return new Proxy(ns, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getByName")
        return (...args: unknown[]) => timedMethods(Reflect.apply(value, t, args) as object, "do");
      return (...args: unknown[]) => Reflect.apply(value, t, args);
    },
  });
}

const wrapped = new WeakMap<object, Env>();

/**
 * The Worker's env with R2, the Durable Object namespace and the queues metered. One per env object; every
 * other binding and var is passed through untouched (D1 is metered by db/journal.ts).
 */
export function meteredEnv(env: Env): Env {
  let out = wrapped.get(env);
  if (!out) {
    out = {
      ...env,
      ARCHIVE: timedMethods(env.ARCHIVE, "r2"),
      RATE_LIMITER: meteredNamespace(env.RATE_LIMITER),
      WEBHOOKS: timedMethods(env.WEBHOOKS, "queue"),
      FLOWS: timedMethods(env.FLOWS, "queue"),
    };
    wrapped.set(env, out);
  }
  return out;
}
