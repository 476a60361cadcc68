PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_restriction_rules` (
	`version` text NOT NULL,
	`id` integer NOT NULL,
	`imposing_country` text NOT NULL,
	`direction` text NOT NULL,
	`rule_type` text NOT NULL,
	`hs_prefix` text,
	`keywords` text,
	`exclude_keywords` text,
	`origin_country` text,
	`destination_countries` text,
	`except_countries` text,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	`agency` text,
	`agency_flag` text,
	`requirement` text,
	`source_url` text NOT NULL,
	`source_ref` text NOT NULL,
	`valid_from` text,
	`valid_to` text,
	`family` text,
	`reviewed_on` text,
	PRIMARY KEY(`version`, `id`)
);
--> statement-breakpoint
INSERT INTO `__new_restriction_rules`("version", "id", "imposing_country", "direction", "rule_type", "hs_prefix", "keywords", "exclude_keywords", "origin_country", "destination_countries", "except_countries", "title", "summary", "agency", "agency_flag", "requirement", "source_url", "source_ref", "valid_from", "valid_to", "family", "reviewed_on") SELECT coalesce((SELECT "version" FROM `data_sources` WHERE "dataset" = 'restrictions'), 'unversioned'), "id", "imposing_country", "direction", "rule_type", "hs_prefix", "keywords", "exclude_keywords", "origin_country", "destination_countries", "except_countries", "title", "summary", "agency", "agency_flag", "requirement", "source_url", "source_ref", "valid_from", "valid_to", "family", "reviewed_on" FROM `restriction_rules`;--> statement-breakpoint
DROP TABLE `restriction_rules`;--> statement-breakpoint
ALTER TABLE `__new_restriction_rules` RENAME TO `restriction_rules`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
INSERT OR IGNORE INTO `dataset_versions`("dataset", "version", "status", "source", "origin", "rows", "staged_rows", "imported_at", "activated_at", "updated_at") SELECT "dataset", "version", 'active', "source", 'bundled', "row_count", "row_count", "imported_at", "imported_at", "imported_at" FROM `data_sources` WHERE "dataset" <> 'sanctions';
