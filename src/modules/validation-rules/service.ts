/** Loading a workspace's validation rules for the consignment create path. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { validationRules } from "../../db/schema/index";
import type { Condition, Rule } from "../../engines/validation-rules/evaluate";

export type ValidationRuleRow = typeof validationRules.$inferSelect;

/** The enabled rules as a query, so the create path can read them in the same round trip as its other reads. */
export const enabledRulesQuery = (db: Db, workspaceId: string) =>
  db
    .select()
    .from(validationRules)
    .where(and(eq(validationRules.workspaceId, workspaceId), eq(validationRules.enabled, true)));

export const ruleFromRow = (r: ValidationRuleRow): Rule => ({
  id: r.id,
  name: r.name,
  severity: r.severity,
  message: r.message,
  condition: JSON.parse(r.condition) as Condition,
});
