ALTER TABLE `calc_excise` ADD `abv_min` text;--> statement-breakpoint
ALTER TABLE `calc_excise` ADD `abv_below` text;