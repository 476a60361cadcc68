import type { StringTable } from "./string-table";

/**
 * A Map that loads its entries on demand: subclasses load what a key needs before `get`, `has`, `set` and
 * `delete` (`loadFor`), and everything before anything walks the whole map (`loadAll`: iteration, `size`).
 */
abstract class LazyMap<K, V> extends Map<K, V> {
  protected abstract loadFor(key: K): void;
  protected abstract loadAll(): void;

  override get(key: K): V | undefined {
    this.loadFor(key);
    return super.get(key);
  }

  override has(key: K): boolean {
    this.loadFor(key);
    return super.has(key);
  }

  override set(key: K, value: V): this {
    this.loadFor(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.loadFor(key);
    return super.delete(key);
  }

  override get size(): number {
    this.loadAll();
    return super.size;
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.loadAll();
    super.forEach(fn, thisArg);
  }

  override entries(): MapIterator<[K, V]> {
    this.loadAll();
    return super.entries();
  }

  override keys(): MapIterator<K> {
    this.loadAll();
    return super.keys();
  }

  override values(): MapIterator<V> {
    this.loadAll();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

/**
 * A Map whose entries are loaded a part at a time, on the first read that needs the part: `get` and `has`
 * load the part their key belongs to, anything that walks the whole map (iteration, `size`) loads every part.
 * For the large, rarely read parts of an index restored in a new isolate (another schedule's national lines,
 * other chapters' statistical lines), so that the first request does not pay for them.
 */
export class PartitionedMap<K, V> extends LazyMap<K, V> {
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
    for (const [k, v] of load()) Map.prototype.set.call(this, k, v);
  }

  protected loadFor(key: K): void {
    this.#load(this.#partOf(key));
  }

  protected loadAll(): void {
    for (const part of [...this.#loaders.keys()]) this.#load(part);
  }

  override clear(): void {
    this.#loaders.clear();
    super.clear();
  }
}

/**
 * A Map from a StringTable's strings to values made on first read (`make(position)`), for the lookup maps of
 * an index restored in a new isolate: a term's postings or a code's description are made when a request asks
 * for them, not ten thousand at a time before the first answer. Walking the whole map makes every value.
 */
export class TableMap<V> extends LazyMap<string, V> {
  readonly #keys: StringTable;
  readonly #make: (position: number) => V;
  #whole = false;

  constructor(keys: StringTable, make: (position: number) => V) {
    super();
    this.#keys = keys;
    this.#make = make;
  }

  protected loadFor(key: string): void {
    if (this.#whole || Map.prototype.has.call(this, key)) return;
    const i = this.#keys.find(key);
    if (i >= 0) Map.prototype.set.call(this, key, this.#make(i));
  }

  protected loadAll(): void {
    if (this.#whole) return;
    this.#whole = true;
    const made = new Map(Map.prototype.entries.call(this) as MapIterator<[string, V]>);
    Map.prototype.clear.call(this);
    for (let i = 0; i < this.#keys.length; i++) {
      const key = this.#keys.at(i) as string;
      Map.prototype.set.call(this, key, made.has(key) ? (made.get(key) as V) : this.#make(i));
    }
  }

  // A write first makes every entry, so that a later walk cannot make a deleted or replaced entry again.
  override set(key: string, value: V): this {
    this.loadAll();
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.loadAll();
    return super.delete(key);
  }

  override clear(): void {
    this.#whole = true;
    super.clear();
  }
}
