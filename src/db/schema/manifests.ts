/**
 * Manifests: a carrier hand-over list of consignments. Open while consignments are added and removed; closed
 * once, which generates the manifest document and freezes the list. A consignment is on at most one
 * manifest, and cannot be deleted while it is on one (the spec's delete guard).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const manifests = sqliteTable(
  "manifests",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    carrier: text("carrier"),
    reference: text("reference"),
    status: text("status", { enum: ["open", "closed"] }).notNull(),
    /** The manifest document (PDF) in ARCHIVE once closed, with its size and sha256. */
    documentKey: text("document_key"),
    documentSize: integer("document_size"),
    documentSha256: text("document_sha256"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    closedAt: text("closed_at"),
  },
  (t) => [index("manifests_ws_idx").on(t.workspaceId, t.id)],
);

export const manifestConsignments = sqliteTable(
  "manifest_consignments",
  {
    manifestId: text("manifest_id").notNull(),
    consignmentId: text("consignment_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    addedAt: text("added_at").notNull(),
  },
  (t) => [
    uniqueIndex("manifest_consignments_con_idx").on(t.consignmentId),
    index("manifest_consignments_man_idx").on(t.manifestId, t.consignmentId),
  ],
);
