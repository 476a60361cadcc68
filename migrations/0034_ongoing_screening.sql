CREATE TABLE `screening_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`party_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`entry_hash` text NOT NULL,
	`list_code` text NOT NULL,
	`list_version` text NOT NULL,
	`score` real NOT NULL,
	`matched_name` text NOT NULL,
	`match` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`decided_by` text,
	`decided_at` text,
	`held_consignments` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `screening_alerts_ws_idx` ON `screening_alerts` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `screening_alerts_pair_idx` ON `screening_alerts` (`party_id`,`entry_id`,`entry_hash`);--> statement-breakpoint
CREATE TABLE `screening_cursors` (
	`source` text PRIMARY KEY NOT NULL,
	`position` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `screening_parties` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`party_key` text NOT NULL,
	`name` text NOT NULL,
	`company` text,
	`country_code` text,
	`screened_key` text,
	`screened_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `screening_parties_ws_key_idx` ON `screening_parties` (`workspace_id`,`party_key`);--> statement-breakpoint
CREATE INDEX `screening_parties_screened_idx` ON `screening_parties` (`screened_key`,`id`);--> statement-breakpoint
CREATE TABLE `screening_party_refs` (
	`party_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`ref_type` text NOT NULL,
	`ref_id` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`party_id`, `ref_type`, `ref_id`, `role`)
);
--> statement-breakpoint
CREATE INDEX `screening_party_refs_ref_idx` ON `screening_party_refs` (`workspace_id`,`ref_type`,`ref_id`);