CREATE TABLE `compliance_checks` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`consignment_id` text NOT NULL,
	`outcome` text NOT NULL,
	`policy` text NOT NULL,
	`screening` text NOT NULL,
	`restrictions` text NOT NULL,
	`classification` text NOT NULL,
	`landed_cost` text NOT NULL,
	`holds` text NOT NULL,
	`warnings` text NOT NULL,
	`source` text NOT NULL,
	`request_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `compliance_checks_con_idx` ON `compliance_checks` (`consignment_id`,`id`);