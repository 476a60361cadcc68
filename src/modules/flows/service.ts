/**
 * Flow definitions of a workspace (CRUD). What a flow does when a consignment is created is in ./actions;
 * its background runs are in ./runs.
 */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Call } from "../../core/context";
import { flows } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import type { FlowRow } from "./actions";
import type { ActionT, FlowInputT } from "./schemas";

export const flowToWire = (r: FlowRow) => ({
  id: r.id,
  name: r.name,
  trigger: r.trigger as "consignment.created",
  external_code: r.externalCode,
  actions: JSON.parse(r.actions) as ActionT[],
  enabled: r.enabled,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

const missing = (id: number) => notFound(`Flow ${id} not found`);

export async function createFlow({ ctx, input }: Call<FlowInputT>): Promise<FlowRow> {
  const now = isoAt(ctx.deps.clock.now());
  const [row] = await ctx.db
    .insert(flows)
    .values({
      workspaceId: ctx.workspace.id,
      name: input.name,
      trigger: input.trigger,
      externalCode: input.external_code ?? null,
      actions: JSON.stringify(input.actions),
      enabled: input.enabled ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("flow insert returned no row");
  return row;
}

export async function getFlow({ ctx, input }: Call<{ id: number }>): Promise<FlowRow> {
  const [row] = await ctx.db
    .select()
    .from(flows)
    .where(and(eq(flows.id, input.id), eq(flows.workspaceId, ctx.workspace.id)))
    .limit(1);
  if (!row) throw missing(input.id);
  return row;
}

export async function listFlows({
  ctx,
  input,
}: Call<{ limit: number; starting_after?: number | undefined }>): Promise<{ rows: FlowRow[]; hasMore: boolean }> {
  const where = [eq(flows.workspaceId, ctx.workspace.id)];
  if (input.starting_after !== undefined) where.push(lt(flows.id, input.starting_after));
  const rows = await ctx.db
    .select()
    .from(flows)
    .where(and(...where))
    .orderBy(desc(flows.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

export interface FlowPatch {
  name?: string | undefined;
  external_code?: string | null | undefined;
  actions?: ActionT[] | undefined;
  enabled?: boolean | undefined;
}

/** Runs already created keep their own copy of the actions; 404 for another workspace's flow. */
export async function updateFlow({ ctx, input }: Call<{ id: number; patch: FlowPatch }>): Promise<FlowRow> {
  const { patch } = input;
  const set: Partial<typeof flows.$inferInsert> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.external_code !== undefined) set.externalCode = patch.external_code;
  if (patch.actions !== undefined) set.actions = JSON.stringify(patch.actions);
  if (patch.enabled !== undefined) set.enabled = patch.enabled;
  const [row] = await ctx.db
    .update(flows)
    .set(set)
    .where(and(eq(flows.id, input.id), eq(flows.workspaceId, ctx.workspace.id)))
    .returning();
  if (!row) throw missing(input.id);
  return row;
}

/** Runs already created keep their own copy of the actions, so deleting a flow does not cancel them. */
export async function deleteFlow({ ctx, input }: Call<{ id: number }>): Promise<void> {
  const deleted = await ctx.db
    .delete(flows)
    .where(and(eq(flows.id, input.id), eq(flows.workspaceId, ctx.workspace.id)))
    .returning({ id: flows.id });
  if (!deleted.length) throw missing(input.id);
}
