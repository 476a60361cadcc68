/**
 * Workspace country rules for calculate (`{api}/settings/country-rules`): minimum / maximum declared value,
 * required request fields, blocked origins, per destination (or `*` for all). Read on every calculate request
 * through a 30-second per-isolate cache that the writes of this isolate clear at once.
 */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Call, ServiceContext, WorkspaceScopedContext } from "../../core/context";
import { calcCountryRules } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { TtlCache } from "../../lib/ttl-cache";

export interface CountryRule {
  id: number;
  destinationCountry: string;
  ruleType: "min_declared_value" | "max_declared_value" | "required_fields" | "blocked_origins";
  value: number | null;
  currency: string | null;
  fields: string[] | null;
  countries: string[] | null;
  code: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

type Row = typeof calcCountryRules.$inferSelect;
/**
 * A workspace's rules have no dataset version to key on (they change with every write), so they stay in a
 * short per-workspace TTL cache rather than a DatasetCache.
 */
const cache = new TtlCache<CountryRule[]>(30_000);

function toRule(r: Row): CountryRule {
  const p = JSON.parse(r.params) as { value?: number; currency?: string; fields?: string[]; countries?: string[] };
  return {
    id: r.id,
    destinationCountry: r.destinationCountry,
    ruleType: r.ruleType as CountryRule["ruleType"],
    value: p.value ?? null,
    currency: p.currency ?? null,
    fields: p.fields ?? null,
    countries: p.countries ?? null,
    code: r.code,
    description: r.description,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const ruleToWire = (r: CountryRule) => ({
  id: r.id,
  destination_country: r.destinationCountry,
  rule_type: r.ruleType,
  value: r.value,
  currency: r.currency,
  fields: r.fields,
  countries: r.countries,
  code: r.code,
  description: r.description,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** Rules that apply to a destination (its own and the `*` ones), oldest first. */
export async function rulesFor(
  ctx: Pick<WorkspaceScopedContext, "db" | "deps" | "workspace">,
  destination: string,
): Promise<CountryRule[]> {
  const workspaceId = ctx.workspace.id;
  let all = cache.get(workspaceId, ctx.deps.clock);
  if (!all) {
    const rows = await ctx.db
      .select()
      .from(calcCountryRules)
      .where(eq(calcCountryRules.workspaceId, workspaceId))
      .orderBy(calcCountryRules.id);
    all = rows.map(toRule);
    cache.set(workspaceId, all, ctx.deps.clock);
  }
  return all.filter((r) => r.destinationCountry === destination || r.destinationCountry === "*");
}

function defaultDescription(input: {
  rule_type: string;
  destination_country: string;
  value?: number | undefined;
  currency?: string | undefined;
  fields?: string[] | undefined;
  countries?: string[] | undefined;
}) {
  const where = input.destination_country === "*" ? "any destination" : input.destination_country;
  switch (input.rule_type) {
    case "min_declared_value":
      return `Declared value must be at least ${input.value} ${input.currency ?? "(destination currency)"} for ${where}`;
    case "max_declared_value":
      return `Declared value must be at most ${input.value} ${input.currency ?? "(destination currency)"} for ${where}`;
    case "required_fields":
      return `Required for ${where}: ${(input.fields ?? []).join(", ")}`;
    default:
      return `Origins refused for ${where}: ${(input.countries ?? []).join(", ")}`;
  }
}

export interface RuleInput {
  destination_country: string;
  rule_type: CountryRule["ruleType"];
  value?: number | undefined;
  currency?: string | undefined;
  fields?: string[] | undefined;
  countries?: string[] | undefined;
  code?: string | undefined;
  description?: string | undefined;
}

const paramsOf = (i: {
  value?: number | undefined;
  currency?: string | undefined;
  fields?: string[] | undefined;
  countries?: string[] | undefined;
}) => JSON.stringify({ value: i.value, currency: i.currency, fields: i.fields, countries: i.countries });

const ofWorkspace = (ctx: ServiceContext, id: number) =>
  and(eq(calcCountryRules.workspaceId, ctx.workspace.id), eq(calcCountryRules.id, id));

function written(ctx: ServiceContext, row: Row | undefined): CountryRule {
  cache.delete(ctx.workspace.id);
  if (!row) throw new Error("country rule write returned no row");
  return toRule(row);
}

export async function createRule({ ctx, input }: Call<RuleInput>): Promise<CountryRule> {
  const now = isoAt(ctx.deps.clock.now());
  const [row] = await ctx.db
    .insert(calcCountryRules)
    .values({
      workspaceId: ctx.workspace.id,
      destinationCountry: input.destination_country,
      ruleType: input.rule_type,
      params: paramsOf(input),
      code: input.code ?? input.rule_type,
      description: input.description ?? defaultDescription(input),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return written(ctx, row);
}

export interface RuleListQuery {
  limit: number;
  starting_after?: number | undefined;
  destination_country?: string | undefined;
}

export async function listRules({
  ctx,
  input,
}: Call<RuleListQuery>): Promise<{ rules: CountryRule[]; hasMore: boolean }> {
  const where = [eq(calcCountryRules.workspaceId, ctx.workspace.id)];
  if (input.starting_after !== undefined) where.push(lt(calcCountryRules.id, input.starting_after));
  if (input.destination_country) where.push(eq(calcCountryRules.destinationCountry, input.destination_country));
  const rows = await ctx.db
    .select()
    .from(calcCountryRules)
    .where(and(...where))
    .orderBy(desc(calcCountryRules.id))
    .limit(input.limit + 1);
  return { rules: rows.slice(0, input.limit).map(toRule), hasMore: rows.length > input.limit };
}

async function getRow(ctx: ServiceContext, id: number): Promise<Row> {
  const [row] = await ctx.db.select().from(calcCountryRules).where(ofWorkspace(ctx, id)).limit(1);
  if (!row) throw notFound(`No country rule ${id} in this workspace`);
  return row;
}

export const getRule = async ({ ctx, input }: Call<{ id: number }>) => toRule(await getRow(ctx, input.id));

export type RulePatch = Omit<Partial<RuleInput>, "destination_country" | "rule_type">;

export async function updateRule({ ctx, input }: Call<{ id: number; patch: RulePatch }>): Promise<CountryRule> {
  const { id, patch } = input;
  const current = toRule(await getRow(ctx, id));
  const merged = {
    value: patch.value ?? current.value ?? undefined,
    currency: patch.currency ?? current.currency ?? undefined,
    fields: patch.fields ?? current.fields ?? undefined,
    countries: patch.countries ?? current.countries ?? undefined,
  };
  const [row] = await ctx.db
    .update(calcCountryRules)
    .set({
      params: paramsOf(merged),
      code: patch.code ?? current.code,
      description: patch.description ?? current.description,
      updatedAt: isoAt(ctx.deps.clock.now()),
    })
    .where(ofWorkspace(ctx, id))
    .returning();
  return written(ctx, row);
}

export async function deleteRule({ ctx, input }: Call<{ id: number }>): Promise<void> {
  await getRow(ctx, input.id);
  await ctx.db.delete(calcCountryRules).where(ofWorkspace(ctx, input.id));
  cache.delete(ctx.workspace.id);
}
