/**
 * `{api}/consignments`: create (201 `{success, data}`), list, retrieve (the consignment object directly),
 * delete (`{deleted, id}`): the spec's own departures from the envelope. Every create rejection, schema or
 * rule, is a 422 with `{success: false, message, errors, validation_errors}`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createDb } from "../../db/client";
import type { AppEnv } from "../../env";
import { ErrorSchema, errorResponses, json, newRouter, scoped } from "../../http/router";
import { IsoDate } from "../../http/schemas";
import { rateLimit } from "../../middleware/rate-limit";
import { enqueue } from "../webhooks/service";
import { consignmentOut, createdTree, retrievalTree } from "./output";
import { ConsignmentInput } from "./schemas";
import { createConsignment, createRejected, customersById, deleteConsignment, listConsignments, loadConsignment } from "./service";

const tags = ["Consignments"];
const ctxOf = (c: Context<AppEnv>) => ({ db: createDb(c.env.DB), deps: c.var.deps });
const pinned = (c: Context<AppEnv>) => c.var.auth?.customerId ?? null;
const IdParam = z.object({ id: z.string().min(1).max(100).openapi({ example: "con_01a2011f8c5b7e7d2a9c1e4f6a8b0c2d" }) });
const Rejected = z
  .object({ success: z.literal(false), message: z.string(), errors: z.array(z.string()), validation_errors: z.array(z.object({ message: z.string() })) })
  .openapi("ConsignmentRejected");
const notFound = { 404: json(ErrorSchema, "No such consignment in this workspace") };

const create = createRoute({
  method: "post",
  path: "/consignments",
  tags,
  summary: "Create a consignment",
  ...scoped("consignments:write", rateLimit("consignment_create")),
  request: { body: { required: true, content: { "application/json": { schema: ConsignmentInput } } } },
  responses: {
    201: json(z.object({ success: z.literal(true), data: z.record(z.string(), z.unknown()) }), "Created: data.consignment, data.parcels, data.orders, data.documents, data.validation_warnings"),
    422: json(Rejected, "Rejected"),
    ...errorResponses,
  },
});

const list = createRoute({
  method: "get",
  path: "/consignments",
  tags,
  summary: "List consignments, newest first",
  ...scoped("consignments:read"),
  request: {
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        starting_after: z.string().min(1).max(100).optional().openapi({ description: "A consignment id: return older consignments" }),
        shipment_ref: z.string().min(1).max(100).optional(),
        external_code: z.string().min(1).max(100).optional(),
        status: z.string().min(1).max(50).optional(),
        customer_id: z.coerce.number().int().positive().optional(),
        created_after: IsoDate.optional().openapi({ description: "On or after this day (UTC)" }),
        created_before: IsoDate.optional().openapi({ description: "Before the end of this day (UTC)" }),
      })
      .strict(),
  },
  responses: { 200: json(z.object({ success: z.literal(true), message: z.string(), consignments: z.array(z.record(z.string(), z.unknown())), has_more: z.boolean() }), "One page"), ...errorResponses },
});

const get = createRoute({
  method: "get",
  path: "/consignments/{id}",
  tags,
  summary: "Retrieve a consignment (the object itself, no envelope)",
  ...scoped("consignments:read"),
  request: { params: IdParam },
  responses: { 200: json(z.record(z.string(), z.unknown()).openapi("Consignment"), "The consignment"), ...notFound, ...errorResponses },
});

const remove = createRoute({
  method: "delete",
  path: "/consignments/{id}",
  tags,
  summary: "Delete a consignment permanently",
  ...scoped("consignments:write"),
  request: { params: IdParam },
  responses: { 200: json(z.object({ deleted: z.literal(true), id: z.string() }), "Deleted"), ...notFound, ...errorResponses },
});

export const consignmentRoutes = newRouter()
  .openapi(
    create,
    async (c) => {
      const ws = c.var.workspace!;
      const ctx = ctxOf(c);
      const { tree, customer, deliveryIds, warnings } = await createConsignment(ctx, ws, c.req.valid("json"), { pinnedCustomerId: pinned(c), requestId: c.var.requestId });
      // Committed: hand the new deliveries to the queue now (the cron sweep catches any this misses).
      if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
      const { parcels, orders } = createdTree(tree);
      const data = { consignment: consignmentOut(tree.consignment, customer), parcels, orders, documents: [], ...(warnings.length ? { validation_warnings: warnings } : {}) };
      return c.json({ success: true as const, data }, 201);
    },
    // Schema failures on create are part of the same 422 contract as the rule failures.
    ((result: { success: boolean; error?: { issues: z.core.$ZodIssue[] } }) => {
      if (result.success) return;
      const issues = result.error!.issues.map((i) => {
        const path = i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "");
        if (i.code === "unrecognized_keys" && i.path.length === 0 && (i as { keys?: string[] }).keys?.includes("items")) {
          return "items: top-level items are not accepted; put items in parcels[].items (linked by order_ref) or in parcels[].orders[].items";
        }
        return `${path || "body"}: ${i.message}`;
      });
      throw createRejected(issues);
    }) as never,
  )
  .openapi(list, async (c) => {
    const ws = c.var.workspace!;
    const ctx = ctxOf(c);
    const { rows, hasMore } = await listConsignments(ctx, ws.id, c.req.valid("query"), pinned(c));
    const names = await customersById(ctx, ws.id, rows.map((r) => r.customerId).filter((x): x is number => x !== null));
    return c.json({ success: true as const, message: "", consignments: rows.map((r) => consignmentOut(r, r.customerId !== null ? (names.get(r.customerId) ?? null) : null)), has_more: hasMore }, 200);
  })
  .openapi(get, async (c) => {
    const t = await loadConsignment(ctxOf(c), c.var.workspace!.id, c.req.valid("param").id, pinned(c));
    return c.json({ ...consignmentOut(t.consignment, t.customer), parcels: retrievalTree(t) }, 200);
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteConsignment(ctxOf(c), c.var.workspace!.id, id, pinned(c));
    return c.json({ deleted: true as const, id }, 200);
  });
