/**
 * A Map whose entries are loaded a part at a time, on the first read that needs the part: `get` and `has`
 * load the part their key belongs to, anything that walks the whole map (iteration, `size`) loads every part.
 * For the large, rarely read parts of an index restored in a new isolate (another schedule's national lines,
 * other chapters' statistical lines), so that the first request does not pay for them.
 */
export class PartitionedMap<K, V> extends Map<K, V> {
  readonly #partOf: (key: K) => string;
  readonly #loaders: Map<string, () => Iterable<[K, V]>>;

  constructor(partOf: (key: K) => string, loaders: Iterable<[string, () => Iterable<[K, V]>]>) {
    super();
    this.#partOf = partOf;
    this.#loaders = new Map(loaders);
  }

  #load(part: string): void {
    const load = this.#loaders.get(part);
    if (!load) return;
    this.#loaders.delete(part);
    for (const [k, v] of load()) super.set(k, v);
  }

  #loadAll(): void {
    for (const part of [...this.#loaders.keys()]) this.#load(part);
  }

  override get(key: K): V | undefined {
    this.#load(this.#partOf(key));
    return super.get(key);
  }

  override has(key: K): boolean {
    this.#load(this.#partOf(key));
    return super.has(key);
  }

  override set(key: K, value: V): this {
    this.#load(this.#partOf(key));
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.#load(this.#partOf(key));
    return super.delete(key);
  }

  override clear(): void {
    this.#loaders.clear();
    super.clear();
  }

  override get size(): number {
    this.#loadAll();
    return super.size;
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.#loadAll();
    super.forEach(fn, thisArg);
  }

  override entries(): MapIterator<[K, V]> {
    this.#loadAll();
    return super.entries();
  }

  override keys(): MapIterator<K> {
    this.#loadAll();
    return super.keys();
  }

  override values(): MapIterator<V> {
    this.#loadAll();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
