/**
 * Retry schedule for webhook deliveries (spec: roughly 1 min, 5 min, 30 min, 2 h, 6 h, then failed).
 * Attempt 1 is the first post; after attempt n fails, the next one is due RETRY_DELAYS_S[n-1] later; when
 * attempt 6 (the fifth retry) fails there is no next attempt and the delivery is failed.
 */
const RETRY_DELAYS_S = [60, 300, 1800, 7200, 21600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;

/** When the next attempt is due after `attempt` failed at `failedAtMs`, or null when it was the last. */
export function nextAttemptAt(attempt: number, failedAtMs: number): number | null {
  if (attempt < 1) throw new RangeError("attempts count from 1");
  const delay = RETRY_DELAYS_S[attempt - 1];
  return delay === undefined ? null : failedAtMs + delay * 1000;
}

/** Whether a response status counts as delivered. */
export const isDelivered = (status: number) => status >= 200 && status < 300;
