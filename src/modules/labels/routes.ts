/**
 * `{api}/consignments/{id}/labels`: tracking numbers and labels for every parcel of a consignment
 * (consignments:write). A customer-pinned client reaches only its own customer's consignments.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, newWorkspaceRouter, ok, scoped } from "../../http/router";
import { CARRIERS, cancelLabels, issueLabels } from "./service";

const tags = ["Consignments: labels"];
const Id = z.string().min(1).max(100);

const LabelsSchema = z
  .object({
    carrier: z.string(),
    service: z.string(),
    document: z.object({ id: z.string(), content_type: z.string(), size: z.number().int() }).openapi({
      description: "The labels (one 4 × 6 in page per parcel), under GET /consignments/{id}/documents",
    }),
    parcels: z.array(z.object({ parcel_id: z.string(), tracking_number: z.string() })),
  })
  .openapi("ConsignmentLabels");

const issueRoute = createRoute({
  method: "post",
  path: "/consignments/{id}/labels",
  tags,
  summary: "Issue tracking numbers and labels for every parcel",
  description:
    "The carrier is the request's `carrier`, else the consignment's `carrier.code`, else `postal` (UPU S10 numbers from " +
    "the workspace's serial range, issued by the sender's country; labels drawn here). An unknown carrier or service is 422; " +
    "a consignment that already has labels is 409 (cancel them first).",
  ...scoped("consignments:write"),
  request: {
    params: z.object({ id: Id }),
    body: {
      required: false,
      content: {
        "application/json": {
          schema: z
            .object({
              carrier: z.string().min(1).max(50).optional().openapi({ example: "postal" }),
              service: z
                .string()
                .regex(/^[A-Z]{2}$/)
                .optional()
                .openapi({ example: "CP" }),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    201: json(ok({ labels: LabelsSchema }), `Issued (carriers: ${CARRIERS.join(", ")})`),
    404: json(ErrorSchema, "No such consignment"),
    409: json(ErrorSchema, "Labels already issued"),
    422: json(ErrorSchema, "Unknown carrier or service, or no parcels"),
    ...errorResponses,
  },
});

const cancelRoute = createRoute({
  method: "delete",
  path: "/consignments/{id}/labels",
  tags,
  summary: "Cancel the consignment's labels (the carrier voids the numbers)",
  ...scoped("consignments:write"),
  request: { params: z.object({ id: Id }) },
  responses: {
    200: json(ok({ cancelled: z.array(z.string()) }), "Cancelled"),
    404: json(ErrorSchema, "No such consignment"),
    409: json(ErrorSchema, "No labels to cancel"),
    ...errorResponses,
  },
});

export const labelRoutes = newWorkspaceRouter()
  .openapi(issueRoute, async (c) => {
    const body = c.req.valid("json") ?? {};
    const labels = await issueLabels({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, ...body } });
    return c.json({ success: true as const, message: `${labels.parcels.length} label(s) issued`, labels }, 201);
  })
  .openapi(cancelRoute, async (c) => {
    const out = await cancelLabels({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "Labels cancelled", ...out }, 200);
  });
