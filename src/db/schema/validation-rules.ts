/** Workspace validation rules run on every consignment create (error blocks with 422, warning is reported). */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const validationRules = sqliteTable(
  "validation_rules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull(),
    name: text("name").notNull(),
    severity: text("severity", { enum: ["error", "warning"] }).notNull(),
    message: text("message").notNull(),
    /** JSON condition (src/engines/validation-rules). */
    condition: text("condition").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("validation_rules_ws_idx").on(t.workspaceId, t.id)],
);
