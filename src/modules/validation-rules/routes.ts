/** `{api}/settings/validation-rules`: CRUD over the workspace's consignment validation rules. */
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Context } from "hono";
import { createDb } from "../../db/client";
import { validationRules } from "../../db/schema/index";
import type { Condition } from "../../engines/validation-rules/evaluate";
import type { AppEnv } from "../../env";
import { ErrorSchema, errorResponses, json, jsonBody, ListQuery, newRouter, ok, scoped } from "../../http/router";
import { isoAt } from "../../lib/clock";
import { notFound } from "../../lib/errors";

const tags = ["Settings: validation rules"];
type Row = typeof validationRules.$inferSelect;

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
  .openapi("ValidationCondition") as z.ZodType<Condition>;

const Input = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "No DDP to the US" }),
    severity: z.enum(["error", "warning"]),
    message: z.string().trim().min(1).max(500).openapi({ example: "DDP is not available for US deliveries" }),
    condition: ConditionSchema,
    enabled: z.boolean().optional(),
  })
  .strict();

const RuleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    severity: z.enum(["error", "warning"]),
    message: z.string(),
    condition: z.unknown(),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ValidationRule");
const toWire = (r: Row) => ({
  id: r.id,
  name: r.name,
  severity: r.severity,
  message: r.message,
  condition: JSON.parse(r.condition) as unknown,
  enabled: r.enabled,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});
const IdParam = z.object({ id: z.coerce.number().int().positive() });
const notFoundResp = { 404: json(ErrorSchema, "No such rule in this workspace") };

async function load(c: Context<AppEnv>, id: number): Promise<Row> {
  const [row] = await createDb(c.env.DB)
    .select()
    .from(validationRules)
    .where(and(eq(validationRules.id, id), eq(validationRules.workspaceId, c.get("workspace")!.id)))
    .limit(1);
  if (!row) throw notFound(`Validation rule ${id} not found`);
  return row;
}

const routes = {
  list: createRoute({
    method: "get",
    path: "/settings/validation-rules",
    tags,
    summary: "List validation rules",
    ...scoped("settings:read"),
    request: { query: ListQuery.extend({ starting_after: z.coerce.number().int().positive().optional() }) },
    responses: {
      200: json(ok({ rules: z.array(RuleSchema), has_more: z.boolean() }), "Rules, newest first"),
      ...errorResponses,
    },
  }),
  create: createRoute({
    method: "post",
    path: "/settings/validation-rules",
    tags,
    summary: "Create a validation rule",
    ...scoped("settings:write"),
    request: { body: jsonBody(Input) },
    responses: { 201: json(ok({ rule: RuleSchema }), "Created"), ...errorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/settings/validation-rules/{id}",
    tags,
    summary: "Get a validation rule",
    ...scoped("settings:read"),
    request: { params: IdParam },
    responses: { 200: json(ok({ rule: RuleSchema }), "The rule"), ...notFoundResp, ...errorResponses },
  }),
  update: createRoute({
    method: "patch",
    path: "/settings/validation-rules/{id}",
    tags,
    summary: "Update a validation rule",
    ...scoped("settings:write"),
    request: { params: IdParam, body: jsonBody(Input.partial().strict()) },
    responses: { 200: json(ok({ rule: RuleSchema }), "Updated"), ...notFoundResp, ...errorResponses },
  }),
  remove: createRoute({
    method: "delete",
    path: "/settings/validation-rules/{id}",
    tags,
    summary: "Delete a validation rule",
    ...scoped("settings:write"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ deleted: z.literal(true), id: z.number().int() }), "Deleted"),
      ...notFoundResp,
      ...errorResponses,
    },
  }),
};

export const validationRuleRoutes = newRouter()
  .openapi(routes.list, async (c) => {
    const q = c.req.valid("query");
    const where = [eq(validationRules.workspaceId, c.get("workspace")!.id)];
    if (q.starting_after) where.push(lt(validationRules.id, q.starting_after));
    const rows = await createDb(c.env.DB)
      .select()
      .from(validationRules)
      .where(and(...where))
      .orderBy(desc(validationRules.id))
      .limit(q.limit + 1);
    return c.json(
      {
        success: true as const,
        message: "",
        rules: rows.slice(0, q.limit).map(toWire),
        has_more: rows.length > q.limit,
      },
      200,
    );
  })
  .openapi(routes.create, async (c) => {
    const input = c.req.valid("json");
    const now = isoAt(c.get("deps").clock.now());
    const [row] = await createDb(c.env.DB)
      .insert(validationRules)
      .values({
        workspaceId: c.get("workspace")!.id,
        name: input.name,
        severity: input.severity,
        message: input.message,
        condition: JSON.stringify(input.condition),
        enabled: input.enabled ?? true,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return c.json({ success: true as const, message: "Validation rule created", rule: toWire(row!) }, 201);
  })
  .openapi(routes.get, async (c) =>
    c.json({ success: true as const, message: "", rule: toWire(await load(c, c.req.valid("param").id)) }, 200),
  )
  .openapi(routes.update, async (c) => {
    const current = await load(c, c.req.valid("param").id);
    const input = c.req.valid("json");
    const patch: Partial<Row> = { updatedAt: isoAt(c.get("deps").clock.now()) };
    if (input.name !== undefined) patch.name = input.name;
    if (input.severity !== undefined) patch.severity = input.severity;
    if (input.message !== undefined) patch.message = input.message;
    if (input.condition !== undefined) patch.condition = JSON.stringify(input.condition);
    if (input.enabled !== undefined) patch.enabled = input.enabled;
    await createDb(c.env.DB).update(validationRules).set(patch).where(eq(validationRules.id, current.id));
    return c.json(
      { success: true as const, message: "Validation rule updated", rule: toWire(await load(c, current.id)) },
      200,
    );
  })
  .openapi(routes.remove, async (c) => {
    const current = await load(c, c.req.valid("param").id);
    await createDb(c.env.DB).delete(validationRules).where(eq(validationRules.id, current.id));
    return c.json(
      { success: true as const, message: "Validation rule deleted", deleted: true as const, id: current.id },
      200,
    );
  });
