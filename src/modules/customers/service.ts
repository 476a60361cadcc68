/**
 * Customers of a workspace. A customer-pinned API client sees only its own customer and may not create or
 * delete customers. Deleting a customer that API clients are pinned to is refused (409).
 */
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { apiClients, customers } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { conflict, forbidden, notFound } from "../../lib/errors";
import type { ServiceCtx } from "../workspaces/service";
import type { CustomerInput } from "./schemas";

type Row = typeof customers.$inferSelect;
type Input = z.infer<typeof CustomerInput>;

export const customerToWire = (r: Row) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  external_ref: r.externalRef,
  addresses: JSON.parse(r.addresses) as Record<string, unknown>[],
  tax_registrations: JSON.parse(r.taxRegistrations) as Record<string, unknown>,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** Who is asking: the workspace, and the customer a pinned client is bound to. */
export interface Caller {
  workspaceId: string;
  pinnedCustomerId: number | null;
}

export async function createCustomer({ db, deps }: ServiceCtx, caller: Caller, input: Input) {
  if (caller.pinnedCustomerId !== null) throw forbidden("Customer-pinned clients cannot create customers");
  const now = isoAt(deps.clock.now());
  const [row] = await db
    .insert(customers)
    .values({
      workspaceId: caller.workspaceId,
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      externalRef: input.external_ref ?? null,
      addresses: JSON.stringify(input.addresses ?? []),
      taxRegistrations: JSON.stringify(input.tax_registrations ?? {}),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function getCustomer({ db }: ServiceCtx, caller: Caller, id: number) {
  if (caller.pinnedCustomerId !== null && caller.pinnedCustomerId !== id) throw notFound(`Customer ${id} not found`);
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), eq(customers.workspaceId, caller.workspaceId)))
    .limit(1);
  if (!row) throw notFound(`Customer ${id} not found`);
  return row;
}

export async function listCustomers(
  { db }: ServiceCtx,
  caller: Caller,
  q: { limit: number; starting_after?: number | undefined; external_ref?: string | undefined },
) {
  const where = [eq(customers.workspaceId, caller.workspaceId)];
  if (caller.pinnedCustomerId !== null) where.push(eq(customers.id, caller.pinnedCustomerId));
  if (q.starting_after !== undefined) where.push(lt(customers.id, q.starting_after));
  if (q.external_ref !== undefined) where.push(eq(customers.externalRef, q.external_ref));
  const rows = await db.select().from(customers).where(and(...where)).orderBy(desc(customers.id)).limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export async function updateCustomer(ctx: ServiceCtx, caller: Caller, id: number, input: Partial<Input>) {
  const current = await getCustomer(ctx, caller, id);
  const patch: Partial<Row> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (input.name !== undefined) patch.name = input.name;
  if (input.email !== undefined) patch.email = input.email;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.external_ref !== undefined) patch.externalRef = input.external_ref;
  if (input.addresses !== undefined) patch.addresses = JSON.stringify(input.addresses);
  if (input.tax_registrations !== undefined) patch.taxRegistrations = JSON.stringify(input.tax_registrations);
  await ctx.db.update(customers).set(patch).where(eq(customers.id, current.id));
  return getCustomer(ctx, caller, id);
}

export async function deleteCustomer(ctx: ServiceCtx, caller: Caller, id: number) {
  if (caller.pinnedCustomerId !== null) throw forbidden("Customer-pinned clients cannot delete customers");
  const current = await getCustomer(ctx, caller, id);
  const pinned = await ctx.db
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(and(eq(apiClients.customerId, current.id), isNull(apiClients.deletedAt)))
    .limit(1);
  if (pinned.length) throw conflict(`Customer ${id} has API clients pinned to it; delete or re-pin them first`);
  await ctx.db.delete(customers).where(eq(customers.id, current.id));
}
