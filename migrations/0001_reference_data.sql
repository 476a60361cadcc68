CREATE TABLE `data_sources` (
	`dataset` text PRIMARY KEY NOT NULL,
	`version` text NOT NULL,
	`source` text NOT NULL,
	`imported_at` text NOT NULL,
	`row_count` integer DEFAULT 0 NOT NULL
);
