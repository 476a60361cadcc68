/** The one way a raw consignment event row is written (the timeline's source); callers batch the statement with the change it records. */
import type { Db } from "../../db/client";
import { consignmentEvents } from "../../db/schema/index";
import type { IdSource } from "../../lib/ids";

export interface EventFields {
  consignmentId: string;
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  requestId: string | null;
  createdAt: string;
  /** Set when the id must be known before the statement is built (ordering against other events). */
  id?: string;
}

export const eventInsert = (db: Db, ids: IdSource, e: EventFields) =>
  db.insert(consignmentEvents).values({
    id: e.id ?? ids.prefixed("cev"),
    consignmentId: e.consignmentId,
    workspaceId: e.workspaceId,
    type: e.type,
    data: JSON.stringify(e.data),
    requestId: e.requestId,
    createdAt: e.createdAt,
  });
