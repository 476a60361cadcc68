/**
 * How rows that hang off a consignment are written. Every such insert is conditional on the consignment still
 * existing (`INSERT … SELECT … WHERE EXISTS`), and the consignment delete removes the children in the same
 * batch as the consignment itself: D1 runs each batch as one transaction, so whichever of a delete and a
 * child write commits second sees the other's effect, and no child row outlives its consignment.
 */
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { consignmentEvents, consignments, webhookDeliveries, webhookEvents } from "../../db/schema/index";
import type { IdSource } from "../../lib/ids";

/** One statement of a `db.batch`. */
export type Statement = BatchItem<"sqlite">;

/** True while consignment `id` exists: the condition of every child write. */
const consignmentExists = (id: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${consignments} WHERE ${consignments.id} = ${id})`;

/**
 * Inserts one complete row (every column given) when `condition` holds; `.returning()` on the result tells
 * whether it did. Values are bound through their columns, so booleans and JSON modes map as in `.values()`.
 */
export function insertWhen<T extends SQLiteTable>(db: Db, table: T, row: T["$inferSelect"], condition: SQL) {
  const values = Object.entries(getTableColumns(table)).map(([key, column]) =>
    sql.param((row as Record<string, unknown>)[key] ?? null, column),
  );
  return db.insert(table).select(sql`SELECT ${sql.join(values, sql`, `)} WHERE ${condition}`);
}

/** A child row of a consignment, inserted only while the consignment exists. */
export const insertChild = <T extends SQLiteTable>(
  db: Db,
  table: T,
  row: T["$inferSelect"] & { consignmentId: string },
) => insertWhen(db, table, row, consignmentExists(row.consignmentId));

export interface EventFields {
  consignmentId: string;
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  requestId: string | null;
  createdAt: string;
  /** Set when the id must be known before the statement is built (ordering against other events). */
  id?: string;
  /** When the event is written; by default while the consignment exists. */
  when?: SQL;
}

/** The one way a raw consignment event (the timeline's source) is written; batched with the change it records. */
export const eventInsert = (db: Db, ids: IdSource, e: EventFields) =>
  insertWhen(
    db,
    consignmentEvents,
    {
      id: e.id ?? ids.prefixed("cev"),
      consignmentId: e.consignmentId,
      workspaceId: e.workspaceId,
      type: e.type,
      data: JSON.stringify(e.data),
      requestId: e.requestId,
      createdAt: e.createdAt,
    },
    e.when ?? consignmentExists(e.consignmentId),
  );

/**
 * Statements that withdraw an outbox event and its deliveries, in the same batch, unless `stored` holds after
 * the batch's earlier statements: a webhook about a record must not go out when a concurrent consignment
 * delete kept the record from being written.
 */
export const withdrawOutboxUnless = (db: Db, eventId: string, stored: SQL) => [
  db.delete(webhookDeliveries).where(sql`${webhookDeliveries.eventId} = ${eventId} AND NOT ${stored}`),
  db.delete(webhookEvents).where(sql`${webhookEvents.id} = ${eventId} AND NOT ${stored}`),
];
