CREATE TABLE `catalogue_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`sku` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`hs_code` text,
	`hs_codes` text DEFAULT '{}' NOT NULL,
	`country_of_origin` text,
	`unit_value` text,
	`currency` text,
	`weight` text,
	`weight_unit` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalogue_items_ws_sku_uq` ON `catalogue_items` (`workspace_id`,`sku`);--> statement-breakpoint
CREATE INDEX `catalogue_items_ws_idx` ON `catalogue_items` (`workspace_id`,`id`);--> statement-breakpoint
ALTER TABLE `customers` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `addresses` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `customers` ADD `tax_registrations` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX `customers_ws_external_ref_idx` ON `customers` (`workspace_id`,`external_ref`);