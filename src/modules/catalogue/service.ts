/** Catalogue items of a workspace; amounts kept as exact decimal strings. */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { isUniqueViolation } from "../../db/client";
import { catalogueItems } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { conflict, notFound } from "../../lib/errors";
import { dec } from "../../lib/money";
import type { ServiceCtx } from "../workspaces/service";

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

export async function createItem({ db, deps }: ServiceCtx, workspaceId: string, input: ItemInput) {
  const now = isoAt(deps.clock.now());
  try {
    const [row] = await db
      .insert(catalogueItems)
      .values({ workspaceId, sku: input.sku, title: input.title, ...fields(input), createdAt: now, updatedAt: now })
      .returning();
    return row!;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A catalogue item with sku '${input.sku}' already exists`);
    throw err;
  }
}

export async function getItem({ db }: ServiceCtx, workspaceId: string, id: number) {
  const [row] = await db
    .select()
    .from(catalogueItems)
    .where(and(eq(catalogueItems.id, id), eq(catalogueItems.workspaceId, workspaceId)))
    .limit(1);
  if (!row) throw notFound(`Catalogue item ${id} not found`);
  return row;
}

export async function listItems(
  { db }: ServiceCtx,
  workspaceId: string,
  q: { limit: number; starting_after?: number | undefined; sku?: string | undefined },
) {
  const where = [eq(catalogueItems.workspaceId, workspaceId)];
  if (q.starting_after !== undefined) where.push(lt(catalogueItems.id, q.starting_after));
  if (q.sku !== undefined) where.push(eq(catalogueItems.sku, q.sku));
  const rows = await db
    .select()
    .from(catalogueItems)
    .where(and(...where))
    .orderBy(desc(catalogueItems.id))
    .limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export async function updateItem(ctx: ServiceCtx, workspaceId: string, id: number, input: Partial<ItemInput>) {
  const current = await getItem(ctx, workspaceId, id);
  try {
    await ctx.db
      .update(catalogueItems)
      .set({ ...fields(input), updatedAt: isoAt(ctx.deps.clock.now()) })
      .where(eq(catalogueItems.id, current.id));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A catalogue item with sku '${input.sku}' already exists`);
    throw err;
  }
  return getItem(ctx, workspaceId, id);
}

export async function deleteItem(ctx: ServiceCtx, workspaceId: string, id: number) {
  const current = await getItem(ctx, workspaceId, id);
  await ctx.db.delete(catalogueItems).where(eq(catalogueItems.id, current.id));
}

export type CatalogueRow = Row;

/**
 * Items by sku (at most 90 a query: D1's bound-parameter limit), for filling consignment items that carry no
 * HS code or origin; a query so the create path can read it with its other reads.
 */
export const catalogueBySkuQuery = (db: ServiceCtx["db"], workspaceId: string, skus: string[]) =>
  db
    .select()
    .from(catalogueItems)
    .where(and(eq(catalogueItems.workspaceId, workspaceId), inArray(catalogueItems.sku, skus)));
