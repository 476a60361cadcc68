/**
 * A workspace's consignment validation rules: CRUD verbs for the settings routes, and the enabled-rules query
 * the consignment create path reads in its own batch.
 */
import type { z } from "@hono/zod-openapi";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Call } from "../../core/context";
import type { Db } from "../../db/client";
import { validationRules } from "../../db/schema/index";
import type { Condition, Rule } from "../../engines/validation-rules/evaluate";
import { isoAt } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import type { RuleInput } from "./schemas";

export type ValidationRuleRow = typeof validationRules.$inferSelect;
type Input = z.infer<typeof RuleInput>;

/** The enabled rules as a query, so the create path can read them in the same round trip as its other reads. */
export const enabledRulesQuery = (db: Db, workspaceId: string) =>
  db
    .select()
    .from(validationRules)
    .where(and(eq(validationRules.workspaceId, workspaceId), eq(validationRules.enabled, true)));

export const ruleFromRow = (r: ValidationRuleRow): Rule => ({
  id: r.id,
  name: r.name,
  severity: r.severity,
  message: r.message,
  condition: JSON.parse(r.condition) as Condition,
});

export const ruleToWire = (r: ValidationRuleRow) => ({
  id: r.id,
  name: r.name,
  severity: r.severity,
  message: r.message,
  condition: JSON.parse(r.condition) as Condition,
  enabled: r.enabled,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

export interface RuleListQuery {
  limit: number;
  starting_after?: number | undefined;
}

/** Newest first, keyset-paged by id. */
export async function listRules({
  ctx,
  input,
}: Call<RuleListQuery>): Promise<{ rows: ValidationRuleRow[]; hasMore: boolean }> {
  const where = [eq(validationRules.workspaceId, ctx.workspace.id)];
  if (input.starting_after !== undefined) where.push(lt(validationRules.id, input.starting_after));
  const rows = await ctx.db
    .select()
    .from(validationRules)
    .where(and(...where))
    .orderBy(desc(validationRules.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

export async function createRule({ ctx, input }: Call<Input>): Promise<ValidationRuleRow> {
  const now = isoAt(ctx.deps.clock.now());
  const [row] = await ctx.db
    .insert(validationRules)
    .values({
      workspaceId: ctx.workspace.id,
      name: input.name,
      severity: input.severity,
      message: input.message,
      condition: JSON.stringify(input.condition),
      enabled: input.enabled ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("validation rule insert returned no row");
  return row;
}

/** 404 for an id of another workspace. */
export async function getRule({ ctx, input }: Call<{ id: number }>): Promise<ValidationRuleRow> {
  const [row] = await ctx.db
    .select()
    .from(validationRules)
    .where(and(eq(validationRules.id, input.id), eq(validationRules.workspaceId, ctx.workspace.id)))
    .limit(1);
  if (!row) throw notFound(`Validation rule ${input.id} not found`);
  return row;
}

export async function updateRule({
  ctx,
  input,
}: Call<{ id: number; patch: Partial<Input> }>): Promise<ValidationRuleRow> {
  const current = await getRule({ ctx, input: { id: input.id } });
  const { patch: p } = input;
  const patch: Partial<ValidationRuleRow> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (p.name !== undefined) patch.name = p.name;
  if (p.severity !== undefined) patch.severity = p.severity;
  if (p.message !== undefined) patch.message = p.message;
  if (p.condition !== undefined) patch.condition = JSON.stringify(p.condition);
  if (p.enabled !== undefined) patch.enabled = p.enabled;
  await ctx.db
    .update(validationRules)
    .set(patch)
    .where(and(eq(validationRules.id, current.id), eq(validationRules.workspaceId, ctx.workspace.id)));
  return getRule({ ctx, input: { id: current.id } });
}

export async function deleteRule({ ctx, input }: Call<{ id: number }>): Promise<void> {
  const deleted = await ctx.db
    .delete(validationRules)
    .where(and(eq(validationRules.id, input.id), eq(validationRules.workspaceId, ctx.workspace.id)))
    .returning({ id: validationRules.id });
  if (!deleted.length) throw notFound(`Validation rule ${input.id} not found`);
}
