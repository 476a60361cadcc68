CREATE TABLE `classify_blocklist` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`hs_code` text NOT NULL,
	`country_code` text NOT NULL,
	`reason` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `classify_blocklist_org_code_country_uq` ON `classify_blocklist` (`organization_id`,`hs_code`,`country_code`);--> statement-breakpoint
CREATE INDEX `classify_blocklist_org_id_idx` ON `classify_blocklist` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `hs_nomenclature` (
	`code` text PRIMARY KEY NOT NULL,
	`parent` text,
	`section` text NOT NULL,
	`description` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hs_synonyms` (
	`id` integer PRIMARY KEY NOT NULL,
	`phrase` text NOT NULL,
	`codes` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hs_tariff_lines` (
	`schedule` text NOT NULL,
	`code` text NOT NULL,
	`description` text NOT NULL,
	PRIMARY KEY(`schedule`, `code`)
);
