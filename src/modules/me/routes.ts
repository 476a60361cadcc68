/** `GET {api}/me`: who the token is, where, and what it may do. No scope needed beyond a valid token. */
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { createDb } from "../../db/client";
import { customers } from "../../db/schema/index";
import { errorResponses, json, newRouter } from "../../http/router";
import { WorkspaceSchema } from "../workspaces/schemas";
import { workspaceToWire } from "../workspaces/service";

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

export const meRoutes = newRouter().openapi(me, async (c) => {
  const ws = c.get("workspace")!;
  const auth = c.get("auth")!;
  let customer: { id: number; name: string } | null = null;
  if (auth.customerId != null) {
    const rows = await createDb(c.env.DB)
      .select({ id: customers.id, name: customers.name })
      .from(customers)
      .where(and(eq(customers.id, auth.customerId), eq(customers.workspaceId, ws.id)))
      .limit(1);
    customer = rows[0] ?? null;
  }
  return c.json(
    {
      success: true as const,
      message: "",
      workspace: workspaceToWire(ws),
      api_client: { id: auth.clientRowId, client_id: auth.clientId, name: auth.clientName },
      scopes: auth.scopes,
      customer,
      mode: ws.mode,
    },
    200,
  );
});
