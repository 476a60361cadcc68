/**
 * Restricted and prohibited goods:
 *   POST   {api}/restrict               check items (scope restrict:read; 403 when the destination is not enabled)
 *   GET    {api}/restrict/rules         the organization's custom rules, newest first
 *   POST   {api}/restrict/rules         create a custom rule
 *   DELETE {api}/restrict/rules/{id}    delete one (404 outside the caller's organization)
 *   GET    {api}/usage-history/restrict the check log
 * All under restrict:read, as the spec gives for this area.
 */

import { createRoute, z } from "@hono/zod-openapi";
import { createDb } from "../../db/client";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  ListQuery,
  newRouter,
  scoped,
  scopedCompute,
} from "../../http/router";
import { isoAt } from "../../lib/clock";
import { unpinned } from "../../middleware/auth";
import { usageHistoryRoutes } from "../usage/routes";
import {
  CreateRuleBody,
  HistoryRow,
  NotEnabledSchema,
  OrgRuleSchema,
  RestrictRequest,
  RestrictResponse,
} from "./schemas";
import { createOrgRule, deleteOrgRule, listOrgRules, orgRuleToWire, runCheck } from "./service";

const tags = ["Restrict"];

const check = createRoute({
  method: "post",
  path: "/restrict",
  tags,
  summary: "Check items against import, export, origin and organization rules",
  description:
    "Import rules of the destination, export rules of `origin_country` when given, origin-scoped rules via each item's `country_of_origin`, and the organization's custom rules. " +
    "HS prefix matches are HIGH (item code under the rule's prefix) or MEDIUM (item code shallower than the prefix); keyword matches (whole words after normalization) are MEDIUM; origin rules HIGH.",
  ...scopedCompute("restrict:read"),
  request: { body: jsonBody(RestrictRequest) },
  responses: {
    200: json(RestrictResponse, "Matches per item"),
    ...errorResponses,
    403: json(NotEnabledSchema, "Missing scope, or checks not enabled for the destination"),
  },
});

const IdParam = z.object({
  id: z.coerce
    .number()
    .int("must be an integer")
    .positive("must be a positive integer")
    .openapi({ type: "integer", example: 12, param: { name: "id", in: "path" } }),
});

const listRules = createRoute({
  method: "get",
  path: "/restrict/rules",
  tags,
  summary: "The organization's custom rules, newest first",
  ...scoped("restrict:read", unpinned),
  request: { query: ListQuery },
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
  request: { params: IdParam },
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

export const restrictRoutes = newRouter()
  .openapi(check, async (c) => {
    const ws = c.get("workspace")!;
    const db = createDb(c.env.DB);
    const { response, usage } = await runCheck(
      {
        db,
        workspaceId: ws.id,
        organizationId: ws.organizationId,
        requestId: c.get("requestId"),
        customerId: c.get("auth")?.customerId ?? null,
        actor: c.get("auth")?.clientId ?? null,
        startedAt: c.get("startedAt"),
        now: () => c.get("deps").clock.now(),
      },
      c.req.valid("json"),
    );
    // The log row goes with the audit row, in the group-committed batch after the response.
    c.set("usage", usage);
    return c.json(response, 200);
  })
  .openapi(listRules, async (c) => {
    const { rules, hasMore } = await listOrgRules(
      createDb(c.env.DB),
      c.get("workspace")!.organizationId,
      c.req.valid("query"),
    );
    return c.json({ success: true as const, message: "", rules: rules.map(orgRuleToWire), has_more: hasMore }, 200);
  })
  .openapi(createRule, async (c) => {
    const ws = c.get("workspace")!;
    const rule = await createOrgRule(
      createDb(c.env.DB),
      { organizationId: ws.organizationId, workspaceId: ws.id },
      c.req.valid("json"),
      isoAt(c.get("deps").clock.now()),
    );
    return c.json({ success: true as const, message: "Custom rule created", rule: orgRuleToWire(rule) }, 201);
  })
  .openapi(deleteRule, async (c) => {
    const { id } = c.req.valid("param");
    await deleteOrgRule(createDb(c.env.DB), c.get("workspace")!.organizationId, id, isoAt(c.get("deps").clock.now()));
    return c.json({ success: true as const, message: `Custom rule ${id} deleted`, deleted: true as const }, 200);
  })
  .route("/", history);
