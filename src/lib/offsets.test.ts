/** Offsets stored as one-byte lengths when the lists are short, and the same offsets read back. */
import { describe, expect, it } from "vitest";
import { restoredOffsets, storedOffsets } from "./offsets";

describe("stored offsets", () => {
  it("stores short lists as byte lengths and reads the offsets back", () => {
    const start = Int32Array.from([0, 3, 3, 258, 260]);
    const stored = storedOffsets(start);
    expect(stored).toEqual(Uint8Array.from([3, 0, 255, 2]));
    expect(restoredOffsets(stored)).toEqual(start);
  });
  it("keeps the offsets when a list is too long for a byte", () => {
    const start = Int32Array.from([0, 1, 257]);
    expect(storedOffsets(start)).toBe(start);
    expect(restoredOffsets(start)).toBe(start);
  });
  it("keeps offsets that go back, for the reader's checks to refuse", () => {
    const start = Int32Array.from([0, 5, 2]);
    expect(storedOffsets(start)).toBe(start);
  });
  it("handles no lists at all", () => {
    expect(restoredOffsets(storedOffsets(Int32Array.from([0])))).toEqual(Int32Array.from([0]));
  });
});
