/** Operator provisioning API on the bare host (DESIGN §4), behind PLATFORM_ADMIN_TOKEN. */
import { createRoute, z } from "@hono/zod-openapi";
import { baseContext } from "../../core/context";
import { limitsToWire } from "../../engines/rate-limit/buckets";
import { ErrorSchema, json, jsonBody, newRouter } from "../../http/router";
import { ApiClientWithSecret, CreateClientBody } from "../api-clients/schemas";
import { clientToWire } from "../api-clients/service";
import { CreateWorkspaceBody, SlugSchema, UpdateWorkspaceBody, WorkspaceSchema } from "./schemas";
import { createWorkspace, createWorkspaceClient, updateWorkspace, workspaceToWire } from "./service";

const security = [{ platformAdmin: [] }];
const errors = {
  400: json(ErrorSchema, "Invalid request"),
  401: json(ErrorSchema, "Missing or wrong platform token"),
  404: json(ErrorSchema, "Unknown workspace or organization"),
};

const createWorkspaceRoute = createRoute({
  method: "post",
  path: "/workspaces",
  tags: ["Platform"],
  summary: "Provision a workspace",
  security,
  request: { body: jsonBody(CreateWorkspaceBody) },
  responses: {
    201: json(z.object({ success: z.literal(true), message: z.string(), workspace: WorkspaceSchema }), "Created"),
    409: json(ErrorSchema, "Slug taken"),
    ...errors,
  },
});

const createClientRoute = createRoute({
  method: "post",
  path: "/workspaces/{slug}/api-clients",
  tags: ["Platform"],
  summary: "Create an API client in a workspace",
  security,
  request: { params: z.object({ slug: SlugSchema }), body: jsonBody(CreateClientBody) },
  responses: {
    201: json(z.object({ success: z.literal(true), message: z.string(), api_client: ApiClientWithSecret }), "Created"),
    422: json(ErrorSchema, "Unknown customer"),
    ...errors,
  },
});

const updateWorkspaceRoute = createRoute({
  method: "patch",
  path: "/workspaces/{slug}",
  tags: ["Platform"],
  summary: "Rename a workspace or override its organization's rate limits",
  security,
  request: { params: z.object({ slug: SlugSchema }), body: jsonBody(UpdateWorkspaceBody) },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        message: z.string(),
        workspace: WorkspaceSchema.extend({
          rate_limits: z.record(z.string(), z.object({ limit: z.number(), window_seconds: z.number() })),
          archive_retention_days: z.number().int(),
        }),
      }),
      "Updated",
    ),
    ...errors,
  },
});

export const platformRoutes = newRouter()
  .openapi(createWorkspaceRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    const ws = await createWorkspace({ ctx, input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Workspace created", workspace: workspaceToWire(ws) }, 201);
  })
  .openapi(createClientRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    const input = { slug: c.req.valid("param").slug, client: c.req.valid("json") };
    const { client, secret } = await createWorkspaceClient({ ctx, input });
    return c.json(
      {
        success: true as const,
        message: "API client created; the secret is shown only once",
        api_client: { ...clientToWire(client), client_secret: secret },
      },
      201,
    );
  })
  .openapi(updateWorkspaceRoute, async (c) => {
    const ctx = baseContext(c.env, c.get("deps"));
    const ws = await updateWorkspace({ ctx, input: { slug: c.req.valid("param").slug, patch: c.req.valid("json") } });
    return c.json(
      {
        success: true as const,
        message: "Workspace updated",
        workspace: {
          ...workspaceToWire(ws),
          rate_limits: limitsToWire(ws.limits),
          archive_retention_days: ws.archiveRetentionDays,
        },
      },
      200,
    );
  });
