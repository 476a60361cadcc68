CREATE TABLE `consignment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`consignment_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`request_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignment_events_con_idx` ON `consignment_events` (`consignment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `consignment_items` (
	`id` text PRIMARY KEY NOT NULL,
	`consignment_id` text NOT NULL,
	`parcel_id` text NOT NULL,
	`order_id` text,
	`position` integer NOT NULL,
	`sku` text,
	`title` text,
	`description` text,
	`quantity` integer NOT NULL,
	`unit_value` text NOT NULL,
	`currency_code` text,
	`hs_code` text,
	`hs_code_source` text,
	`country_of_origin` text,
	`weight` text,
	`weight_kg` text,
	`extra` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignment_items_con_idx` ON `consignment_items` (`consignment_id`,`position`);--> statement-breakpoint
CREATE TABLE `consignment_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`consignment_id` text NOT NULL,
	`parcel_id` text,
	`position` integer NOT NULL,
	`order_ref` text,
	`amount` text,
	`currency_code` text,
	`order_date` text,
	`invoice_number` text,
	`charges` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignment_orders_con_idx` ON `consignment_orders` (`consignment_id`,`position`);--> statement-breakpoint
CREATE TABLE `consignment_parcels` (
	`id` text PRIMARY KEY NOT NULL,
	`consignment_id` text NOT NULL,
	`position` integer NOT NULL,
	`sender_ref` text,
	`barcode` text,
	`packaging_type` text NOT NULL,
	`weight_value` text NOT NULL,
	`weight_kg` text NOT NULL,
	`dimensions` text,
	`declared_value` text,
	`currency_code` text
);
--> statement-breakpoint
CREATE INDEX `consignment_parcels_con_idx` ON `consignment_parcels` (`consignment_id`,`position`);--> statement-breakpoint
CREATE TABLE `consignments` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`customer_id` integer,
	`shipment_ref` text NOT NULL,
	`external_code` text,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`incoterm` text,
	`entry_date` text,
	`transport_mode` text,
	`weight_unit` text NOT NULL,
	`measurement_unit` text NOT NULL,
	`movement_indicator` text,
	`sender_country` text,
	`receiver_country` text,
	`sender` text,
	`receiver` text,
	`extra` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignments_ws_id_idx` ON `consignments` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `consignments_ws_ref_idx` ON `consignments` (`workspace_id`,`shipment_ref`);--> statement-breakpoint
CREATE INDEX `consignments_ws_customer_idx` ON `consignments` (`workspace_id`,`customer_id`,`id`);