CREATE TABLE `consignment_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`consignment_id` text NOT NULL,
	`type` text NOT NULL,
	`storage_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`flow_id` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignment_documents_con_idx` ON `consignment_documents` (`consignment_id`,`id`);--> statement-breakpoint
CREATE TABLE `consignment_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`consignment_id` text NOT NULL,
	`code` text,
	`reason` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`flow_id` integer,
	`placed_at` text NOT NULL,
	`released_at` text,
	`release_reason` text
);
--> statement-breakpoint
CREATE INDEX `consignment_holds_con_idx` ON `consignment_holds` (`consignment_id`,`status`);--> statement-breakpoint
CREATE TABLE `consignment_pre_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`consignment_id` text NOT NULL,
	`recipient` text NOT NULL,
	`channel` text NOT NULL,
	`event_id` text,
	`payload` text NOT NULL,
	`flow_id` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consignment_pre_alerts_con_idx` ON `consignment_pre_alerts` (`consignment_id`,`id`);--> statement-breakpoint
CREATE TABLE `flow_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`flow_id` integer NOT NULL,
	`flow_name` text NOT NULL,
	`consignment_id` text NOT NULL,
	`actions` text NOT NULL,
	`status` text NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`locked_until` integer,
	`results` text,
	`error` text,
	`created_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `flow_runs_due_idx` ON `flow_runs` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `flow_runs_con_idx` ON `flow_runs` (`consignment_id`);--> statement-breakpoint
CREATE TABLE `flows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`trigger` text NOT NULL,
	`external_code` text,
	`actions` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `flows_ws_idx` ON `flows` (`workspace_id`,`trigger`,`id`);