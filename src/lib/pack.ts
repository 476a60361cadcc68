/**
 * A compact binary container for a prebuilt in-memory index: a JSON part (strings, small numbers, structure)
 * and typed arrays stored as their raw bytes, so reading one back is one JSON.parse plus zero-copy views.
 *
 * Layout (little-endian): "TCPK", u32 format, u32 header length, the header as UTF-8 JSON
 * `{ kind, version, body, meta, arrays: [name, type, offset, length][] }` (body: the arrays' section length), zero padding to 8 bytes, then the
 * arrays, each at an 8-byte aligned offset from the start of that section. `kind` names what was packed (and
 * its own layout version), `version` the dataset version it was built from: `unpack` refuses a container
 * whose magic, format, kind, version or size differs, or whose arrays fall outside it, so a stale or damaged
 * object is rebuilt rather than trusted. Typed arrays are written in the platform's byte order, little-endian
 * on every host Workers run on.
 */
const MAGIC = 0x4b504354; // "TCPK" read as a little-endian u32
const FORMAT = 1;
const PRELUDE = 12;

const TYPES = {
  i32: Int32Array,
  u32: Uint32Array,
  u16: Uint16Array,
  u8: Uint8Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;
type TypeName = keyof typeof TYPES;
export type PackedArray =
  | Int32Array<ArrayBufferLike>
  | Uint32Array<ArrayBufferLike>
  | Uint16Array<ArrayBufferLike>
  | Uint8Array<ArrayBufferLike>
  | Float32Array<ArrayBufferLike>
  | Float64Array<ArrayBufferLike>;

const align8 = (n: number) => (n + 7) & ~7;

function typeOf(a: PackedArray): TypeName {
  for (const [name, ctor] of Object.entries(TYPES)) if (a instanceof ctor) return name as TypeName;
  throw new Error("unsupported typed array");
}

/**
 * JSON with every character above U+007F written as a `\uXXXX` escape, so the header is pure ASCII. A fresh
 * isolate decodes ASCII bytes on TextDecoder's fast path; bytes of other scripts (the lists' Cyrillic, Arabic
 * and CJK names) took it 300-400 ms per call for a few megabytes in workerd until warm, measured here, against
 * a few ms for the same size in ASCII. JSON.parse reads the escapes back as the same strings.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A JSON value as bytes to store among the arrays: a part of the index parsed only when first needed
 * (`jsonOf`), so a new isolate does not parse what its first requests never read.
 */
export const jsonBytes = (value: unknown): Uint8Array => new TextEncoder().encode(asciiJson(value));

/** The value `jsonBytes` stored. */
export const jsonOf = <T>(bytes: Uint8Array): T => JSON.parse(new TextDecoder().decode(bytes)) as T;

/** Packs `meta` (JSON-serialisable) and the named typed arrays into one buffer. */
export function pack(kind: string, version: string, meta: unknown, arrays: Record<string, PackedArray>): Uint8Array {
  const entries: [string, TypeName, number, number][] = [];
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    entries.push([name, typeOf(a), offset, a.length]);
    offset = align8(offset + a.byteLength);
  }
  const header = new TextEncoder().encode(asciiJson({ kind, version, body: offset, meta, arrays: entries }));
  const bodyStart = align8(PRELUDE + header.length);
  const out = new Uint8Array(bodyStart + offset);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, header.length, true);
  out.set(header, PRELUDE);
  for (const [name, , at] of entries) {
    const a = arrays[name] as PackedArray;
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), bodyStart + at);
  }
  return out;
}

export interface Unpacked {
  meta: unknown;
  arrays: Record<string, PackedArray>;
}

/**
 * The container's meta and arrays (views into `buffer`, not copies), or a reason it cannot be used: another
 * format, kind or dataset version, a truncated or malformed object.
 */
export function unpack(buffer: ArrayBuffer, kind: string, version: string): Unpacked | { refused: string } {
  if (buffer.byteLength < PRELUDE) return { refused: "too short" };
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== MAGIC) return { refused: "not a packed index" };
  if (view.getUint32(4, true) !== FORMAT) return { refused: `format ${view.getUint32(4, true)}` };
  const headerLength = view.getUint32(8, true);
  if (PRELUDE + headerLength > buffer.byteLength) return { refused: "truncated header" };
  let header: { kind?: unknown; version?: unknown; body?: unknown; meta?: unknown; arrays?: unknown };
  try {
    header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, PRELUDE, headerLength)));
  } catch {
    return { refused: "malformed header" };
  }
  if (header.kind !== kind) return { refused: `kind ${String(header.kind)}` };
  if (header.version !== version) return { refused: `version ${String(header.version)}` };
  const bodyStart = align8(PRELUDE + headerLength);
  if (bodyStart + Number(header.body) !== buffer.byteLength) return { refused: "size differs from the header's" };
  if (!Array.isArray(header.arrays)) return { refused: "malformed header" };
  const arrays: Record<string, PackedArray> = {};
  for (const entry of header.arrays as unknown[]) {
    if (!Array.isArray(entry)) return { refused: "malformed header" };
    const [name, type, offset, length] = entry as [unknown, unknown, unknown, unknown];
    const ctor = typeof type === "string" ? TYPES[type as TypeName] : undefined;
    if (typeof name !== "string" || !ctor || !Number.isInteger(offset) || !Number.isInteger(length))
      return { refused: "malformed header" };
    const start = bodyStart + (offset as number);
    if (start % 8 !== 0 || start + (length as number) * ctor.BYTES_PER_ELEMENT > buffer.byteLength)
      return { refused: `array ${name} out of bounds` };
    arrays[name] = new ctor(buffer, start, length as number);
  }
  return { meta: header.meta, arrays };
}
