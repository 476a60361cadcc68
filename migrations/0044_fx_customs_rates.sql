CREATE TABLE `fx_customs_rates` (
	`dataset` text NOT NULL,
	`version` text NOT NULL,
	`currency` text NOT NULL,
	`period_start` text NOT NULL,
	`period_end` text NOT NULL,
	`rate` text NOT NULL,
	PRIMARY KEY(`dataset`, `version`, `currency`, `period_start`)
);
