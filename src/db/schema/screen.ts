/**
 * Denied-party lists for screening (reference data; not per workspace). Every list version lives beside the
 * others: rows carry their `list_version`, and the dataset registry (`dataset_versions`, datasets
 * `sanctions-sdn` and `sanctions-un`) says which version of each list is active. A new version is staged under
 * its own version and activated by one registry update, so a reader sees the old list or the new one, never a
 * mix, and the previous version stays for a rollback. The `sanctions` row in data_sources names the active
 * versions together (what screening reports as `data_source`).
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per list version; `searched_lists` reports the codes of the active ones. */
export const sanctionLists = sqliteTable(
  "sanction_lists",
  {
    code: text("code").notNull(),
    version: text("version").notNull(),
    name: text("name").notNull(),
    source: text("source").notNull(),
    entryCount: integer("entry_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.code, t.version] })],
);

/** One listed party in one list version. `alt_names`, `programs` and `addresses` are JSON arrays. */
export const sanctionEntries = sqliteTable(
  "sanction_entries",
  {
    /** `{list_code}:{source_ref}`, unique across lists (and within a list version). */
    id: text("id").notNull(),
    listVersion: text("list_version").notNull(),
    listCode: text("list_code").notNull(),
    sourceRef: text("source_ref").notNull(),
    name: text("name").notNull(),
    altNames: text("alt_names").notNull().default("[]"),
    entryType: text("entry_type", { enum: ["individual", "entity", "vessel", "aircraft", "unknown"] }).notNull(),
    programs: text("programs").notNull().default("[]"),
    addresses: text("addresses").notNull().default("[]"),
    remarks: text("remarks"),
    /** A hash of what the entry says, so a new version's diff (added, removed, changed) needs no full read. */
    rowHash: text("row_hash").notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.listCode, t.listVersion, t.id] }),
    index("sanction_entries_version_idx").on(t.listCode, t.listVersion),
  ],
);
