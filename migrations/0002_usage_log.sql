CREATE TABLE `usage_log` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`customer_id` integer,
	`actor` text,
	`sender_country_code` text,
	`receiver_country_code` text,
	`item_count` integer DEFAULT 0 NOT NULL,
	`match_count` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`detail` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_log_ws_kind_created_idx` ON `usage_log` (`workspace_id`,`kind`,`created_at`,`id`);