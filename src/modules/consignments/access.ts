/**
 * The one visibility rule for a consignment: in the caller's workspace and, for a customer-pinned client, of
 * its own customer. Everything under a consignment is read or written only after this check, in the same
 * round trip, so another workspace's consignment id is a 404, never an empty list.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { ServiceContext } from "../../core/context";
import { consignments } from "../../db/schema/index";
import { notFound } from "../../lib/errors";

export function visibleConsignment(ctx: ServiceContext, id: string): SQL {
  const where = [eq(consignments.id, id), eq(consignments.workspaceId, ctx.workspace.id)];
  if (ctx.actor.customerId !== null) where.push(eq(consignments.customerId, ctx.actor.customerId));
  return and(...where) ?? eq(consignments.id, id);
}

/** That rule as a query, for a read to batch with the child rows it guards (one D1 round trip, 404 if empty). */
export const consignmentHeadQuery = (ctx: ServiceContext, id: string) =>
  ctx.db.select({ id: consignments.id }).from(consignments).where(visibleConsignment(ctx, id)).limit(1);

export const consignmentNotFound = (id: string) => notFound(`Consignment '${id}' not found`);
