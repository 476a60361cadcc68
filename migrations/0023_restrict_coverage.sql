ALTER TABLE `restriction_rules` ADD `except_countries` text;--> statement-breakpoint
ALTER TABLE `restriction_rules` ADD `family` text;--> statement-breakpoint
ALTER TABLE `restriction_rules` ADD `reviewed_on` text;