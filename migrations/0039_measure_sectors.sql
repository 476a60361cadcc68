ALTER TABLE `calc_measures` ADD `sector` text;--> statement-breakpoint
ALTER TABLE `calc_measures` ADD `use_condition` text;