CREATE TABLE `org_restriction_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`imposing_country` text NOT NULL,
	`direction` text NOT NULL,
	`rule_type` text NOT NULL,
	`hs_prefix` text,
	`keywords` text,
	`origin_country` text,
	`title` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`requirement` text,
	`source_url` text,
	`source_ref` text,
	`valid_from` text,
	`valid_to` text,
	`created_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE INDEX `org_restriction_rules_org_idx` ON `org_restriction_rules` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `restriction_rules` (
	`id` integer PRIMARY KEY NOT NULL,
	`imposing_country` text NOT NULL,
	`direction` text NOT NULL,
	`rule_type` text NOT NULL,
	`hs_prefix` text,
	`keywords` text,
	`exclude_keywords` text,
	`origin_country` text,
	`destination_countries` text,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	`agency` text,
	`agency_flag` text,
	`requirement` text,
	`source_url` text NOT NULL,
	`source_ref` text NOT NULL,
	`valid_from` text,
	`valid_to` text
);
--> statement-breakpoint
CREATE TABLE `workspace_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`updated_at` text NOT NULL
);
