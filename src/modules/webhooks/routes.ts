/**
 * `{api}/settings/webhooks`: endpoint management, secret rotation, a test send and delivery history.
 * Reads need settings:read, changes settings:write.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { EVENT_CATEGORIES, EVENT_TYPES, subscriptionProblem } from "../../engines/webhooks/catalogue";
import { EVENT_TYPE_RE, WILDCARD_RE } from "../../engines/webhooks/subscriptions";
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
import {
  createEndpoint,
  deleteEndpoint,
  endpointToWire,
  getEndpoint,
  listEndpointDeliveries,
  listEndpoints,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
} from "./service";

const tags = ["Settings: webhooks"];

const EventPattern = z
  .string()
  .max(100)
  .refine(
    (s) => EVENT_TYPE_RE.test(s) || WILDCARD_RE.test(s),
    "must be an event type such as consignment.created or a category wildcard such as manifest.*",
  )
  .superRefine((s, ctx) => {
    const problem = EVENT_TYPE_RE.test(s) || WILDCARD_RE.test(s) ? subscriptionProblem(s) : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const EventTypes = ok({
  event_types: z.array(
    z.object({
      type: z.string(),
      description: z.string(),
      data: z
        .record(z.string(), z.unknown())
        .openapi({ description: "JSON Schema of the event's `data` (as in the document's `webhooks` section)" }),
    }),
  ),
  categories: z.array(z.string()).openapi({ description: "What a `category.*` wildcard may name" }),
}).openapi("WebhookEventTypes");

const Endpoint = z
  .object({
    id: z.string().openapi({ example: "we_01a2012f8c5b7e7d2a9c1e4f6a8b0c2d" }),
    url: z.string().openapi({ example: "https://hooks.example.com/trade" }),
    description: z.string().nullable(),
    events: z.array(z.string()).openapi({ example: ["consignment.created", "manifest.*"] }),
    mode: z.enum(["live", "sandbox"]),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("WebhookEndpoint");
const WithSecret = Endpoint.extend({
  secret: z.string().openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
}).openapi("WebhookEndpointWithSecret");

const CreateBody = z
  .object({
    url: z.string().min(1).max(2048).openapi({ example: "https://hooks.example.com/trade" }),
    events: z
      .array(EventPattern)
      .max(50)
      .optional()
      .openapi({ description: "Exact types or `category.*`; empty or omitted = every event" }),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
const UpdateBody = CreateBody.partial().strict();
const IdParam = z.object({ id: z.string().min(1).max(100) });
const notFound = { 404: json(ErrorSchema, "No such endpoint in this workspace") };

const Attempt = z.object({
  attempt: z.number().int(),
  attempted_at: z.string(),
  http_status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable(),
});
const Delivery = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    attempts: z.array(Attempt),
  })
  .openapi("WebhookDelivery");

const routes = {
  eventTypes: createRoute({
    method: "get",
    path: "/settings/webhooks/event-types",
    tags,
    summary: "The catalogue of event types a subscription may name",
    ...scoped("settings:read"),
    responses: { 200: json(EventTypes, "Event types and wildcard categories"), ...errorResponses },
  }),
  list: createRoute({
    method: "get",
    path: "/settings/webhooks",
    tags,
    summary: "List webhook endpoints",
    ...scoped("settings:read"),
    request: { query: ListQuery },
    responses: {
      200: json(ok({ webhooks: z.array(Endpoint), has_more: z.boolean() }), "Endpoints, newest first"),
      ...errorResponses,
    },
  }),
  create: createRoute({
    method: "post",
    path: "/settings/webhooks",
    tags,
    summary: "Create a webhook endpoint (the secret is shown once)",
    ...scoped("settings:write"),
    request: { body: jsonBody(CreateBody) },
    responses: { 201: json(ok({ webhook: WithSecret }), "Created"), ...errorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/settings/webhooks/{id}",
    tags,
    summary: "Get a webhook endpoint",
    ...scoped("settings:read"),
    request: { params: IdParam },
    responses: { 200: json(ok({ webhook: Endpoint }), "The endpoint"), ...notFound, ...errorResponses },
  }),
  update: createRoute({
    method: "patch",
    path: "/settings/webhooks/{id}",
    tags,
    summary: "Update a webhook endpoint (enabling it again clears the disabled reason)",
    ...scoped("settings:write"),
    request: { params: IdParam, body: jsonBody(UpdateBody) },
    responses: { 200: json(ok({ webhook: Endpoint }), "Updated"), ...notFound, ...errorResponses },
  }),
  remove: createRoute({
    method: "delete",
    path: "/settings/webhooks/{id}",
    tags,
    summary: "Delete a webhook endpoint; its pending deliveries are failed",
    ...scoped("settings:write"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ deleted: z.literal(true), id: z.string() }), "Deleted"),
      ...notFound,
      ...errorResponses,
    },
  }),
  rotate: createRoute({
    method: "post",
    path: "/settings/webhooks/{id}/rotate-secret",
    tags,
    summary: "Rotate the signing secret; the old one keeps signing for 24 h",
    ...scoped("settings:write"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ webhook: WithSecret, previous_secret_expires_at: z.string() }), "Rotated"),
      ...notFound,
      ...errorResponses,
    },
  }),
  test: createRoute({
    method: "post",
    path: "/settings/webhooks/{id}/test",
    tags,
    summary: "Send a webhook.test event now and report the attempt",
    ...scoped("settings:write"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ delivery: Delivery }), "The attempt's outcome (delivered or failed; a test is not retried)"),
      ...notFound,
      ...errorResponses,
    },
  }),
  deliveries: createRoute({
    method: "get",
    path: "/settings/webhooks/{id}/deliveries",
    tags,
    summary: "Delivery history of an endpoint, newest first",
    ...scoped("settings:read"),
    request: { params: IdParam, query: ListQuery },
    responses: {
      200: json(ok({ deliveries: z.array(Delivery), has_more: z.boolean() }), "One page"),
      ...notFound,
      ...errorResponses,
    },
  }),
};

export const webhookRoutes = newWorkspaceRouter()
  // Before the `{id}` routes, which would otherwise take "event-types" for an id.
  .openapi(routes.eventTypes, (c) =>
    c.json(
      { success: true as const, message: "", event_types: [...EVENT_TYPES], categories: [...EVENT_CATEGORIES] },
      200,
    ),
  )
  .openapi(routes.list, async (c) => {
    const { rows, hasMore } = await listEndpoints({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", webhooks: rows.map(endpointToWire), has_more: hasMore }, 200);
  })
  .openapi(routes.create, async (c) => {
    const row = await createEndpoint({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json(
      {
        success: true as const,
        message: "Webhook endpoint created; the secret is shown only once",
        webhook: { ...endpointToWire(row), secret: row.secret },
      },
      201,
    );
  })
  .openapi(routes.get, async (c) => {
    const row = await getEndpoint({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", webhook: endpointToWire(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const row = await updateEndpoint({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "Webhook endpoint updated", webhook: endpointToWire(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteEndpoint({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "Webhook endpoint deleted", deleted: true as const, id }, 200);
  })
  .openapi(routes.rotate, async (c) => {
    const { endpoint, previousSecretExpiresAt } = await rotateSecret({
      ctx: c.get("ctx"),
      input: c.req.valid("param"),
    });
    return c.json(
      {
        success: true as const,
        message: "Secret rotated; the previous secret keeps signing until previous_secret_expires_at",
        webhook: { ...endpointToWire(endpoint), secret: endpoint.secret },
        previous_secret_expires_at: previousSecretExpiresAt,
      },
      200,
    );
  })
  .openapi(routes.test, async (c) => {
    const delivery = await sendTestEvent({ ctx: c.get("ctx"), input: c.req.valid("param") });
    const outcome = delivery.status === "delivered" ? "Test event delivered" : "Test event not delivered";
    return c.json({ success: true as const, message: outcome, delivery }, 200);
  })
  .openapi(routes.deliveries, async (c) => {
    const input = { ...c.req.valid("query"), id: c.req.valid("param").id };
    const { deliveries, hasMore } = await listEndpointDeliveries({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "", deliveries, has_more: hasMore }, 200);
  });
