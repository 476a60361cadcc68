/**
 * `{api}/manifests`: carrier manifests of consignments. Reads need consignments:read, changes
 * consignments:write. A manifest gathers consignments of every customer, so a customer-pinned client is
 * refused (403).
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
import {
  addConsignments,
  closeManifest,
  createManifest,
  getManifest,
  listManifests,
  MAX_CONSIGNMENTS,
  manifestDocument,
  removeConsignment,
} from "./service";

const tags = ["Manifests"];

const ManifestId = z
  .string()
  .regex(/^man_[0-9a-f]{32}$/)
  .openapi({ example: "man_01a20f7c7f6a7b0e93cb9277d10371ab" });
const ConsignmentId = z.string().min(1).max(100);
const ConsignmentIds = z.array(ConsignmentId).min(1).max(MAX_CONSIGNMENTS);

const ManifestSchema = z
  .object({
    id: z.string(),
    status: z.enum(["open", "closed"]),
    carrier: z.string().nullable(),
    reference: z.string().nullable(),
    consignment_ids: z
      .array(z.string())
      .optional()
      .openapi({ description: "In one manifest's answers; lists give the count only" }),
    consignment_count: z.number().int(),
    document: z
      .object({ content_type: z.string(), size: z.number().int(), sha256: z.string() })
      .nullable()
      .openapi({ description: "The manifest PDF, once closed (GET …/document)" }),
    created_at: z.string(),
    updated_at: z.string(),
    closed_at: z.string().nullable(),
  })
  .openapi("Manifest");

const one = (description: string) => json(ok({ manifest: ManifestSchema }), description);
const notFound = json(ErrorSchema, "No such manifest in this workspace");

const createRouteDef = createRoute({
  method: "post",
  path: "/manifests",
  tags,
  summary: "Create a manifest with consignments",
  ...scoped("consignments:write", unpinned),
  request: {
    body: jsonBody(
      z
        .object({
          consignment_ids: ConsignmentIds,
          carrier: z.string().trim().min(1).max(100).nullable().optional(),
          reference: z.string().trim().min(1).max(200).nullable().optional(),
        })
        .strict(),
    ),
  },
  responses: {
    201: one("Created (event `manifest.created`)"),
    409: json(ErrorSchema, "A consignment is already on another manifest"),
    422: json(ErrorSchema, "An unknown consignment id"),
    ...errorResponses,
  },
});

const listRouteDef = createRoute({
  method: "get",
  path: "/manifests",
  tags,
  summary: "Manifests, newest first",
  ...scoped("consignments:read", unpinned),
  request: { query: ListQuery.extend({ status: z.enum(["open", "closed"]).optional() }) },
  responses: {
    200: json(ok({ manifests: z.array(ManifestSchema), has_more: z.boolean() }), "One page"),
    ...errorResponses,
  },
});

const getRouteDef = createRoute({
  method: "get",
  path: "/manifests/{id}",
  tags,
  summary: "One manifest with its consignment ids",
  ...scoped("consignments:read", unpinned),
  request: { params: z.object({ id: ManifestId }) },
  responses: { 200: one("The manifest"), 404: notFound, ...errorResponses },
});

const addRouteDef = createRoute({
  method: "post",
  path: "/manifests/{id}/consignments",
  tags,
  summary: "Add consignments to an open manifest",
  ...scoped("consignments:write", unpinned),
  request: {
    params: z.object({ id: ManifestId }),
    body: jsonBody(z.object({ consignment_ids: ConsignmentIds }).strict()),
  },
  responses: {
    200: one("Added"),
    404: notFound,
    409: json(ErrorSchema, "The manifest is closed, or a consignment is on another manifest"),
    422: json(ErrorSchema, "An unknown consignment id"),
    ...errorResponses,
  },
});

const removeRouteDef = createRoute({
  method: "delete",
  path: "/manifests/{id}/consignments/{consignment_id}",
  tags,
  summary: "Remove a consignment from an open manifest",
  ...scoped("consignments:write", unpinned),
  request: { params: z.object({ id: ManifestId, consignment_id: ConsignmentId }) },
  responses: {
    200: one("Removed"),
    404: json(ErrorSchema, "No such manifest, or the consignment is not on it"),
    409: json(ErrorSchema, "The manifest is closed"),
    ...errorResponses,
  },
});

const closeRouteDef = createRoute({
  method: "post",
  path: "/manifests/{id}/close",
  tags,
  summary: "Close a manifest: its PDF is generated and its list frozen",
  ...scoped("consignments:write", unpinned),
  request: { params: z.object({ id: ManifestId }) },
  responses: {
    200: one("Closed (event `manifest.closed`)"),
    404: notFound,
    409: json(ErrorSchema, "Already closed"),
    422: json(ErrorSchema, "No consignments on it"),
    ...errorResponses,
  },
});

const documentRouteDef = createRoute({
  method: "get",
  path: "/manifests/{id}/document",
  tags,
  summary: "The closed manifest's PDF",
  ...scoped("consignments:read", unpinned),
  request: { params: z.object({ id: ManifestId }) },
  responses: {
    200: {
      description: "The PDF",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
    404: json(ErrorSchema, "No such manifest, or not closed yet"),
    ...errorResponses,
  },
});

export const manifestRoutes = newWorkspaceRouter()
  .openapi(createRouteDef, async (c) => {
    const manifest = await createManifest({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Manifest created", manifest }, 201);
  })
  .openapi(listRouteDef, async (c) => {
    const page = await listManifests({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", ...page }, 200);
  })
  .openapi(getRouteDef, async (c) => {
    const manifest = await getManifest({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", manifest }, 200);
  })
  .openapi(addRouteDef, async (c) => {
    const manifest = await addConsignments({
      ctx: c.get("ctx"),
      input: { ...c.req.valid("param"), ...c.req.valid("json") },
    });
    return c.json({ success: true as const, message: "Consignments added", manifest }, 200);
  })
  .openapi(removeRouteDef, async (c) => {
    const manifest = await removeConsignment({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "Consignment removed", manifest }, 200);
  })
  .openapi(closeRouteDef, async (c) => {
    const manifest = await closeManifest({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "Manifest closed", manifest }, 200);
  })
  .openapi(documentRouteDef, async (c) => {
    const obj = await manifestDocument({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return new Response(obj.body, {
      status: 200,
      headers: { "content-type": "application/pdf", "content-length": String(obj.size) },
    }) as never;
  });
