CREATE TABLE `api_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`client_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`customer_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_client_id_uq` ON `api_clients` (`client_id`);--> statement-breakpoint
CREATE INDEX `api_clients_ws_idx` ON `api_clients` (`workspace_id`,`id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`external_ref` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_ws_idx` ON `customers` (`workspace_id`,`id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`rate_limits` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `request_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text,
	`surface` text NOT NULL,
	`route` text NOT NULL,
	`path` text NOT NULL,
	`method` text NOT NULL,
	`source` text NOT NULL,
	`actor` text,
	`customer_id` integer,
	`http_status` integer NOT NULL,
	`outcome` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`has_body` integer NOT NULL,
	`body_key` text,
	`body_content_type` text,
	`body_size` integer,
	`error_summary` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `request_audit_ws_id_idx` ON `request_audit` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `request_audit_ws_created_idx` ON `request_audit` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `request_refs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`ref_type` text NOT NULL,
	`ref_value` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `request_refs_ws_value_idx` ON `request_refs` (`workspace_id`,`ref_value`);--> statement-breakpoint
CREATE INDEX `request_refs_request_idx` ON `request_refs` (`request_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`mode` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_slug_uq` ON `workspaces` (`slug`);--> statement-breakpoint
CREATE INDEX `workspaces_org_idx` ON `workspaces` (`organization_id`);