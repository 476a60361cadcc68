CREATE TABLE `dataset_fetches` (
	`dataset` text PRIMARY KEY NOT NULL,
	`last_attempt_at` text NOT NULL,
	`outcome` text NOT NULL,
	`version` text,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `dataset_versions` (
	`dataset` text NOT NULL,
	`version` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`origin` text NOT NULL,
	`format` text,
	`source_keys` text DEFAULT '[]' NOT NULL,
	`source_sha256` text,
	`rows` integer DEFAULT 0 NOT NULL,
	`staged_rows` integer DEFAULT 0 NOT NULL,
	`report` text DEFAULT '{}' NOT NULL,
	`error` text,
	`activate_when_staged` integer DEFAULT false NOT NULL,
	`force` integer DEFAULT false NOT NULL,
	`imported_at` text NOT NULL,
	`activated_at` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`dataset`, `version`)
);
--> statement-breakpoint
CREATE INDEX `dataset_versions_status_idx` ON `dataset_versions` (`dataset`,`status`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_sanction_entries` (
	`id` text NOT NULL,
	`list_version` text NOT NULL,
	`list_code` text NOT NULL,
	`source_ref` text NOT NULL,
	`name` text NOT NULL,
	`alt_names` text DEFAULT '[]' NOT NULL,
	`entry_type` text NOT NULL,
	`programs` text DEFAULT '[]' NOT NULL,
	`addresses` text DEFAULT '[]' NOT NULL,
	`remarks` text,
	`row_hash` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`list_code`, `list_version`, `id`)
);
--> statement-breakpoint
INSERT INTO `__new_sanction_entries`("id", "list_version", "list_code", "source_ref", "name", "alt_names", "entry_type", "programs", "addresses", "remarks", "row_hash") SELECT e."id", l."version", e."list_code", e."source_ref", e."name", e."alt_names", e."entry_type", e."programs", e."addresses", e."remarks", '' FROM `sanction_entries` e JOIN `sanction_lists` l ON l."code" = e."list_code";--> statement-breakpoint
DROP TABLE `sanction_entries`;--> statement-breakpoint
ALTER TABLE `__new_sanction_entries` RENAME TO `sanction_entries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `sanction_entries_version_idx` ON `sanction_entries` (`list_code`,`list_version`);--> statement-breakpoint
CREATE TABLE `__new_sanction_lists` (
	`code` text NOT NULL,
	`version` text NOT NULL,
	`name` text NOT NULL,
	`source` text NOT NULL,
	`entry_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`code`, `version`)
);
--> statement-breakpoint
INSERT INTO `__new_sanction_lists`("code", "version", "name", "source", "entry_count") SELECT "code", "version", "name", "source", "entry_count" FROM `sanction_lists`;--> statement-breakpoint
DROP TABLE `sanction_lists`;--> statement-breakpoint
ALTER TABLE `__new_sanction_lists` RENAME TO `sanction_lists`;--> statement-breakpoint
INSERT INTO `dataset_versions`("dataset", "version", "status", "source", "origin", "rows", "staged_rows", "imported_at", "activated_at", "updated_at") SELECT 'sanctions-' || lower(l."code"), l."version", 'active', l."source", 'bundled', l."entry_count", l."entry_count", d."imported_at", d."imported_at", d."imported_at" FROM `sanction_lists` l JOIN `data_sources` d ON d."dataset" = 'sanctions';
