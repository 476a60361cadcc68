/**
 * Restricted-goods checks and the organization's custom rules. No Hono here.
 *
 * The platform rule set is compiled once per isolate and data version (module-level cache keyed by the
 * `restrictions` version in data_sources) and reused by every request. The hot path reads nothing from D1
 * while its caches are fresh: the data version is re-checked, and the organization's compiled rules and the
 * workspace settings are re-read, at most every CACHE_TTL_MS. Writes made in this isolate drop the entries
 * at once, so a new rule applies immediately here and within CACHE_TTL_MS in every other isolate.
 */
import { and, count, desc, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dataSources, orgRestrictionRules, restrictionRules } from "../../db/schema/index";
import {
  checkItem,
  compileRules,
  importCountries,
  type Match,
  type Rule,
  type RuleIndex,
} from "../../engines/restrict/engine";
import type { Clock } from "../../lib/clock";
import { forbidden, notFound, unprocessable, validationFailed } from "../../lib/errors";
import { TtlCache } from "../../lib/ttl-cache";
import { cachedSettings, SETTINGS_TTL_MS } from "../settings/service";
import type { UsageInsert } from "../usage/service";

export const DATASET = "restrictions";
/** Active custom rules an organization may hold. */
export const MAX_ORG_RULES = 1000;

type PlatformRow = typeof restrictionRules.$inferSelect;
type OrgRow = typeof orgRestrictionRules.$inferSelect;

interface Platform {
  version: string | null;
  index: RuleIndex;
  importCountries: Set<string>;
  dataSource: { version: string; source: string; imported_at: string } | null;
}

export const CACHE_TTL_MS = SETTINGS_TTL_MS;
let platformCache: (Platform & { checkedAt: number }) | undefined;
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

export const platformRule = (r: PlatformRow): Rule => ({
  ...commonFields(r),
  id: `restriction_${r.id}`,
  source: "platform",
  excludeKeywords: parseList(r.excludeKeywords),
  destinationCountries: parseList(r.destinationCountries),
  agency: r.agency,
  agencyFlag: r.agencyFlag,
});

export const orgRule = (r: OrgRow): Rule => ({
  ...commonFields(r),
  id: `org_rule_${r.id}`,
  source: "org",
  destinationCountries: null,
  agency: null,
  agencyFlag: null,
});

export interface CheckItemInput {
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

export interface CheckContext {
  db: Db;
  workspaceId: string;
  organizationId: string;
  requestId: string;
  customerId: number | null;
  actor: string | null;
  /** Request start (ms) and the clock's now (ms): duration and the as-of date come from them. */
  startedAt: number;
  now: () => number;
}

/**
 * Runs a check. Throws 403 when checks are not enabled for the destination (the workspace setting
 * `restrict.enabled_destinations`, by default every destination with platform rules). Returns the wire
 * response and the usage-log row for the caller to write.
 */
export async function runCheck(ctx: CheckContext, input: CheckInput) {
  const { db } = ctx;
  const clock: Clock = { now: ctx.now };
  const [platform, org, settings] = await Promise.all([
    platformIndex(db, clock),
    orgIndex(db, ctx.organizationId, clock),
    cachedSettings(db, ctx.workspaceId, clock),
  ]);

  const destination = input.destination_country;
  const origin = input.origin_country ?? null;
  const enabled = settings["restrict.enabled_destinations"];
  const isEnabled = enabled ? enabled.includes(destination) : platform.importCountries.has(destination);
  if (!isEnabled) {
    throw forbidden(`Restricted-goods checks are not enabled for destination ${destination}`);
  }

  const indexes = org.index ? [platform.index, org.index] : [platform.index];
  const asOf = new Date(ctx.now()).toISOString().slice(0, 10);
  let matchCount = 0;
  let hasProhibitions = false;
  let hasRestrictions = false;
  const matchedIds: string[][] = [];
  const items = input.items.map((item) => {
    const matches: Match[] = checkItem(indexes, { destination, origin, asOf }, item);
    matchCount += matches.length;
    for (const m of matches) {
      if (m.rule_type === "prohibition") hasProhibitions = true;
      if (m.rule_type === "restriction") hasRestrictions = true;
    }
    matchedIds.push(matches.map((m) => m.id));
    return {
      sku: item.sku ?? null,
      title: item.title ?? null,
      description: item.description ?? null,
      hs_code: item.hs_code ?? null,
      country_of_origin: item.country_of_origin ?? null,
      restrictions: matches.length ? matches : null,
    };
  });

  const finishedAt = ctx.now();
  const durationMs = Math.max(0, Math.round(finishedAt - ctx.startedAt));
  const createdAt = new Date(finishedAt).toISOString();
  const usage: UsageInsert = {
    id: ctx.requestId,
    workspaceId: ctx.workspaceId,
    kind: "restrict",
    customerId: ctx.customerId,
    actor: ctx.actor,
    senderCountryCode: origin,
    receiverCountryCode: destination,
    itemCount: input.items.length,
    matchCount,
    durationMs,
    detail: JSON.stringify({
      data_source: platform.dataSource,
      org_rule_count: org.count,
      as_of: asOf,
      has_prohibitions: hasProhibitions,
      has_restrictions: hasRestrictions,
      matches: matchedIds,
    }),
    createdAt,
  };
  return {
    response: {
      success: true as const,
      message: "",
      created_at: createdAt,
      destination_country: destination,
      origin_country: origin,
      items,
      match_count: matchCount,
      has_prohibitions: hasProhibitions,
      has_restrictions: hasRestrictions,
      duration_ms: durationMs,
    },
    usage,
  };
}

/**
 * The compiled platform rules for the loaded data version, built at most once per isolate and version; the
 * version itself is re-read at most every CACHE_TTL_MS.
 */
async function platformIndex(db: Db, clock: Clock): Promise<Platform> {
  const now = clock.now();
  if (platformCache && now - platformCache.checkedAt < CACHE_TTL_MS) return platformCache;
  const ds = (await db.select().from(dataSources).where(eq(dataSources.dataset, DATASET)).limit(1))[0] ?? null;
  const version = ds ? `${ds.version}@${ds.importedAt}` : null;
  if (platformCache && platformCache.version === version) {
    platformCache.checkedAt = now;
    return platformCache;
  }
  const rows = version ? await db.select().from(restrictionRules) : [];
  const index = compileRules(rows.map(platformRule));
  platformCache = {
    version,
    index,
    importCountries: importCountries(index),
    dataSource: ds ? { version: ds.version, source: ds.source, imported_at: ds.importedAt } : null,
    checkedAt: now,
  };
  return platformCache;
}

/** The organization's active rules, compiled; null index when it has none. */
async function orgIndex(db: Db, organizationId: string, clock: Clock) {
  const hit = orgCache.get(organizationId, clock);
  if (hit) return hit;
  const rows = await db
    .select()
    .from(orgRestrictionRules)
    .where(and(eq(orgRestrictionRules.organizationId, organizationId), isNull(orgRestrictionRules.deletedAt)));
  const value = { index: rows.length ? compileRules(rows.map(orgRule)) : null, count: rows.length };
  orgCache.set(organizationId, value, clock);
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

/** Creates an organization rule; 422 when the organization already holds MAX_ORG_RULES active rules. */
export async function createOrgRule(
  db: Db,
  scope: { organizationId: string; workspaceId: string },
  input: CreateRuleInput,
  now: string,
) {
  const [{ n }] = (await db
    .select({ n: count() })
    .from(orgRestrictionRules)
    .where(
      and(eq(orgRestrictionRules.organizationId, scope.organizationId), isNull(orgRestrictionRules.deletedAt)),
    )) as [{ n: number }];
  if (n >= MAX_ORG_RULES)
    throw unprocessable(`An organization may hold at most ${MAX_ORG_RULES} custom rules; delete some first`);
  const keywords = input.keywords?.length ? [...new Set(input.keywords)] : null;
  const rows = await db
    .insert(orgRestrictionRules)
    .values({
      organizationId: scope.organizationId,
      workspaceId: scope.workspaceId,
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
      createdAt: now,
    })
    .returning();
  orgCache.delete(scope.organizationId);
  return rows[0]!;
}

/** One page of the organization's active rules, newest first; `startingAfter` is a rule id. */
export async function listOrgRules(
  db: Db,
  organizationId: string,
  query: { limit: number; starting_after?: string | undefined },
) {
  const where = [eq(orgRestrictionRules.organizationId, organizationId), isNull(orgRestrictionRules.deletedAt)];
  if (query.starting_after !== undefined) {
    const after = Number(query.starting_after);
    if (!Number.isInteger(after) || after < 1)
      throw validationFailed([{ field: "starting_after", message: "must be a rule id" }]);
    where.push(lt(orgRestrictionRules.id, after));
  }
  const rows = await db
    .select()
    .from(orgRestrictionRules)
    .where(and(...where))
    .orderBy(desc(orgRestrictionRules.id))
    .limit(query.limit + 1);
  return { rules: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

/** Deletes (soft) an organization's rule; 404 when it is not an active rule of this organization. */
export async function deleteOrgRule(db: Db, organizationId: string, id: number, now: string) {
  const rows = await db
    .update(orgRestrictionRules)
    .set({ deletedAt: now })
    .where(
      and(
        eq(orgRestrictionRules.id, id),
        eq(orgRestrictionRules.organizationId, organizationId),
        isNull(orgRestrictionRules.deletedAt),
      ),
    )
    .returning({ id: orgRestrictionRules.id });
  orgCache.delete(organizationId);
  if (!rows.length) throw notFound(`No custom rule ${id} in this organization`);
}
