/**
 * Prebuilt indexes in R2: a new isolate reads the index another isolate built for the same dataset version in
 * one R2 get, instead of reading the dataset's rows from D1 and building it again. The first isolate that
 * builds a version stores it after answering (waitUntil), and every later cold isolate reads it.
 *
 * One object per dataset version and import: `indexes/{dataset}/{version}@{imported_at}.bin`, so a reload of
 * the same version under a new import time never reads the old build. The engine's own decoder checks the
 * object's layout and dataset version; an object it refuses (another layout, a damaged or mismatched one) is
 * ignored, the index is built from D1 and the object replaced. R2 failures fall back the same way: the
 * prebuilt index is an optimisation, never a dependency.
 *
 * A large index may keep named parts in objects of their own beside the main one
 * (`indexes/{dataset}/{version}@{imported_at}/{part}.bin`), which a request reads only when it needs them
 * (`readPart`): the bytes a cold isolate waits for are then the ones its request uses. They are stored before
 * the main object, so a stored main object means its parts were stored too.
 *
 * Each build is also stored as the dataset's current objects (`indexes/{dataset}/current.bin`, and
 * `current/{part}.bin`). A new isolate does not know the version before it reads it from D1, but it can read
 * the current objects at the same time (`speculate`): when the version they are stamped with is the one D1
 * names, the index arrives in the time of one round trip instead of two. Otherwise (a version just
 * activated, a part overwritten meanwhile) the decoder refuses them and the versioned objects are read.
 */

export const prebuiltIndexKey = (dataset: string, versionKey: string): string => `indexes/${dataset}/${versionKey}.bin`;
export const prebuiltPartKey = (dataset: string, versionKey: string, part: string): string =>
  `indexes/${dataset}/${versionKey}/${part}.bin`;
const CURRENT = "current";

/** Reads of a dataset's current objects, started before its version is known. */
export interface Speculation {
  main: Promise<ArrayBuffer | null>;
  parts: Map<string, Promise<ArrayBuffer | null>>;
}

/** Starts reading the dataset's current main object and `parts` (see the module comment). */
export function speculate(bucket: R2Bucket, dataset: string, parts: readonly string[] = []): Speculation {
  return {
    main: readObject(bucket, prebuiltIndexKey(dataset, CURRENT)),
    parts: new Map(parts.map((part) => [part, readObject(bucket, prebuiltPartKey(dataset, CURRENT, part))])),
  };
}

/** An object's bytes, or null when it is absent or R2 fails (a prebuilt index is never a dependency). */
async function readObject(bucket: R2Bucket, key: string): Promise<ArrayBuffer | null> {
  try {
    const object = await bucket.get(key);
    return object ? await object.arrayBuffer() : null;
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index unreadable", key, error: String(err) }));
    return null;
  }
}

export interface PrebuiltIndex<T> {
  bucket: R2Bucket;
  dataset: string;
  /** `{version}@{imported_at}`: also the version stamped in the object. */
  versionKey: string;
  build: () => Promise<T>;
  encode: (value: T, versionKey: string) => Uint8Array;
  decode: (buffer: ArrayBuffer, versionKey: string) => T | { refused: string };
  /** The current main object, when a read of it was started before the version was known. */
  early?: Promise<ArrayBuffer | null> | undefined;
  /** Parts stored in objects of their own: their names for a value, and each one's bytes. */
  parts?: {
    names: (value: T) => string[];
    encode: (value: T, part: string, versionKey: string) => Uint8Array;
  };
}

/** The stored index for the version, or the one `build` makes (then stored in the background). */
export async function loadPrebuilt<T extends object>(spec: PrebuiltIndex<T>): Promise<T> {
  const key = prebuiltIndexKey(spec.dataset, spec.versionKey);
  // The current object may be another version's (quietly passed over); the versioned one should decode.
  const early = spec.early ? await spec.early : null;
  const current = early ? usable(spec, early, prebuiltIndexKey(spec.dataset, CURRENT), false) : null;
  if (current) return current;
  const buffer = await readObject(spec.bucket, key);
  const stored = buffer ? usable(spec, buffer, key, true) : null;
  if (stored) return stored;
  const built = await spec.build();
  // Imported here, not at the top: the module is also loaded outside workerd (the OpenAPI lint builds the app in
  // Node), where "cloudflare:workers" does not exist and nothing is ever stored.
  const { waitUntil } = await import("cloudflare:workers");
  waitUntil(store(spec, key, built));
  return built;
}

/** The decoded index, or null when the decoder refuses the bytes or fails on them (then logged if `report`). */
function usable<T extends object>(spec: PrebuiltIndex<T>, buffer: ArrayBuffer, key: string, report: boolean): T | null {
  try {
    const decoded = spec.decode(buffer, spec.versionKey);
    if (!("refused" in decoded)) return decoded;
    if (report)
      console.warn(JSON.stringify({ msg: "prebuilt index refused; building from D1", key, reason: decoded.refused }));
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index unreadable; building from D1", key, error: String(err) }));
  }
  return null;
}

/** A part's stored bytes, or null (not stored, or R2 failed: the caller then builds it). */
export const readPart = (bucket: R2Bucket, dataset: string, versionKey: string, part: string) =>
  readObject(bucket, prebuiltPartKey(dataset, versionKey, part));

/** Stores one part under its version and as the current one: failures are logged, never raised. */
export async function storePart(
  bucket: R2Bucket,
  dataset: string,
  versionKey: string,
  part: string,
  bytes: Uint8Array,
): Promise<void> {
  for (const key of [prebuiltPartKey(dataset, versionKey, part), prebuiltPartKey(dataset, CURRENT, part)])
    await putObject(bucket, key, bytes);
}

async function putObject(bucket: R2Bucket, key: string, bytes: Uint8Array): Promise<void> {
  try {
    await bucket.put(key, bytes, { httpMetadata: { contentType: "application/octet-stream" } });
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index not stored", key, error: String(err) }));
  }
}

async function store<T>(spec: PrebuiltIndex<T>, key: string, value: T): Promise<void> {
  // Encoding takes a while for a large index: yield first, so it runs after the response is sent instead of
  // before it (an async function runs synchronously up to its first await).
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (const part of spec.parts?.names(value) ?? [])
    await storePart(
      spec.bucket,
      spec.dataset,
      spec.versionKey,
      part,
      spec.parts?.encode(value, part, spec.versionKey) as Uint8Array,
    );
  const bytes = spec.encode(value, spec.versionKey);
  await putObject(spec.bucket, key, bytes);
  await putObject(spec.bucket, prebuiltIndexKey(spec.dataset, CURRENT), bytes);
}
