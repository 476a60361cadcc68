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
 */

export const prebuiltIndexKey = (dataset: string, versionKey: string): string => `indexes/${dataset}/${versionKey}.bin`;
export const prebuiltPartKey = (dataset: string, versionKey: string, part: string): string =>
  `indexes/${dataset}/${versionKey}/${part}.bin`;

export interface PrebuiltIndex<T> {
  bucket: R2Bucket;
  dataset: string;
  /** `{version}@{imported_at}`: also the version stamped in the object. */
  versionKey: string;
  build: () => Promise<T>;
  encode: (value: T, versionKey: string) => Uint8Array;
  decode: (buffer: ArrayBuffer, versionKey: string) => T | { refused: string };
  /** Parts stored in objects of their own: their names for a value, and each one's bytes. */
  parts?: {
    names: (value: T) => string[];
    encode: (value: T, part: string, versionKey: string) => Uint8Array;
  };
}

/** The stored index for the version, or the one `build` makes (then stored in the background). */
export async function loadPrebuilt<T extends object>(spec: PrebuiltIndex<T>): Promise<T> {
  const key = prebuiltIndexKey(spec.dataset, spec.versionKey);
  const stored = await readStored(spec, key);
  if (stored) return stored;
  const built = await spec.build();
  // Imported here, not at the top: the module is also loaded outside workerd (the OpenAPI lint builds the app in
  // Node), where "cloudflare:workers" does not exist and nothing is ever stored.
  const { waitUntil } = await import("cloudflare:workers");
  waitUntil(store(spec, key, built));
  return built;
}

async function readStored<T extends object>(spec: PrebuiltIndex<T>, key: string): Promise<T | null> {
  try {
    const object = await spec.bucket.get(key);
    if (!object) return null;
    const decoded = spec.decode(await object.arrayBuffer(), spec.versionKey);
    if (!("refused" in decoded)) return decoded;
    console.warn(JSON.stringify({ msg: "prebuilt index refused; building from D1", key, reason: decoded.refused }));
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index unreadable; building from D1", key, error: String(err) }));
  }
  return null;
}

/** A part's stored bytes, or null (not stored, or R2 failed: the caller then builds it). */
export async function readPart(
  bucket: R2Bucket,
  dataset: string,
  versionKey: string,
  part: string,
): Promise<ArrayBuffer | null> {
  const key = prebuiltPartKey(dataset, versionKey, part);
  try {
    const object = await bucket.get(key);
    return object ? await object.arrayBuffer() : null;
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index part unreadable; building from D1", key, error: String(err) }));
    return null;
  }
}

/** Stores one part (after a request had to build it): failures are logged, never raised. */
export async function storePart(
  bucket: R2Bucket,
  dataset: string,
  versionKey: string,
  part: string,
  bytes: Uint8Array,
): Promise<void> {
  const key = prebuiltPartKey(dataset, versionKey, part);
  try {
    await bucket.put(key, bytes, { httpMetadata: { contentType: "application/octet-stream" } });
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index part not stored", key, error: String(err) }));
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
  try {
    await spec.bucket.put(key, spec.encode(value, spec.versionKey), {
      httpMetadata: { contentType: "application/octet-stream" },
    });
  } catch (err) {
    console.warn(JSON.stringify({ msg: "prebuilt index not stored", key, error: String(err) }));
  }
}
