/**
 * The screening index as one compact binary object (src/lib/pack.ts), so that a new isolate loads what
 * another one built in one R2 read instead of reading every listed entry from D1 and normalizing and
 * latinizing every name again. What is stored is the index's parts (ScreenIndex.parts), every one of them a
 * typed array: the names, words, keys, trigrams, skeletons, exact names and identifiers as string tables
 * (src/lib/string-table.ts) beside the flat id lists. Restoring is therefore views on the object and a pass
 * of checks, with nothing to parse: a restored index answers exactly like the built one. `extra` carries what
 * the caller read beside the entries (the lists' versions, the data source), the one JSON part. Pure: the
 * module service does the I/O.
 */

import { restoredOffsets, storedOffsets } from "../../lib/offsets";
import { type PackedArray, pack, unpack } from "../../lib/pack";
import { HashedKeys, readTable, type StringTable, storeTable } from "../../lib/string-table";
import { ENTRY_TYPES, type IdArray, type IndexParts, ScreenIndex } from "./index";

/** Bump when the layout below or the parts' meaning changes: older objects are then refused and rebuilt. */
const KIND = "screen-index/9";

interface Meta<X> {
  listCodes: string[];
  /** The first low-quality alias among the names (IndexParts.weakFrom). */
  weakFrom: number;
  extra: X;
}

type TableName = "entryIds" | "nameText" | "norms" | "keys" | "grams" | "skeletons" | "identifiers" | "identifierShown";
const TABLES: readonly TableName[] = [
  "entryIds",
  "nameText",
  "norms",
  "keys",
  "grams",
  "skeletons",
  "identifiers",
  "identifierShown",
];

/** Offsets into the id lists (Int32Array). */
type OffsetName = "nameTokStart" | "exactStart" | "postingStart" | "gramStart" | "skeletonStart" | "identifierStart";
const OFFSETS: readonly OffsetName[] = [
  "nameTokStart",
  "exactStart",
  "postingStart",
  "gramStart",
  "skeletonStart",
  "identifierStart",
];
/** Ids (Uint16Array while they fit, else Int32Array: IdArray). */
type IdName =
  | "nameEntry"
  | "nameTokIds"
  | "exactIds"
  | "normKey"
  | "postingIds"
  | "gramIds"
  | "skeletonIds"
  | "identifierIds";
const IDS: readonly IdName[] = [
  "nameEntry",
  "nameTokIds",
  "exactIds",
  "normKey",
  "postingIds",
  "gramIds",
  "skeletonIds",
  "identifierIds",
];

/** The index and `extra`, stamped with the dataset version they were built from. */
export function serializeScreenIndex<X>(index: ScreenIndex, extra: X, version: string): Uint8Array {
  const p = index.parts;
  const arrays: Record<string, PackedArray> = { entryList: p.entryList, entryType: p.entryType };
  for (const name of OFFSETS) arrays[name] = storedOffsets(p[name]);
  for (const name of IDS) arrays[name] = p[name];
  for (const name of TABLES) storeTable(arrays, name, p[name]);
  const exact = p.exact.arrays();
  arrays["exact.hashes"] = exact.hashes;
  arrays["exact.slots"] = exact.slots;
  const meta: Meta<X> = { listCodes: p.listCodes, weakFrom: p.weakFrom, extra };
  return pack(KIND, version, meta, arrays);
}

/** Offsets of `slots` lists over `total` ids: non-decreasing, from 0 to `total`. */
function offsetsFit(start: Int32Array, slots: number, total: number): boolean {
  if (start.length !== slots + 1 || start[0] !== 0 || start[slots] !== total) return false;
  for (let i = 0; i < slots; i++) if ((start[i] as number) > (start[i + 1] as number)) return false;
  return true;
}

/** Every id is an index below `size`. */
function within(ids: IdArray, size: number): boolean {
  for (let i = 0; i < ids.length; i++) if ((ids[i] as number) < 0 || (ids[i] as number) >= size) return false;
  return true;
}

/** The index again, or why the object was refused (another layout or version, arrays that do not fit). */
export function deserializeScreenIndex<X>(
  buffer: ArrayBuffer,
  version: string,
): { index: ScreenIndex; extra: X } | { refused: string } {
  const unpacked = unpack(buffer, KIND, version);
  if ("refused" in unpacked) return unpacked;
  const meta = unpacked.meta as Meta<X>;
  const a = unpacked.arrays;
  // Views on the object, not copies: every byte of it is index.
  const ints = {} as Record<OffsetName, Int32Array> & Record<IdName, IdArray>;
  for (const name of OFFSETS) {
    const v = a[name];
    if (!(v instanceof Int32Array || v instanceof Uint8Array)) return { refused: `array ${name} is missing` };
    ints[name] = restoredOffsets(v);
  }
  for (const name of IDS) {
    const v = a[name];
    if (!(v instanceof Int32Array || v instanceof Uint16Array)) return { refused: `array ${name} is missing` };
    ints[name] = v;
  }
  const tables = {} as Record<TableName, StringTable>;
  for (const name of TABLES) {
    const table = readTable(a, name);
    if ("refused" in table) return table;
    tables[name] = table;
  }
  const [exactHashes, exactSlots] = [a["exact.hashes"], a["exact.slots"]];
  const exact =
    exactHashes instanceof Uint32Array && (exactSlots instanceof Uint16Array || exactSlots instanceof Int32Array)
      ? HashedKeys.restore({ hashes: exactHashes, slots: exactSlots })
      : null;
  if (!exact) return { refused: "exact names are missing or damaged" };
  const { entryList, entryType } = a;
  if (!(entryList instanceof Uint8Array) || !(entryType instanceof Uint8Array) || !Array.isArray(meta.listCodes))
    return { refused: "entries are missing" };
  const entries = tables.entryIds.length;
  const names = ints.nameEntry.length;
  const words = tables.norms.length;
  const keys = tables.keys.length;
  const bad =
    entryList.length !== entries ||
    entryType.length !== entries ||
    entryList.some((l) => l >= meta.listCodes.length) ||
    entryType.some((t) => t >= ENTRY_TYPES.length) ||
    tables.nameText.length !== names ||
    !Number.isInteger(meta.weakFrom) ||
    meta.weakFrom < 0 ||
    meta.weakFrom > names ||
    ints.normKey.length !== words ||
    tables.identifierShown.length !== ints.identifierIds.length ||
    !offsetsFit(ints.nameTokStart, names, ints.nameTokIds.length) ||
    !offsetsFit(ints.exactStart, exact.length, ints.exactIds.length) ||
    !offsetsFit(ints.postingStart, keys, ints.postingIds.length) ||
    !offsetsFit(ints.gramStart, tables.grams.length, ints.gramIds.length) ||
    !offsetsFit(ints.skeletonStart, tables.skeletons.length, ints.skeletonIds.length) ||
    !offsetsFit(ints.identifierStart, tables.identifiers.length, ints.identifierIds.length) ||
    !within(ints.nameEntry, entries) ||
    !within(ints.nameTokIds, words) ||
    !within(ints.exactIds, names) ||
    !within(ints.normKey, keys) ||
    !within(ints.postingIds, names) ||
    !within(ints.gramIds, keys) ||
    !within(ints.skeletonIds, keys) ||
    !within(ints.identifierIds, entries);
  if (bad) return { refused: "arrays do not fit the names and keys" };
  const parts: IndexParts = {
    ...ints,
    ...tables,
    exact,
    entryList,
    entryType,
    listCodes: meta.listCodes,
    weakFrom: meta.weakFrom,
  };
  return { index: ScreenIndex.fromParts(parts), extra: meta.extra };
}
