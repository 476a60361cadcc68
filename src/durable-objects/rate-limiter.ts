/**
 * One RateLimiter per organization (idFromName(organization_id)) holds every bucket of that organization:
 * the organization-wide buckets, customer-pinned clients' own buckets, and the per-IP buckets.
 * Counters live in memory: windows are at most a minute long, and an eviction (which happens only after
 * the object has gone idle) at worst forgets a minute of history.
 */
import { DurableObject } from "cloudflare:workers";
import {
  type Decision,
  decide,
  leaseSize,
  leaseTtlMs,
  refund,
  type WindowState,
} from "../engines/rate-limit/sliding-window";

export interface HitRequest {
  key: string;
  limit: number;
  windowMs: number;
  cost?: number;
  /** false: only report whether `cost` would fit (no count). */
  consume?: boolean;
  /** Ask for a lease (production mode). */
  lease?: boolean;
  /** Unused part of an earlier lease, given back. */
  refund?: { windowStart: number; count: number };
  /** Unused parts of several earlier leases (an isolate that held more than one), given back. */
  refunds?: { windowStart: number; count: number }[];
}

export interface HitResult extends Decision {
  windowStart: number;
  /** Requests reserved for the calling isolate beyond this one, valid until leaseExpiresAt. */
  lease: number;
  leaseExpiresAt: number;
}

const SWEEP_EVERY = 1024;

export class RateLimiter extends DurableObject<Env> {
  private readonly windows = new Map<string, { state: WindowState; windowMs: number }>();
  private hits = 0;

  hit(req: HitRequest): HitResult {
    const now = Date.now();
    const bucket = { limit: req.limit, windowMs: req.windowMs };
    let prior = this.windows.get(req.key)?.state;
    for (const r of req.refund ? [req.refund, ...(req.refunds ?? [])] : (req.refunds ?? [])) {
      if (prior) prior = refund(prior, r.windowStart, r.count, req.windowMs);
    }

    let { state, decision } = decide(prior, now, bucket, req.cost ?? 1, req.consume ?? true);
    let lease = 0;
    if (req.lease && decision.allowed && (req.consume ?? true)) {
      lease = leaseSize(req.limit - decision.remaining, req.limit);
      if (lease > 0) {
        // Reserved now, so that the sum over all isolates can never pass the limit.
        state = { ...state, current: state.current + lease };
        decision = { ...decision, remaining: Math.max(0, decision.remaining - lease) };
      }
    }
    this.windows.set(req.key, { state, windowMs: req.windowMs });
    if (++this.hits % SWEEP_EVERY === 0) this.sweep(now);
    return { ...decision, windowStart: state.windowStart, lease, leaseExpiresAt: now + leaseTtlMs(req.windowMs) };
  }

  /**
   * Several buckets in one call (the organization's `api` bucket and a route's own): each decided as by
   * `hit`, in order, so a request pays one round trip to the object instead of one per bucket.
   */
  hitMany(reqs: HitRequest[]): HitResult[] {
    return reqs.map((r) => this.hit(r));
  }

  /** Drops keys whose windows have fully slid out (per-IP keys would otherwise pile up). */
  private sweep(now: number) {
    for (const [key, { state, windowMs }] of this.windows) {
      if (state.windowStart + 2 * windowMs <= now) this.windows.delete(key);
    }
  }
}
