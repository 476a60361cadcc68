CREATE TABLE `hs_rulings` (
	`ruling_number` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`subject` text NOT NULL,
	`ruling_date` text,
	`url` text NOT NULL
);
