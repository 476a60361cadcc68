/**
 * `{api}/settings/api-clients`: list and read (settings:read), create, amend, delete (settings:write).
 * A client can grant only scopes it holds itself, and customer-pinned clients cannot manage clients at all:
 * either would let a key widen its own reach.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createDb } from "../../db/client";
import type { Actor } from "../../core/context";
import { ErrorSchema, errorResponses, json, jsonBody, ListQuery, newRouter, scoped } from "../../http/router";
import { forbidden } from "../../lib/errors";
import type { Scope } from "../../lib/scopes";
import { ApiClientSchema, ApiClientWithSecret, CreateClientBody, ScopesSchema } from "../workspaces/schemas";
import { clientToWire, createClient, deleteClient, getClient, listClients, updateClient } from "./service";

const tags = ["Settings: API clients"];
const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ example: "apc_019a8f0c5b7e7d2a9c1e4f6a8b0c2d4e" }),
});
const notFoundResponse = { 404: json(ErrorSchema, "No such API client in this workspace") };

function assertMayGrant(auth: Actor | undefined, scopes: readonly Scope[]) {
  if (auth?.customerId != null) throw forbidden("Customer-pinned clients cannot manage API clients");
  const missing = scopes.filter((s) => !auth?.scopes.includes(s));
  if (missing.length) throw forbidden(`Cannot grant scopes this client does not hold: ${missing.join(", ")}`);
}

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
    body: jsonBody(
      z.object({ name: z.string().trim().min(1).max(200).optional(), scopes: ScopesSchema.optional() }).strict(),
    ),
  },
  responses: {
    200: json(z.object({ success: z.literal(true), message: z.string(), api_client: ApiClientSchema }), "Updated"),
    ...notFoundResponse,
    ...errorResponses,
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
    ...errorResponses,
  },
});

export const apiClientRoutes = newRouter()
  .openapi(list, async (c) => {
    const { clients, hasMore } = await listClients(
      { db: createDb(c.env.DB), deps: c.get("deps") },
      c.get("workspace")!.id,
      c.req.valid("query"),
    );
    return c.json(
      { success: true as const, message: "", api_clients: clients.map(clientToWire), has_more: hasMore },
      200,
    );
  })
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    assertMayGrant(c.get("auth"), input.scopes);
    const { client, secret } = await createClient(
      { db: createDb(c.env.DB), deps: c.get("deps") },
      c.get("workspace")!.id,
      input,
    );
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
    const client = await getClient(
      { db: createDb(c.env.DB), deps: c.get("deps") },
      c.get("workspace")!.id,
      c.req.valid("param").id,
    );
    return c.json({ success: true as const, message: "", api_client: clientToWire(client) }, 200);
  })
  .openapi(update, async (c) => {
    const input = c.req.valid("json");
    assertMayGrant(c.get("auth"), input.scopes ?? []);
    const client = await updateClient(
      { db: createDb(c.env.DB), deps: c.get("deps") },
      c.get("workspace")!.id,
      c.req.valid("param").id,
      input,
    );
    return c.json({ success: true as const, message: "API client updated", api_client: clientToWire(client) }, 200);
  })
  .openapi(remove, async (c) => {
    assertMayGrant(c.get("auth"), []);
    const { id } = c.req.valid("param");
    await deleteClient({ db: createDb(c.env.DB), deps: c.get("deps") }, c.get("workspace")!.id, id);
    return c.json({ success: true as const, message: "API client deleted", deleted: true as const, id }, 200);
  });
