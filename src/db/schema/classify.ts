/**
 * Classification tables. Reference data (loaded by scripts/data/hs.mjs, replaced as a whole): the HS2022
 * nomenclature, the national tariff lines of the schedules the engine suggests from, and the curated retail
 * vocabulary. Tenant data: the organization's blocklist of HS codes (shared by its workspaces).
 * Tariff rates are not here; the calculation area keeps its own.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Chapters (2 digits), headings (4) and subheadings (6) of HS2022. */
export const hsNomenclature = sqliteTable("hs_nomenclature", {
  code: text("code").primaryKey(),
  parent: text("parent"),
  section: text("section").notNull(),
  description: text("description").notNull(),
});

/** National lines: `US` HTS-8, `US10` its statistical lines, `GB` UK commodity codes (8/10 digits), `EU` CN8. */
export const hsTariffLines = sqliteTable(
  "hs_tariff_lines",
  {
    schedule: text("schedule").notNull(),
    code: text("code").notNull(),
    description: text("description").notNull(),
  },
  (t) => [primaryKey({ columns: [t.schedule, t.code] })],
);

/**
 * Classification rulings the answers may cite as precedents: the ruling, the code it gave, what it was about
 * (a short restatement of the product) and where it is published.
 */
export const hsRulings = sqliteTable("hs_rulings", {
  rulingNumber: text("ruling_number").primaryKey(),
  code: text("code").notNull(),
  subject: text("subject").notNull(),
  /** The ruling's description of the goods, when the data has it (matched with the subject: precedents.ts). */
  description: text("description"),
  rulingDate: text("ruling_date"),
  url: text("url").notNull(),
});

/**
 * Retail phrase → space-separated HS codes (headings or subheadings) it names. `kind`: "curated" (data/hs/synonyms.tsv)
 * or "index" (a customs authority's search-term guidance, data/hs/intercepts.tsv, which counts for less).
 */
export const hsSynonyms = sqliteTable("hs_synonyms", {
  id: integer("id").primaryKey(),
  phrase: text("phrase").notNull(),
  codes: text("codes").notNull(),
  kind: text("kind").notNull().default("curated"),
});

/**
 * Codes an organization does not want suggested; a code blocks every code under it. Kept per organization
 * and mode: a sandbox workspace's entries never change a live workspace's answers, nor the reverse.
 */
export const classifyBlocklist = sqliteTable(
  "classify_blocklist",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id").notNull(),
    mode: text("mode", { enum: ["live", "sandbox"] })
      .notNull()
      .default("live"),
    /** Digits only, 2-13. */
    hsCode: text("hs_code").notNull(),
    /** ISO 3166-1 alpha-2 or `GLOBAL`. */
    countryCode: text("country_code").notNull(),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("classify_blocklist_org_mode_code_country_uq").on(t.organizationId, t.mode, t.hsCode, t.countryCode),
    index("classify_blocklist_org_mode_id_idx").on(t.organizationId, t.mode, t.id),
  ],
);
