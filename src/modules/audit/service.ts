/**
 * The pieces of an audit row shared by the request writer (writer.ts) and the runs recorded without HTTP
 * (requests/service.ts): the outcome rule and the refs a row carries.
 */

import { chunkedInserts } from "../../db/bulk";
import type { Db } from "../../db/client";
import { requestRefs } from "../../db/schema/index";
import type { Ref } from "../../engines/refs/extract";

/** Status → the spec's outcome: below 400 completed, otherwise failed. */
export const outcomeOf = (status: number): "completed" | "failed" => (status < 400 ? "completed" : "failed");

/** Insert statements for a request's refs, batched by the caller with its audit row. */
export function refInserts(db: Db, workspaceId: string, requestId: string, refs: Ref[], createdAt: string) {
  const rows = refs.map((r) => ({ requestId, workspaceId, refType: r.ref_type, refValue: r.ref_value, createdAt }));
  return chunkedInserts(db, requestRefs, rows);
}
