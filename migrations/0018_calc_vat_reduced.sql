CREATE TABLE `calc_vat_reduced` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`country` text NOT NULL,
	`category` text NOT NULL,
	`label` text NOT NULL,
	`hs_prefix` text NOT NULL,
	`rate` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_to` text,
	`source` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `calc_vat_reduced_idx` ON `calc_vat_reduced` (`country`,`hs_prefix`);