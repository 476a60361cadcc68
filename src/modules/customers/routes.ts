/** `{api}/customers`: create, list (keyset), get, update, delete. */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, jsonBody, newWorkspaceRouter, ok, scoped } from "../../http/router";
import { IntIdParam, intId } from "../../http/schemas";
import { unpinned } from "../../middleware/auth";
import { CustomerInput, CustomerSchema } from "./schemas";
import { createCustomer, customerToWire, deleteCustomer, getCustomer, listCustomers, updateCustomer } from "./service";

const tags = ["Customers"];
const IdParam = IntIdParam;
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
        starting_after: intId().optional().openapi({ description: "A customer id: return older customers" }),
        external_ref: z.string().min(1).max(100).optional(),
      }),
    },
    responses: {
      200: json(ok({ customers: z.array(CustomerSchema), has_more: z.boolean() }), "One page"),
      ...errorResponses,
    },
  }),
  create: createRoute({
    method: "post",
    path: "/customers",
    tags,
    summary: "Create a customer",
    ...scoped("customers:write", unpinned),
    request: { body: jsonBody(CustomerInput) },
    responses: { 201: json(ok({ customer: CustomerSchema }), "Created"), ...errorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/customers/{id}",
    tags,
    summary: "Get a customer",
    ...scoped("customers:read"),
    request: { params: IdParam },
    responses: { 200: json(ok({ customer: CustomerSchema }), "The customer"), ...notFound, ...errorResponses },
  }),
  update: createRoute({
    method: "patch",
    path: "/customers/{id}",
    tags,
    summary: "Update a customer",
    ...scoped("customers:write"),
    request: { params: IdParam, body: jsonBody(CustomerInput.partial().strict()) },
    responses: { 200: json(ok({ customer: CustomerSchema }), "Updated"), ...notFound, ...errorResponses },
  }),
  remove: createRoute({
    method: "delete",
    path: "/customers/{id}",
    tags,
    summary: "Delete a customer (refused while API clients are pinned to it)",
    ...scoped("customers:write", unpinned),
    request: { params: IdParam },
    responses: {
      200: json(ok({ deleted: z.literal(true), id: z.number().int() }), "Deleted"),
      409: json(ErrorSchema, "Still referenced"),
      ...notFound,
      ...errorResponses,
    },
  }),
};

export const customerRoutes = newWorkspaceRouter()
  .openapi(routes.list, async (c) => {
    const { rows, hasMore } = await listCustomers({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", customers: rows.map(customerToWire), has_more: hasMore }, 200);
  })
  .openapi(routes.create, async (c) => {
    const row = await createCustomer({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Customer created", customer: customerToWire(row) }, 201);
  })
  .openapi(routes.get, async (c) => {
    const row = await getCustomer({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", customer: customerToWire(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const row = await updateCustomer({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "Customer updated", customer: customerToWire(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteCustomer({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "Customer deleted", deleted: true as const, id }, 200);
  });
