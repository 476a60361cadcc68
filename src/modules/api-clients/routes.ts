/**
 * `{api}/settings/api-clients`: list and read (settings:read), create, amend, delete (settings:write).
 * What a caller may grant and which clients it may manage is the service's rule (see service.ts).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, jsonBody, ListQuery, newWorkspaceRouter, scoped } from "../../http/router";
import { ApiClientSchema, ApiClientWithSecret, CreateClientBody, UpdateClientBody } from "./schemas";
import { clientToWire, createClient, deleteClient, getClient, listClients, updateClient } from "./service";

const tags = ["Settings: API clients"];
const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ example: "apc_019a8f0c5b7e7d2a9c1e4f6a8b0c2d4e" }),
});
const notFoundResponse = { 404: json(ErrorSchema, "No such API client in this workspace") };
const refusedResponse = {
  403: json(ErrorSchema, "Missing scope, or the target client holds (or would be granted) scopes the caller lacks"),
};
const changedResponse = { 409: json(ErrorSchema, "The client's scopes changed while the request ran") };

const list = createRoute({
  method: "get",
  path: "/settings/api-clients",
  tags,
  summary: "List API clients",
  ...scoped("settings:read"),
  request: { query: ListQuery },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        message: z.string(),
        api_clients: z.array(ApiClientSchema),
        has_more: z.boolean(),
      }),
      "API clients, newest first",
    ),
    ...errorResponses,
  },
});

const create = createRoute({
  method: "post",
  path: "/settings/api-clients",
  tags,
  summary: "Create an API client",
  ...scoped("settings:write"),
  request: { body: jsonBody(CreateClientBody) },
  responses: {
    201: json(
      z.object({ success: z.literal(true), message: z.string(), api_client: ApiClientWithSecret }),
      "Created; the secret is shown once",
    ),
    422: json(ErrorSchema, "Unknown customer"),
    ...errorResponses,
    ...refusedResponse,
  },
});

const get = createRoute({
  method: "get",
  path: "/settings/api-clients/{id}",
  tags,
  summary: "Get an API client",
  ...scoped("settings:read"),
  request: { params: IdParam },
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string(), api_client: ApiClientSchema }), "The client"),
    ...notFoundResponse,
    ...errorResponses,
  },
});

const update = createRoute({
  method: "patch",
  path: "/settings/api-clients/{id}",
  tags,
  summary: "Rename an API client or amend its scopes (effective within 60 s for issued tokens)",
  ...scoped("settings:write"),
  request: {
    params: IdParam,
    body: jsonBody(UpdateClientBody),
  },
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string(), api_client: ApiClientSchema }), "Updated"),
    ...notFoundResponse,
    ...changedResponse,
    ...errorResponses,
    ...refusedResponse,
  },
});

const remove = createRoute({
  method: "delete",
  path: "/settings/api-clients/{id}",
  tags,
  summary: "Delete an API client (its tokens stop working within 60 s)",
  ...scoped("settings:write"),
  request: { params: IdParam },
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), deleted: z.literal(true), id: z.string() }),
      "Deleted",
    ),
    ...notFoundResponse,
    ...changedResponse,
    ...errorResponses,
    ...refusedResponse,
  },
});

export const apiClientRoutes = newWorkspaceRouter()
  .openapi(list, async (c) => {
    const { clients, hasMore } = await listClients({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json(
      { success: true as const, message: "", api_clients: clients.map(clientToWire), has_more: hasMore },
      200,
    );
  })
  .openapi(create, async (c) => {
    const { client, secret } = await createClient({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json(
      {
        success: true as const,
        message: "API client created; the secret is shown only once",
        api_client: { ...clientToWire(client), client_secret: secret },
      },
      201,
    );
  })
  .openapi(get, async (c) => {
    const client = await getClient({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", api_client: clientToWire(client) }, 200);
  })
  .openapi(update, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const client = await updateClient({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "API client updated", api_client: clientToWire(client) }, 200);
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteClient({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "API client deleted", deleted: true as const, id }, 200);
  });
