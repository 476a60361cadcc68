/**
 * `{api}/screening/alerts`: the alerts ongoing screening opened on the workspace's stored parties, and the
 * officer's decision on each. Scope screen:read, as the screening area's other administration (the classify
 * blocklist sets the same precedent for its area); workspace-wide compliance data, so a customer-pinned
 * client is refused (403).
 */
import { createRoute, z } from "@hono/zod-openapi";
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
import { unpinned } from "../../middleware/auth";
import { enqueue } from "../webhooks/service";
import { decideAlert, getAlert, listAlerts } from "./service";

const tags = ["Screen: ongoing screening"];

const AlertSchema = z
  .object({
    id: z.string().openapi({ example: "sca_01a20f7c7f6a7b0e93cb9277d10371ab" }),
    status: z.enum(["open", "cleared", "confirmed"]),
    party: z.object({
      id: z.string(),
      name: z.string().nullable(),
      company: z.string().nullable(),
      country_code: z.string().nullable(),
    }),
    entry_id: z.string().openapi({ description: "The listed entry: `{list_code}:{source_ref}`", example: "SDN:306" }),
    list_code: z.string(),
    list_version: z.string(),
    score: z.number(),
    matched_name: z.string(),
    match: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The match as POST /screen returns it, with its explanation" }),
    reason: z.string().nullable(),
    decided_by: z.string().nullable().openapi({ description: "The API client id that decided" }),
    decided_at: z.string().nullable(),
    held_consignments: z
      .array(z.string())
      .openapi({ description: "Consignments this alert placed a `screening` hold on" }),
    created_at: z.string(),
  })
  .openapi("ScreeningAlert");

const AlertId = z
  .string()
  .regex(/^sca_[0-9a-f]{32}$/)
  .openapi({ example: "sca_01a20f7c7f6a7b0e93cb9277d10371ab" });

const listRoute = createRoute({
  method: "get",
  path: "/screening/alerts",
  tags,
  summary: "Alerts opened by ongoing screening, newest first",
  ...scoped("screen:read", unpinned),
  request: {
    query: ListQuery.extend({
      status: z.enum(["open", "cleared", "confirmed"]).optional(),
      party_id: z.string().max(100).optional(),
    }),
  },
  responses: {
    200: json(ok({ alerts: z.array(AlertSchema), has_more: z.boolean() }), "One page"),
    ...errorResponses,
  },
});

const oneRoute = createRoute({
  method: "get",
  path: "/screening/alerts/{id}",
  tags,
  summary: "One alert",
  ...scoped("screen:read", unpinned),
  request: { params: z.object({ id: AlertId }) },
  responses: {
    200: json(ok({ alert: AlertSchema }), "The alert"),
    404: json(ErrorSchema, "No such alert in this workspace"),
    ...errorResponses,
  },
});

const decideRoute = createRoute({
  method: "post",
  path: "/screening/alerts/{id}/decision",
  tags,
  summary: "Clear or confirm an open alert",
  description:
    "`cleared`: the party is not the listed one; the same party and entry are not raised again unless the listed entry changes. " +
    "`confirmed`: the party is the listed one; by `screening.hold_on` (default `confirmed`), its consignments get a `screening` hold. " +
    "The reason is kept with the alert and the request is audited like every write.",
  ...scoped("screen:read", unpinned),
  request: {
    params: z.object({ id: AlertId }),
    body: jsonBody(
      z
        .object({
          decision: z.enum(["cleared", "confirmed"]),
          reason: z.string().trim().min(1).max(2_000),
        })
        .strict(),
    ),
  },
  responses: {
    200: json(ok({ alert: AlertSchema }), "Decided"),
    404: json(ErrorSchema, "No such alert in this workspace"),
    409: json(ErrorSchema, "Already decided"),
    ...errorResponses,
  },
});

export const screeningRoutes = newWorkspaceRouter()
  .openapi(listRoute, async (c) => {
    const page = await listAlerts({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", ...page }, 200);
  })
  .openapi(oneRoute, async (c) => {
    const alert = await getAlert({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", alert }, 200);
  })
  .openapi(decideRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { alert, deliveryIds } = await decideAlert({ ctx: c.get("ctx"), input: { id, ...c.req.valid("json") } });
    if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
    return c.json({ success: true as const, message: `Alert ${alert?.status}`, alert }, 200);
  });
