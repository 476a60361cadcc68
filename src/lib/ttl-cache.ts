/**
 * A small per-isolate cache with a time-to-live. Used for workspace and API-client lookups so that the hot
 * path does not read D1 on every request; a TTL of 30 s keeps changes made elsewhere visible within 60 s.
 */
import type { Clock } from "./clock";

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, clock: Clock): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, clock: Clock, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.maxEntries) {
      // Insertion order: the oldest entry goes first.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: clock.now() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
