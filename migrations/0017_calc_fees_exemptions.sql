ALTER TABLE `calc_fees` ADD `exempt_programs` text;--> statement-breakpoint
ALTER TABLE `calc_fees` ADD `exempt_source` text;