import { drizzle } from "drizzle-orm/d1";
import { journaled } from "./journal";
import * as schema from "./schema/index";

const build = (d1: D1Database) => drizzle(d1, { schema });

export type Db = ReturnType<typeof build>;

/**
 * One drizzle instance per D1 binding, reused by every request of the isolate: building one walks the whole
 * schema (its relational config), which cost more CPU per request than the queries' own JS. The instance holds
 * no per-request state.
 */
const instances = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    // Every service writes through the journaled binding, so a request's first write carries its audit row.
    db = build(journaled(d1));
    instances.set(d1, db);
  }
  return db;
}

/** Whether a failed write hit a UNIQUE constraint (drizzle wraps the driver's error in `cause`). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as { message?: unknown }).message ?? e).includes("UNIQUE constraint failed")) return true;
  }
  return false;
}
