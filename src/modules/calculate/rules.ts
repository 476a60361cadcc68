/**
 * Workspace country rules for calculate (`{api}/settings/country-rules`): minimum / maximum declared value,
 * required request fields, blocked origins, per destination (or `*` for all). Read on every calculate request
 * through a 30-second per-isolate cache that the writes of this isolate clear at once.
 */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { createDb } from "../../db/client";
import { calcCountryRules } from "../../db/schema/index";
import { type Clock, isoAt } from "../../lib/clock";
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

interface Ctx {
  db: D1Database;
  clock: Clock;
  workspaceId: string;
}

type Row = typeof calcCountryRules.$inferSelect;
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
export async function rulesFor(ctx: Ctx, destination: string): Promise<CountryRule[]> {
  let all = cache.get(ctx.workspaceId, ctx.clock);
  if (!all) {
    const rows = await createDb(ctx.db)
      .select()
      .from(calcCountryRules)
      .where(eq(calcCountryRules.workspaceId, ctx.workspaceId))
      .orderBy(calcCountryRules.id);
    all = rows.map(toRule);
    cache.set(ctx.workspaceId, all, ctx.clock);
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
      return `Required for ${where}: ${input.fields!.join(", ")}`;
    default:
      return `Origins refused for ${where}: ${input.countries!.join(", ")}`;
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

export async function createRule(ctx: Ctx, input: RuleInput): Promise<CountryRule> {
  const now = isoAt(ctx.clock.now());
  const [row] = await createDb(ctx.db)
    .insert(calcCountryRules)
    .values({
      workspaceId: ctx.workspaceId,
      destinationCountry: input.destination_country,
      ruleType: input.rule_type,
      params: paramsOf(input),
      code: input.code ?? input.rule_type,
      description: input.description ?? defaultDescription(input),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  cache.delete(ctx.workspaceId);
  return toRule(row!);
}

export async function listRules(
  ctx: Ctx,
  q: { limit: number; starting_after?: string | undefined; destination_country?: string | undefined },
) {
  const where = [eq(calcCountryRules.workspaceId, ctx.workspaceId)];
  if (q.starting_after) where.push(lt(calcCountryRules.id, Number(q.starting_after)));
  if (q.destination_country) where.push(inArray(calcCountryRules.destinationCountry, [q.destination_country]));
  const rows = await createDb(ctx.db)
    .select()
    .from(calcCountryRules)
    .where(and(...where))
    .orderBy(desc(calcCountryRules.id))
    .limit(q.limit + 1);
  return { rules: rows.slice(0, q.limit).map(toRule), hasMore: rows.length > q.limit };
}

async function getRow(ctx: Ctx, id: number): Promise<Row> {
  const [row] = await createDb(ctx.db)
    .select()
    .from(calcCountryRules)
    .where(and(eq(calcCountryRules.workspaceId, ctx.workspaceId), eq(calcCountryRules.id, id)))
    .limit(1);
  if (!row) throw notFound(`No country rule ${id} in this workspace`);
  return row;
}

export const getRule = async (ctx: Ctx, id: number) => toRule(await getRow(ctx, id));

export async function updateRule(
  ctx: Ctx,
  id: number,
  patch: Omit<Partial<RuleInput>, "destination_country" | "rule_type">,
): Promise<CountryRule> {
  const current = toRule(await getRow(ctx, id));
  const merged = {
    value: patch.value ?? current.value ?? undefined,
    currency: patch.currency ?? current.currency ?? undefined,
    fields: patch.fields ?? current.fields ?? undefined,
    countries: patch.countries ?? current.countries ?? undefined,
  };
  const [row] = await createDb(ctx.db)
    .update(calcCountryRules)
    .set({
      params: paramsOf(merged),
      code: patch.code ?? current.code,
      description: patch.description ?? current.description,
      updatedAt: isoAt(ctx.clock.now()),
    })
    .where(and(eq(calcCountryRules.workspaceId, ctx.workspaceId), eq(calcCountryRules.id, id)))
    .returning();
  cache.delete(ctx.workspaceId);
  return toRule(row!);
}

export async function deleteRule(ctx: Ctx, id: number): Promise<void> {
  await getRow(ctx, id);
  await createDb(ctx.db)
    .delete(calcCountryRules)
    .where(and(eq(calcCountryRules.workspaceId, ctx.workspaceId), eq(calcCountryRules.id, id)));
  cache.delete(ctx.workspaceId);
}
