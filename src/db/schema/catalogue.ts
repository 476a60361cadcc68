/** Catalogue items: a workspace's products, so consignment items can borrow HS codes and origin by sku. */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const catalogueItems = sqliteTable(
  "catalogue_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull(),
    sku: text("sku").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    /** Default HS code (6-10 digits) when no destination-specific one applies. */
    hsCode: text("hs_code"),
    /** JSON object: destination country (alpha-2, or EU) → national tariff code. */
    hsCodes: text("hs_codes").notNull().default("{}"),
    countryOfOrigin: text("country_of_origin"),
    /** Exact decimal as text. */
    unitValue: text("unit_value"),
    currency: text("currency"),
    /** Exact decimal as text, in `weight_unit`. */
    weight: text("weight"),
    weightUnit: text("weight_unit"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("catalogue_items_ws_sku_uq").on(t.workspaceId, t.sku),
    index("catalogue_items_ws_idx").on(t.workspaceId, t.id),
  ],
);
