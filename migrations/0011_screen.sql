CREATE TABLE `sanction_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`list_code` text NOT NULL,
	`source_ref` text NOT NULL,
	`name` text NOT NULL,
	`alt_names` text DEFAULT '[]' NOT NULL,
	`entry_type` text NOT NULL,
	`programs` text DEFAULT '[]' NOT NULL,
	`addresses` text DEFAULT '[]' NOT NULL,
	`remarks` text
);
--> statement-breakpoint
CREATE INDEX `sanction_entries_list_idx` ON `sanction_entries` (`list_code`);--> statement-breakpoint
CREATE TABLE `sanction_lists` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`version` text NOT NULL,
	`source` text NOT NULL,
	`entry_count` integer DEFAULT 0 NOT NULL
);
