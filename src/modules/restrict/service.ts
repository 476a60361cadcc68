/**
 * Restricted-goods checks and the organization's custom rules. No Hono here.
 *
 * The platform rule set is compiled once per isolate and data version (a DatasetCache keyed by the
 * `restrictions` version in data_sources) and reused by every request. The hot path reads nothing from D1
 * while its caches are fresh: the data version is re-checked, and the organization's compiled rules and the
 * workspace settings are re-read, at most every CACHE_TTL_MS. Writes made in this isolate drop the entries
 * at once, so a new rule applies immediately here and within CACHE_TTL_MS in every other isolate.
 */
import { and, count, desc, eq, getTableColumns, isNull, lt } from "drizzle-orm";
import { type Call, type ConfigScope, configKey, configScope, type WorkspaceScopedContext } from "../../core/context";
import type { DataSource } from "../../core/data-source";
import { DatasetCache, onDatasetCachesReset } from "../../core/dataset-cache";
import { recordUsage } from "../../core/usage";
import type { Db } from "../../db/client";
import { dataSources, datasetVersions, orgRestrictionRules, restrictionRules } from "../../db/schema/index";
import {
  type Coverage,
  checkItem,
  compileRules,
  coverageByDestination,
  importCountries,
  type Match,
  type Rule,
  type RuleIndex,
} from "../../engines/restrict/engine";
import { type Clock, isoAt } from "../../lib/clock";
import { forbidden, notFound, unprocessable } from "../../lib/errors";
import { EU_MEMBERS } from "../../lib/iso";
import { TtlCache } from "../../lib/ttl-cache";
import { onDatasetActivated } from "../datasets/service";
import type { SettingsDocument } from "../settings/registry";
import { cachedSettings, SETTINGS_TTL_MS } from "../settings/service";

const DATASET = "restrictions";
/** Active custom rules an organization may hold. */
const MAX_ORG_RULES = 1000;

type PlatformRow = typeof restrictionRules.$inferSelect;
type OrgRow = typeof orgRestrictionRules.$inferSelect;

interface Platform {
  index: RuleIndex;
  /** Every platform rule, for coverage (resolved per request date, so a lapsed rule stops counting). */
  rules: Rule[];
  importCountries: Set<string>;
  dataSource: DataSource | null;
  /** Coverage per destination as of `coverageAsOf`, recomputed when the date moves on. */
  coverage?: { asOf: string; byDestination: Map<string, Coverage> };
}

const CACHE_TTL_MS = SETTINGS_TTL_MS;
const platformCache = new DatasetCache<Platform>("restrict-platform-rules");
/**
 * The last read of the `restrictions` version: trusted for CACHE_TTL_MS while the cache holds that
 * version's build, so a reset or a failed build re-reads it at once.
 */
let probe: { key: string; dataSource: DataSource | null; checkedAt: number } | undefined;

// A new rule set activated in the dataset registry: this isolate reads it on its next check instead of after
// CACHE_TTL_MS (other isolates follow within that interval).
onDatasetActivated((_ctx, event) => {
  if (event.dataset === DATASET) probe = undefined;
});
/**
 * Custom rules have no dataset version to key on (they change with every write), so they stay in a short
 * per-organization TTL cache that this isolate's writes drop at once.
 */
const orgCache = new TtlCache<{ index: RuleIndex | null; count: number }>(CACHE_TTL_MS);

const parseList = (raw: string | null): string[] | null => (raw ? (JSON.parse(raw) as string[]) : null);

/** The fields platform and organization rules share, from either table's row. */
const commonFields = (r: PlatformRow | OrgRow) => ({
  imposingCountry: r.imposingCountry,
  direction: r.direction,
  ruleType: r.ruleType,
  hsPrefix: r.hsPrefix,
  keywords: parseList(r.keywords),
  originCountry: r.originCountry,
  title: r.title,
  summary: r.summary,
  requirement: r.requirement ?? null,
  sourceUrl: r.sourceUrl,
  sourceRef: r.sourceRef,
  validFrom: r.validFrom,
  validTo: r.validTo,
});

const platformRule = (r: PlatformRow): Rule => ({
  ...commonFields(r),
  id: `restriction_${r.id}`,
  source: "platform",
  excludeKeywords: parseList(r.excludeKeywords),
  destinationCountries: parseList(r.destinationCountries),
  exceptCountries: parseList(r.exceptCountries),
  agency: r.agency,
  agencyFlag: r.agencyFlag,
  family: r.family,
  reviewedOn: r.reviewedOn,
});

const orgRule = (r: OrgRow): Rule => ({
  ...commonFields(r),
  id: `org_rule_${r.id}`,
  source: "org",
  destinationCountries: null,
  agency: null,
  agencyFlag: null,
});

interface CheckItemInput {
  sku?: string | null | undefined;
  title?: string | null | undefined;
  description?: string | null | undefined;
  hs_code?: string | null | undefined;
  country_of_origin?: string | null | undefined;
  materials?: string | null | undefined;
  category?: string | null | undefined;
  brand?: string | null | undefined;
}

export interface CheckInput {
  destination_country: string;
  origin_country?: string | null | undefined;
  items: CheckItemInput[];
}

interface CheckedItem {
  sku: string | null;
  title: string | null;
  description: string | null;
  hs_code: string | null;
  country_of_origin: string | null;
  restrictions: Match[] | null;
}

/** What the platform rule set holds for a check: the destination's import rules and the origin's export rules. */
interface CheckCoverage {
  destination: Coverage;
  /** Export rules of the origin country in force; null when no origin was given. */
  originExportRuleCount: number | null;
  dataVersion: string | null;
}

export interface CheckResult {
  createdAt: string;
  destination: string;
  origin: string | null;
  coverage: CheckCoverage;
  items: CheckedItem[];
  matchCount: number;
  hasProhibitions: boolean;
  hasRestrictions: boolean;
  durationMs: number;
}

/** The destinations checks run for: the workspace setting, by default every destination with platform rules. */
function assertEnabled(settings: SettingsDocument, platform: Platform, destination: string) {
  const enabled = settings["restrict.enabled_destinations"];
  const isEnabled = enabled ? enabled.includes(destination) : platform.importCountries.has(destination);
  if (!isEnabled) throw forbidden(`Restricted-goods checks are not enabled for destination ${destination}`);
}

/**
 * Runs a check and records its usage row. Throws 403 when checks are not enabled for the destination (the
 * workspace setting `restrict.enabled_destinations`, by default every destination with platform rules).
 */
export async function runCheck({ ctx, input }: Call<CheckInput>): Promise<CheckResult> {
  const checked = await checkGoods({ ctx, input });
  const { destination, origin, items, matchCount, hasProhibitions, hasRestrictions } = checked;
  const usage = recordUsage(ctx, {
    kind: "restrict",
    senderCountryCode: origin,
    receiverCountryCode: destination,
    itemCount: input.items.length,
    matchCount,
    detail: {
      data_source: checked.dataSource,
      org_rule_count: checked.orgRuleCount,
      as_of: checked.asOf,
      has_prohibitions: hasProhibitions,
      has_restrictions: hasRestrictions,
      matches: items.map((i) => (i.restrictions ?? []).map((m) => m.id)),
    },
  });
  const { dataSource: _source, orgRuleCount: _count, asOf: _asOf, ...answer } = checked;
  return { createdAt: usage.createdAt, ...answer, durationMs: usage.durationMs ?? 0 };
}

/** A check's findings before it is logged: what POST /restrict answers and a consignment's compliance pass records. */
export interface GoodsCheck extends Omit<CheckResult, "createdAt" | "durationMs"> {
  dataSource: DataSource | null;
  orgRuleCount: number;
  asOf: string;
}

/**
 * Checks items against the platform rules (destination import, origin export) and the organization's own
 * rules, without logging the call. Throws 403 when checks are not enabled for the destination.
 */
export async function checkGoods({ ctx, input }: Call<CheckInput, WorkspaceScopedContext>): Promise<GoodsCheck> {
  const clock = ctx.deps.clock;
  const [platform, org, settings] = await Promise.all([
    platformIndex(ctx.db, clock),
    orgIndex(ctx.db, configScope(ctx.workspace), clock),
    cachedSettings({ ctx }),
  ]);
  const destination = input.destination_country;
  const origin = input.origin_country ?? null;
  assertEnabled(settings, platform, destination);

  const indexes = org.index ? [platform.index, org.index] : [platform.index];
  const asOf = isoAt(clock.now()).slice(0, 10);
  const coverage = checkCoverage(platform, destination, origin, asOf);
  let matchCount = 0;
  let hasProhibitions = false;
  let hasRestrictions = false;
  const items = input.items.map((item): CheckedItem => {
    const matches: Match[] = checkItem(indexes, { destination, origin, asOf }, item);
    matchCount += matches.length;
    hasProhibitions ||= matches.some((m) => m.rule_type === "prohibition");
    hasRestrictions ||= matches.some((m) => m.rule_type === "restriction");
    return {
      sku: item.sku ?? null,
      title: item.title ?? null,
      description: item.description ?? null,
      hs_code: item.hs_code ?? null,
      country_of_origin: item.country_of_origin ?? null,
      restrictions: matches.length ? matches : null,
    };
  });

  return {
    destination,
    origin,
    coverage,
    items,
    matchCount,
    hasProhibitions,
    hasRestrictions,
    dataSource: platform.dataSource,
    orgRuleCount: org.count,
    asOf,
  };
}

const NO_RULES: Coverage = { rule_count: 0, families: {}, last_reviewed: null };

function coverageAt(platform: Platform, asOf: string): Map<string, Coverage> {
  if (platform.coverage?.asOf !== asOf)
    platform.coverage = { asOf, byDestination: coverageByDestination(platform.rules, asOf) };
  return platform.coverage.byDestination;
}

function checkCoverage(platform: Platform, destination: string, origin: string | null, asOf: string): CheckCoverage {
  const originExportRuleCount =
    origin === null
      ? null
      : platform.rules.filter(
          (r) =>
            r.direction === "EXPORT" &&
            (r.imposingCountry === origin || (r.imposingCountry === "EU" && EU_MEMBERS.has(origin))) &&
            (!r.validFrom || r.validFrom <= asOf) &&
            (!r.validTo || asOf <= r.validTo),
        ).length;
  return {
    destination: coverageAt(platform, asOf).get(destination) ?? NO_RULES,
    originExportRuleCount,
    dataVersion: platform.dataSource?.version ?? null,
  };
}

export interface CoverageListing {
  asOf: string;
  dataSource: DataSource | null;
  /** Every destination the platform rules answer for, by country code. */
  destinations: { country: string; coverage: Coverage }[];
}

/**
 * Coverage of every destination with platform import rules in force today (EU rules counted for each member
 * state). A destination absent here has no rules and is refused by the check unless the workspace enables it.
 */
export async function listCoverage({ ctx }: Call<Record<string, never>>): Promise<CoverageListing> {
  const platform = await platformIndex(ctx.db, ctx.deps.clock);
  const asOf = isoAt(ctx.deps.clock.now()).slice(0, 10);
  const destinations = [...coverageAt(platform, asOf)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([country, coverage]) => ({ country, coverage }));
  return { asOf, dataSource: platform.dataSource, destinations };
}

/**
 * The platform prohibitions on importing goods of a code and origin into a destination on a date (a quote's
 * warnings): HS-code and origin rules only, since a quote carries no title or description to match words on.
 */
export async function importProhibitions(
  db: Db,
  clock: Clock,
  query: { destination: string; origin: string; asOf: string },
  hsCodes: readonly string[],
): Promise<Match[][]> {
  const platform = await platformIndex(db, clock);
  return hsCodes.map((hs_code) =>
    checkItem([platform.index], query, { hs_code, country_of_origin: query.origin }).filter(
      (m) => m.rule_type === "prohibition",
    ),
  );
}

/**
 * The compiled platform rules for the loaded data version, built at most once per isolate and version; the
 * version itself is re-read at most every CACHE_TTL_MS.
 */
async function platformIndex(db: Db, clock: Clock): Promise<Platform> {
  const now = clock.now();
  let current = probe;
  if (!current && platformCache.version === undefined) {
    // Nothing read yet in this isolate: the rules and the version in one batch, one round trip instead of two
    // on the cold path. Requests arriving before it answers share it.
    coldLoad ??= loadCold(db, now).finally(() => {
      coldLoad = undefined;
    });
    return coldLoad;
  }
  if (!current || current.key !== platformCache.version || now - current.checkedAt >= CACHE_TTL_MS) {
    const [ds] = await db.select().from(dataSources).where(eq(dataSources.dataset, DATASET)).limit(1);
    current = probeOf(ds, now);
    probe = current;
  }
  const { key, dataSource } = current;
  return platformCache.get(key, async () => {
    if (!key) return compiled([], dataSource);
    const { rows, ds } = await readActive(db);
    return compiled(rows, ds ? sourceOf(ds) : dataSource);
  });
}

/** A cold isolate's first read, shared by the requests that arrive before it answers. */
let coldLoad: Promise<Platform> | undefined;
onDatasetCachesReset(() => {
  probe = undefined;
});

async function loadCold(db: Db, now: number): Promise<Platform> {
  const { rows, ds } = await readActive(db);
  const current = probeOf(ds, now);
  probe = current;
  const platform = compiled(current.key ? rows : [], current.dataSource);
  return platformCache.get(current.key, async () => platform);
}

type SourceRow = typeof dataSources.$inferSelect;
const sourceOf = (ds: SourceRow): DataSource => ({
  version: ds.version,
  source: ds.source,
  imported_at: ds.importedAt,
});

// No dataset loaded is a version of its own: an empty rule set, rebuilt once the data arrives.
const probeOf = (ds: SourceRow | undefined, now: number) => ({
  key: ds ? `${ds.version}@${ds.importedAt}` : "",
  dataSource: ds ? sourceOf(ds) : null,
  checkedAt: now,
});

/**
 * The active version's rules and the data_sources row that names it, in one batch: an activation in the
 * dataset registry (one batch too) is seen whole or not at all.
 */
async function readActive(db: Db) {
  const [rows, ds] = await db.batch([
    db
      .select(getTableColumns(restrictionRules))
      .from(restrictionRules)
      .innerJoin(
        datasetVersions,
        and(
          eq(datasetVersions.dataset, DATASET),
          eq(datasetVersions.version, restrictionRules.version),
          eq(datasetVersions.status, "active"),
        ),
      ),
    db.select().from(dataSources).where(eq(dataSources.dataset, DATASET)).limit(1),
  ]);
  return { rows, ds: ds[0] };
}

function compiled(rows: (typeof restrictionRules.$inferSelect)[], dataSource: DataSource | null): Platform {
  const rules = rows.map(platformRule);
  const index = compileRules(rules);
  return { index, rules, importCountries: importCountries(index), dataSource };
}

/** The organization's active rules of this mode, compiled; null index when it has none. */
async function orgIndex(db: Db, scope: ConfigScope, clock: Clock) {
  const hit = orgCache.get(configKey(scope), clock);
  if (hit) return hit;
  const rows = await db.select().from(orgRestrictionRules).where(activeRulesOf(scope));
  const value = { index: rows.length ? compileRules(rows.map(orgRule)) : null, count: rows.length };
  orgCache.set(configKey(scope), value, clock);
  return value;
}

/* ---------- custom rules ---------- */

export interface CreateRuleInput {
  title: string;
  summary?: string | undefined;
  rule_type: OrgRow["ruleType"];
  measure_direction: OrgRow["direction"];
  imposing_country_code: string;
  hs_code?: string | null | undefined;
  keywords?: string[] | null | undefined;
  origin_country_code?: string | null | undefined;
  requirement?: "required" | "may_be_required" | null | undefined;
  source_url?: string | null | undefined;
  source_ref?: string | null | undefined;
  valid_from?: string | null | undefined;
  valid_to?: string | null | undefined;
}

export const orgRuleToWire = (r: OrgRow) => ({
  id: r.id,
  source: "org" as const,
  title: r.title,
  summary: r.summary,
  rule_type: r.ruleType,
  measure_direction: r.direction,
  imposing_country_code: r.imposingCountry,
  hs_code: r.hsPrefix,
  keywords: parseList(r.keywords),
  origin_country_code: r.originCountry,
  requirement: r.requirement ?? null,
  source_url: r.sourceUrl,
  source_ref: r.sourceRef,
  valid_from: r.validFrom,
  valid_to: r.validTo,
  created_at: r.createdAt,
});

/** Active rules of an organization in one mode: a sandbox rule never applies to live checks, nor the reverse. */
const activeRulesOf = (scope: ConfigScope) =>
  and(
    eq(orgRestrictionRules.organizationId, scope.organizationId),
    eq(orgRestrictionRules.mode, scope.mode),
    isNull(orgRestrictionRules.deletedAt),
  );

/** Creates an organization rule; 422 when the organization already holds MAX_ORG_RULES active rules. */
export async function createOrgRule({ ctx, input }: Call<CreateRuleInput>): Promise<OrgRow> {
  const scope = configScope(ctx.workspace);
  const [held] = await ctx.db.select({ n: count() }).from(orgRestrictionRules).where(activeRulesOf(scope));
  if ((held?.n ?? 0) >= MAX_ORG_RULES)
    throw unprocessable(`An organization may hold at most ${MAX_ORG_RULES} custom rules; delete some first`);
  const keywords = input.keywords?.length ? [...new Set(input.keywords)] : null;
  const [row] = await ctx.db
    .insert(orgRestrictionRules)
    .values({
      organizationId: scope.organizationId,
      mode: scope.mode,
      workspaceId: ctx.workspace.id,
      imposingCountry: input.imposing_country_code,
      direction: input.measure_direction,
      ruleType: input.rule_type,
      hsPrefix: input.hs_code || null,
      keywords: keywords ? JSON.stringify(keywords) : null,
      originCountry: input.origin_country_code ?? null,
      title: input.title,
      summary: input.summary ?? "",
      requirement: input.requirement ?? null,
      sourceUrl: input.source_url ?? null,
      sourceRef: input.source_ref ?? null,
      validFrom: input.valid_from ?? null,
      validTo: input.valid_to ?? null,
      createdAt: isoAt(ctx.deps.clock.now()),
    })
    .returning();
  orgCache.delete(configKey(scope));
  if (!row) throw new Error("custom rule insert returned no row");
  return row;
}

/** One page of the organization's active rules, newest first; `starting_after` is a rule id. */
export async function listOrgRules({
  ctx,
  input,
}: Call<{ limit: number; starting_after?: number | undefined }>): Promise<{ rules: OrgRow[]; hasMore: boolean }> {
  const where = [activeRulesOf(configScope(ctx.workspace))];
  if (input.starting_after !== undefined) where.push(lt(orgRestrictionRules.id, input.starting_after));
  const rows = await ctx.db
    .select()
    .from(orgRestrictionRules)
    .where(and(...where))
    .orderBy(desc(orgRestrictionRules.id))
    .limit(input.limit + 1);
  return { rules: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

/** Deletes (soft) an organization's rule; 404 when it is not an active rule of this organization. */
export async function deleteOrgRule({ ctx, input }: Call<{ id: number }>): Promise<void> {
  const scope = configScope(ctx.workspace);
  const rows = await ctx.db
    .update(orgRestrictionRules)
    .set({ deletedAt: isoAt(ctx.deps.clock.now()) })
    .where(and(eq(orgRestrictionRules.id, input.id), activeRulesOf(scope)))
    .returning({ id: orgRestrictionRules.id });
  orgCache.delete(configKey(scope));
  if (!rows.length) throw notFound(`No custom rule ${input.id} in this organization`);
}
