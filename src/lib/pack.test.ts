/** The binary container of the prebuilt indexes: round trip, ASCII header, refusals. */
import { describe, expect, it } from "vitest";
import { pack, unpack } from "./pack";

const copy = (bytes: Uint8Array): ArrayBuffer => Uint8Array.from(bytes).buffer;

describe("pack", () => {
  it("round-trips meta in any script and the typed arrays; the header is pure ASCII", () => {
    const meta = { names: ["ГАЗПРОМБАНК", "حزب الله", "金正恩", "Ødegård", "emoji 😀"], n: 3 };
    const arrays = { ids: Int32Array.from([1, -2, 3]), w: Float64Array.from([0.5]) };
    const bytes = pack("test/1", "v1", meta, arrays);
    const headerLength = new DataView(bytes.buffer).getUint32(8, true);
    expect(bytes.subarray(12, 12 + headerLength).every((b) => b < 0x80)).toBe(true);
    const back = unpack(copy(bytes), "test/1", "v1");
    if ("refused" in back) throw new Error(back.refused);
    expect(back.meta).toEqual(meta);
    expect([...(back.arrays.ids as Int32Array)]).toEqual([1, -2, 3]);
    expect([...(back.arrays.w as Float64Array)]).toEqual([0.5]);
  });

  it("refuses another kind, another version or a truncated object", () => {
    const bytes = pack("test/1", "v1", {}, { a: Int32Array.from([1]) });
    expect(unpack(copy(bytes), "test/2", "v1")).toHaveProperty("refused");
    expect(unpack(copy(bytes), "test/1", "v2")).toHaveProperty("refused");
    expect(unpack(copy(bytes.subarray(0, bytes.length - 4)), "test/1", "v1")).toHaveProperty("refused");
  });
});
