/**
 * A list of strings stored as typed arrays: the UTF-8 bytes of all of them end to end, the offsets where each
 * begins, and (optionally) an open-addressing hash table from string to position. A prebuilt index stores it
 * as raw bytes (src/lib/pack.ts), so a new isolate restores it with zero-copy views instead of parsing
 * megabytes of JSON and filling Maps, which was most of a cold screening or classification request. A string
 * is made from its characters when first read and kept; a lookup hashes the query and compares characters in
 * place.
 *
 * Written here rather than taken from a library: what it must do is fit the pack container (typed arrays
 * only) and restore without work, which the general-purpose string maps and tries on npm do not.
 */

import { restoredOffsets, storedOffsets } from "./offsets";
import type { PackedArray } from "./pack";

export interface StringTableArrays {
  /** The strings' UTF-8 bytes, end to end. */
  chars: Uint8Array<ArrayBufferLike>;
  /** `start[i] .. start[i + 1]` are string i's bytes; length = count + 1. */
  start: Int32Array<ArrayBufferLike>;
  /**
   * Hash slots holding position + 1 (0 = empty), a power of two in length and at most three quarters full;
   * two bytes each while the positions fit. Empty when not searchable.
   */
  slots: Int32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * UTF-8 bytes of `s`. Most keys are ASCII, whose bytes are their char codes: that case skips the encoder.
 * UTF-8 rather than UTF-16: names in Latin letters (most of every list) take half the bytes, and the bytes of
 * a stored index are what a cold isolate waits for.
 */
function utf8(s: string): Uint8Array {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return encoder.encode(s);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** FNV-1a over bytes: cheap on the short keys these tables hold, and the same in every isolate. */
function hashAt(bytes: Uint8Array<ArrayBufferLike>, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

export class StringTable {
  readonly length: number;
  private readonly made: (string | undefined)[];

  private constructor(private readonly a: StringTableArrays) {
    this.length = a.start.length - 1;
    this.made = new Array<string | undefined>(this.length);
  }

  /**
   * A table of `strings` in their order. `searchable` adds the hash slots for `find`; where a string occurs
   * twice, `find` answers its first position.
   */
  static of(strings: readonly string[], { searchable = true } = {}): StringTable {
    const start = new Int32Array(strings.length + 1);
    const encoded = strings.map(utf8);
    let total = 0;
    encoded.forEach((bytes, i) => {
      total += bytes.length;
      start[i + 1] = total;
    });
    const chars = new Uint8Array(total);
    encoded.forEach((bytes, i) => {
      chars.set(bytes, start[i] as number);
    });
    let slots: StringTableArrays["slots"] = new Int32Array(0);
    if (searchable) {
      let size = 2;
      while (size * 3 < strings.length * 4) size *= 2;
      slots = strings.length < 0xffff ? new Uint16Array(size) : new Int32Array(size);
      const mask = size - 1;
      for (let i = 0; i < strings.length; i++) {
        let p = hashAt(chars, start[i] as number, start[i + 1] as number) & mask;
        let taken = false;
        while (slots[p] !== 0) {
          if (equalAt(chars, start, (slots[p] as number) - 1, encoded[i] as Uint8Array)) taken = true;
          p = (p + 1) & mask;
        }
        if (!taken) slots[p] = i + 1;
      }
    }
    return new StringTable({ chars, start, slots });
  }

  /** A table from stored arrays, or null when they do not describe one (a damaged or foreign object). */
  static restore(a: StringTableArrays): StringTable | null {
    const { chars, start, slots } = a;
    if (start.length < 1 || start[0] !== 0 || start[start.length - 1] !== chars.length) return null;
    for (let i = 1; i < start.length; i++) if ((start[i] as number) < (start[i - 1] as number)) return null;
    const count = start.length - 1;
    if (slots.length) {
      // A power of two with an empty slot left, or a lookup of an absent string would never stop probing.
      if ((slots.length & (slots.length - 1)) !== 0 || slots.length <= count) return null;
      let empty = 0;
      for (let i = 0; i < slots.length; i++) {
        const v = slots[i] as number;
        if (v < 0 || v > count) return null;
        if (v === 0) empty++;
      }
      if (!empty) return null;
    }
    return new StringTable(a);
  }

  /** What `restore` takes back (for storing). */
  arrays(): StringTableArrays {
    return this.a;
  }

  /** String `i` (undefined outside the table). */
  at(i: number): string | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    let s = this.made[i];
    if (s === undefined) {
      const bytes = this.a.chars.subarray(this.a.start[i] as number, this.a.start[i + 1] as number);
      let ascii = true;
      for (let k = 0; k < bytes.length && ascii; k++) if ((bytes[k] as number) > 0x7f) ascii = false;
      if (ascii) {
        // Chunked: fromCharCode.apply takes its arguments on the stack.
        s = "";
        for (let k = 0; k < bytes.length; k += 4096)
          s += String.fromCharCode.apply(null, bytes.subarray(k, k + 4096) as unknown as number[]);
      } else s = decoder.decode(bytes);
      this.made[i] = s;
    }
    return s;
  }

  /** The position of `s`, or -1 (always -1 in a table made without `searchable`). */
  find(s: string): number {
    const { chars, start, slots } = this.a;
    if (!slots.length) return -1;
    const bytes = utf8(s);
    const mask = slots.length - 1;
    for (let p = hashAt(bytes, 0, bytes.length) & mask; ; p = (p + 1) & mask) {
      const v = slots[p] as number;
      if (v === 0) return -1;
      if (equalAt(chars, start, v - 1, bytes)) return v - 1;
    }
  }

  has(s: string): boolean {
    return this.find(s) >= 0;
  }

  /** Every string, in order. */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i) as string);
  }
}

function equalAt(
  chars: Uint8Array<ArrayBufferLike>,
  start: Int32Array<ArrayBufferLike>,
  i: number,
  bytes: Uint8Array,
): boolean {
  const from = start[i] as number;
  if ((start[i + 1] as number) - from !== bytes.length) return false;
  for (let k = 0; k < bytes.length; k++) if (chars[from + k] !== bytes[k]) return false;
  return true;
}

/**
 * Positions of strings by their hash alone, the strings themselves not kept: for keys a caller can make again
 * from what it holds anyway, to confirm a candidate (a listed name's exact-match key is its normalized text).
 * A fifth of the bytes of a StringTable of the same keys.
 */
export class HashedKeys {
  private constructor(
    private readonly hashes: Uint32Array<ArrayBufferLike>,
    private readonly slots: Int32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike>,
  ) {}

  static of(strings: readonly string[]): HashedKeys {
    const hashes = Uint32Array.from(strings, (s) => {
      const bytes = utf8(s);
      return hashAt(bytes, 0, bytes.length);
    });
    let size = 2;
    while (size * 3 < strings.length * 4) size *= 2;
    const slots = strings.length < 0xffff ? new Uint16Array(size) : new Int32Array(size);
    const mask = size - 1;
    hashes.forEach((h, i) => {
      let p = h & mask;
      while (slots[p] !== 0) p = (p + 1) & mask;
      slots[p] = i + 1;
    });
    return new HashedKeys(hashes, slots);
  }

  /** Keys from stored arrays, or null when they do not describe any (see StringTable.restore). */
  static restore(a: {
    hashes: Uint32Array<ArrayBufferLike>;
    slots: Int32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike>;
  }): HashedKeys | null {
    const { hashes, slots } = a;
    if ((slots.length & (slots.length - 1)) !== 0 || slots.length <= hashes.length) return null;
    let empty = 0;
    for (let i = 0; i < slots.length; i++) {
      const v = slots[i] as number;
      if (v < 0 || v > hashes.length) return null;
      if (v === 0) empty++;
    }
    return empty ? new HashedKeys(hashes, slots) : null;
  }

  arrays(): {
    hashes: Uint32Array<ArrayBufferLike>;
    slots: Int32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike>;
  } {
    return { hashes: this.hashes, slots: this.slots };
  }

  get length(): number {
    return this.hashes.length;
  }

  /** Positions whose key hashes as `s` does: the one holding `s` if any, rarely another; confirm each. */
  candidates(s: string): number[] {
    const bytes = utf8(s);
    const h = hashAt(bytes, 0, bytes.length);
    const mask = this.slots.length - 1;
    const out: number[] = [];
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const v = this.slots[p] as number;
      if (v === 0) return out;
      if (this.hashes[v - 1] === h) out.push(v - 1);
    }
  }
}

/** Adds `table` to a pack container's arrays as `{name}.chars`, `.start` (offsets as stored) and `.slots`. */
export function storeTable(arrays: Record<string, PackedArray>, name: string, table: StringTable): void {
  const t = table.arrays();
  arrays[`${name}.chars`] = t.chars;
  arrays[`${name}.start`] = storedOffsets(t.start);
  arrays[`${name}.slots`] = t.slots;
}

/** The table `storeTable` added under `name`, or why it cannot be used (missing, or arrays that do not fit). */
export function readTable(arrays: Record<string, PackedArray>, name: string): StringTable | { refused: string } {
  const [chars, start, slots] = [arrays[`${name}.chars`], arrays[`${name}.start`], arrays[`${name}.slots`]];
  const startFits = start instanceof Int32Array || start instanceof Uint8Array;
  const slotsFit = slots instanceof Int32Array || slots instanceof Uint16Array;
  if (!(chars instanceof Uint8Array) || !startFits || !slotsFit) return { refused: `table ${name} is missing` };
  return (
    StringTable.restore({ chars, start: restoredOffsets(start), slots }) ?? { refused: `table ${name} is damaged` }
  );
}
