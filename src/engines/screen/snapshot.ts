/**
 * The screening index as one compact binary object (src/lib/pack.ts), so that a new isolate loads what
 * another one built in one R2 read instead of reading every listed entry from D1 and normalizing and
 * latinizing every name again. What is stored is the index's parts (ScreenIndex.parts: the names, their
 * normalized words, the exact-match keys and the identifiers); the lookup tables are derived from them on
 * load, in the same order, so a restored index answers exactly like the built one. `extra` carries what the
 * caller read beside the entries (the lists' versions, the data source). Pure: the module service does the I/O.
 */
import { type PackedArray, pack, unpack } from "../../lib/pack";
import { type EntryType, type IndexParts, ScreenIndex } from "./index";

/** Bump when the layout below or the parts' meaning changes: older objects are then refused and rebuilt. */
const KIND = "screen-index/3";

interface Meta<X> {
  entries: [string, string, EntryType][];
  nameText: string[];
  norms: string[];
  exact: [string, number[]][];
  identifiers: [string, number[]][];
  identifierDisplay: [string, string][];
  keys: string[];
  grams: string[];
  skeletons: string[];
  extra: X;
}

/** The index and `extra`, stamped with the dataset version they were built from. */
export function serializeScreenIndex<X>(index: ScreenIndex, extra: X, version: string): Uint8Array {
  const p = index.parts;
  const meta: Meta<X> = {
    entries: p.entries.map((e) => [e.id, e.listCode, e.entryType]),
    nameText: p.nameText,
    norms: p.norms,
    exact: p.exact,
    identifiers: p.identifiers,
    identifierDisplay: p.identifierDisplay,
    keys: p.keys,
    grams: p.grams,
    skeletons: p.skeletons,
    extra,
  };
  const arrays: Record<string, PackedArray> = {
    nameEntry: p.nameEntry,
    nameTokStart: p.nameTokStart,
    nameTokIds: p.nameTokIds,
    normKey: p.normKey,
    postingStart: p.postingStart,
    postingIds: p.postingIds,
    gramStart: p.gramStart,
    gramIds: p.gramIds,
    skeletonStart: p.skeletonStart,
    skeletonIds: p.skeletonIds,
  };
  return pack(KIND, version, meta, arrays);
}

/** Offsets of `slots` lists over `total` ids: non-decreasing, from 0 to `total`. */
function offsetsFit(start: Int32Array, slots: number, total: number): boolean {
  if (start.length !== slots + 1 || start[0] !== 0 || start[slots] !== total) return false;
  for (let i = 0; i < slots; i++) if ((start[i] as number) > (start[i + 1] as number)) return false;
  return true;
}

/** Every id is an index below `size`. */
function within(ids: Int32Array, size: number): boolean {
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
  const int = (name: string): Int32Array | null => {
    const v = a[name];
    return v instanceof Int32Array ? v.slice() : null; // copies: the object's buffer is not kept alive by views
  };
  const names = meta.nameText.length;
  const [nameEntry, nameTokStart, nameTokIds, normKey] = [
    int("nameEntry"),
    int("nameTokStart"),
    int("nameTokIds"),
    int("normKey"),
  ];
  const [postingStart, postingIds, gramStart, gramIds, skeletonStart, skeletonIds] = [
    int("postingStart"),
    int("postingIds"),
    int("gramStart"),
    int("gramIds"),
    int("skeletonStart"),
    int("skeletonIds"),
  ];
  if (
    !nameEntry ||
    !nameTokStart ||
    !nameTokIds ||
    !normKey ||
    !postingStart ||
    !postingIds ||
    !gramStart ||
    !gramIds ||
    !skeletonStart ||
    !skeletonIds
  )
    return { refused: "an array is missing" };
  const bad =
    nameEntry.length !== names ||
    !offsetsFit(nameTokStart, names, nameTokIds.length) ||
    !offsetsFit(postingStart, meta.keys.length, postingIds.length) ||
    !offsetsFit(gramStart, meta.grams.length, gramIds.length) ||
    !offsetsFit(skeletonStart, meta.skeletons.length, skeletonIds.length) ||
    normKey.length !== meta.norms.length ||
    !within(nameEntry, meta.entries.length) ||
    !within(nameTokIds, meta.norms.length) ||
    !within(normKey, meta.keys.length) ||
    !within(postingIds, names) ||
    !within(gramIds, meta.keys.length) ||
    !within(skeletonIds, meta.keys.length);
  if (bad) return { refused: "arrays do not fit the names and keys" };
  const parts: IndexParts = {
    entries: meta.entries.map(([id, listCode, entryType]) => ({ id, listCode, entryType })),
    nameEntry,
    nameText: meta.nameText,
    norms: meta.norms,
    nameTokStart,
    nameTokIds,
    exact: meta.exact,
    identifiers: meta.identifiers,
    identifierDisplay: meta.identifierDisplay,
    keys: meta.keys,
    normKey,
    postingStart,
    postingIds,
    grams: meta.grams,
    gramStart,
    gramIds,
    skeletons: meta.skeletons,
    skeletonStart,
    skeletonIds,
  };
  return { index: ScreenIndex.fromParts(parts), extra: meta.extra };
}
