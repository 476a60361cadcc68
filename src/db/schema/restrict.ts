/**
 * Restricted and prohibited goods: the platform rule set (reference data, the `restrictions` dataset of the
 * registry: each version's rules under their own `version`, the registry naming the active one), the organizations' own rules, and per-workspace settings (the generic
 * settings document; the restrict area keeps `restrict.enabled_destinations` in it).
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One curated platform rule. It matches on `hs_prefix` or `keywords` (JSON array), either one when it has
 * both, or on an origin alone; `origin_country` may also narrow an HS or keyword rule to goods of that origin.
 * `imposing_country` is an ISO alpha-2 code or `EU` for Union-wide measures (applied to every member state).
 */
export const restrictionRules = sqliteTable(
  "restriction_rules",
  {
    /** The rule set version (dataset `restrictions` in the registry): a new set loads beside the active one. */
    version: text("version").notNull(),
    id: integer("id").notNull(),
    imposingCountry: text("imposing_country").notNull(),
    direction: text("direction", { enum: ["IMPORT", "EXPORT"] }).notNull(),
    ruleType: text("rule_type", { enum: ["prohibition", "restriction", "observation"] }).notNull(),
    hsPrefix: text("hs_prefix"),
    /** JSON array of words or phrases. */
    keywords: text("keywords"),
    /** JSON array of phrases that cancel a keyword occurrence they cover (e.g. "ivory coloured"). */
    excludeKeywords: text("exclude_keywords"),
    originCountry: text("origin_country"),
    /** JSON array of destinations an EXPORT rule is limited to (e.g. exports to RU and BY); null = any. */
    destinationCountries: text("destination_countries"),
    /** JSON array of member states where a Union rule does not apply (e.g. snus in Sweden); null = none. */
    exceptCountries: text("except_countries"),
    title: text("title").notNull(),
    summary: text("summary").notNull(),
    agency: text("agency"),
    agencyFlag: text("agency_flag"),
    requirement: text("requirement", { enum: ["required", "may_be_required"] }),
    sourceUrl: text("source_url").notNull(),
    sourceRef: text("source_ref").notNull(),
    validFrom: text("valid_from"),
    validTo: text("valid_to"),
    /** Kind of goods (food_animal, weapons, tobacco, …), for coverage reporting. */
    family: text("family"),
    /** ISO date the rule was last checked against its source. */
    reviewedOn: text("reviewed_on"),
  },
  (t) => [primaryKey({ columns: [t.version, t.id] })],
);

/**
 * An organization's own rule, shared by all its workspaces of the same mode (a sandbox rule never applies to
 * live checks, nor the reverse). Soft-deleted so past checks stay explainable.
 */
export const orgRestrictionRules = sqliteTable(
  "org_restriction_rules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id").notNull(),
    mode: text("mode", { enum: ["live", "sandbox"] })
      .notNull()
      .default("live"),
    /** The workspace the rule was created from (for the audit trail); the rule applies organization-wide. */
    workspaceId: text("workspace_id").notNull(),
    imposingCountry: text("imposing_country").notNull(),
    direction: text("direction", { enum: ["IMPORT", "EXPORT"] }).notNull(),
    ruleType: text("rule_type", { enum: ["prohibition", "restriction", "observation"] }).notNull(),
    hsPrefix: text("hs_prefix"),
    keywords: text("keywords"),
    originCountry: text("origin_country"),
    title: text("title").notNull(),
    summary: text("summary").notNull().default(""),
    requirement: text("requirement", { enum: ["required", "may_be_required"] }),
    sourceUrl: text("source_url"),
    sourceRef: text("source_ref"),
    validFrom: text("valid_from"),
    validTo: text("valid_to"),
    createdAt: text("created_at").notNull(),
    deletedAt: text("deleted_at"),
  },
  (t) => [index("org_restriction_rules_org_mode_idx").on(t.organizationId, t.mode, t.id)],
);

/** One JSON document of settings per workspace; keys are registered and validated in src/modules/settings. */
export const workspaceSettings = sqliteTable("workspace_settings", {
  workspaceId: text("workspace_id").primaryKey(),
  settings: text("settings").notNull().default("{}"),
  updatedAt: text("updated_at").notNull(),
});
