PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_fx_rates` (
	`version` text NOT NULL,
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`rate` text NOT NULL,
	PRIMARY KEY(`version`, `currency`, `date`)
);
--> statement-breakpoint
INSERT INTO `__new_fx_rates`("version", "currency", "date", "rate") SELECT coalesce((SELECT "version" FROM `data_sources` WHERE "dataset" = 'fx'), 'unversioned'), "currency", "date", "rate" FROM `fx_rates`;--> statement-breakpoint
DROP TABLE `fx_rates`;--> statement-breakpoint
ALTER TABLE `__new_fx_rates` RENAME TO `fx_rates`;--> statement-breakpoint
PRAGMA foreign_keys=ON;