/** Who the caller is: the workspace, the API client and, for a pinned client, its customer. */
import { and, eq } from "drizzle-orm";
import type { Actor, Call, WorkspaceContext } from "../../core/context";
import { customers } from "../../db/schema/index";

export interface Caller {
  workspace: WorkspaceContext;
  actor: Actor;
  /** The customer a pinned client acts for; null when unpinned (or the customer is gone). */
  customer: { id: number; name: string } | null;
}

export async function describeCaller({ ctx }: Call<Record<string, never>>): Promise<Caller> {
  const { workspace, actor } = ctx;
  if (actor.customerId === null) return { workspace, actor, customer: null };
  const [customer] = await ctx.db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(eq(customers.id, actor.customerId), eq(customers.workspaceId, workspace.id)))
    .limit(1);
  return { workspace, actor, customer: customer ?? null };
}
