ALTER TABLE `calc_fees` ADD `entry_type` text;--> statement-breakpoint
ALTER TABLE `calc_fees` ADD `flat` text;--> statement-breakpoint
ALTER TABLE `calc_fees` ADD `entry_value_max` text;--> statement-breakpoint
ALTER TABLE `calc_fees` ADD `estimated` integer DEFAULT 0 NOT NULL;