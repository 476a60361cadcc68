/**
 * Offsets of flat lists (`start[i] .. start[i + 1]` is list i) as stored: the lists' lengths, one byte each
 * when every list is shorter than 256, else the offsets themselves. A stored index is read whole by a cold
 * isolate, so its size is time; most of its lists (a name's words, a key's names, a word's letters) are short,
 * and the running sum that turns lengths back into offsets costs a new isolate about a millisecond.
 */

/** `start` as stored: lengths in bytes when they all fit, else `start` unchanged. */
export function storedOffsets(start: Int32Array<ArrayBufferLike>): Int32Array<ArrayBufferLike> | Uint8Array {
  const lengths = new Uint8Array(Math.max(0, start.length - 1));
  for (let i = 0; i < lengths.length; i++) {
    const n = (start[i + 1] as number) - (start[i] as number);
    if (n < 0 || n > 0xff) return start;
    lengths[i] = n;
  }
  return lengths;
}

/** The offsets again from what `storedOffsets` wrote (offsets are returned as they are). */
export function restoredOffsets(
  stored: Int32Array<ArrayBufferLike> | Uint8Array<ArrayBufferLike>,
): Int32Array<ArrayBufferLike> {
  if (stored instanceof Int32Array) return stored;
  const start = new Int32Array(stored.length + 1);
  let total = 0;
  for (let i = 0; i < stored.length; i++) {
    total += stored[i] as number;
    start[i + 1] = total;
  }
  return start;
}
