/** Loading a workspace's validation rules for the consignment create path. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { validationRules } from "../../db/schema/index";
import type { Condition, Rule } from "../../engines/validation-rules/evaluate";

export async function enabledRules(db: Db, workspaceId: string): Promise<Rule[]> {
  const rows = await db.select().from(validationRules).where(and(eq(validationRules.workspaceId, workspaceId), eq(validationRules.enabled, true)));
  return rows.map((r) => ({ id: r.id, name: r.name, severity: r.severity, message: r.message, condition: JSON.parse(r.condition) as Condition }));
}
