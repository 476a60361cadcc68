/** `{api}/customers`: create, list (keyset), get, update, delete. */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createDb } from "../../db/client";
import type { AppEnv } from "../../env";
import { ErrorSchema, errorResponses, json, jsonBody, newRouter, ok, scoped } from "../../http/router";
import { CustomerInput, CustomerSchema } from "./schemas";
import { createCustomer, customerToWire, deleteCustomer, getCustomer, listCustomers, updateCustomer } from "./service";

const tags = ["Customers"];
const ctxOf = (c: Context<AppEnv>) => ({ db: createDb(c.env.DB), deps: c.get("deps") });
const callerOf = (c: Context<AppEnv>) => ({ workspaceId: c.get("workspace")!.id, pinnedCustomerId: c.get("auth")?.customerId ?? null });
const IdParam = z.object({ id: z.coerce.number().int().positive().openapi({ example: 42 }) });
const notFound = { 404: json(ErrorSchema, "No such customer in this workspace") };

const routes = {
  list: createRoute({
    method: "get",
    path: "/customers",
    tags,
    summary: "List customers, newest first",
    ...scoped("customers:read"),
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        starting_after: z.coerce.number().int().positive().optional().openapi({ description: "A customer id: return older customers" }),
        external_ref: z.string().min(1).max(100).optional(),
      }),
    },
    responses: { 200: json(ok({ customers: z.array(CustomerSchema), has_more: z.boolean() }), "One page"), ...errorResponses },
  }),
  create: createRoute({ method: "post", path: "/customers", tags, summary: "Create a customer", ...scoped("customers:write"), request: { body: jsonBody(CustomerInput) }, responses: { 201: json(ok({ customer: CustomerSchema }), "Created"), ...errorResponses } }),
  get: createRoute({ method: "get", path: "/customers/{id}", tags, summary: "Get a customer", ...scoped("customers:read"), request: { params: IdParam }, responses: { 200: json(ok({ customer: CustomerSchema }), "The customer"), ...notFound, ...errorResponses } }),
  update: createRoute({ method: "patch", path: "/customers/{id}", tags, summary: "Update a customer", ...scoped("customers:write"), request: { params: IdParam, body: jsonBody(CustomerInput.partial().strict()) }, responses: { 200: json(ok({ customer: CustomerSchema }), "Updated"), ...notFound, ...errorResponses } }),
  remove: createRoute({
    method: "delete",
    path: "/customers/{id}",
    tags,
    summary: "Delete a customer (refused while API clients are pinned to it)",
    ...scoped("customers:write"),
    request: { params: IdParam },
    responses: { 200: json(ok({ deleted: z.literal(true), id: z.number().int() }), "Deleted"), 409: json(ErrorSchema, "Still referenced"), ...notFound, ...errorResponses },
  }),
};

export const customerRoutes = newRouter()
  .openapi(routes.list, async (c) => {
    const { rows, hasMore } = await listCustomers(ctxOf(c), callerOf(c), c.req.valid("query"));
    return c.json({ success: true as const, message: "", customers: rows.map(customerToWire), has_more: hasMore }, 200);
  })
  .openapi(routes.create, async (c) => {
    const row = await createCustomer(ctxOf(c), callerOf(c), c.req.valid("json"));
    return c.json({ success: true as const, message: "Customer created", customer: customerToWire(row) }, 201);
  })
  .openapi(routes.get, async (c) => {
    const row = await getCustomer(ctxOf(c), callerOf(c), c.req.valid("param").id);
    return c.json({ success: true as const, message: "", customer: customerToWire(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const row = await updateCustomer(ctxOf(c), callerOf(c), c.req.valid("param").id, c.req.valid("json"));
    return c.json({ success: true as const, message: "Customer updated", customer: customerToWire(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteCustomer(ctxOf(c), callerOf(c), id);
    return c.json({ success: true as const, message: "Customer deleted", deleted: true as const, id }, 200);
  });
