CREATE TABLE `consignment_assessments` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`consignment_id` text NOT NULL,
	`destination_country` text NOT NULL,
	`currency` text NOT NULL,
	`entry_date` text NOT NULL,
	`total_duty` text NOT NULL,
	`total_tax` text NOT NULL,
	`total_vat` text NOT NULL,
	`total_fees` text NOT NULL,
	`complete` integer NOT NULL,
	`items` text NOT NULL,
	`fees` text DEFAULT '[]' NOT NULL,
	`notes` text DEFAULT '[]' NOT NULL,
	`data_source` text,
	`request_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignment_assessments_con_idx` ON `consignment_assessments` (`consignment_id`,`id`);