/**
 * Denied-party lists for screening (reference data, loaded by scripts/data/sanctions.mjs; not per workspace).
 * A reload replaces both tables; the `sanctions` row in data_sources carries the dataset version the
 * in-memory screening index is keyed by.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per list loaded; `searched_lists` reports these codes. */
export const sanctionLists = sqliteTable("sanction_lists", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  version: text("version").notNull(),
  source: text("source").notNull(),
  entryCount: integer("entry_count").notNull().default(0),
});

/** One listed party. `alt_names`, `programs` and `addresses` are JSON arrays. */
export const sanctionEntries = sqliteTable(
  "sanction_entries",
  {
    /** `{list_code}:{source_ref}`, unique across lists. */
    id: text("id").primaryKey(),
    listCode: text("list_code").notNull(),
    sourceRef: text("source_ref").notNull(),
    name: text("name").notNull(),
    altNames: text("alt_names").notNull().default("[]"),
    entryType: text("entry_type", { enum: ["individual", "entity", "vessel", "aircraft", "unknown"] }).notNull(),
    programs: text("programs").notNull().default("[]"),
    addresses: text("addresses").notNull().default("[]"),
    remarks: text("remarks"),
  },
  (t) => [index("sanction_entries_list_idx").on(t.listCode)],
);
