/**
 * Denied-party screening: the per-isolate index over the lists in D1, the screening itself and its evidence
 * row for the usage log. No Hono here.
 *
 * The index is built once per isolate and data version (the `sanctions` row of data_sources: version and
 * imported_at, so a forced reload of the same version counts as new). The version is re-read at most every
 * VERSION_CHECK_MS, so a reloaded list is in use everywhere within that time; the first request after a
 * change rebuilds the index (about 0.3-0.5 s for the full lists) and concurrent requests share that build.
 */
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dataSources, sanctionEntries, sanctionLists } from "../../db/schema/index";
import { type EntryType, type IndexInput, ScreenIndex, type ScreenInput, screen } from "../../engines/screen/index";
import { ApiError } from "../../lib/errors";
import type { UsageInsert } from "../usage/service";

export const DATASET = "sanctions";
export const VERSION_CHECK_MS = 10_000;

export interface ListInfo {
  code: string;
  version: string;
}

export interface DataSource {
  version: string;
  source: string;
  imported_at: string;
}

interface Loaded {
  key: string;
  dataSource: DataSource;
  lists: ListInfo[];
  index: ScreenIndex;
  details: Map<string, EntryDetail>;
}

let cache: { loaded: Loaded; checkedAt: number } | undefined;
let building: { key: string; promise: Promise<Loaded> } | undefined;

/** Drops the per-isolate index (tests that reload the lists use it; production never needs to). */
export function resetScreenIndex(): void {
  cache = undefined;
  building = undefined;
}

/** The index for the data currently in D1; 503 when no list is loaded. */
export async function currentIndex(db: Db, nowMs: number): Promise<Loaded> {
  if (cache && nowMs - cache.checkedAt < VERSION_CHECK_MS) return cache.loaded;
  const row = (await db.select().from(dataSources).where(eq(dataSources.dataset, DATASET)).limit(1))[0];
  if (!row) throw new ApiError("unavailable", "No sanctions list is loaded; screening is unavailable");
  const key = `${row.version}|${row.importedAt}`;
  if (cache && cache.loaded.key === key) {
    cache.checkedAt = nowMs;
    return cache.loaded;
  }
  if (!building || building.key !== key) {
    const promise = buildIndex(db, key, { version: row.version, source: row.source, imported_at: row.importedAt });
    building = { key, promise };
    promise.then(
      (loaded) => {
        cache = { loaded, checkedAt: nowMs };
        if (building?.promise === promise) building = undefined;
      },
      () => {
        if (building?.promise === promise) building = undefined;
      },
    );
  }
  return building.promise;
}

async function buildIndex(db: Db, key: string, dataSource: DataSource): Promise<Loaded> {
  const [lists, rows] = await db.batch([
    db
      .select({ code: sanctionLists.code, version: sanctionLists.version })
      .from(sanctionLists)
      .orderBy(sanctionLists.code),
    db
      .select({
        id: sanctionEntries.id,
        listCode: sanctionEntries.listCode,
        entryType: sanctionEntries.entryType,
        name: sanctionEntries.name,
        altNames: sanctionEntries.altNames,
      })
      .from(sanctionEntries)
      .orderBy(sanctionEntries.listCode, sanctionEntries.id),
  ]);
  if (lists.length === 0) throw new ApiError("unavailable", "No sanctions list is loaded; screening is unavailable");
  const input: IndexInput[] = rows.map((r) => ({
    id: r.id,
    listCode: r.listCode,
    entryType: r.entryType as EntryType,
    name: r.name,
    altNames: JSON.parse(r.altNames) as string[],
  }));
  return { key, dataSource, lists, index: ScreenIndex.build(input), details: new Map() };
}

export interface Address {
  address: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  note: string | null;
}

export interface EntryDetail {
  name: string;
  alt_names: string[];
  entry_type: EntryType;
  programs: string[];
  addresses: Address[];
  source_ref: string;
  remarks: string | null;
}

export interface Match {
  score: number;
  list_code: string;
  /** The listed name or alias the best score came from, and which query (`name` or `company`) hit it. */
  matched_name: string;
  matched_query: "name" | "company";
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
    const rows = await db.select().from(sanctionEntries).where(inArray(sanctionEntries.id, missing));
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

export interface ScreenContext {
  db: Db;
  requestId: string;
  workspaceId: string;
  customerId: number | null;
  actor: string | null;
  nowMs: number;
  startedAtMs: number;
  /** Wall clock for the duration; injected so tests can pin it. */
  elapsedMs: () => number;
}

/**
 * Screens the request against every loaded list. Returns the answer and its evidence row (inputs, lists and
 * versions, matches returned) under the request id; the caller hands the row to the audit writer, which
 * stores it with the request's audit row in one batch after the response, as for every other engine. The
 * request body itself is archived before the answer leaves (archiveBodyAlongside).
 */
export async function screenParty(
  ctx: ScreenContext,
  input: ScreenRequest,
): Promise<{ result: ScreenResult; usage: UsageInsert }> {
  const loaded = await currentIndex(ctx.db, ctx.nowMs);
  const hits = screen(loaded.index, input);
  const ids = hits.map((h) => loaded.index.entries[h.entry]!.id);
  const found = hits.length ? await details(ctx.db, loaded, ids) : new Map<string, EntryDetail>();
  const matches: Match[] = hits.map((h, i) => ({
    score: h.score,
    list_code: loaded.index.entries[h.entry]!.listCode,
    matched_name: h.matchedName,
    matched_query: h.query,
    entry: found.get(ids[i]!)!,
  }));
  const result: ScreenResult = {
    matches,
    match_count: matches.length,
    searched_lists: loaded.lists.map((l) => l.code),
    data_source: loaded.dataSource,
  };
  const detail = {
    input: {
      name: input.name,
      company: input.company ?? null,
      type: input.type ?? null,
      address: input.address ?? null,
    },
    lists: loaded.lists,
    data_source: loaded.dataSource,
    threshold: 0.7,
    matches: matches.map((m, i) => ({
      id: ids[i],
      list_code: m.list_code,
      source_ref: m.entry.source_ref,
      name: m.entry.name,
      matched_name: m.matched_name,
      matched_query: m.matched_query,
      score: m.score,
    })),
  };
  const usage: UsageInsert = {
    id: ctx.requestId,
    workspaceId: ctx.workspaceId,
    kind: "screen",
    customerId: ctx.customerId,
    actor: ctx.actor,
    itemCount: input.company ? 2 : 1,
    matchCount: matches.length,
    durationMs: Math.max(0, Math.round(ctx.elapsedMs())),
    detail: JSON.stringify(detail),
    createdAt: new Date(ctx.startedAtMs).toISOString(),
  };
  return { result, usage };
}
