import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema/index";

export type Db = ReturnType<typeof createDb>;

export const createDb = (d1: D1Database) => drizzle(d1, { schema });

/** Whether a failed write hit a UNIQUE constraint (drizzle wraps the driver's error in `cause`). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as { message?: unknown }).message ?? e).includes("UNIQUE constraint failed")) return true;
  }
  return false;
}
