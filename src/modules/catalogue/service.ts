/** Catalogue items of a workspace; amounts kept as exact decimal strings. */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Call } from "../../core/context";
import { type Db, isUniqueViolation } from "../../db/client";
import { catalogueItems } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { conflict, notFound } from "../../lib/errors";
import { dec } from "../../lib/money";

type Row = typeof catalogueItems.$inferSelect;

export interface ItemInput {
  sku: string;
  title: string;
  description?: string | null | undefined;
  hs_code?: string | null | undefined;
  hs_codes?: Record<string, string> | undefined;
  country_of_origin?: string | null | undefined;
  unit_value?: number | null | undefined;
  currency?: string | null | undefined;
  weight?: number | null | undefined;
  weight_unit?: string | null | undefined;
}

export const catalogueToWire = (r: Row) => ({
  id: r.id,
  sku: r.sku,
  title: r.title,
  description: r.description,
  hs_code: r.hsCode,
  hs_codes: JSON.parse(r.hsCodes) as Record<string, string>,
  country_of_origin: r.countryOfOrigin,
  unit_value: r.unitValue,
  currency: r.currency,
  weight: r.weight,
  weight_unit: r.weightUnit,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** JSON numbers become exact decimal strings at the boundary (no float arithmetic afterwards). */
const decimalText = (n: number | null | undefined) => (n == null ? null : dec(n).toString());

function fields(input: Partial<ItemInput>): Partial<Row> {
  const out: Partial<Row> = {};
  if (input.sku !== undefined) out.sku = input.sku;
  if (input.title !== undefined) out.title = input.title;
  if (input.description !== undefined) out.description = input.description;
  if (input.hs_code !== undefined) out.hsCode = input.hs_code;
  if (input.hs_codes !== undefined) out.hsCodes = JSON.stringify(input.hs_codes);
  if (input.country_of_origin !== undefined) out.countryOfOrigin = input.country_of_origin;
  if (input.unit_value !== undefined) out.unitValue = decimalText(input.unit_value);
  if (input.currency !== undefined) out.currency = input.currency;
  if (input.weight !== undefined) out.weight = decimalText(input.weight);
  if (input.weight_unit !== undefined) out.weightUnit = input.weight_unit;
  return out;
}

const skuTaken = (sku: string | undefined) => conflict(`A catalogue item with sku '${sku}' already exists`);
const missing = (id: number) => notFound(`Catalogue item ${id} not found`);

export async function createItem({ ctx, input }: Call<ItemInput>): Promise<Row> {
  const now = isoAt(ctx.deps.clock.now());
  let row: Row | undefined;
  try {
    [row] = await ctx.db
      .insert(catalogueItems)
      .values({
        workspaceId: ctx.workspace.id,
        sku: input.sku,
        title: input.title,
        ...fields(input),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw skuTaken(input.sku);
    throw err;
  }
  if (!row) throw new Error("catalogue insert returned no row");
  return row;
}

export async function getItem({ ctx, input }: Call<{ id: number }>): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(catalogueItems)
    .where(and(eq(catalogueItems.id, input.id), eq(catalogueItems.workspaceId, ctx.workspace.id)))
    .limit(1);
  if (!row) throw missing(input.id);
  return row;
}

export interface CatalogueListQuery {
  limit: number;
  starting_after?: number | undefined;
  sku?: string | undefined;
}

export async function listItems({ ctx, input }: Call<CatalogueListQuery>): Promise<{ rows: Row[]; hasMore: boolean }> {
  const where = [eq(catalogueItems.workspaceId, ctx.workspace.id)];
  if (input.starting_after !== undefined) where.push(lt(catalogueItems.id, input.starting_after));
  if (input.sku !== undefined) where.push(eq(catalogueItems.sku, input.sku));
  const rows = await ctx.db
    .select()
    .from(catalogueItems)
    .where(and(...where))
    .orderBy(desc(catalogueItems.id))
    .limit(input.limit + 1);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

/** 404 for another workspace's item; 409 when the new sku is taken. */
export async function updateItem({ ctx, input }: Call<{ id: number; patch: Partial<ItemInput> }>): Promise<Row> {
  let row: Row | undefined;
  try {
    [row] = await ctx.db
      .update(catalogueItems)
      .set({ ...fields(input.patch), updatedAt: isoAt(ctx.deps.clock.now()) })
      .where(and(eq(catalogueItems.id, input.id), eq(catalogueItems.workspaceId, ctx.workspace.id)))
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw skuTaken(input.patch.sku);
    throw err;
  }
  if (!row) throw missing(input.id);
  return row;
}

/** One statement: of concurrent deletes exactly one succeeds, the others answer 404. */
export async function deleteItem({ ctx, input }: Call<{ id: number }>): Promise<void> {
  const deleted = await ctx.db
    .delete(catalogueItems)
    .where(and(eq(catalogueItems.id, input.id), eq(catalogueItems.workspaceId, ctx.workspace.id)))
    .returning({ id: catalogueItems.id });
  if (!deleted.length) throw missing(input.id);
}

export type CatalogueRow = Row;

/**
 * Items by sku (the caller chunks them under D1's bound-parameter limit), for filling consignment items that carry no
 * HS code or origin; a query so the create path can read it with its other reads.
 */
export const catalogueBySkuQuery = (db: Db, workspaceId: string, skus: string[]) =>
  db
    .select()
    .from(catalogueItems)
    .where(and(eq(catalogueItems.workspaceId, workspaceId), inArray(catalogueItems.sku, skus)));
