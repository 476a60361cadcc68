CREATE TABLE `validation_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`severity` text NOT NULL,
	`message` text NOT NULL,
	`condition` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `validation_rules_ws_idx` ON `validation_rules` (`workspace_id`,`id`);