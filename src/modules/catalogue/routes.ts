/**
 * `{api}/catalogue`: the workspace's products. `sku` is unique per workspace (409 on a duplicate); consignment
 * items that name a catalogue sku borrow its HS code and origin when they carry none.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, jsonBody, newWorkspaceRouter, ok, scoped } from "../../http/router";
import { CountryCode, CurrencyCode, hsCode, IntIdParam, intId, measureNumber, moneyNumber } from "../../http/schemas";
import { catalogueToWire, createItem, deleteItem, getItem, listItems, updateItem } from "./service";

const tags = ["Catalogue"];
const IdParam = IntIdParam;
const notFound = { 404: json(ErrorSchema, "No such catalogue item in this workspace") };

const Destination = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => s === "EU" || CountryCode.safeParse(s).success, "must be an ISO alpha-2 country code or EU");

const Fields = z
  .object({
    sku: z.string().trim().min(1).max(100).openapi({ example: "TSHIRT-BLK-M" }),
    title: z.string().trim().min(1).max(500).openapi({ example: "Men's cotton T-shirt, black, M" }),
    description: z.string().max(2000).nullable().optional(),
    hs_code: hsCode(6, 10)
      .nullable()
      .optional()
      .openapi({ example: "610910", description: "Default code when no destination-specific one applies" }),
    hs_codes: z
      .record(Destination, hsCode(6, 12))
      .optional()
      .openapi({
        example: { US: "6109100012", GB: "6109100010" },
        description: "National codes by destination (alpha-2 or EU)",
      }),
    country_of_origin: CountryCode.nullable().optional(),
    unit_value: moneyNumber().nullable().optional().openapi({ example: 12.5 }),
    currency: CurrencyCode.nullable().optional(),
    weight: measureNumber().nullable().optional(),
    weight_unit: z.enum(["kg", "g", "lb", "oz"]).nullable().optional(),
  })
  .strict();
const needsCurrency = (v: { unit_value?: number | null; currency?: string | null }) =>
  v.unit_value == null || v.currency != null;
const CreateBody = Fields.refine(needsCurrency, {
  message: "currency is required with unit_value",
  path: ["currency"],
});
const UpdateBody = Fields.partial().strict();

const CatalogueItem = z
  .object({
    id: z.number().int(),
    sku: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    hs_code: z.string().nullable(),
    hs_codes: z.record(z.string(), z.string()),
    country_of_origin: z.string().nullable(),
    unit_value: z.string().nullable().openapi({ description: "Exact decimal as a string", example: "12.50" }),
    currency: z.string().nullable(),
    weight: z.string().nullable(),
    weight_unit: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("CatalogueItem");

const routes = {
  list: createRoute({
    method: "get",
    path: "/catalogue",
    tags,
    summary: "List catalogue items, newest first",
    ...scoped("catalogue:read"),
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        starting_after: intId().optional(),
        sku: z.string().min(1).max(100).optional(),
      }),
    },
    responses: {
      200: json(ok({ items: z.array(CatalogueItem), has_more: z.boolean() }), "One page"),
      ...errorResponses,
    },
  }),
  create: createRoute({
    method: "post",
    path: "/catalogue",
    tags,
    summary: "Create a catalogue item",
    ...scoped("catalogue:write"),
    request: { body: jsonBody(CreateBody) },
    responses: {
      201: json(ok({ item: CatalogueItem }), "Created"),
      409: json(ErrorSchema, "sku taken"),
      ...errorResponses,
    },
  }),
  get: createRoute({
    method: "get",
    path: "/catalogue/{id}",
    tags,
    summary: "Get a catalogue item",
    ...scoped("catalogue:read"),
    request: { params: IdParam },
    responses: { 200: json(ok({ item: CatalogueItem }), "The item"), ...notFound, ...errorResponses },
  }),
  update: createRoute({
    method: "patch",
    path: "/catalogue/{id}",
    tags,
    summary: "Update a catalogue item",
    ...scoped("catalogue:write"),
    request: { params: IdParam, body: jsonBody(UpdateBody) },
    responses: {
      200: json(ok({ item: CatalogueItem }), "Updated"),
      409: json(ErrorSchema, "sku taken"),
      ...notFound,
      ...errorResponses,
    },
  }),
  remove: createRoute({
    method: "delete",
    path: "/catalogue/{id}",
    tags,
    summary: "Delete a catalogue item",
    ...scoped("catalogue:write"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ deleted: z.literal(true), id: z.number().int() }), "Deleted"),
      ...notFound,
      ...errorResponses,
    },
  }),
};

export const catalogueRoutes = newWorkspaceRouter()
  .openapi(routes.list, async (c) => {
    const { rows, hasMore } = await listItems({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", items: rows.map(catalogueToWire), has_more: hasMore }, 200);
  })
  .openapi(routes.create, async (c) => {
    const row = await createItem({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Catalogue item created", item: catalogueToWire(row) }, 201);
  })
  .openapi(routes.get, async (c) => {
    const row = await getItem({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", item: catalogueToWire(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const row = await updateItem({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "Catalogue item updated", item: catalogueToWire(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteItem({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "Catalogue item deleted", deleted: true as const, id }, 200);
  });
