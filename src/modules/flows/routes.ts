/** `{api}/settings/flows`: CRUD over the workspace's automation flows (see ./schemas for what a flow is). */
import { createRoute, z } from "@hono/zod-openapi";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  ListQuery,
  newWorkspaceRouter,
  ok,
  scoped,
} from "../../http/router";
import { IntIdParam, intId } from "../../http/schemas";
import { FlowInput, FlowSchema, FlowUpdate } from "./schemas";
import { createFlow, deleteFlow, flowToWire, getFlow, listFlows, updateFlow } from "./service";

const tags = ["Settings: flows"];
const IdParam = IntIdParam;
const notFoundResp = { 404: json(ErrorSchema, "No such flow in this workspace") };
const example = {
  name: "Invoice and pre-alert DDP parcels",
  trigger: "consignment.created",
  external_code: "DDP-EXPRESS",
  actions: [
    { type: "generate_commercial_invoice", wait: true },
    { type: "add_tags", tags: ["ddp"] },
    { type: "send_pre_alert", recipient: "broker@customs.example" },
  ],
};

const routes = {
  list: createRoute({
    method: "get",
    path: "/settings/flows",
    tags,
    summary: "List flows",
    ...scoped("settings:read"),
    request: { query: ListQuery.extend({ starting_after: intId().optional() }) },
    responses: {
      200: json(ok({ flows: z.array(FlowSchema), has_more: z.boolean() }), "Flows, newest first"),
      ...errorResponses,
    },
  }),
  create: createRoute({
    method: "post",
    path: "/settings/flows",
    tags,
    summary: "Create a flow",
    description:
      "Runs on every `consignment.created` (or only those with `external_code`). Actions: `add_tags`, `place_hold`, `generate_commercial_invoice` (HTML, listed under the consignment's documents), `send_pre_alert` (recorded and sent as a `consignment.pre_alert` webhook event), `generate_label` (a tracking number on every parcel and a PDF label document; see POST /consignments/{id}/labels). Actions run in the background after the create unless `wait: true`: then they run inside the create, their results are in its response, and a failure rejects the create with 422.",
    ...scoped("settings:write"),
    request: { body: jsonBody(FlowInput.openapi("FlowInput", { example })) },
    responses: { 201: json(ok({ flow: FlowSchema }), "Created"), ...errorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/settings/flows/{id}",
    tags,
    summary: "Get a flow",
    ...scoped("settings:read"),
    request: { params: IdParam },
    responses: { 200: json(ok({ flow: FlowSchema }), "The flow"), ...notFoundResp, ...errorResponses },
  }),
  update: createRoute({
    method: "patch",
    path: "/settings/flows/{id}",
    tags,
    summary: "Update a flow",
    description: "Runs already created keep the actions they were created with.",
    ...scoped("settings:write"),
    request: { params: IdParam, body: jsonBody(FlowUpdate) },
    responses: { 200: json(ok({ flow: FlowSchema }), "Updated"), ...notFoundResp, ...errorResponses },
  }),
  remove: createRoute({
    method: "delete",
    path: "/settings/flows/{id}",
    tags,
    summary: "Delete a flow",
    ...scoped("settings:write"),
    request: { params: IdParam },
    responses: {
      200: json(ok({ deleted: z.literal(true), id: z.number().int() }), "Deleted"),
      ...notFoundResp,
      ...errorResponses,
    },
  }),
};

export const flowRoutes = newWorkspaceRouter()
  .openapi(routes.list, async (c) => {
    const { rows, hasMore } = await listFlows({ ctx: c.get("ctx"), input: c.req.valid("query") });
    return c.json({ success: true as const, message: "", flows: rows.map(flowToWire), has_more: hasMore }, 200);
  })
  .openapi(routes.create, async (c) => {
    const row = await createFlow({ ctx: c.get("ctx"), input: c.req.valid("json") });
    return c.json({ success: true as const, message: "Flow created", flow: flowToWire(row) }, 201);
  })
  .openapi(routes.get, async (c) => {
    const row = await getFlow({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.json({ success: true as const, message: "", flow: flowToWire(row) }, 200);
  })
  .openapi(routes.update, async (c) => {
    const input = { id: c.req.valid("param").id, patch: c.req.valid("json") };
    const row = await updateFlow({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "Flow updated", flow: flowToWire(row) }, 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    await deleteFlow({ ctx: c.get("ctx"), input: { id } });
    return c.json({ success: true as const, message: "Flow deleted", deleted: true as const, id }, 200);
  });
