/**
 * Ongoing screening: the parties a workspace holds (consignment senders, receivers and supporting agents, and
 * customers), screened when they appear and again whenever a sanctions list version changes, and the alerts
 * their hits open. One party row per distinct (name, company, country) in a workspace; refs say where it
 * appears, so a hold reaches every consignment of the party.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const screeningParties = sqliteTable(
  "screening_parties",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    /** What the party is known by: normalized name, company and country, hashed. */
    partyKey: text("party_key").notNull(),
    name: text("name").notNull(),
    company: text("company"),
    countryCode: text("country_code"),
    /** The screening index (list versions) it was last screened against; null until first screened. */
    screenedKey: text("screened_key"),
    screenedAt: text("screened_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("screening_parties_ws_key_idx").on(t.workspaceId, t.partyKey),
    index("screening_parties_screened_idx").on(t.screenedKey, t.id),
  ],
);

export const screeningPartyRefs = sqliteTable(
  "screening_party_refs",
  {
    partyId: text("party_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** `consignment` (id `con_…`) or `customer` (integer id as text). */
    refType: text("ref_type", { enum: ["consignment", "customer"] }).notNull(),
    refId: text("ref_id").notNull(),
    /** Where in the record: sender, receiver, importer_of_record…, or customer. */
    role: text("role").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.partyId, t.refType, t.refId, t.role] }),
    index("screening_party_refs_ref_idx").on(t.workspaceId, t.refType, t.refId),
  ],
);

export const screeningAlerts = sqliteTable(
  "screening_alerts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    partyId: text("party_id").notNull(),
    /** The listed entry (`{list_code}:{source_ref}`) and the hash of what it said when the alert opened. */
    entryId: text("entry_id").notNull(),
    entryHash: text("entry_hash").notNull(),
    listCode: text("list_code").notNull(),
    listVersion: text("list_version").notNull(),
    score: real("score").notNull(),
    matchedName: text("matched_name").notNull(),
    /** JSON: the match as /screen returns it (entry and explanation), so the officer sees what fired. */
    match: text("match").notNull(),
    status: text("status", { enum: ["open", "cleared", "confirmed"] }).notNull(),
    reason: text("reason"),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    /** Consignments held because of this alert (JSON array of ids). */
    heldConsignments: text("held_consignments").notNull().default("[]"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("screening_alerts_ws_idx").on(t.workspaceId, t.status, t.id),
    uniqueIndex("screening_alerts_pair_idx").on(t.partyId, t.entryId, t.entryHash),
  ],
);

/** How far the party discovery has read each source table (consignments by id, customers by id). */
export const screeningCursors = sqliteTable("screening_cursors", {
  source: text("source").primaryKey(),
  position: text("position").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
