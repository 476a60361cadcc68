/**
 * Labels issued for parcels, and each workspace's serial range per carrier and service (S10 serials are
 * allocated atomically from it, so two requests never share a tracking number).
 */
import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const parcelLabels = sqliteTable(
  "parcel_labels",
  {
    parcelId: text("parcel_id").primaryKey(),
    consignmentId: text("consignment_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    carrier: text("carrier").notNull(),
    service: text("service").notNull(),
    trackingNumber: text("tracking_number").notNull(),
    /** The label document (one PDF for the consignment's parcels) in consignment_documents. */
    documentId: text("document_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("parcel_labels_tracking_idx").on(t.carrier, t.trackingNumber)],
);

export const carrierSerials = sqliteTable(
  "carrier_serials",
  {
    workspaceId: text("workspace_id").notNull(),
    carrier: text("carrier").notNull(),
    service: text("service").notNull(),
    /** The next serial to hand out. */
    next: integer("next").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.carrier, t.service] })],
);
