CREATE TABLE `calc_country_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`destination_country` text NOT NULL,
	`rule_type` text NOT NULL,
	`params` text NOT NULL,
	`code` text NOT NULL,
	`description` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `calc_country_rules_ws_idx` ON `calc_country_rules` (`workspace_id`,`destination_country`);--> statement-breakpoint
CREATE TABLE `calc_de_minimis` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`origins` text,
	`currency` text NOT NULL,
	`threshold` text,
	`basis` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_to` text,
	`source_url` text NOT NULL,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `calc_de_minimis_idx` ON `calc_de_minimis` (`country`);--> statement-breakpoint
CREATE TABLE `calc_destination_rules` (
	`country` text PRIMARY KEY NOT NULL,
	`schedule` text,
	`currency` text NOT NULL,
	`customs_basis` text NOT NULL,
	`vat_name` text,
	`vat_includes_duty` integer NOT NULL,
	`vat_includes_fees` integer NOT NULL,
	`vat_includes_freight` integer NOT NULL,
	`source_url` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `calc_exclusions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`applies_to` text NOT NULL,
	`hs_prefix` text NOT NULL,
	`kind` text NOT NULL,
	`condition` text,
	`valid_from` text NOT NULL,
	`valid_to` text
);
--> statement-breakpoint
CREATE INDEX `calc_exclusions_prefix_idx` ON `calc_exclusions` (`hs_prefix`);--> statement-breakpoint
CREATE TABLE `calc_fees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`rate` text NOT NULL,
	`min` text,
	`max` text,
	`currency` text NOT NULL,
	`transport_mode` text,
	`valid_from` text NOT NULL,
	`valid_to` text,
	`source_url` text NOT NULL,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `calc_fees_idx` ON `calc_fees` (`country`);--> statement-breakpoint
CREATE TABLE `calc_measures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`hs_prefix` text NOT NULL,
	`origins` text,
	`origins_excluded` text,
	`rate` text NOT NULL,
	`basis` text NOT NULL,
	`metal` text,
	`valid_from` text NOT NULL,
	`valid_to` text
);
--> statement-breakpoint
CREATE INDEX `calc_measures_prefix_idx` ON `calc_measures` (`hs_prefix`,`valid_from`);--> statement-breakpoint
CREATE TABLE `calc_origin_programs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`schedule` text NOT NULL,
	`program` text NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_to` text
);
--> statement-breakpoint
CREATE INDEX `calc_origin_programs_idx` ON `calc_origin_programs` (`schedule`,`country`);--> statement-breakpoint
CREATE TABLE `calc_tariff_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`schedule` text NOT NULL,
	`code` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_to` text,
	`description` text NOT NULL,
	`q1` text,
	`q2` text,
	`currency` text NOT NULL,
	`mfn_text` text NOT NULL,
	`mfn` text,
	`col2_text` text,
	`col2` text,
	`special_text` text,
	`special` text
);
--> statement-breakpoint
CREATE INDEX `calc_tariff_lines_code_idx` ON `calc_tariff_lines` (`schedule`,`code`,`valid_from`);--> statement-breakpoint
CREATE TABLE `calc_vat_rates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country` text NOT NULL,
	`region` text NOT NULL,
	`name` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_to` text,
	`standard` text NOT NULL,
	`reduced` text
);
--> statement-breakpoint
CREATE INDEX `calc_vat_rates_idx` ON `calc_vat_rates` (`country`,`region`,`valid_from`);--> statement-breakpoint
CREATE TABLE `fx_rates` (
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`rate` text NOT NULL,
	PRIMARY KEY(`currency`, `date`)
);
