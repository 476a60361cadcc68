/** Wire schemas of `{api}/settings/validation-rules`. */
import { z } from "@hono/zod-openapi";
import type { Condition } from "../../engines/validation-rules/evaluate";
import { CONDITION_LIMITS_TEXT, conditionLimitProblem } from "../../engines/validation-rules/limits";

const OPS = [
  "present",
  "absent",
  "equals",
  "not_equals",
  "in",
  "not_in",
  "gt",
  "gte",
  "lt",
  "lte",
  "contains",
] as const;

const Leaf = z
  .object({
    field: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[a-z0-9_.]+$/, "a dotted path of snake_case keys, e.g. receiver.country_code or totals.declared_value"),
    op: z.enum(OPS),
    value: z
      .union([
        z.string().max(500),
        z.number(),
        z.boolean(),
        z.array(z.union([z.string().max(500), z.number()])).max(500),
      ])
      .optional(),
  })
  .strict()
  .refine((c) => c.op === "present" || c.op === "absent" || c.value !== undefined, {
    message: "value is required for this op",
    path: ["value"],
  })
  .refine((c) => !["in", "not_in"].includes(c.op) || Array.isArray(c.value), {
    message: "in / not_in take an array",
    path: ["value"],
  });

// Recursive: registered as a named component so the OpenAPI generator emits a $ref instead of recursing.
const ConditionSchema: z.ZodType<Condition> = z
  .lazy(() =>
    z.union([
      Leaf,
      z.object({ all: z.array(ConditionSchema).min(1).max(20) }).strict(),
      z.object({ any: z.array(ConditionSchema).min(1).max(20) }).strict(),
      z.object({ not: ConditionSchema }).strict(),
    ]),
  )
  .openapi("ValidationCondition", {
    description: `A leaf {field, op, value?} or a group {all: [...]} / {any: [...]} / {not: condition}. ${CONDITION_LIMITS_TEXT}`,
  }) as z.ZodType<Condition>;

/**
 * The condition of a rule, limits first: the iterative limit walk (engines/validation-rules/limits) runs on
 * the parsed JSON before the recursive schema, so an over-deep condition is a 400 `validation_failed` on
 * `condition` rather than a stack overflow inside zod.
 */
const BoundedCondition = z.preprocess((value, ctx) => {
  if (value === undefined) return value;
  const problem = conditionLimitProblem(value);
  if (problem === null) return value;
  ctx.addIssue({ code: "custom", message: problem, input: value });
  return z.NEVER;
}, ConditionSchema);

export const RuleInput = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "No DDP to the US" }),
    severity: z.enum(["error", "warning"]),
    message: z.string().trim().min(1).max(500).openapi({ example: "DDP is not available for US deliveries" }),
    condition: BoundedCondition,
    enabled: z.boolean().optional(),
  })
  .strict();

export const RuleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    severity: z.enum(["error", "warning"]),
    message: z.string(),
    condition: ConditionSchema,
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ValidationRule");
