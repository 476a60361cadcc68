import type { StringTable } from "./string-table";

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

/**
 * A Map from a StringTable's strings to values made on first read (`make(position)`), for the lookup maps of
 * an index restored in a new isolate: a term's postings or a code's description are made when a request asks
 * for them, not ten thousand at a time before the first answer. Walking the whole map makes every value.
 */
export class TableMap<V> extends Map<string, V> {
  readonly #keys: StringTable;
  readonly #make: (position: number) => V;
  #whole = false;

  constructor(keys: StringTable, make: (position: number) => V) {
    super();
    this.#keys = keys;
    this.#make = make;
  }

  #loadAll(): void {
    if (this.#whole) return;
    this.#whole = true;
    const made = new Map(super.entries());
    super.clear();
    for (let i = 0; i < this.#keys.length; i++) {
      const key = this.#keys.at(i) as string;
      super.set(key, made.has(key) ? (made.get(key) as V) : this.#make(i));
    }
  }

  override get(key: string): V | undefined {
    if (this.#whole || super.has(key)) return super.get(key);
    const i = this.#keys.find(key);
    if (i < 0) return undefined;
    const value = this.#make(i);
    super.set(key, value);
    return value;
  }

  override has(key: string): boolean {
    return super.has(key) || (!this.#whole && this.#keys.has(key));
  }

  override set(key: string, value: V): this {
    this.#loadAll();
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.#loadAll();
    return super.delete(key);
  }

  override clear(): void {
    this.#whole = true;
    super.clear();
  }

  override get size(): number {
    this.#loadAll();
    return super.size;
  }

  override forEach(fn: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    this.#loadAll();
    super.forEach(fn, thisArg);
  }

  override entries(): MapIterator<[string, V]> {
    this.#loadAll();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.#loadAll();
    return super.keys();
  }

  override values(): MapIterator<V> {
    this.#loadAll();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }
}
