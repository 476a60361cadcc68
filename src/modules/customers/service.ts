/**
 * Customers of a workspace. A customer-pinned API client sees only its own customer and may not create or
 * delete customers. Deleting a customer that API clients are pinned to is refused (409).
 */

import type { z } from "@hono/zod-openapi";
import { and, desc, eq, isNull, lt, notExists } from "drizzle-orm";
import type { Call, ServiceContext } from "../../core/context";
import { apiClients, customers } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { conflict, forbidden, notFound } from "../../lib/errors";
import type { AddressT, CustomerInput, TaxRegistrationsT } from "./schemas";

type Row = typeof customers.$inferSelect;
type Input = z.infer<typeof CustomerInput>;

export const customerToWire = (r: Row) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  external_ref: r.externalRef,
  addresses: JSON.parse(r.addresses) as AddressT[],
  tax_registrations: JSON.parse(r.taxRegistrations) as TaxRegistrationsT,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** A customer-pinned client sees its own customer only, and may not create or delete customers. */
const pinnedTo = (ctx: ServiceContext) => ctx.actor.customerId;

export async function createCustomer({ ctx, input }: Call<Input>): Promise<Row> {
  if (pinnedTo(ctx) !== null) throw forbidden("Customer-pinned clients cannot create customers");
  const now = isoAt(ctx.deps.clock.now());
  const [row] = await ctx.db
    .insert(customers)
    .values({
      workspaceId: ctx.workspace.id,
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
  if (!row) throw new Error("customer insert returned no row");
  return row;
}

/** 404 for an id of another workspace, or (pinned client) of another customer. */
export async function getCustomer({ ctx, input }: Call<{ id: number }>): Promise<Row> {
  const pinned = pinnedTo(ctx);
  if (pinned !== null && pinned !== input.id) throw notFound(`Customer ${input.id} not found`);
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, input.id), eq(customers.workspaceId, ctx.workspace.id)))
    .limit(1);
  if (!row) throw notFound(`Customer ${input.id} not found`);
  return row;
}

export interface CustomerListQuery {
  limit: number;
  starting_after?: number | undefined;
  external_ref?: string | undefined;
}

export async function listCustomers({
  ctx,
  input,
}: Call<CustomerListQuery>): Promise<{ rows: Row[]; hasMore: boolean }> {
  const where = [eq(customers.workspaceId, ctx.workspace.id)];
  const pinned = pinnedTo(ctx);
  if (pinned !== null) where.push(eq(customers.id, pinned));
  if (input.starting_after !== undefined) where.push(lt(customers.id, input.starting_after));
  if (input.external_ref !== undefined) where.push(eq(customers.externalRef, input.external_ref));
  const rows = await ctx.db
    .select()
    .from(customers)
    .where(and(...where))
    .orderBy(desc(customers.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

export async function updateCustomer({ ctx, input }: Call<{ id: number; patch: Partial<Input> }>): Promise<Row> {
  const current = await getCustomer({ ctx, input: { id: input.id } });
  const { patch: p } = input;
  const patch: Partial<Row> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (p.name !== undefined) patch.name = p.name;
  if (p.email !== undefined) patch.email = p.email;
  if (p.phone !== undefined) patch.phone = p.phone;
  if (p.external_ref !== undefined) patch.externalRef = p.external_ref;
  if (p.addresses !== undefined) patch.addresses = JSON.stringify(p.addresses);
  if (p.tax_registrations !== undefined) patch.taxRegistrations = JSON.stringify(p.tax_registrations);
  await ctx.db.update(customers).set(patch).where(eq(customers.id, current.id));
  return getCustomer({ ctx, input: { id: input.id } });
}

/**
 * Deletes a customer unless API clients are pinned to it (409). The guard and the delete are one statement
 * (`DELETE … WHERE NOT EXISTS`), so a client pinned concurrently can never be left pointing at nothing.
 */
export async function deleteCustomer({ ctx, input }: Call<{ id: number }>): Promise<void> {
  if (pinnedTo(ctx) !== null) throw forbidden("Customer-pinned clients cannot delete customers");
  const current = await getCustomer({ ctx, input });
  const stillPinned = ctx.db
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(and(eq(apiClients.customerId, current.id), isNull(apiClients.deletedAt)));
  const deleted = await ctx.db
    .delete(customers)
    .where(and(eq(customers.id, current.id), notExists(stillPinned)))
    .returning({ id: customers.id });
  if (deleted.length) return;
  // Nothing deleted: either a pinned client holds it (409) or a concurrent delete won (404).
  const [again] = await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, current.id));
  if (!again) throw notFound(`Customer ${input.id} not found`);
  throw conflict(`Customer ${input.id} has API clients pinned to it; delete or re-pin them first`);
}
