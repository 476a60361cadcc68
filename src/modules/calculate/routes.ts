/**
 * Calculate routes: `/calculate`, `/calculate/multiple`, `/calculate/stacking`, `/calculate/stacking/bulk`
 * (scope calculate:read), `/usage-history/calculate`, and the workspace country rules under
 * `/settings/country-rules` (settings:read / settings:write).
 *
 * Errors: a workspace country-rule violation is 400 with exactly `{errors: [{code, description}]}` (the spec's
 * calculate validation-failure body). Ordinary field validation keeps the shared envelope
 * `{success: false, message, error: "validation_failed", request_id, errors: [{field, message}]}`, so clients
 * tell the two apart by the presence of `success`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  ListQuery,
  newWorkspaceRouter,
  scoped,
  scopedCompute,
} from "../../http/router";
import { CountryCode, IntIdParam, intId } from "../../http/schemas";
import { usageHistoryRoutes } from "../usage/routes";
import { createRule, deleteRule, getRule, listRules, ruleToWire, updateRule } from "./rules";
import {
  CalculateBody,
  CalculateResponse,
  CountryRuleBody,
  CountryRuleSchema,
  CountryRuleUpdate,
  MultipleBody,
  MultipleResponse,
  RuleErrors,
  StackingBulkBody,
  StackingBulkResponse,
  StackingRequest,
  StackingResponse,
} from "./schemas";
import { calculateMultiple, calculateOne, stacking, stackingBulk } from "./service";

const tags = ["Calculate"];
const ruleViolation = {
  400: json(
    z.union([RuleErrors, ErrorSchema]),
    "A workspace country rule refused the request (`{errors: [{code, description}]}`), or a field is invalid (the error envelope with `errors: [{field, message}]`)",
  ),
};
const { 400: _400, ...otherErrors } = errorResponses;

const calculateRoute = createRoute({
  method: "post",
  path: "/calculate",
  tags,
  summary: "Duty, fees and VAT for one HS code",
  description:
    "Resolves the national tariff line as of `entry_date`, picks the duty tier for the origin (column 2, preferential programme, MFN), stacks US Chapter 99 measures (Section 301, Section 232, the Section 122 surcharge of 2026-02-24 to 2026-07-23, with exclusions and claims), applies de minimis, fees and VAT, and states the basis of every line. Money is in the destination currency, converted at the ECB reference rate of the entry date.",
  ...scopedCompute("calculate:read"),
  request: { body: jsonBody(CalculateBody) },
  responses: { 200: json(CalculateResponse, "The quote"), ...ruleViolation, ...otherErrors },
});

const multipleRoute = createRoute({
  method: "post",
  path: "/calculate/multiple",
  tags,
  summary: "Duty, fees and VAT for 1-50 lines of one shipment",
  ...scopedCompute("calculate:read"),
  request: { body: jsonBody(MultipleBody) },
  responses: {
    200: json(MultipleResponse, "Per-line results in request order, shipment-level fees and grand totals"),
    ...ruleViolation,
    ...otherErrors,
  },
});

const stackingRoute = createRoute({
  method: "post",
  path: "/calculate/stacking",
  tags,
  summary: "The duty stack for a code and origin, without values",
  ...scopedCompute("calculate:read"),
  request: { body: jsonBody(StackingRequest) },
  responses: { 200: json(StackingResponse, "Base rate first, then additional measures"), ...errorResponses },
});

const bulkRoute = createRoute({
  method: "post",
  path: "/calculate/stacking/bulk",
  tags,
  summary: "Duty stacks for up to 500 items",
  ...scopedCompute("calculate:read"),
  request: { body: jsonBody(StackingBulkBody) },
  responses: { 200: json(StackingBulkResponse, "One result per item, in order, with its ref"), ...errorResponses },
});

const HistoryRow = z.object({
  id: z.string(),
  endpoint: z.string().nullable(),
  sender_country_code: z.string().nullable(),
  receiver_country_code: z.string().nullable(),
  item_count: z.number(),
  match_count: z.number(),
  duration_ms: z.number(),
  total: z.number().nullable(),
  currency: z.string().nullable(),
  rejected: z.boolean(),
  created_at: z.string(),
});

const ruleTags = ["Settings: country rules"];
const RuleEnvelope = z.object({ success: z.literal(true), message: z.string(), rule: CountryRuleSchema });

const listRulesRoute = createRoute({
  method: "get",
  path: "/settings/country-rules",
  tags: ruleTags,
  summary: "List the workspace's calculate country rules",
  ...scoped("settings:read"),
  request: {
    query: ListQuery.extend({
      starting_after: intId(1).optional().openapi({ description: "A rule id: return older rules" }),
      destination_country: z.union([CountryCode, z.literal("*")]).optional(),
    }),
  },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        message: z.string(),
        rules: z.array(CountryRuleSchema),
        has_more: z.boolean(),
      }),
      "Rules, newest first",
    ),
    ...errorResponses,
  },
});
const createRuleRoute = createRoute({
  method: "post",
  path: "/settings/country-rules",
  tags: ruleTags,
  summary: "Create a country rule (checked on every calculate request for the destination)",
  ...scoped("settings:write"),
  request: { body: jsonBody(CountryRuleBody) },
  responses: { 201: json(RuleEnvelope, "Created"), ...errorResponses },
});
const getRuleRoute = createRoute({
  method: "get",
  path: "/settings/country-rules/{id}",
  tags: ruleTags,
  summary: "Get a country rule",
  ...scoped("settings:read"),
  request: { params: IntIdParam },
  responses: {
    200: json(RuleEnvelope, "The rule"),
    404: json(ErrorSchema, "No such rule in this workspace"),
    ...errorResponses,
  },
});
const updateRuleRoute = createRoute({
  method: "patch",
  path: "/settings/country-rules/{id}",
  tags: ruleTags,
  summary: "Amend a country rule's parameters, code or description",
  ...scoped("settings:write"),
  request: { params: IntIdParam, body: jsonBody(CountryRuleUpdate) },
  responses: {
    200: json(RuleEnvelope, "Updated"),
    404: json(ErrorSchema, "No such rule in this workspace"),
    ...errorResponses,
  },
});
const deleteRuleRoute = createRoute({
  method: "delete",
  path: "/settings/country-rules/{id}",
  tags: ruleTags,
  summary: "Delete a country rule",
  ...scoped("settings:write"),
  request: { params: IntIdParam },
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), deleted: z.literal(true), id: z.number() }),
      "Deleted",
    ),
    404: json(ErrorSchema, "No such rule in this workspace"),
    ...errorResponses,
  },
});

export const calculateRoutes = newWorkspaceRouter()
  .openapi(calculateRoute, async (c) => {
    const ctx = c.get("ctx");
    // A refused calculation is thrown (400 `{errors}`) after its usage row is recorded on the context.
    const { quote } = await calculateOne({ ctx, input: c.req.valid("json") });
    return c.json({ success: true as const, ...quote, request_id: ctx.requestId }, 200);
  })
  .openapi(multipleRoute, async (c) => {
    const ctx = c.get("ctx");
    const { quote, durationMs } = await calculateMultiple({ ctx, input: c.req.valid("json") });
    return c.json(
      { success: true as const, message: "", ...quote, request_id: ctx.requestId, execution_time: durationMs },
      200,
    );
  })
  .openapi(stackingRoute, async (c) => {
    const ctx = c.get("ctx");
    const { quote } = await stacking({ ctx, input: c.req.valid("json") });
    return c.json({ success: true as const, ...quote, request_id: ctx.requestId }, 200);
  })
  .openapi(bulkRoute, async (c) => {
    const ctx = c.get("ctx");
    const { items } = c.req.valid("json");
    const { quote, durationMs } = await stackingBulk({ ctx, input: items as Record<string, unknown>[] });
    return c.json({ ...quote, execution_time: durationMs, request_id: ctx.requestId }, 200);
  })
  .openapi(listRulesRoute, async (c) => {
    const { rules, hasMore } = await listRules({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", rules: rules.map(ruleToWire), has_more: hasMore }, 200);
  })
  .openapi(createRuleRoute, async (c) => {
    const rule = await createRule({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Country rule created", rule: ruleToWire(rule) }, 201);
  })
  .openapi(getRuleRoute, async (c) => {
    const rule = await getRule({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", rule: ruleToWire(rule) }, 200);
  })
  .openapi(updateRuleRoute, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const rule = await updateRule({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "Country rule updated", rule: ruleToWire(rule) }, 200);
  })
  .openapi(deleteRuleRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deleteRule({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "Country rule deleted", deleted: true as const, id }, 200);
  });

calculateRoutes.route(
  "/",
  usageHistoryRoutes("calculate", "calculate:read", HistoryRow, (r) => {
    const d = JSON.parse(r.detail) as { endpoint?: string; total?: number; currency?: string; rejected?: unknown };
    return {
      id: r.id,
      endpoint: d.endpoint ?? null,
      sender_country_code: r.senderCountryCode,
      receiver_country_code: r.receiverCountryCode,
      item_count: r.itemCount,
      match_count: r.matchCount,
      duration_ms: r.durationMs,
      total: typeof d.total === "number" ? d.total : null,
      currency: d.currency ?? null,
      rejected: d.rejected !== undefined,
      created_at: r.createdAt,
    };
  }),
);
