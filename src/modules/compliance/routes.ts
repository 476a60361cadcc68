/**
 * `{api}/consignments/{id}/compliance-check(s)`: one compliance pass over a consignment (screening,
 * restrictions, classification, landed cost) that places holds by the workspace's policy, and the stored
 * checks, as JSON and as the PDF summary an officer files. Running a check needs consignments:write (it
 * places holds); reading them consignments:read. A customer-pinned client reaches its customer's
 * consignments only, like every consignment route.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, ListQuery, newWorkspaceRouter, ok, scoped } from "../../http/router";
import { enqueue } from "../webhooks/service";
import {
  checkToWire,
  complianceDocument,
  getComplianceCheck,
  listComplianceChecks,
  runComplianceCheck,
} from "./service";

const tags = ["Consignments"];

const IdParam = z.object({ id: z.string().min(1).max(100) });
const CheckParams = IdParam.extend({ check_id: z.string().min(1).max(100) });

const Part = z
  .object({
    run_id: z.string().openapi({ description: "The engine's internal run id inside this check (`run_…`)" }),
    status: z.enum(["completed", "not_run"]),
    reason: z.string().nullable().openapi({ description: "Why it did not run, or what is incomplete" }),
    data_source: z
      .object({ version: z.string(), source: z.string(), imported_at: z.string() })
      .nullable()
      .openapi({ description: "The dataset version the engine used" }),
    result: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi("CompliancePart");

const HoldRef = z.object({ hold_id: z.string(), code: z.string(), reason: z.string() });

const CheckSchema = z
  .object({
    id: z.string().openapi({ example: "cck_01a20f7c7f6a7b0e93cb9277d10371ab" }),
    consignment_id: z.string(),
    outcome: z.enum(["release", "hold"]),
    holds: z.array(HoldRef).openapi({ description: "Holds this check placed (none when the policy's holds are off)" }),
    warnings: z.array(z.string()),
    policy: z.object({ holds: z.enum(["on", "off"]), screening_hold_score: z.number() }),
    screening: Part,
    restrictions: Part,
    classification: Part,
    landed_cost: Part,
    source: z.string().openapi({ description: "`api` or `flow`" }),
    request_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("ComplianceCheck");

const notFound = { 404: json(ErrorSchema, "No such consignment (or check) visible to this client") };

const runDef = createRoute({
  method: "post",
  path: "/consignments/{id}/compliance-check",
  tags,
  summary: "Run one compliance pass over a consignment",
  description:
    "Screens every party (sender, receiver, supporting agents), checks every item against the restriction rules (destination import, origin export, organization rules), classifies items without an HS code and quotes the landed cost. Stores one check and, by the workspace policy (settings `compliance.holds`, `compliance.screening_hold_score`), places holds: `screening` (a match scoring 0.85 or more by default), `prohibited_goods`, `licence_required`. Events `compliance.checked` and `hold.placed`.",
  ...scoped("consignments:write"),
  request: { params: IdParam },
  responses: { 201: json(ok({ compliance_check: CheckSchema }), "Checked"), ...notFound, ...errorResponses },
});

const listDef = createRoute({
  method: "get",
  path: "/consignments/{id}/compliance-checks",
  tags,
  summary: "Compliance checks of a consignment, newest first",
  ...scoped("consignments:read"),
  request: { params: IdParam, query: ListQuery },
  responses: {
    200: json(ok({ compliance_checks: z.array(CheckSchema), has_more: z.boolean() }), "One page"),
    ...notFound,
    ...errorResponses,
  },
});

const getDef = createRoute({
  method: "get",
  path: "/consignments/{id}/compliance-checks/{check_id}",
  tags,
  summary: "One compliance check",
  ...scoped("consignments:read"),
  request: { params: CheckParams },
  responses: { 200: json(ok({ compliance_check: CheckSchema }), "The check"), ...notFound, ...errorResponses },
});

const documentDef = createRoute({
  method: "get",
  path: "/consignments/{id}/compliance-checks/{check_id}/document",
  tags,
  summary: "One compliance check as a PDF summary",
  ...scoped("consignments:read"),
  request: { params: CheckParams },
  responses: {
    200: {
      description: "The PDF",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...notFound,
    ...errorResponses,
  },
});

export const complianceRoutes = newWorkspaceRouter()
  .openapi(runDef, async (c) => {
    const pass = await runComplianceCheck({ ctx: c.get("ctx"), input: c.req.valid("param") });
    if (pass.deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, pass.deliveryIds));
    const message = pass.row.outcome === "hold" ? `Hold: ${pass.decision.holds.length} finding(s)` : "Release";
    return c.json({ success: true as const, message, compliance_check: checkToWire(pass.row) }, 201);
  })
  .openapi(listDef, async (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("query") };
    const { rows, hasMore } = await listComplianceChecks({ ctx: c.get("ctx"), input });
    return c.json(
      { success: true as const, message: "", compliance_checks: rows.map(checkToWire), has_more: hasMore },
      200,
    );
  })
  .openapi(getDef, async (c) => {
    const { id, check_id } = c.req.valid("param");
    const row = await getComplianceCheck({ ctx: c.get("ctx"), input: { id, checkId: check_id } });
    return c.json({ success: true as const, message: "", compliance_check: checkToWire(row) }, 200);
  })
  .openapi(documentDef, async (c) => {
    const { id, check_id } = c.req.valid("param");
    const bytes = await complianceDocument({ ctx: c.get("ctx"), input: { id, checkId: check_id } });
    return new Response(bytes, {
      status: 200,
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `inline; filename="${check_id}.pdf"`,
      },
    }) as never;
  });
