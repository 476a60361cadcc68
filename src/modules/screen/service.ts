/**
 * Denied-party screening: the per-isolate index over the lists in D1, the screening itself and its evidence
 * row for the usage log. No Hono here.
 *
 * The index is built once per isolate and data version (the `sanctions` row of data_sources: version and
 * imported_at, so a forced reload of the same version counts as new; an activation in the dataset registry
 * rewrites that row in the same batch as the switch). The version is re-read at most every
 * VERSION_CHECK_MS, so a reloaded list is in use everywhere within that time; the first request after a
 * change rebuilds the index (about 0.7-1 s for the full lists) and concurrent requests share that build. The
 * build is then stored in R2 (engines/screen/snapshot.ts), and every later cold isolate restores it from one
 * read instead of building.
 */
import { and, eq, inArray, like, or, sql } from "drizzle-orm";
import type { Call } from "../../core/context";
import type { DataSource } from "../../core/data-source";
import { DatasetCache } from "../../core/dataset-cache";
import { loadPrebuilt, speculate } from "../../core/prebuilt-index";
import { recordUsage } from "../../core/usage";
import type { Db } from "../../db/client";
import { dataSources, datasetVersions, sanctionEntries, sanctionLists } from "../../db/schema/index";
import { type EntryType, type IndexInput, ScreenIndex, type ScreenInput, screen } from "../../engines/screen/index";
import type { Explanation } from "../../engines/screen/score";
import { deserializeScreenIndex, serializeScreenIndex } from "../../engines/screen/snapshot";
import { ApiError } from "../../lib/errors";
import { onDatasetActivated } from "../datasets/service";

const DATASET = "sanctions";
export const VERSION_CHECK_MS = 10_000;

interface ListInfo {
  code: string;
  version: string;
  /** The list's own date (UN/EU/UK files give one), from the registry's validation report. */
  publishedAt: string | null;
}

interface Loaded {
  key: string;
  dataSource: DataSource;
  lists: ListInfo[];
  index: ScreenIndex;
  details: Map<string, EntryDetail>;
}

const indexCache = new DatasetCache<Loaded>("screen-index");

/**
 * The last read of the `sanctions` version. It is trusted for VERSION_CHECK_MS only while the cache still
 * holds the build of that version, so a reset or a failed build re-reads the version at once.
 */
let probe: { key: string; dataSource: DataSource; checkedAt: number } | undefined;

// An activation or rollback in the dataset registry: this isolate reads the new version on its next screen
// instead of after VERSION_CHECK_MS (other isolates follow within that interval).
onDatasetActivated(async (ctx, event) => {
  if (!event.dataset.startsWith("sanctions-")) return;
  probe = undefined;
  // The new lists' index is built and stored as soon as they are active, in the background: the first screen
  // after an activation, on any isolate, then reads it from R2 instead of building it from D1.
  const { waitUntil } = await import("cloudflare:workers");
  waitUntil(
    currentIndex(ctx.db, ctx.deps.clock.now(), ctx.env.ARCHIVE).then(
      () => undefined,
      (err) => console.warn(JSON.stringify({ msg: "screening index not prebuilt", error: String(err) })),
    ),
  );
});

const unavailable = () => new ApiError("unavailable", "No sanctions list is loaded; screening is unavailable");

/**
 * The index for the data currently in D1; 503 when no list is loaded. With the ARCHIVE bucket, a cold isolate
 * reads the index another isolate stored for the same version (one R2 get, core/prebuilt-index.ts) instead of
 * reading every entry from D1 and building it.
 */
export async function currentIndex(db: Db, nowMs: number, bucket?: R2Bucket): Promise<Loaded> {
  // A new isolate reads the current stored index while it asks D1 for the version (core/prebuilt-index.ts).
  const early = bucket && indexCache.version === undefined ? speculate(bucket, DATASET).main : undefined;
  let current = probe;
  if (!current || current.key !== indexCache.version || nowMs - current.checkedAt >= VERSION_CHECK_MS) {
    const [row] = await db.select().from(dataSources).where(eq(dataSources.dataset, DATASET)).limit(1);
    if (!row) throw unavailable();
    const dataSource = { version: row.version, source: row.source, imported_at: row.importedAt };
    current = { key: `${row.version}|${row.importedAt}`, dataSource, checkedAt: nowMs };
    probe = current;
  }
  const { key, dataSource } = current;
  return indexCache.get(key, () =>
    bucket
      ? loadPrebuilt<Loaded>({
          bucket,
          dataset: DATASET,
          versionKey: `${dataSource.version}@${dataSource.imported_at}`,
          early,
          build: () => buildIndex(db, key, dataSource),
          encode: (loaded, versionKey) =>
            serializeScreenIndex(
              loaded.index,
              { key: loaded.key, dataSource: loaded.dataSource, lists: loaded.lists },
              versionKey,
            ),
          decode: (buffer, versionKey) => {
            const restored = deserializeScreenIndex<Pick<Loaded, "key" | "dataSource" | "lists">>(buffer, versionKey);
            return "refused" in restored ? restored : { ...restored.extra, index: restored.index, details: new Map() };
          },
        })
      : buildIndex(db, key, dataSource),
  );
}

/**
 * The active version of every list and its entries, read in one batch: D1 runs a batch as one transaction, so
 * an activation (one batch too, see modules/datasets/service.ts) is seen whole or not at all. The
 * data_sources row read beside them names what was read, whatever the version probe saw before.
 */
async function buildIndex(db: Db, key: string, probed: DataSource): Promise<Loaded> {
  const [lists, rows, sourceRows] = await db.batch([
    db
      .select({
        code: sanctionLists.code,
        version: sanctionLists.version,
        publishedAt: sql<string | null>`json_extract(${datasetVersions.report}, '$.published_at')`,
      })
      .from(sanctionLists)
      .innerJoin(
        datasetVersions,
        and(
          eq(datasetVersions.dataset, sql`'sanctions-' || lower(${sanctionLists.code})`),
          eq(datasetVersions.version, sanctionLists.version),
        ),
      )
      .where(eq(datasetVersions.status, "active"))
      .orderBy(sanctionLists.code),
    db
      .select({
        id: sanctionEntries.id,
        listCode: sanctionEntries.listCode,
        entryType: sanctionEntries.entryType,
        name: sanctionEntries.name,
        altNames: sanctionEntries.altNames,
        remarks: sanctionEntries.remarks,
      })
      .from(datasetVersions)
      .innerJoin(
        sanctionEntries,
        and(
          eq(sanctionEntries.listCode, sql`upper(substr(${datasetVersions.dataset}, 11))`),
          eq(sanctionEntries.listVersion, datasetVersions.version),
        ),
      )
      .where(and(eq(datasetVersions.status, "active"), like(datasetVersions.dataset, "sanctions-%")))
      .orderBy(sanctionEntries.listCode, sanctionEntries.id),
    db.select().from(dataSources).where(eq(dataSources.dataset, DATASET)).limit(1),
  ]);
  if (lists.length === 0) throw unavailable();
  const input: IndexInput[] = rows.map((r) => ({
    id: r.id,
    listCode: r.listCode,
    entryType: r.entryType as EntryType,
    name: r.name,
    altNames: JSON.parse(r.altNames) as string[],
    remarks: r.remarks,
  }));
  const src = sourceRows[0];
  const dataSource = src ? { version: src.version, source: src.source, imported_at: src.importedAt } : probed;
  return { key, dataSource, lists, index: ScreenIndex.build(input), details: new Map() };
}

interface Address {
  address: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  note: string | null;
}

interface EntryDetail {
  name: string;
  alt_names: string[];
  entry_type: EntryType;
  programs: string[];
  addresses: Address[];
  source_ref: string;
  remarks: string | null;
}

interface Match {
  score: number;
  list_code: string;
  /** The listed name or alias the best score came from, and which query (`name` or `company`) hit it. */
  matched_name: string;
  matched_query: "name" | "company";
  explanation: Explanation;
  entry: EntryDetail;
}

export interface ScreenRequest extends ScreenInput {
  address?:
    | {
        line_1?: string | undefined;
        city?: string | undefined;
        state?: string | undefined;
        postal_code?: string | undefined;
        country_code?: string | undefined;
      }
    | undefined;
}

export interface ScreenResult {
  matches: Match[];
  match_count: number;
  searched_lists: string[];
  lists: { code: string; version: string; published_at: string | null }[];
  data_source: DataSource;
}

const DETAIL_CACHE_SIZE = 5_000;

async function details(db: Db, loaded: Loaded, ids: string[]): Promise<Map<string, EntryDetail>> {
  const out = new Map<string, EntryDetail>();
  const missing = ids.filter((id) => {
    const d = loaded.details.get(id);
    if (d) out.set(id, d);
    return !d;
  });
  if (missing.length) {
    // The versions the index was built from: an entry's id is the same in every version of its list.
    const versions = or(
      ...loaded.lists.map((l) => and(eq(sanctionEntries.listCode, l.code), eq(sanctionEntries.listVersion, l.version))),
    );
    const rows = await db
      .select()
      .from(sanctionEntries)
      .where(and(inArray(sanctionEntries.id, missing), versions));
    if (loaded.details.size + rows.length > DETAIL_CACHE_SIZE) loaded.details.clear();
    for (const r of rows) {
      const d: EntryDetail = {
        name: r.name,
        alt_names: JSON.parse(r.altNames) as string[],
        entry_type: r.entryType,
        programs: JSON.parse(r.programs) as string[],
        addresses: (JSON.parse(r.addresses) as Partial<Address>[]).map((a) => ({
          address: a.address ?? null,
          city: a.city ?? null,
          state: a.state ?? null,
          postal_code: a.postal_code ?? null,
          country: a.country ?? null,
          note: a.note ?? null,
        })),
        source_ref: r.sourceRef,
        remarks: r.remarks,
      };
      loaded.details.set(r.id, d);
      out.set(r.id, d);
    }
  }
  return out;
}

/** A hit resolved to its listed entry: the index position's id and list, and the entry's stored detail. */
function resolveHits(loaded: Loaded, hits: ReturnType<typeof screen>, found: Map<string, EntryDetail>) {
  return hits.map((h) => {
    const listed = loaded.index.entry(h.entry);
    const entry = listed && found.get(listed.id);
    if (!listed || !entry) throw new Error(`screening hit ${h.entry} has no listed entry`);
    const match: Match = {
      score: h.score,
      list_code: listed.listCode,
      matched_name: h.matchedName,
      matched_query: h.query,
      explanation: h.explanation,
      entry,
    };
    return { id: listed.id, match };
  });
}

/**
 * Screens the request against every loaded list and records its evidence row (inputs, lists and versions,
 * matches returned) under the request id; the audit writer stores it with the request's audit row in one
 * batch after the response, as for every other engine. The request body itself is archived before the
 * answer leaves (archiveBodyAlongside).
 */
export async function screenParty({ ctx, input }: Call<ScreenRequest>): Promise<ScreenResult> {
  const loaded = await currentIndex(ctx.db, ctx.deps.clock.now(), ctx.env.ARCHIVE);
  const hits = screen(loaded.index, input);
  const ids = hits.flatMap((h) => loaded.index.entry(h.entry)?.id ?? []);
  const found = hits.length ? await details(ctx.db, loaded, ids) : new Map<string, EntryDetail>();
  const resolved = resolveHits(loaded, hits, found);
  const matches = resolved.map((r) => r.match);
  recordUsage(ctx, {
    kind: "screen",
    senderCountryCode: null,
    receiverCountryCode: null,
    itemCount: input.company ? 2 : 1,
    matchCount: matches.length,
    detail: {
      input: {
        name: input.name,
        company: input.company ?? null,
        type: input.type ?? null,
        address: input.address ?? null,
      },
      lists: loaded.lists.map((l) => ({ code: l.code, version: l.version, published_at: l.publishedAt })),
      data_source: loaded.dataSource,
      threshold: 0.7,
      matches: resolved.map(({ id, match: m }) => ({
        id,
        list_code: m.list_code,
        source_ref: m.entry.source_ref,
        name: m.entry.name,
        matched_name: m.matched_name,
        matched_query: m.matched_query,
        score: m.score,
      })),
    },
  });
  return {
    matches,
    match_count: matches.length,
    searched_lists: loaded.lists.map((l) => l.code),
    lists: loaded.lists.map((l) => ({ code: l.code, version: l.version, published_at: l.publishedAt })),
    data_source: loaded.dataSource,
  };
}

/** One stored party's match, for ongoing screening: which entry, in which list version, and the whole match. */
export interface PartyHit {
  entryId: string;
  listCode: string;
  listVersion: string;
  score: number;
  match: Match;
}

/**
 * Screens many parties against the current index at once (ongoing screening's batches): the index key they
 * were screened against, and each party's matches at or above `threshold`. No usage row: this is not a
 * client's request.
 */
export async function screenMany(
  db: Db,
  nowMs: number,
  inputs: ScreenRequest[],
  threshold: number,
): Promise<{ key: string; hits: PartyHit[][] }> {
  const loaded = await currentIndex(db, nowMs);
  const versions = new Map(loaded.lists.map((l) => [l.code, l.version]));
  const raw = inputs.map((input) => screen(loaded.index, input).filter((h) => h.score >= threshold));
  const ids = [...new Set(raw.flat().flatMap((h) => loaded.index.entry(h.entry)?.id ?? []))];
  // D1 binds at most 100 parameters per statement: the ids go in slices, beside the list-version pairs.
  const found = new Map<string, EntryDetail>();
  for (let i = 0; i < ids.length; i += 60)
    for (const [id, d] of await details(db, loaded, ids.slice(i, i + 60))) found.set(id, d);
  const hits = raw.map((list) =>
    resolveHits(loaded, list, found).map(({ id, match }) => ({
      entryId: id,
      listCode: match.list_code,
      listVersion: versions.get(match.list_code) ?? "",
      score: match.score,
      match,
    })),
  );
  return { key: loaded.key, hits };
}
