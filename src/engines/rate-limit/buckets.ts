/** The spec's Limits table as defaults; organizations may override any bucket through the platform API. */
import type { BucketLimit } from "./sliding-window";

export const BUCKETS = ["api", "consignment_create", "classify_heavy", "heavy", "public_ip", "sign_in_ip"] as const;
export type BucketName = (typeof BUCKETS)[number];

const DEFAULT_LIMITS: Record<BucketName, BucketLimit> = {
  api: { limit: 2000, windowMs: 10_000 },
  consignment_create: { limit: 300, windowMs: 10_000 },
  classify_heavy: { limit: 120, windowMs: 60_000 },
  heavy: { limit: 60, windowMs: 60_000 },
  public_ip: { limit: 120, windowMs: 60_000 },
  sign_in_ip: { limit: 10, windowMs: 60_000 },
};

export type LimitOverrides = Partial<Record<BucketName, { limit: number; window_seconds: number }>>;

export function effectiveLimits(overrides: LimitOverrides): Record<BucketName, BucketLimit> {
  const out = { ...DEFAULT_LIMITS };
  for (const name of BUCKETS) {
    const o = overrides[name];
    if (o) out[name] = { limit: o.limit, windowMs: o.window_seconds * 1000 };
  }
  return out;
}

/** Wire form of a bucket table: `{bucket: {limit, window_seconds}}`. */
export function limitsToWire(limits: Record<BucketName, BucketLimit>) {
  return Object.fromEntries(
    BUCKETS.map((b) => [b, { limit: limits[b].limit, window_seconds: limits[b].windowMs / 1000 }]),
  ) as Record<BucketName, { limit: number; window_seconds: number }>;
}
