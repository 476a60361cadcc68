CREATE TABLE `carrier_serials` (
	`workspace_id` text NOT NULL,
	`carrier` text NOT NULL,
	`service` text NOT NULL,
	`next` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `carrier`, `service`)
);
--> statement-breakpoint
CREATE TABLE `parcel_labels` (
	`parcel_id` text PRIMARY KEY NOT NULL,
	`consignment_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`carrier` text NOT NULL,
	`service` text NOT NULL,
	`tracking_number` text NOT NULL,
	`document_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `parcel_labels_tracking_idx` ON `parcel_labels` (`carrier`,`tracking_number`);