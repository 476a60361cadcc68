/**
 * Restricted and prohibited goods:
 *   POST   {api}/restrict               check items (scope restrict:read; 403 when the destination is not enabled)
 *   GET    {api}/restrict/coverage      rule count and last review per destination the platform rules answer for
 *   GET    {api}/restrict/rules         the organization's custom rules, newest first
 *   POST   {api}/restrict/rules         create a custom rule
 *   DELETE {api}/restrict/rules/{id}    delete one (404 outside the caller's organization)
 *   GET    {api}/usage-history/restrict the check log
 * All under restrict:read, as the spec gives for this area.
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
import { IntIdParam, intId } from "../../http/schemas";
import { unpinned } from "../../middleware/auth";
import { usageHistoryRoutes } from "../usage/routes";
import {
  CoverageListing,
  CreateRuleBody,
  HistoryRow,
  NotEnabledSchema,
  OrgRuleSchema,
  RestrictRequest,
  RestrictResponse,
} from "./schemas";
import { createOrgRule, deleteOrgRule, listCoverage, listOrgRules, orgRuleToWire, runCheck } from "./service";

const tags = ["Restrict"];

const check = createRoute({
  method: "post",
  path: "/restrict",
  tags,
  summary: "Check items against import, export, origin and organization rules",
  description:
    "Import rules of the destination, export rules of `origin_country` when given, origin-scoped rules via each item's `country_of_origin`, and the organization's custom rules. " +
    "HS prefix matches are HIGH (item code under the rule's prefix) or MEDIUM (item code shallower than the prefix); keyword matches (whole words after normalization, any script) are MEDIUM; origin rules HIGH. " +
    "A platform rule with both an HS prefix and keywords matches on either. `coverage` says how many platform rules the destination runs and when they were last reviewed.",
  ...scopedCompute("restrict:read"),
  request: { body: jsonBody(RestrictRequest) },
  responses: {
    200: json(RestrictResponse, "Matches per item"),
    ...errorResponses,
    403: json(NotEnabledSchema, "Missing scope, or checks not enabled for the destination"),
  },
});

const coverage = createRoute({
  method: "get",
  path: "/restrict/coverage",
  tags,
  summary: "Destinations the platform rules answer for, with rule counts and last review",
  description:
    "Every destination with platform import rules in force (EU member states count the Union's rules). A destination not listed has no rules: checks for it answer 403 unless the workspace enables it.",
  ...scoped("restrict:read"),
  responses: { 200: json(CoverageListing, "Coverage per destination"), ...errorResponses },
});

const listRules = createRoute({
  method: "get",
  path: "/restrict/rules",
  tags,
  summary: "The organization's custom rules, newest first",
  ...scoped("restrict:read"),
  request: {
    query: ListQuery.extend({
      starting_after: intId().optional().openapi({ description: "A rule id: return older rules" }),
    }),
  },
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), rules: z.array(OrgRuleSchema), has_more: z.boolean() }),
      "One page",
    ),
    ...errorResponses,
  },
});

const createRule = createRoute({
  method: "post",
  path: "/restrict/rules",
  tags,
  summary: "Create a custom rule for the organization (HS prefix, keywords or origin)",
  ...scoped("restrict:read", unpinned),
  request: { body: jsonBody(CreateRuleBody) },
  responses: {
    201: json(z.object({ success: z.literal(true), message: z.string(), rule: OrgRuleSchema }), "Created"),
    422: json(ErrorSchema, "The organization holds the maximum number of rules"),
    ...errorResponses,
  },
});

const deleteRule = createRoute({
  method: "delete",
  path: "/restrict/rules/{id}",
  tags,
  summary: "Delete a custom rule",
  ...scoped("restrict:read", unpinned),
  request: { params: IntIdParam },
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string(), deleted: z.literal(true) }), "Deleted"),
    404: json(ErrorSchema, "No such rule in the caller's organization"),
    ...errorResponses,
  },
});

const history = usageHistoryRoutes("restrict", "restrict:read", HistoryRow, (r) => ({
  id: r.id,
  sender_country_code: r.senderCountryCode,
  receiver_country_code: r.receiverCountryCode,
  item_count: r.itemCount,
  match_count: r.matchCount,
  duration_ms: r.durationMs,
  created_at: r.createdAt,
}));

export const restrictRoutes = newWorkspaceRouter()
  .openapi(check, async (c) => {
    const ctx = c.get("ctx");
    const r = await runCheck({ ctx, input: c.req.valid("json") });
    // The log row goes with the audit row, in the group-committed batch after the response.
    return c.json(
      {
        success: true as const,
        message: "",
        created_at: r.createdAt,
        destination_country: r.destination,
        origin_country: r.origin,
        coverage: {
          ...r.coverage.destination,
          origin_export_rule_count: r.coverage.originExportRuleCount,
          data_version: r.coverage.dataVersion,
        },
        items: r.items,
        match_count: r.matchCount,
        has_prohibitions: r.hasProhibitions,
        has_restrictions: r.hasRestrictions,
        duration_ms: r.durationMs,
      },
      200,
    );
  })
  .openapi(coverage, async (c) => {
    const r = await listCoverage({ ctx: c.get("ctx"), input: {} });
    return c.json(
      {
        success: true as const,
        message: "",
        as_of: r.asOf,
        data_version: r.dataSource?.version ?? null,
        destinations: r.destinations.map((d) => ({ country_code: d.country, ...d.coverage })),
      },
      200,
    );
  })
  .openapi(listRules, async (c) => {
    const { rules, hasMore } = await listOrgRules({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", rules: rules.map(orgRuleToWire), has_more: hasMore }, 200);
  })
  .openapi(createRule, async (c) => {
    const rule = await createOrgRule({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Custom rule created", rule: orgRuleToWire(rule) }, 201);
  })
  .openapi(deleteRule, async (c) => {
    const { id } = c.req.valid("param");
    await deleteOrgRule({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: `Custom rule ${id} deleted`, deleted: true as const }, 200);
  })
  .route("/", history);
