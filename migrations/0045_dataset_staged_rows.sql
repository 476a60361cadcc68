CREATE TABLE `dataset_staged_rows` (
	`dataset` text NOT NULL,
	`version` text NOT NULL,
	`tbl` text NOT NULL,
	`seq` integer NOT NULL,
	`row` text NOT NULL,
	PRIMARY KEY(`dataset`, `version`, `tbl`, `seq`)
);
