/**
 * Many rows in one INSERT: the rows travel as a single JSON parameter and SQLite's json_each unpacks them.
 * D1 caps a statement at 100 bound parameters, so a 100-item consignment otherwise needs 20 INSERTs; one
 * statement per table is measurably cheaper (fewer statements to prepare, bind and ship per batch).
 *
 * Values must be JSON scalars (text, numbers, booleans, null): json_each gives them back with their SQLite
 * type (text stays text, integers integer, `true` 1). Columns missing from a row are inserted as NULL, so
 * every column with a default must be set by the caller.
 */
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

/** `when`: a condition evaluated inside the statement; the rows go in only while it holds (a guarded rewrite). */
export function bulkInsert<T extends SQLiteTable>(db: Db, table: T, rows: T["$inferInsert"][], when?: SQL) {
  const columns = Object.keys(getTableColumns(table));
  // Each row as an array in column order: shorter JSON than objects, and positional extraction. drizzle's
  // insert…select names the table's columns in this same order.
  const payload = JSON.stringify(rows.map((r) => columns.map((key) => (r as Record<string, unknown>)[key] ?? null)));
  const values: SQL[] = columns.map((_, i) => sql.raw(`value->>${i}`));
  const where = when ? sql` WHERE ${when}` : sql``;
  return db.insert(table).select(sql`SELECT ${sql.join(values, sql`, `)} FROM json_each(${payload})${where}`);
}

/** D1's cap on bound parameters per statement. */
const D1_MAX_BOUND_PARAMETERS = 100;

/**
 * Plain multi-row INSERTs for rows whose values must be bound one by one, chunked so each statement binds at
 * most D1_MAX_BOUND_PARAMETERS: rows per statement follow from the number of columns the rows set. Returns
 * the statements for the caller's `db.batch`, so they commit with the change they belong to.
 */
export function chunkedInserts<T extends SQLiteTable>(db: Db, table: T, rows: T["$inferInsert"][]) {
  if (!rows.length) return [];
  const columns = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) columns.add(k);
  const perStatement = Math.max(1, Math.floor(D1_MAX_BOUND_PARAMETERS / Math.max(1, columns.size)));
  const out = [];
  for (let i = 0; i < rows.length; i += perStatement)
    out.push(db.insert(table).values(rows.slice(i, i + perStatement)));
  return out;
}

/** Splits values for `IN (…)` lists (or any statement binding one parameter per value) into D1-sized parts. */
export function chunksFor<V>(values: readonly V[], boundPerValue = 1, reserved = 0): V[][] {
  const per = Math.max(1, Math.floor((D1_MAX_BOUND_PARAMETERS - reserved) / boundPerValue));
  const out: V[][] = [];
  for (let i = 0; i < values.length; i += per) out.push(values.slice(i, i + per));
  return out;
}
