/**
 * Request archive: `GET /requests`, `GET /requests/{id}`, `GET /requests/{id}/body`, served at
 * `{base_url}/api/requests` (the spec's path) and at `{api}/requests`. Scope `requests:read`; a customer-pinned
 * client sees only its customer's requests.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, newWorkspaceRouter } from "../../http/router";
import { requireScope } from "../../middleware/auth";
import { getRequest, getRequestBody, listRequests, METHODS, requestToWire, SOURCES, SURFACES } from "./service";

const tags = ["Request archive"];
// A customer-pinned client reads only its own requests (the service filters by its customer).
const guard = {
  middleware: [requireScope("requests:read")],
  security: [{ oauth2: ["requests:read"] }],
  "x-customer-pinned": "scoped" as const,
};

const RequestRow = z
  .object({
    id: z.string().openapi({ example: "01a20120-5d3c-7f1e-9a4b-2c6d8e0f1a3b" }),
    route: z.string().openapi({ example: "/admin/api/v1/consignments" }),
    path: z.string(),
    surface: z.string().openapi({ example: "admin-api" }),
    method: z.string().openapi({ example: "POST" }),
    source: z.enum(SOURCES),
    actor: z
      .string()
      .nullable()
      .openapi({ description: "client_id of the API client", example: "ci_wMlPsg4Mt8JsASxoG9PLpw" }),
    customer_id: z.number().int().nullable(),
    http_status: z.number().int(),
    outcome: z.enum(["completed", "failed"]),
    duration_ms: z.number().int(),
    has_body: z.boolean(),
    body_content_type: z.string().nullable(),
    body_size: z.number().int().nullable(),
    error_summary: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("ArchivedRequest");

const ListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    starting_after: z
      .string()
      .uuid()
      .optional()
      .openapi({ description: "Keyset cursor: a request id; the page holds older requests" }),
    path_prefix: z.string().min(1).max(500).optional().openapi({
      example: "/admin/api/v1/consignments",
      description:
        "Case-sensitive prefix of the request path (internal runs have paths such as `job:archive-retention` or `flow:...`)",
    }),
    surface: z.enum(SURFACES).optional(),
    method: z.enum(METHODS).optional(),
    outcome: z.enum(["completed", "failed"]).optional(),
    source: z
      .enum(SOURCES)
      .optional()
      .openapi({ description: "`http` for API calls; `internal` / `flow` for runs that did not come over HTTP" }),
    ref: z.string().min(1).max(200).optional().openapi({
      example: "SHP-1001",
      description:
        "An identifier extracted from archived bodies (shipment ref, tracking number, external code, declaration ref, order ref...)",
    }),
    ref_type: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ example: "shipment_ref", description: "Narrows `ref` to one identifier type" }),
  })
  .strict();

const IdParam = z.object({ id: z.string().uuid().openapi({ example: "01a20120-5d3c-7f1e-9a4b-2c6d8e0f1a3b" }) });
const notFound = { 404: json(ErrorSchema, "No such request in this workspace, or no body") };

const list = createRoute({
  method: "get",
  path: "/requests",
  tags,
  summary: "Search the request audit trail, newest first",
  ...guard,
  request: { query: ListQuery },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        message: z.string(),
        requests: z.array(RequestRow),
        has_more: z.boolean(),
        next_starting_after: z.string().nullable().openapi({
          description:
            "When has_more: the `starting_after` of the next page. Usually the last request's id; a page read from the archive's cold tier (requests older than the hot window) stops after a bounded read, so with a sparse filter the page may be short and this is the position the read reached",
        }),
      }),
      "One page of requests",
    ),
    ...errorResponses,
  },
});

const get = createRoute({
  method: "get",
  path: "/requests/{id}",
  tags,
  summary: "One request with the identifiers extracted from its body",
  ...guard,
  request: { params: IdParam },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        message: z.string(),
        request: RequestRow,
        refs: z.array(z.object({ ref_type: z.string(), ref_value: z.string() })),
      }),
      "The request",
    ),
    ...notFound,
    ...errorResponses,
  },
});

const body = createRoute({
  method: "get",
  path: "/requests/{id}/body",
  tags,
  summary: "The archived request body, byte for byte, with its original content type",
  ...guard,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The body as it was received",
      // Whatever the client sent: the archived Content-Type is answered with the bytes.
      content: { "*/*": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...notFound,
    ...errorResponses,
  },
});

export const requestRoutes = newWorkspaceRouter()
  .openapi(list, async (c) => {
    const { rows, hasMore, next } = await listRequests({ ctx: c.get("ctx"), input: c.req.valid("query") });
    const wire = { requests: rows.map(requestToWire), has_more: hasMore, next_starting_after: next };
    return c.json({ success: true as const, message: "", ...wire }, 200);
  })
  .openapi(get, async (c) => {
    const { row, refs } = await getRequest({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", request: requestToWire(row), refs }, 200);
  })
  .openapi(body, async (c) => {
    const obj = await getRequestBody({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return new Response(obj.body, {
      status: 200,
      headers: {
        "Content-Type": obj.httpMetadata?.contentType ?? "application/octet-stream",
        "Content-Length": String(obj.size),
        ETag: obj.httpEtag,
        "Cache-Control": "private, no-store",
      },
    });
  });
