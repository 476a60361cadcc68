/**
 * The audit trail's cold tier as files: names, row encoding and manifests, with no bindings (tiers.ts does the
 * I/O). The layout is Hive-style (`key=value` folders) so DuckDB, Spark or an Iceberg import reads the
 * partitions as columns without a catalogue:
 *
 *   audit-cold/v1/request_audit/workspace={id}/day=YYYY-MM-DD/part-{first}_{last}.ndjson.gz
 *   audit-cold/v1/usage_log/workspace={id}/kind={kind}/day=YYYY-MM-DD/part-{first}_{last}.ndjson.gz
 *
 * plus `manifest.json` in every day folder (its parts) and at the root of every stream (its days).
 */
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

const COLD_ROOT = "audit-cold/v1";
export const DAY_MS = 86_400_000;

/** 30 days: enough for the dashboards and the support questions that read recent traffic from D1. */
const DEFAULT_HOT_DAYS = 30;

/**
 * The hot window in days from the AUDIT_HOT_DAYS var: 1 hour (1/24) to 10 years, fractions allowed, else the
 * default. A fraction is for high volume: at about 1.5 KB of D1 per request, D1's 10 GB holds about 80 requests/s
 * for one day, so an organization near the spec's limit needs a window of hours (README, Audit trail tiers).
 */
export function hotWindowDays(raw: string | undefined): number {
  const n = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 1 / 24 && n <= 3650 ? n : DEFAULT_HOT_DAYS;
}

type ColdTable = "request_audit" | "usage_log";

/** One ordered run of rows in the cold tier: a table in one workspace (and, for usage, one kind). */
export interface Stream {
  table: ColdTable;
  workspaceId: string;
  kind?: string | undefined;
}

/** The milliseconds in a UUIDv7's first 48 bits; NaN for anything that is not a UUIDv7. */
export function uuidv7Ms(id: string): number {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return Number.NaN;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/**
 * The smallest UUIDv7 text at `ms`. Ids are lowercase hex with the time first, so every id minted before `ms`
 * sorts below it and every id minted at or after sorts at or above: `id < floor` is an index range on the id.
 */
export function uuidv7Floor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-000000000000`;
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The instant a UTC day ends (the next day's midnight). */
export const dayEndMs = (day: string): number => Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;

export function streamPrefix(s: Stream): string {
  const kind = s.kind === undefined ? "" : `kind=${s.kind}/`;
  return `${COLD_ROOT}/${s.table}/workspace=${s.workspaceId}/${kind}`;
}

export const dayPrefix = (s: Stream, day: string): string => `${streamPrefix(s)}day=${day}/`;

/**
 * A part is named by the first and last row it holds, not by a counter: re-running a move that crashed after
 * its write produces the same name for the same rows, so the retry overwrites instead of duplicating.
 */
export const partKey = (s: Stream, day: string, firstId: string, lastId: string): string =>
  `${dayPrefix(s, day)}part-${firstId}_${lastId}.ndjson.gz`;

export const manifestKey = (prefix: string): string => `${prefix}manifest.json`;

/** A row as an NDJSON record: the D1 column names, JSON values (booleans stay booleans). */
export function toRecord(table: SQLiteTable, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) out[col.name] = row[key] ?? null;
  return out;
}

/** The reverse of toRecord: a record back into the row shape drizzle selects. */
export function fromRecord<T>(table: SQLiteTable, record: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) out[key] = record[col.name] ?? null;
  return out as T;
}

export const encodeNdjson = (records: unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join("");

export function decodeNdjson(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** gzip through the runtime's CompressionStream: no library, and every gzip reader opens the result. */
export async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function gunzip(body: ReadableStream<Uint8Array> | ArrayBuffer): Promise<string> {
  const source = body instanceof ArrayBuffer ? new Blob([body]).stream() : body;
  return new Response(source.pipeThrough(new DecompressionStream("gzip"))).text();
}

/** One part in a day manifest. `first`/`last` are the stream's order keys (see orderKey in tiers.ts). */
export interface PartEntry {
  key: string;
  rows: number;
  first: string;
  last: string;
  /** Ids are not always in key order (usage is ordered by time, then id): lookups by id use these. */
  min_id: string;
  max_id: string;
  /** Compressed bytes stored, and the NDJSON bytes before compression. */
  bytes: number;
  ndjson_bytes: number;
}

export interface DayManifest {
  schema_version: 1;
  format: "ndjson.gz";
  table: ColdTable;
  workspace_id: string;
  kind?: string | undefined;
  day: string;
  columns: string[];
  parts: PartEntry[];
}

/** One day in a stream manifest: the totals of its day manifest, so readers skip days without opening them. */
export interface DayEntry {
  day: string;
  rows: number;
  parts: number;
  bytes: number;
  first: string;
  last: string;
}

export interface StreamManifest {
  schema_version: 1;
  table: ColdTable;
  workspace_id: string;
  kind?: string | undefined;
  days: DayEntry[];
}

/**
 * Adds a part to a day manifest. A part that starts at the same row is the leftover of a move that crashed
 * before its delete (those rows stayed in D1 and were moved again), so the new part replaces it. Returns the
 * keys of the parts replaced, for the caller to delete once the manifest is written.
 */
export function withPart(manifest: DayManifest, part: PartEntry): { manifest: DayManifest; replaced: string[] } {
  const replaced = manifest.parts.filter((p) => p.key !== part.key && p.first === part.first).map((p) => p.key);
  const parts = manifest.parts.filter((p) => p.first !== part.first && p.key !== part.key);
  parts.push(part);
  parts.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  return { manifest: { ...manifest, parts }, replaced };
}

/** The day's line in its stream manifest, recomputed from the day manifest (so a retried update is exact). */
export function daySummary(m: DayManifest): DayEntry {
  return {
    day: m.day,
    rows: m.parts.reduce((n, p) => n + p.rows, 0),
    parts: m.parts.length,
    bytes: m.parts.reduce((n, p) => n + p.bytes, 0),
    first: m.parts[0]?.first ?? "",
    last:
      m.parts
        .map((p) => p.last)
        .sort()
        .at(-1) ?? "",
  };
}

export function withDay(manifest: StreamManifest, entry: DayEntry): StreamManifest {
  const days = manifest.days.filter((d) => d.day !== entry.day);
  days.push(entry);
  days.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  return { ...manifest, days };
}
