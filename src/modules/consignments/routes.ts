/**
 * `{api}/consignments`: create (201 `{success, data}`), list, retrieve (the consignment object directly),
 * delete (`{deleted, id}`): the spec's own departures from the envelope. Every create rejection, schema or
 * rule, is a 422 with `{success: false, message, errors, validation_errors}`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { WorkspaceEnv } from "../../env";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  ListQuery,
  newWorkspaceRouter,
  ok,
  scoped,
  scopedWrite,
  zodIssuesToFieldErrors,
} from "../../http/router";
import { IsoDate, intId } from "../../http/schemas";
import { validationFailed } from "../../lib/errors";
import { rateLimit } from "../../middleware/rate-limit";
import { documentToWire, holdToWire, preAlertToWire } from "../consignment-records/wire";
import { enqueueRuns } from "../flows/runs";
import { enqueue } from "../webhooks/service";
import { amendConsignment, etagOf } from "./amend";
import { ConsignmentPatch } from "./amend-schema";
import { createConsignment } from "./create";
import { generateDocument } from "./documents";
import { ConsignmentRejected, schemaProblems } from "./errors";
import { consignmentOut, createdTree } from "./output";
import {
  documentContent,
  eventToWire,
  listDocuments,
  listEvents,
  listHolds,
  listPreAlerts,
  placeHold,
  releaseHold,
  timeline,
} from "./related";
import { ConsignmentInput } from "./schemas";
import { deleteConsignment, getConsignmentJson, listConsignments } from "./service";
import { AmendedData, ConsignmentHead, ConsignmentRetrieval, createdData } from "./wire-schemas";

const tags = ["Consignments"];
const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ example: "con_01a2011f8c5b7e7d2a9c1e4f6a8b0c2d" }),
});
const Rejected = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.string().openapi({ example: "unprocessable" }),
    request_id: z.string(),
    errors: z.array(z.string()),
    validation_errors: z.array(z.object({ message: z.string() })),
  })
  .openapi("ConsignmentRejected");
const notFound = { 404: json(ErrorSchema, "No such consignment in this workspace") };

const DocumentSchema = z
  .object({
    id: z.string(),
    type: z.string().openapi({ example: "commercial_invoice" }),
    content_type: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    invoice_number: z.string().optional(),
    totals: z.record(z.string(), z.string()).optional(),
    carrier: z.string().optional().openapi({ description: "Labels: the carrier that issued them" }),
    service: z.string().optional().openapi({ description: "Labels: the carrier's service" }),
    tracking_numbers: z
      .array(z.string())
      .optional()
      .openapi({ description: "Labels: one per parcel, in parcel order" }),
    form: z.enum(["CN22", "CN23"]).optional().openapi({ description: "Customs declarations: the UPU form" }),
    form_rule: z.enum(["requested", "value_within_300_sdr", "default_cn23"]).optional().openapi({
      description:
        "Customs declarations: what chose the form (asked for, shown within 300 SDR, or the CN 23 by default)",
    }),
    form_reason: z.string().optional(),
    categories: z.array(z.string()).optional().openapi({ description: "Customs declarations: the ticked boxes" }),
    category_codes: z
      .array(z.string())
      .optional()
      .openapi({ description: "Customs declarations: the boxes as UPU code list 136 codes" }),
    flow_id: z.number().int().nullable(),
    download_path: z.string().openapi({ description: "GET it under {api} for the document itself" }),
    created_at: z.string(),
  })
  .openapi("Document");

const create = createRoute({
  method: "post",
  path: "/consignments",
  tags,
  summary: "Create a consignment",
  ...scopedWrite("consignments:write", rateLimit("consignment_create")),
  request: { body: { required: true, content: { "application/json": { schema: ConsignmentInput } } } },
  responses: {
    201: json(
      z.object({ success: z.literal(true), data: createdData(DocumentSchema) }),
      "Created: data.consignment, data.parcels, data.orders, data.documents (made by inline flow actions), data.validation_warnings (when warning rules matched), data.flows (inline flow actions and their results, when any ran)",
    ),
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
        starting_after: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .openapi({ description: "A consignment id: return older consignments" }),
        shipment_ref: z.string().min(1).max(100).optional(),
        external_code: z.string().min(1).max(100).optional(),
        status: z.string().min(1).max(50).optional(),
        customer_id: intId().optional(),
        created_after: IsoDate.optional().openapi({ description: "On or after this day (UTC)" }),
        created_before: IsoDate.optional().openapi({ description: "Before the end of this day (UTC)" }),
      })
      .strict(),
  },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        message: z.string(),
        consignments: z.array(ConsignmentHead),
        has_more: z.boolean(),
      }),
      "One page",
    ),
    ...errorResponses,
  },
});

const get = createRoute({
  method: "get",
  path: "/consignments/{id}",
  tags,
  summary: "Retrieve a consignment (the object itself, no envelope)",
  ...scoped("consignments:read"),
  request: { params: IdParam },
  responses: {
    200: json(ConsignmentRetrieval, "The consignment"),
    ...notFound,
    ...errorResponses,
  },
});

const remove = createRoute({
  method: "delete",
  path: "/consignments/{id}",
  tags,
  summary: "Delete a consignment permanently",
  description:
    "Removes the consignment and everything under it. Refused with 409 when a workspace delete guard applies (setting `consignments.delete_guards`: active holds by default, optionally stored assessments); the refusal is recorded as a `deletion.refused` event.",
  ...scoped("consignments:write"),
  request: { params: IdParam },
  responses: {
    200: json(z.object({ deleted: z.literal(true), id: z.string() }), "Deleted"),
    ...notFound,
    409: json(ErrorSchema, "Refused by a delete guard"),
    ...errorResponses,
  },
});

const amend = createRoute({
  method: "patch",
  path: "/consignments/{id}",
  tags,
  summary: "Amend a consignment",
  description:
    "Changes what a create set (references, parties, parcels with their weights and dimensions, items with their HS codes, origins and values; parcels and items added or removed) as a JSON merge patch of the create body, described with the body schema. The amended consignment is validated exactly as a create (schema, structure and the workspace's validation rules: 422 in the create's body, nothing changed). Refused with 409 while labels are issued (cancel them first), when the consignment is on a closed manifest, or when another request changed it meanwhile. Parcels, orders and items that stay keep their ids. Answers 200 with `{success, data}`: the amended consignment in the create's shape and `data.changed_fields`; records a `consignment.updated` event (timeline) and webhook. A patch that changes nothing writes nothing and answers the consignment as it is. With `If-Match` (the consignment's `updated_at` as an entity tag, or the `ETag` a previous amend answered) the amend applies only to that version, otherwise 412.",
  ...scopedWrite("consignments:write"),
  request: {
    params: IdParam,
    headers: z.object({
      "if-match": z.string().max(1000).optional().openapi({
        description:
          "Amend only this version: the consignment's `updated_at` as an entity tag (`\"2026-11-27T10:00:00.000Z\"`), as GET shows it or this operation's `ETag` answered; 412 when it changed since",
      }),
    }),
    body: { required: true, content: { "application/json": { schema: ConsignmentPatch } } },
  },
  responses: {
    200: {
      ...json(z.object({ success: z.literal(true), data: AmendedData }), "Amended"),
      headers: {
        ETag: { description: "The amended consignment's version, for the next If-Match", schema: { type: "string" } },
      },
    },
    ...notFound,
    409: json(ErrorSchema, "Labels issued, on a closed manifest, or changed meanwhile (the message says which)"),
    412: json(ErrorSchema, "If-Match names a version the consignment is no longer at"),
    422: json(Rejected, "Rejected"),
    ...errorResponses,
  },
});

// ---- sub-resources ---------------------------------------------------------------------------------------

const HoldSchema = z
  .object({
    id: z.string(),
    code: z.string().nullable(),
    reason: z.string(),
    status: z.enum(["active", "released"]),
    source: z.string().openapi({
      description:
        "`api` (placed by hand), `flow` (a flow's `place_hold`), `compliance` (a compliance check) or `screening` (ongoing screening)",
    }),
    flow_id: z.number().int().nullable(),
    placed_at: z.string(),
    released_at: z.string().nullable(),
    release_reason: z.string().nullable(),
  })
  .openapi("Hold");

const PreAlertSchema = z
  .object({
    id: z.string(),
    recipient: z.string(),
    channel: z.string(),
    event_id: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()),
    flow_id: z.number().int().nullable(),
    created_at: z.string(),
  })
  .openapi("PreAlert");
const EventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    data: z.record(z.string(), z.unknown()),
    request_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("ConsignmentEvent");
const TimelineSchema = z
  .object({
    at: z.string(),
    event_id: z.string(),
    type: z.string(),
    title: z.string(),
    detail: z.string().nullable(),
    actor: z.string(),
  })
  .openapi("TimelineEntry");
const HoldParams = IdParam.extend({ hold_id: z.string().min(1).max(100) });
const DocParams = IdParam.extend({ document_id: z.string().min(1).max(100) });
const EventsQuery = ListQuery.extend({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  starting_after: z.string().min(1).max(100).optional().openapi({ description: "An event id: return later events" }),
});

const declarationText = z.string().trim().min(1).max(1000).optional();
const GenerateDocumentBody = z
  .discriminatedUnion("type", [
    z
      .object({
        type: z.literal("customs_declaration"),
        form: z.enum(["CN22", "CN23"]).optional(),
        declaration: declarationText,
      })
      .strict(),
    z
      .object({
        type: z.literal("commercial_invoice"),
        format: z.enum(["pdf", "html"]).default("pdf"),
        declaration: declarationText,
      })
      .strict(),
  ])
  .openapi({ example: { type: "customs_declaration", form: "CN23" } });

const sub = {
  holds: createRoute({
    method: "get",
    path: "/consignments/{id}/holds",
    tags,
    summary: "Holds on a consignment, active and released",
    ...scoped("consignments:read"),
    request: { params: IdParam, query: z.object({ status: z.enum(["active", "released"]).optional() }).strict() },
    responses: { 200: json(ok({ holds: z.array(HoldSchema) }), "Holds, oldest first"), ...notFound, ...errorResponses },
  }),
  placeHold: createRoute({
    method: "post",
    path: "/consignments/{id}/holds",
    tags,
    summary: "Place a hold on a consignment",
    description:
      "A hold stops the consignment from being deleted (with the default delete guards) until it is released.",
    ...scoped("consignments:write"),
    request: {
      params: IdParam,
      body: jsonBody(
        z
          .object({ reason: z.string().trim().min(1).max(500), code: z.string().trim().min(1).max(50).optional() })
          .strict()
          .openapi({ example: { reason: "Awaiting export licence", code: "LICENCE" } }),
      ),
    },
    responses: { 201: json(ok({ hold: HoldSchema }), "Placed"), ...notFound, ...errorResponses },
  }),
  releaseHold: createRoute({
    method: "post",
    path: "/consignments/{id}/holds/{hold_id}/release",
    tags,
    summary: "Release an active hold",
    description:
      "The release is recorded with its reason (event `hold.released`, webhook `hold.released`). A hold placed by a compliance check or by ongoing screening needs a `reason` (422 without).",
    ...scoped("consignments:write"),
    request: {
      params: HoldParams,
      body: {
        required: false,
        content: {
          "application/json": { schema: z.object({ reason: z.string().trim().min(1).max(500).optional() }).strict() },
        },
      },
    },
    responses: {
      200: json(ok({ hold: HoldSchema }), "Released"),
      ...notFound,
      409: json(ErrorSchema, "Already released"),
      422: json(ErrorSchema, "A compliance or screening hold released without a reason"),
      ...errorResponses,
    },
  }),
  documents: createRoute({
    method: "get",
    path: "/consignments/{id}/documents",
    tags,
    summary: "Generated trade documents",
    ...scoped("consignments:read"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ documents: z.array(DocumentSchema) }), "Documents, oldest first"),
      ...notFound,
      ...errorResponses,
    },
  }),
  generateDocument: createRoute({
    method: "post",
    path: "/consignments/{id}/documents",
    tags,
    summary: "Make a customs declaration (UPU CN 22 / CN 23) or a commercial invoice",
    description:
      "`customs_declaration`: a PDF CN 22 or CN 23 from the items (description, HS code, origin, quantity, net weight, value, " +
      "`nature_type` as a UPU code list 136 code or word); the CN 23 unless `form` asks otherwise or the value is declared in SDR " +
      "(XDR) within 300 SDR. `commercial_invoice`: A4 PDF (default) or HTML. 422 with `errors` when the data cannot make it.",
    ...scoped("consignments:write"),
    request: { params: IdParam, body: jsonBody(GenerateDocumentBody) },
    responses: {
      201: json(ok({ document: DocumentSchema }), "Made, stored and listed under the consignment's documents"),
      ...notFound,
      422: json(ErrorSchema, "The consignment's data cannot make the document (`errors` lists why)"),
      ...errorResponses,
    },
  }),
  documentContent: createRoute({
    method: "get",
    path: "/consignments/{id}/documents/{document_id}/content",
    tags,
    summary: "One generated document itself (a printable HTML page or a PDF)",
    ...scoped("consignments:read"),
    request: { params: DocParams },
    responses: {
      200: {
        description: "The document, with the content type it was stored with",
        content: {
          "text/html": { schema: z.string() },
          "application/pdf": { schema: z.string().openapi({ format: "binary" }) },
        },
      },
      ...notFound,
      ...errorResponses,
    },
  }),
  preAlerts: createRoute({
    method: "get",
    path: "/consignments/{id}/pre-alerts",
    tags,
    summary: "Pre-alerts sent for a consignment",
    ...scoped("consignments:read"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ pre_alerts: z.array(PreAlertSchema) }), "Pre-alerts, oldest first"),
      ...notFound,
      ...errorResponses,
    },
  }),
  preAlertsAlias: createRoute({
    method: "get",
    path: "/consignments/{id}/pre/alerts",
    // Its generated id would equal the /pre-alerts listing's: this one is named as the alias it is.
    operationId: "getConsignmentsByIdPreAlertsAlias",
    tags,
    summary: "Pre-alerts sent for a consignment (same listing as /pre-alerts)",
    ...scoped("consignments:read"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ pre_alerts: z.array(PreAlertSchema) }), "Pre-alerts, oldest first"),
      ...notFound,
      ...errorResponses,
    },
  }),
  events: createRoute({
    method: "get",
    path: "/consignments/{id}/events",
    tags,
    summary: "Raw consignment events, oldest first",
    description:
      "Types: consignment.created, consignment.updated, tags.added, hold.placed, hold.released, document.generated, pre_alert.sent, flow.action_failed, assessment.created, deletion.refused.",
    ...scoped("consignments:read"),
    request: { params: IdParam, query: EventsQuery },
    responses: {
      200: json(ok({ events: z.array(EventSchema), has_more: z.boolean() }), "Events"),
      ...notFound,
      ...errorResponses,
    },
  }),
  timeline: createRoute({
    method: "get",
    path: "/consignments/{id}/timeline",
    tags,
    summary: "Human-readable timeline of a consignment",
    ...scoped("consignments:read"),
    request: { params: IdParam, query: EventsQuery },
    responses: {
      200: json(ok({ timeline: z.array(TimelineSchema), has_more: z.boolean() }), "Timeline, oldest first"),
      ...notFound,
      ...errorResponses,
    },
  }),
};

/**
 * JSON text serialized by the verb (the stored retrieval snapshot spliced in), answered as it is under the type
 * of the route's documented 200: typed c.json would parse and re-serialize tens of kilobytes.
 */
const prebuiltJson = (text: string) =>
  // The route's typed response cannot be named for a body that is already text (its kept-as-sent fields are
  // `unknown`, not JSON values, to the type checker); the contract test checks the body against the schema.
  new Response(text, { status: 200, headers: { "content-type": "application/json" } }) as never;

/** One listing served at both paths the spec names. */
async function preAlertsHandler(
  c: Context<WorkspaceEnv, "/consignments/:id/pre-alerts" | "/consignments/:id/pre/alerts">,
) {
  const rows = await listPreAlerts({ ctx: c.get("ctx"), input: { id: c.req.param("id") } });
  return c.json({ success: true as const, message: "", pre_alerts: rows.map(preAlertToWire) }, 200);
}

export const consignmentRoutes = newWorkspaceRouter()
  .openapi(
    create,
    async (c) => {
      const ctx = c.get("ctx");
      const gate = c.get("archiveGate");
      if (!gate) throw new Error("consignment create must run behind scopedWrite, which sets the archive gate");
      const { tree, customer, deliveryIds, runIds, warnings, documents, labels, flowsRan } = await createConsignment({
        ctx,
        input: { consignment: c.req.valid("json"), beforeCommit: gate },
      });
      // Committed: hand the new deliveries and flow runs to their queues now (the cron sweep catches any this misses).
      if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
      if (runIds.length) c.executionCtx.waitUntil(enqueueRuns(c.env.FLOWS, runIds));
      const { parcels, orders } = createdTree(tree);
      // An inline label action put a tracking number on every parcel (the caller's own `barcode` stays).
      const tracking = new Map(labels.map((l) => [l.parcelId, l.trackingNumber]));
      const data = {
        consignment: consignmentOut(tree.consignment, customer),
        parcels: parcels.map((p) => {
          const number = tracking.get(p.id);
          return number ? { ...p, tracking_number: number } : p;
        }),
        orders,
        documents: documents.map(documentToWire),
        ...(warnings.length ? { validation_warnings: warnings } : {}),
        ...(flowsRan.length ? { flows: flowsRan } : {}),
      };
      return c.json({ success: true as const, data }, 201);
    },
    (result) => {
      if (!result.success) throw new ConsignmentRejected(schemaProblems(result.error.issues));
      return undefined;
    },
  )
  .openapi(list, async (c) => {
    const { rows, hasMore } = await listConsignments({ ctx: c.get("ctx"), input: c.req.valid("query") });
    const consignments = rows.map((r) => consignmentOut(r.consignment, r.customer));
    return c.json({ success: true as const, message: "", consignments, has_more: hasMore }, 200);
  })
  .openapi(get, async (c) => {
    const body = await getConsignmentJson({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return prebuiltJson(body);
  })
  .openapi(
    amend,
    async (c) => {
      const ctx = c.get("ctx");
      const gate = c.get("archiveGate");
      if (!gate) throw new Error("consignment amend must run behind scopedWrite, which sets the archive gate");
      const { id } = c.req.valid("param");
      const patch = c.req.valid("json");
      const ifMatch = c.req.valid("header")["if-match"];
      const { tree, customer, warnings, changes, deliveryIds } = await amendConsignment({
        ctx,
        input: { id, patch, ifMatch, beforeCommit: gate },
      });
      if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
      const { parcels, orders } = createdTree(tree);
      const data = {
        consignment: consignmentOut(tree.consignment, customer),
        parcels,
        orders,
        changed_fields: changes.changed,
        ...(warnings.length ? { validation_warnings: warnings } : {}),
      };
      c.header("ETag", etagOf(tree.consignment.updatedAt));
      return c.json({ success: true as const, data }, 200);
    },
    // Schema failures of the patch are the same 422 as the amended consignment's own problems; a bad id is a 400.
    (result) => {
      if (result.success) return undefined;
      if (result.target === "json") throw new ConsignmentRejected(schemaProblems(result.error.issues));
      throw validationFailed(zodIssuesToFieldErrors(result.error.issues, result.target));
    },
  )
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteConsignment({ ctx: c.get("ctx"), input: { id } });
    return c.json({ deleted: true as const, id }, 200);
  })
  .openapi(sub.holds, async (c) => {
    const input = { id: c.req.valid("param").id, status: c.req.valid("query").status };
    const rows = await listHolds({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "", holds: rows.map(holdToWire) }, 200);
  })
  .openapi(sub.placeHold, async (c) => {
    const input = { id: c.req.valid("param").id, ...c.req.valid("json") };
    const { hold, deliveryIds } = await placeHold({ ctx: c.get("ctx"), input });
    if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
    return c.json({ success: true as const, message: "Hold placed", hold: holdToWire(hold) }, 201);
  })
  .openapi(sub.releaseHold, async (c) => {
    const { id, hold_id } = c.req.valid("param");
    const body: { reason?: string | undefined } = c.req.valid("json") ?? {};
    const { hold, deliveryIds } = await releaseHold({
      ctx: c.get("ctx"),
      input: { id, holdId: hold_id, reason: body.reason },
    });
    if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
    return c.json({ success: true as const, message: "Hold released", hold: holdToWire(hold) }, 200);
  })
  .openapi(sub.documents, async (c) => {
    const rows = await listDocuments({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", documents: rows.map(documentToWire) }, 200);
  })
  .openapi(sub.generateDocument, async (c) => {
    const input = { id: c.req.valid("param").id, spec: c.req.valid("json") };
    const row = await generateDocument({ ctx: c.get("ctx"), input });
    const message = `${row.type === "commercial_invoice" ? "Commercial invoice" : "Customs declaration"} generated`;
    return c.json({ success: true as const, message, document: documentToWire(row) }, 201);
  })
  .openapi(sub.documentContent, async (c) => {
    const { id, document_id } = c.req.valid("param");
    const { row, body } = await documentContent({ ctx: c.get("ctx"), input: { id, documentId: document_id } });
    return new Response(body.body, {
      status: 200,
      headers: { "content-type": row.contentType, "content-length": String(row.size), etag: `"${row.sha256}"` },
    });
  })
  .openapi(sub.preAlerts, preAlertsHandler)
  .openapi(sub.preAlertsAlias, preAlertsHandler)
  .openapi(sub.events, async (c) => {
    const input = { id: c.req.valid("param").id, ...c.req.valid("query") };
    const { rows, hasMore } = await listEvents({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "", events: rows.map(eventToWire), has_more: hasMore }, 200);
  })
  .openapi(sub.timeline, async (c) => {
    const input = { id: c.req.valid("param").id, ...c.req.valid("query") };
    const { entries, hasMore } = await timeline({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "", timeline: entries, has_more: hasMore }, 200);
  });
