/** `{api}/settings/validation-rules`: CRUD over the workspace's consignment validation rules. */
import { createRoute, z } from "@hono/zod-openapi";
import { CONDITION_LIMITS_TEXT } from "../../engines/validation-rules/limits";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  ListQuery,
  newWorkspaceRouter,
  ok,
  scoped,
} from "../../http/router";
import { IntIdParam, intId } from "../../http/schemas";
import { RuleInput, RuleSchema } from "./schemas";
import { createRule, deleteRule, getRule, listRules, ruleToWire, updateRule } from "./service";

const tags = ["Settings: validation rules"];
const notFoundResp = { 404: json(ErrorSchema, "No such rule in this workspace") };
const limits = `Conditions are bounded: ${CONDITION_LIMITS_TEXT}`;

const routes = {
  list: createRoute({
    method: "get",
    path: "/settings/validation-rules",
    tags,
    summary: "List validation rules",
    ...scoped("settings:read"),
    request: {
      query: ListQuery.extend({
        starting_after: intId().optional().openapi({ description: "A rule id: return older rules" }),
      }),
    },
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
    description: limits,
    ...scoped("settings:write"),
    request: { body: jsonBody(RuleInput) },
    responses: { 201: json(ok({ rule: RuleSchema }), "Created"), ...errorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/settings/validation-rules/{id}",
    tags,
    summary: "Get a validation rule",
    ...scoped("settings:read"),
    request: { params: IntIdParam },
    responses: { 200: json(ok({ rule: RuleSchema }), "The rule"), ...notFoundResp, ...errorResponses },
  }),
  update: createRoute({
    method: "patch",
    path: "/settings/validation-rules/{id}",
    tags,
    summary: "Update a validation rule",
    description: limits,
    ...scoped("settings:write"),
    request: { params: IntIdParam, body: jsonBody(RuleInput.partial().strict()) },
    responses: { 200: json(ok({ rule: RuleSchema }), "Updated"), ...notFoundResp, ...errorResponses },
  }),
  remove: createRoute({
    method: "delete",
    path: "/settings/validation-rules/{id}",
    tags,
    summary: "Delete a validation rule",
    ...scoped("settings:write"),
    request: { params: IntIdParam },
    responses: {
      200: json(ok({ deleted: z.literal(true), id: z.number().int() }), "Deleted"),
      ...notFoundResp,
      ...errorResponses,
    },
  }),
};

export const validationRuleRoutes = newWorkspaceRouter()
  .openapi(routes.list, async (c) => {
    const { rows, hasMore } = await listRules({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", rules: rows.map(ruleToWire), has_more: hasMore }, 200);
  })
  .openapi(routes.create, async (c) => {
    const row = await createRule({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Validation rule created", rule: ruleToWire(row) }, 201);
  })
  .openapi(routes.get, async (c) => {
    const row = await getRule({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", rule: ruleToWire(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const row = await updateRule({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "Validation rule updated", rule: ruleToWire(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteRule({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "Validation rule deleted", deleted: true as const, id }, 200);
  });
