CREATE TABLE `calc_excise` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`hs_prefix` text NOT NULL,
	`rate` text NOT NULL,
	`unit` text NOT NULL,
	`currency` text NOT NULL,
	`abv_over` text,
	`abv_max` text,
	`valid_from` text NOT NULL,
	`valid_to` text,
	`source_url` text NOT NULL,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `calc_excise_idx` ON `calc_excise` (`country`,`hs_prefix`);