/**
 * The one per-isolate cache for reference data built from a dataset: one entry per cache, keyed on the
 * dataset version it was built from, so a newly activated version replaces the old build on the next read
 * and two concurrent first reads share one build. Every cache registers itself, so tests reset them all with
 * one call (`resetDatasetCaches`) instead of a hook per module.
 */
const registry = new Set<DatasetCache<unknown>>();

export class DatasetCache<T> {
  private entry: { version: string; value: Promise<T> } | undefined;

  constructor(readonly name: string) {
    registry.add(this as DatasetCache<unknown>);
  }

  /**
   * The value built for `version`, building it once with `build` when the version differs from the cached
   * one. A failed build is forgotten, so the next read tries again.
   */
  get(version: string, build: () => Promise<T>): Promise<T> {
    const hit = this.entry;
    if (hit && hit.version === version) return hit.value;
    const value = build();
    const entry = { version, value };
    this.entry = entry;
    value.catch(() => {
      if (this.entry === entry) this.entry = undefined;
    });
    return value;
  }

  /** The version of the current build, if any (for `data_source` and diagnostics). */
  get version(): string | undefined {
    return this.entry?.version;
  }

  clear(): void {
    this.entry = undefined;
  }
}

const resets = new Set<() => void>();

/** State a module keeps beside its cache (the last version read): forgotten with the caches. */
export function onDatasetCachesReset(reset: () => void): void {
  resets.add(reset);
}

/** Forgets every dataset build in this isolate (tests, and after an activation in this isolate). */
export function resetDatasetCaches(): void {
  for (const cache of registry) cache.clear();
  for (const reset of resets) reset();
}
