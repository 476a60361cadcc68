/**
 * The dataset registry (no Hono): versions of every reference dataset, and the life of a new sanctions list
 * version from the published file to the active list.
 *
 * 1. **Register** (`registerVersion`): the published file(s) are already in R2 (the route streams them there).
 *    They are parsed once as a stream to validate them: every record must parse, the list must not be empty,
 *    and it is diffed against the active version by (id, hash) pairs. A list that shrinks by more than the
 *    configured share (DATASET_SHRINK_LIMIT, default 10 %) is refused unless forced. A refused version is kept
 *    with its report; a valid one is `staging` and a DATASETS queue message starts its load.
 * 2. **Stage** (`stageNext`): each run parses the file again as a stream, skips the rows already written, and
 *    writes the next rows in bulk inserts, each D1 batch also advancing `staged_rows`, so a run that dies is
 *    resumed by the next one (the queue's retry, or the cron sweep) without a duplicate or a gap. The rows go
 *    in under their own `list_version`, beside the active version, which readers keep using.
 * 3. **Activate** (`activateVersion`): one D1 batch retires the active version, activates the new one and
 *    rewrites the `sanctions` row of data_sources. D1 runs a batch as one transaction and the screening index
 *    reads the registry and the rows in one batch too, so a reader sees the old list or the new one, never a
 *    mix. The previous version's rows stay for a rollback (`rollbackDataset`); older ones are purged.
 * 4. **Hooks**: an activation calls the listeners registered with `onDatasetActivated` (the screening index
 *    of this isolate is dropped at once; ongoing screening re-screens from the same hook).
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { BaseContext, Call } from "../../core/context";
import type { Db } from "../../db/client";
import { dataSources, datasetFetches, datasetVersions } from "../../db/schema/index";
import type { ParseIssue } from "../../engines/datasets/sanctions";
import { checkUrl } from "../../engines/url-policy/policy";
import { isoAt } from "../../lib/clock";
import { isDevelopment } from "../../lib/environment";
import { ApiError, conflict, notFound, unprocessable } from "../../lib/errors";
import { DATASET_NAME, UPLOADABLE, type UploadableDataset, VERSION_NAME } from "./catalogue";
import { type Item, KINDS, type SourceFile, type Statement } from "./kinds";

export type { SourceFile };

export type VersionRow = typeof datasetVersions.$inferSelect;

interface CheckResult {
  check: string;
  passed: boolean;
  detail: string;
}

interface ValidationReport {
  format: string;
  entries: number;
  by_type: Record<string, number>;
  previous_version: string | null;
  previous_entries: number | null;
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
  /** Share of the active version's entries missing from this one (0 when it grows). */
  shrink_share: number;
  skipped_records: number;
  issues: ParseIssue[];
  /** What the file says of its own date (UN `dateGenerated`), if anything. */
  published_at: string | null;
  checks: CheckResult[];
  forced: boolean;
  passed: boolean;
}

const DEFAULT_SHRINK_LIMIT = 0.1;
/** Rows per bulk INSERT: one JSON parameter each, well under D1's 2 MB value limit for these rows. */
const ROWS_PER_INSERT = 250;
/** Rows one staging run writes before it hands over to the next run (a queue message). */
export const ROWS_PER_RUN = 5_000;

function shrinkLimit(env: Env): number {
  const raw = Number(env.DATASET_SHRINK_LIMIT);
  return Number.isFinite(raw) && raw > 0 && raw < 1 ? raw : DEFAULT_SHRINK_LIMIT;
}

/** The definition of an uploadable dataset; callers have checked the name with `requireUploadable`. */
function uploadable(dataset: string): UploadableDataset {
  const def = UPLOADABLE[dataset];
  if (!def) throw notFound(`Unknown dataset ${JSON.stringify(dataset)}`);
  return def;
}

/**
 * 404 for a dataset the registry does not know, 422 for one it knows but loads only with the deployment
 * (the HS nomenclature, tariffs, FX...), so an operator learns which of the two mistakes was made.
 */
export async function requireUploadable(db: Db, dataset: string): Promise<UploadableDataset> {
  const def = UPLOADABLE[dataset];
  if (def) return def;
  if (DATASET_NAME.test(dataset)) {
    const [inRegistry, inSources] = await db.batch([
      db
        .select({ d: datasetVersions.dataset })
        .from(datasetVersions)
        .where(eq(datasetVersions.dataset, dataset))
        .limit(1),
      db.select({ d: dataSources.dataset }).from(dataSources).where(eq(dataSources.dataset, dataset)).limit(1),
    ]);
    if (inRegistry.length || inSources.length)
      throw unprocessable(
        `Dataset ${dataset} cannot take uploads: it is loaded with the deployment. Uploadable: ${Object.keys(UPLOADABLE).join(", ")}`,
        { uploadable: Object.keys(UPLOADABLE) },
      );
  }
  throw notFound(`Unknown dataset ${JSON.stringify(dataset)}`);
}

async function versionRow(db: Db, dataset: string, version: string): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(datasetVersions)
    .where(and(eq(datasetVersions.dataset, dataset), eq(datasetVersions.version, version)))
    .limit(1);
  return row;
}

const activeVersionOf = async (db: Db, dataset: string) =>
  (
    await db
      .select()
      .from(datasetVersions)
      .where(and(eq(datasetVersions.dataset, dataset), eq(datasetVersions.status, "active")))
      .limit(1)
  )[0];

// ------------------------------------------------------------------------------------------ register

export interface RegisterInput {
  dataset: string;
  files: SourceFile[];
  /** The caller's name for the version; derived from the file otherwise. */
  version?: string | undefined;
  force?: boolean | undefined;
  activate?: boolean | undefined;
  origin: "upload" | "fetch";
}

export interface RegisterResult {
  row: VersionRow;
  /** False when the same files were registered before under this version (nothing new was done). */
  created: boolean;
}

/** Reads the files once as a stream: counts, parse issues, and the diff against the active version. */
async function scan(ctx: BaseContext, def: UploadableDataset, files: SourceFile[], previous: Map<string, string>) {
  const issues: ParseIssue[] = [];
  const info = { publishedAt: null as string | null };
  const byType: Record<string, number> = {};
  const seen = new Set<string>();
  let added = 0;
  let changed = 0;
  try {
    for await (const item of KINDS[def.kind].items(ctx.env.ARCHIVE, def, files, issues, info)) {
      if (seen.has(item.id)) {
        issues.push({ record: seen.size + issues.length + 1, message: `duplicate id ${item.id}` });
        continue;
      }
      seen.add(item.id);
      byType[item.type] = (byType[item.type] ?? 0) + 1;
      const before = previous.get(item.id);
      if (before === undefined) added++;
      // Rows loaded before hashes were kept carry "": unknown, so not counted as changed.
      else if (before !== "" && before !== item.hash) changed++;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw unprocessable(`The file is not a valid ${FORMAT_NAMES[def.format]} file: ${(err as Error).message}`);
  }
  let kept = 0;
  for (const id of previous.keys()) if (seen.has(id)) kept++;
  return { entries: seen.size, byType, issues, publishedAt: info.publishedAt, added, changed, kept };
}

const FORMAT_NAMES: Record<UploadableDataset["format"], string> = {
  "un-xml": "UN consolidated list XML",
  "ofac-csv": "OFAC CSV or advanced XML",
  "eu-xml": "EU financial sanctions XML",
  "uk-xml": "UK Sanctions List XML",
  "csl-csv": "Consolidated Screening List CSV",
  "rules-json": "rule set JSON",
  "ecb-csv-xml": "ECB reference rate CSV or XML",
  "hmrc-xml": "HMRC monthly exchange rate XML",
  "usitc-tariff": "USITC tariff database",
  "vat-json": "VAT JSON",
  "customs-json": "customs rules JSON",
  "hs-csv": "HS classification labels CSV",
};

function judge(
  scanned: Awaited<ReturnType<typeof scan>>,
  def: UploadableDataset,
  active: VersionRow | undefined,
  previousSize: number,
  limit: number,
  force: boolean,
): ValidationReport {
  const { issues } = scanned;
  const kind = KINDS[def.kind];
  const share = kind.maxSkippedShare;
  // A merging dataset keeps every previous row: the version holds them plus the file's new ones.
  const entries = kind.merges ? previousSize + scanned.added : scanned.entries;
  const shrink = previousSize > 0 ? Math.max(0, (previousSize - entries) / previousSize) : 0;
  const skipped = issues.length;
  const checks: CheckResult[] = [
    { check: "not_empty", passed: scanned.entries > 0, detail: `${scanned.entries} records in the file` },
    {
      check: "records_parse",
      passed: skipped <= (share > 0 ? Math.max(1, Math.floor((entries + skipped) * share)) : 0),
      detail: `${skipped} of ${entries + skipped} records skipped (at most ${share * 100} % may be)`,
    },
    {
      check: "shrink",
      passed: shrink <= limit || force,
      detail:
        previousSize === 0
          ? "no active version to compare with"
          : `${(shrink * 100).toFixed(1)} % fewer entries than the active version ${active?.version} (limit ${(limit * 100).toFixed(0)} %${shrink > limit && force ? ", forced" : ""})`,
    },
  ];
  return {
    format: def.format,
    entries,
    by_type: scanned.byType,
    previous_version: active?.version ?? null,
    previous_entries: active ? previousSize : null,
    added: scanned.added,
    removed: kind.merges ? 0 : previousSize - scanned.kept,
    changed: scanned.changed,
    unchanged: kind.merges ? previousSize - scanned.changed : scanned.kept - scanned.changed,
    shrink_share: Number(shrink.toFixed(4)),
    skipped_records: skipped,
    issues: issues.slice(0, 20),
    published_at: scanned.publishedAt,
    checks,
    forced: force,
    passed: checks.every((c) => c.passed),
  };
}

/**
 * Validates a new version from its stored files and records it: `staging` (its load queued) or `refused`.
 * The same files again return the existing version; another file under an existing version name is a 409.
 */
export async function registerVersion({ ctx, input }: Call<RegisterInput, BaseContext>): Promise<RegisterResult> {
  const def = uploadable(input.dataset);
  for (const f of def.files)
    if (f.required && !input.files.some((x) => x.part === f.part))
      throw unprocessable(`Missing file \`${f.part}\` (${f.description})`);
  const sha = await combinedSha(input.files);
  const active = await activeVersionOf(ctx.db, def.dataset);
  const previous = active ? await KINDS[def.kind].hashes(ctx.db, def, active.version) : new Map<string, string>();
  const scanned = await scan(ctx, def, input.files, previous);
  const force = input.force === true;
  const report = judge(scanned, def, active, previous.size, shrinkLimit(ctx.env), force);

  const now = ctx.deps.clock.now();
  const version = input.version ?? derivedVersion(scanned.publishedAt, now, sha);
  if (!VERSION_NAME.test(version)) throw unprocessable(`Invalid version name ${JSON.stringify(version)}`);
  const [existing] = await ctx.db
    .select()
    .from(datasetVersions)
    .where(and(eq(datasetVersions.dataset, def.dataset), eq(datasetVersions.version, version)))
    .limit(1);
  const reusable = existing && existing.status !== "refused" && existing.status !== "failed";
  if (reusable && existing.sourceSha256 === sha) return { row: existing, created: false };
  if (reusable)
    throw conflict(`Version ${version} of ${def.dataset} exists with other files; name the new version differently`);
  const row: VersionRow = {
    dataset: def.dataset,
    version,
    status: report.passed ? "staging" : "refused",
    source: sourceLine(def, input.origin, scanned.publishedAt, now),
    origin: input.origin,
    format: def.format,
    sourceKeys: JSON.stringify(input.files),
    sourceSha256: sha,
    rows: report.entries,
    stagedRows: 0,
    report: JSON.stringify(report),
    error: report.passed
      ? null
      : report.checks
          .filter((c) => !c.passed)
          .map((c) => `${c.check}: ${c.detail}`)
          .join("; "),
    activateWhenStaged: input.activate === true,
    force,
    importedAt: isoAt(now),
    activatedAt: null,
    updatedAt: isoAt(now),
  };
  // A refused or failed attempt under the same name is replaced: its rows never became readable.
  await ctx.db.batch([
    ctx.db
      .insert(datasetVersions)
      .values(row)
      .onConflictDoUpdate({ target: [datasetVersions.dataset, datasetVersions.version], set: { ...row } }),
    ...KINDS[def.kind].purge(ctx.db, def, [version]),
  ]);
  if (report.passed) await ctx.env.DATASETS.send({ dataset: def.dataset, version });
  return { row, created: true };
}

function derivedVersion(published: string | null, nowMs: number, sha: string): string {
  // The UN and EU files date themselves (ISO), the UK's too (dd/mm/yyyy); the OFAC CSVs do not, so their
  // version is the day it was taken. The content hash tells two files of one day apart.
  const uk = published ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(published) : null;
  const day = uk
    ? `${uk[3]}-${uk[2]}-${uk[1]}`
    : published && /^\d{4}-\d{2}-\d{2}/.test(published)
      ? published.slice(0, 10)
      : isoAt(nowMs).slice(0, 10);
  return `${day}.${sha.slice(0, 8)}`;
}

function sourceLine(def: UploadableDataset, origin: string, published: string | null, nowMs: number): string {
  const how = origin === "fetch" ? "fetched" : "uploaded";
  const files = def.files.map((f) => f.description.split(":")[0]).join(", ");
  return `${def.name}: ${files} ${how} ${isoAt(nowMs).slice(0, 10)}${published ? ` (dateGenerated ${published})` : ""}; format ${def.formatSpec}`;
}

async function combinedSha(files: SourceFile[]): Promise<string> {
  if (files.length === 1) return (files[0] as SourceFile).sha256;
  const text = files
    .map((f) => `${f.part}:${f.sha256}`)
    .sort()
    .join("\n");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// --------------------------------------------------------------------------------------------- stage

export type StageOutcome = "more" | "staged" | "activated" | "skipped";

/**
 * Writes the next rows of a `staging` version (at most `rowsPerRun`). Returns `more` when rows remain (the
 * caller queues the next run), `staged` or `activated` when done, `skipped` when the version is not staging.
 */
export async function stageNext({
  ctx,
  input,
}: Call<{ dataset: string; version: string; rowsPerRun?: number }, BaseContext>): Promise<StageOutcome> {
  const def = uploadable(input.dataset);
  const row = await versionRow(ctx.db, def.dataset, input.version);
  if (row?.status !== "staging") return "skipped";
  const budget = input.rowsPerRun ?? ROWS_PER_RUN;
  const files = JSON.parse(row.sourceKeys) as SourceFile[];
  const seen = new Set<string>();
  let index = 0;
  let written = row.stagedRows;
  let pending: Item[] = [];
  let finished = true;
  const kind = KINDS[def.kind];
  const flush = async (last: boolean) => {
    const now = isoAt(ctx.deps.clock.now());
    const next = written + pending.length;
    const statements: Statement[] = [];
    for (let i = 0; i < pending.length; i += ROWS_PER_INSERT)
      statements.push(...kind.inserts(ctx.db, def, row.version, pending.slice(i, i + ROWS_PER_INSERT)));
    const progress = ctx.db
      .update(datasetVersions)
      .set(
        last
          ? { stagedRows: next, rows: kind.merges ? row.rows : next, status: "staged", updatedAt: now }
          : { stagedRows: next, updatedAt: now },
      )
      .where(
        and(
          eq(datasetVersions.dataset, def.dataset),
          eq(datasetVersions.version, row.version),
          eq(datasetVersions.status, "staging"),
          eq(datasetVersions.stagedRows, written),
        ),
      );
    // A merging dataset starts from the previous version's rows, copied in the load's first batch.
    const previous = (JSON.parse(row.report) as { previous_version?: string | null }).previous_version ?? null;
    const carry = written === 0 && kind.carryOver && previous ? kind.carryOver(ctx.db, row.version, previous, def) : [];
    const batch = last
      ? [...carry, ...statements, ...kind.finish(ctx.db, def, row.version, next, row.source), progress]
      : [...carry, ...statements, progress];
    await ctx.db.batch(batch as unknown as Parameters<Db["batch"]>[0]);
    written = next;
    pending = [];
  };
  const issues: ParseIssue[] = [];
  for await (const item of kind.items(ctx.env.ARCHIVE, def, files, issues, { publishedAt: null })) {
    if (seen.has(item.id)) continue; // the validation counted the first occurrence only
    seen.add(item.id);
    index++;
    if (index <= written) continue;
    // A run that overlaps another (a retried message beside the cron sweep) fails on the primary key and
    // leaves the rows to the other; the next run continues from the committed `staged_rows`.
    if (index > row.stagedRows + budget) {
      finished = false;
      break;
    }
    pending.push(item);
    if (pending.length >= ROWS_PER_INSERT * 4) await flush(false);
  }
  await flush(finished);
  if (!finished) return "more";
  if (row.activateWhenStaged) {
    await activateVersion({ ctx, input: { dataset: def.dataset, version: row.version } });
    return "activated";
  }
  return "staged";
}

// ------------------------------------------------------------------------------------------ activate

type ActivationListener = (
  ctx: BaseContext,
  event: { dataset: string; version: string; previous: string | null },
) => Promise<void> | void;
const listeners: ActivationListener[] = [];

/** Called after every activation and rollback, in this isolate, after the switch committed. */
export function onDatasetActivated(listener: ActivationListener): void {
  listeners.push(listener);
}

/**
 * Makes a staged (or retired, for a rollback) version the active one, in one batch: the registry switch and
 * the data_sources row commit together or not at all. Versions older than the one it replaces are purged.
 */
export async function activateVersion({
  ctx,
  input,
}: Call<{ dataset: string; version: string }, BaseContext>): Promise<VersionRow> {
  const def = uploadable(input.dataset);
  const row = await versionRow(ctx.db, def.dataset, input.version);
  if (!row) throw notFound(`Unknown version ${input.version} of ${def.dataset}`);
  if (row.status === "active") return row;
  if (row.status !== "staged" && row.status !== "retired")
    throw conflict(
      row.status === "staging"
        ? `Version ${row.version} is still loading (${row.stagedRows} of ${row.rows} rows); activate it when its status is staged`
        : `Version ${row.version} is ${row.status} and cannot be activated${row.error ? `: ${row.error}` : ""}`,
    );
  const previous = await activeVersionOf(ctx.db, def.dataset);
  const now = isoAt(ctx.deps.clock.now());
  const eligible = sql`EXISTS (SELECT 1 FROM dataset_versions WHERE dataset = ${def.dataset} AND version = ${row.version} AND status IN ('staged', 'retired'))`;
  const switchOver: Statement[] = [
    ...(KINDS[def.kind].beforeActivation?.(ctx.db, def) ?? []),
    ctx.db
      .update(datasetVersions)
      .set({ status: "retired", updatedAt: now })
      .where(and(eq(datasetVersions.dataset, def.dataset), eq(datasetVersions.status, "active"), eligible)),
    ctx.db
      .update(datasetVersions)
      .set({ status: "active", activatedAt: now, updatedAt: now })
      .where(
        and(
          eq(datasetVersions.dataset, def.dataset),
          eq(datasetVersions.version, row.version),
          inArray(datasetVersions.status, ["staged", "retired"]),
        ),
      ),
    ...KINDS[def.kind].activation(ctx.db, def, now),
  ];
  await ctx.db.batch(switchOver as unknown as Parameters<Db["batch"]>[0]);
  const after = (await activeVersionOf(ctx.db, def.dataset)) as VersionRow;
  if (after.version !== row.version)
    throw conflict(`Version ${row.version} changed state while it was activated; try again`);
  await purgeOld(ctx, def, after.version, previous?.version ?? null);
  for (const listener of listeners)
    await listener(ctx, { dataset: def.dataset, version: after.version, previous: previous?.version ?? null });
  return after;
}

/** Back to the version active before the current one (its rows are kept for this). */
export async function rollbackDataset({ ctx, input }: Call<{ dataset: string }, BaseContext>): Promise<VersionRow> {
  const def = uploadable(input.dataset);
  const [target] = await ctx.db
    .select()
    .from(datasetVersions)
    .where(and(eq(datasetVersions.dataset, def.dataset), eq(datasetVersions.status, "retired")))
    .orderBy(desc(datasetVersions.activatedAt))
    .limit(1);
  if (!target) throw conflict(`${def.dataset} has no previous version to roll back to`);
  return activateVersion({ ctx, input: { dataset: def.dataset, version: target.version } });
}

/**
 * Keeps the active version and the one it replaced; rows of older retired versions are deleted and their
 * registry rows say `purged` (the report and the published files stay).
 */
async function purgeOld(ctx: BaseContext, def: UploadableDataset, active: string, previous: string | null) {
  const retired = await ctx.db
    .select({ version: datasetVersions.version })
    .from(datasetVersions)
    .where(and(eq(datasetVersions.dataset, def.dataset), eq(datasetVersions.status, "retired")));
  const old = retired.map((r) => r.version).filter((v) => v !== previous && v !== active);
  if (!old.length) return;
  const now = isoAt(ctx.deps.clock.now());
  await ctx.db.batch([
    ctx.db
      .update(datasetVersions)
      .set({ status: "purged", updatedAt: now })
      .where(and(eq(datasetVersions.dataset, def.dataset), inArray(datasetVersions.version, old))),
    ...KINDS[def.kind].purge(ctx.db, def, old),
  ]);
}

// -------------------------------------------------------------------------------------------- lists

export interface DatasetSummary {
  dataset: string;
  version: string | null;
  source: string | null;
  imported_at: string | null;
  rows: number;
  status: "active" | "none";
  uploadable: boolean;
  staged_version?: { version: string; status: string; staged_rows: number; rows: number } | undefined;
  last_fetch?: { at: string; outcome: string; version: string | null; error: string | null } | undefined;
}

/** Every dataset with its active version, the version being loaded or waiting, and the last scheduled fetch. */
export async function listDatasets({ ctx }: Call<unknown, BaseContext>): Promise<DatasetSummary[]> {
  const [versions, sources, fetches] = await ctx.db.batch([
    ctx.db
      .select()
      .from(datasetVersions)
      .where(inArray(datasetVersions.status, ["active", "staging", "staged"]))
      .orderBy(datasetVersions.dataset, desc(datasetVersions.importedAt)),
    ctx.db.select().from(dataSources),
    ctx.db.select().from(datasetFetches),
  ]);
  const out = new Map<string, DatasetSummary>();
  const entry = (dataset: string): DatasetSummary => {
    let e = out.get(dataset);
    if (!e) {
      e = {
        dataset,
        version: null,
        source: null,
        imported_at: null,
        rows: 0,
        status: "none",
        uploadable: dataset in UPLOADABLE,
      };
      out.set(dataset, e);
    }
    return e;
  };
  for (const d of Object.keys(UPLOADABLE)) entry(d);
  for (const v of versions) {
    const e = entry(v.dataset);
    if (v.status === "active") {
      Object.assign(e, {
        version: v.version,
        source: v.source,
        imported_at: v.importedAt,
        rows: v.rows,
        status: "active",
      });
    } else if (!e.staged_version) {
      e.staged_version = { version: v.version, status: v.status, staged_rows: v.stagedRows, rows: v.rows };
    }
  }
  // Datasets loaded before the registry existed are known from data_sources alone; `sanctions` is the
  // combined name of the two lists, which the registry lists one by one.
  for (const s of sources) {
    if (s.dataset === "sanctions" || out.get(s.dataset)?.status === "active") continue;
    Object.assign(entry(s.dataset), {
      version: s.version,
      source: s.source,
      imported_at: s.importedAt,
      rows: s.rowCount,
      status: "active",
    });
  }
  for (const f of fetches)
    entry(f.dataset).last_fetch = { at: f.lastAttemptAt, outcome: f.outcome, version: f.version, error: f.error };
  return [...out.values()].sort((a, b) => a.dataset.localeCompare(b.dataset));
}

/** A dataset's versions, newest first. */
export async function listVersions({
  ctx,
  input,
}: Call<{ dataset: string; limit: number }, BaseContext>): Promise<VersionRow[]> {
  if (!DATASET_NAME.test(input.dataset)) throw notFound(`Unknown dataset ${JSON.stringify(input.dataset)}`);
  const rows = await ctx.db
    .select()
    .from(datasetVersions)
    .where(eq(datasetVersions.dataset, input.dataset))
    .orderBy(desc(datasetVersions.importedAt), desc(datasetVersions.version))
    .limit(input.limit);
  if (!rows.length && !(input.dataset in UPLOADABLE)) throw notFound(`Unknown dataset ${input.dataset}`);
  return rows;
}

export async function getVersion({
  ctx,
  input,
}: Call<{ dataset: string; version: string }, BaseContext>): Promise<VersionRow> {
  const row = await versionRow(ctx.db, input.dataset, input.version);
  if (!row) throw notFound(`Unknown version ${input.version} of ${input.dataset}`);
  return row;
}

export function versionToWire(r: VersionRow) {
  return {
    dataset: r.dataset,
    version: r.version,
    status: r.status,
    source: r.source,
    origin: r.origin,
    format: r.format,
    rows: r.rows,
    staged_rows: r.stagedRows,
    imported_at: r.importedAt,
    activated_at: r.activatedAt,
    error: r.error,
    report: JSON.parse(r.report) as Record<string, unknown>,
  };
}

// --------------------------------------------------------------------------------------- scheduled fetch

type FetchOutcome = "updated" | "unchanged" | "refused" | "failed" | "not_due";

export interface FetchReport {
  dataset: string;
  outcome: FetchOutcome;
  version: string | null;
  error: string | null;
}

/** Whether the scheduled fetch runs here: on in production by configuration, never in development. */
export function fetchEnabled(env: Env): boolean {
  return env.DATASET_FETCH === "on" && !isDevelopment(env);
}

/**
 * A URL published per month ("…/monthly_xml_{yyyy}-{m}.xml", HMRC's rates): the month of the fetch, as the
 * publisher names it (the month without a leading zero; {mm} with one).
 */
export function monthlyUrl(url: string, nowMs: number): string {
  const d = new Date(nowMs);
  const m = d.getUTCMonth() + 1;
  return url
    .replaceAll("{yyyy}", String(d.getUTCFullYear()))
    .replaceAll("{mm}", String(m).padStart(2, "0"))
    .replaceAll("{m}", String(m));
}

/** Official URLs per dataset and file, overridable per deployment with DATASET_URLS (JSON). */
function officialUrls(env: Env, def: UploadableDataset): Record<string, string> {
  const raw = (env as unknown as { DATASET_URLS?: string }).DATASET_URLS;
  if (!raw) return def.officialUrls;
  try {
    const parsed = JSON.parse(raw) as Record<string, Record<string, string>>;
    const override = parsed[def.dataset] ?? {};
    // OFAC's advanced XML replaces the CSV trio rather than joining it (a version is one layout or the other).
    if (override.advanced) return { advanced: override.advanced };
    return { ...def.officialUrls, ...override };
  } catch {
    return def.officialUrls;
  }
}

/**
 * The scheduled fetch: every uploadable dataset whose last attempt is older than DATASET_FETCH_HOURS is
 * fetched from its official URLs (through the outbound URL policy), compared with the versions already
 * registered by content hash, and registered like an upload with `activate` when new. A refused or failed
 * update keeps the active version; its outcome is stored (GET /platform/v1/datasets `last_fetch`) and logged.
 * `fetcher` is the outbound boundary (tests stub it).
 */
export async function fetchDueDatasets({
  ctx,
  input,
}: Call<
  { nowMs: number; fetcher?: typeof fetch; datasets?: string[] /** Datasets fetched at most. */; limit?: number },
  BaseContext
>): Promise<FetchReport[]> {
  const fetcher = input.fetcher ?? fetch;
  const hours = Number(ctx.env.DATASET_FETCH_HOURS) > 0 ? Number(ctx.env.DATASET_FETCH_HOURS) : 6;
  const last = new Map(
    (await ctx.db.select().from(datasetFetches)).map((f) => [f.dataset, Date.parse(f.lastAttemptAt)]),
  );
  const out: FetchReport[] = [];
  let fetched = 0;
  for (const def of Object.values(UPLOADABLE)) {
    if (input.datasets && !input.datasets.includes(def.dataset)) continue;
    // Curated here, or published where no plain file can be fetched (the USITC's zip): nothing to fetch unless
    // the deployment names a URL in DATASET_URLS.
    if (Object.keys(officialUrls(ctx.env, def)).length === 0) continue;
    const previous = last.get(def.dataset);
    if (previous !== undefined && input.nowMs - previous < hours * 3_600_000) {
      out.push({ dataset: def.dataset, outcome: "not_due", version: null, error: null });
      continue;
    }
    if (fetched >= (input.limit ?? Number.POSITIVE_INFINITY)) break;
    fetched++;
    const report = await fetchOne(ctx, def, input.nowMs, fetcher);
    out.push(report);
    await ctx.db
      .insert(datasetFetches)
      .values({
        dataset: def.dataset,
        lastAttemptAt: isoAt(input.nowMs),
        outcome: report.outcome,
        version: report.version,
        error: report.error,
      })
      .onConflictDoUpdate({
        target: datasetFetches.dataset,
        set: {
          lastAttemptAt: isoAt(input.nowMs),
          outcome: report.outcome,
          version: report.version,
          error: report.error,
        },
      });
    const log = { msg: "dataset fetch", ...report };
    if (report.outcome === "refused" || report.outcome === "failed") console.error(JSON.stringify(log));
    else console.log(JSON.stringify(log));
  }
  return out;
}

async function fetchOne(
  ctx: BaseContext,
  def: UploadableDataset,
  nowMs: number,
  fetcher: typeof fetch,
): Promise<FetchReport> {
  const report = (outcome: FetchOutcome, version: string | null, error: string | null): FetchReport => ({
    dataset: def.dataset,
    outcome,
    version,
    error,
  });
  const urls = officialUrls(ctx.env, def);
  const stamp = `fetch-${isoAt(nowMs).replace(/[:.]/g, "-")}`;
  const files: SourceFile[] = [];
  try {
    for (const f of def.files) {
      const url = urls[f.part] && monthlyUrl(urls[f.part] as string, nowMs);
      if (!url) {
        if (f.required) return report("failed", null, `no URL for the required file ${f.part}`);
        continue;
      }
      const verdict = checkUrl(url, { development: false, requireHttps: true });
      if (!verdict.ok) return report("failed", null, `${url} refused by the URL policy: ${verdict.reason}`);
      const res = await fetcher(verdict.url.toString(), { redirect: "follow" });
      if (!res.ok) return report("failed", null, `${url} answered ${res.status}`);
      const bytes = await res.arrayBuffer();
      const key = `datasets/${def.dataset}/${stamp}/${f.part}`;
      await ctx.env.ARCHIVE.put(key, bytes, {
        httpMetadata: { contentType: res.headers.get("content-type") ?? "application/octet-stream" },
        customMetadata: { url },
      });
      const digest = await crypto.subtle.digest("SHA-256", bytes);
      const sha256 = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      files.push({ part: f.part, key, size: bytes.byteLength, sha256 });
    }
    const sha = await combinedSha(files);
    const [known] = await ctx.db
      .select({ version: datasetVersions.version })
      .from(datasetVersions)
      .where(
        and(
          eq(datasetVersions.dataset, def.dataset),
          eq(datasetVersions.sourceSha256, sha),
          inArray(datasetVersions.status, ["staging", "staged", "active", "retired"]),
        ),
      )
      .limit(1);
    if (known) {
      await ctx.env.ARCHIVE.delete(files.map((f) => f.key));
      return report("unchanged", known.version, null);
    }
    const { row } = await registerVersion({
      ctx,
      input: { dataset: def.dataset, files, activate: true, origin: "fetch" },
    });
    return row.status === "refused" ? report("refused", row.version, row.error) : report("updated", row.version, null);
  } catch (err) {
    return report("failed", null, err instanceof Error ? err.message : String(err));
  }
}

/** Versions whose load stopped (a run that died, a lost message): their next run is queued again. */
export async function stalledStaging({ ctx, input }: Call<{ nowMs: number; olderThanMs: number }, BaseContext>) {
  const rows = await ctx.db
    .select({
      dataset: datasetVersions.dataset,
      version: datasetVersions.version,
      updatedAt: datasetVersions.updatedAt,
    })
    .from(datasetVersions)
    .where(eq(datasetVersions.status, "staging"));
  return rows.filter((r) => input.nowMs - Date.parse(r.updatedAt) >= input.olderThanMs);
}
