/** Injected time, so windows, expiries and retries can be tested with explicit clocks. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoAt = (ms: number) => new Date(ms).toISOString();
