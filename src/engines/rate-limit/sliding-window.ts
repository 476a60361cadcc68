/**
 * Sliding-window counter (the approximation Cloudflare and others use): the previous fixed window's count,
 * weighted by how much of it still overlaps the sliding window, plus the current window's count.
 * Pure: state in, state out, time passed in. The Durable Object keeps one state per bucket key.
 */

export interface WindowState {
  /** Start of the current fixed window, ms since the epoch, a multiple of windowMs. */
  windowStart: number;
  current: number;
  previous: number;
}

export interface BucketLimit {
  limit: number;
  windowMs: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed now (after this one when it was allowed). */
  remaining: number;
  /** Milliseconds until the current fixed window ends (RateLimit-Reset). */
  resetMs: number;
  /** Milliseconds until a request of this cost would be allowed; 0 when allowed. */
  retryAfterMs: number;
}

/** Moves the state forward to the fixed window that contains `now`. */
export function roll(state: WindowState | undefined, now: number, windowMs: number): WindowState {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  if (!state) return { windowStart, current: 0, previous: 0 };
  if (windowStart === state.windowStart) return state;
  // The window just before `now`'s window keeps its count as "previous"; anything older has slid out.
  const previous = windowStart - windowMs === state.windowStart ? state.current : 0;
  return { windowStart, current: 0, previous };
}

/** Weighted count of the sliding window ending at `now` (state must already be rolled to `now`). */
export function estimate(state: WindowState, now: number, windowMs: number): number {
  const overlap = (windowMs - (now - state.windowStart)) / windowMs;
  return state.previous * overlap + state.current;
}

/**
 * Earliest wait (ms) after which `cost` more requests fit, assuming no other traffic.
 * Infinity when `cost` exceeds the limit itself.
 */
export function waitForRoom(state: WindowState, now: number, { limit, windowMs }: BucketLimit, cost: number): number {
  if (cost > limit) return Number.POSITIVE_INFINITY;
  const elapsed = now - state.windowStart;
  const free = limit - state.current - cost;
  if (free >= 0) {
    if (state.previous === 0) return 0;
    // previous * (windowMs - e) / windowMs <= free  ⇔  e >= windowMs * (1 - free / previous)
    const e = windowMs * (1 - free / state.previous);
    return Math.max(0, Math.ceil(e - elapsed));
  }
  // Not in this window: in the next one the current count becomes "previous".
  const nextFree = limit - cost;
  const e = state.current === 0 ? 0 : windowMs * (1 - nextFree / state.current);
  return Math.max(0, Math.ceil(windowMs - elapsed + Math.max(0, e)));
}

/**
 * Decides one request of weight `cost`. With `consume` false the state is only read (a "peek", used to
 * refuse sign-in attempts from an IP that already failed too often without counting the attempt).
 */
export function decide(
  prior: WindowState | undefined,
  now: number,
  bucket: BucketLimit,
  cost = 1,
  consume = true,
): { state: WindowState; decision: Decision } {
  const rolled = roll(prior, now, bucket.windowMs);
  const used = estimate(rolled, now, bucket.windowMs);
  const allowed = used + cost <= bucket.limit + 1e-9;
  const state = allowed && consume ? { ...rolled, current: rolled.current + cost } : rolled;
  const after = allowed && consume ? used + cost : used;
  const decision: Decision = {
    allowed,
    limit: bucket.limit,
    remaining: Math.max(0, Math.floor(bucket.limit - after + 1e-9)),
    resetMs: rolled.windowStart + bucket.windowMs - now,
    retryAfterMs: allowed ? 0 : waitForRoom(rolled, now, bucket, cost),
  };
  return { state, decision };
}

/** Gives back requests that were reserved (leased) in `windowStart` but never used. */
export function refund(state: WindowState, windowStart: number, count: number, windowMs: number): WindowState {
  if (count <= 0) return state;
  if (windowStart === state.windowStart) return { ...state, current: Math.max(0, state.current - count) };
  if (windowStart === state.windowStart - windowMs) return { ...state, previous: Math.max(0, state.previous - count) };
  return state;
}

/**
 * Lease sizing for production: while an organization's usage is below half of a bucket's limit, an isolate
 * may take a small allowance (a quarter of the free half, at most `maxLease`) and spend it without asking
 * the Durable Object. Near the limit the lease is 0 and every request is decided exactly. Buckets with small
 * limits (sign-in, heavy work: below MIN_LEASED_LIMIT) are never leased: each of their requests matters.
 */
const MIN_LEASED_LIMIT = 100;

export function leaseSize(usedAfter: number, limit: number, maxLease = 50): number {
  if (limit < MIN_LEASED_LIMIT) return 0;
  const headroom = limit / 2 - usedAfter;
  if (headroom < 4) return 0;
  return Math.min(maxLease, Math.floor(headroom / 4));
}

/** How long a lease lives: short, so that unused reservations slide out quickly. */
export const leaseTtlMs = (windowMs: number) => Math.min(1000, Math.floor(windowMs / 10));
