/** `GET {api}/me`: who the token is, where, and what it may do. No scope needed beyond a valid token. */
import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, json, newWorkspaceRouter } from "../../http/router";
import { WorkspaceSchema } from "../workspaces/schemas";
import { workspaceToWire } from "../workspaces/service";
import { describeCaller } from "./service";

const MeResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    workspace: WorkspaceSchema,
    api_client: z.object({ id: z.string(), client_id: z.string(), name: z.string() }),
    scopes: z.array(z.string()),
    customer: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    mode: z.enum(["live", "sandbox"]),
  })
  .openapi("Me");

const me = createRoute({
  method: "get",
  path: "/me",
  tags: ["Account"],
  summary: "The caller: workspace, API client, scopes, pinned customer and mode",
  security: [{ oauth2: [] }],
  responses: { 200: json(MeResponse, "The caller"), ...errorResponses },
});

export const meRoutes = newWorkspaceRouter().openapi(me, async (c) => {
  const { workspace, actor, customer } = await describeCaller({ ctx: c.get("ctx"), input: {} });
  return c.json(
    {
      success: true as const,
      message: "",
      workspace: workspaceToWire(workspace),
      api_client: { id: actor.clientRowId, client_id: actor.clientId, name: actor.clientName },
      scopes: actor.scopes,
      customer,
      mode: workspace.mode,
    },
    200,
  );
});
