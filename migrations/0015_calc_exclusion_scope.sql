ALTER TABLE `calc_exclusions` ADD `origins` text;--> statement-breakpoint
ALTER TABLE `calc_exclusions` ADD `preference` text;