DROP INDEX `classify_blocklist_org_code_country_uq`;--> statement-breakpoint
DROP INDEX `classify_blocklist_org_id_idx`;--> statement-breakpoint
ALTER TABLE `classify_blocklist` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `classify_blocklist_org_mode_code_country_uq` ON `classify_blocklist` (`organization_id`,`mode`,`hs_code`,`country_code`);--> statement-breakpoint
CREATE INDEX `classify_blocklist_org_mode_id_idx` ON `classify_blocklist` (`organization_id`,`mode`,`id`);--> statement-breakpoint
DROP INDEX `org_restriction_rules_org_idx`;--> statement-breakpoint
ALTER TABLE `org_restriction_rules` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
CREATE INDEX `org_restriction_rules_org_mode_idx` ON `org_restriction_rules` (`organization_id`,`mode`,`id`);--> statement-breakpoint
-- Custom rules know the workspace they were created from, so they keep that workspace's mode. Blocklist entries
-- carry no origin: they stay live (a sandbox organization re-adds what it needs).
UPDATE `org_restriction_rules` SET `mode` = (SELECT `mode` FROM `workspaces` WHERE `workspaces`.`id` = `org_restriction_rules`.`workspace_id`) WHERE EXISTS (SELECT 1 FROM `workspaces` WHERE `workspaces`.`id` = `org_restriction_rules`.`workspace_id`);
