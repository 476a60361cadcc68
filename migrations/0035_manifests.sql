CREATE TABLE `manifest_consignments` (
	`manifest_id` text NOT NULL,
	`consignment_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`added_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `manifest_consignments_con_idx` ON `manifest_consignments` (`consignment_id`);--> statement-breakpoint
CREATE INDEX `manifest_consignments_man_idx` ON `manifest_consignments` (`manifest_id`,`consignment_id`);--> statement-breakpoint
CREATE TABLE `manifests` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`carrier` text,
	`reference` text,
	`status` text NOT NULL,
	`document_key` text,
	`document_size` integer,
	`document_sha256` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`closed_at` text
);
--> statement-breakpoint
CREATE INDEX `manifests_ws_idx` ON `manifests` (`workspace_id`,`id`);