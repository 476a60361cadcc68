/**
 * `{api}/consignments/{id}/assessments`: run a duty and tax assessment (POST, consignments:write; 200 with the
 * Assessment object itself, like the consignment retrieval), list them newest first and read one
 * (consignments:read). Everything is 404 for a consignment outside the workspace or the pinned customer.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, json, ListQuery, newWorkspaceRouter, ok, scoped } from "../../http/router";
import { enqueue } from "../webhooks/service";
import { getAssessment, listAssessments, runAssessment } from "./assessments";

const tags = ["Consignments"];
const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ example: "con_01a2011f8c5b7e7d2a9c1e4f6a8b0c2d" }),
});
const AssessmentParams = IdParam.extend({
  assessment_id: z.string().min(1).max(100).openapi({ example: "asm_01a2011f9d0e7a4b8c2d4e6f8a0b2c4d" }),
});

const money = (description: string, example: string) =>
  z.string().openapi({ description: `${description}; exact decimal in \`currency\``, example });

const RateApplied = z
  .object({
    measure: z.string().openapi({ example: "MFN duty (HTS 6109.10.00)" }),
    code: z.string().nullable().openapi({ example: "6109.10.00" }),
    rate: z.string().openapi({ example: "16.5%", description: "The rate as the tariff states it" }),
    type: z
      .string()
      .openapi({ example: "ad_valorem", description: "ad_valorem, specific, compound, free, additional or text" }),
    tier: z.string().nullable().openapi({
      example: "normal_tariff",
      description:
        "Tier of the base line (normal_tariff, preferential_tariff, punitive_tariff); null for additional measures",
    }),
    amount: money("Duty of this line", "41.25"),
    basis: z.string().openapi({ example: "16.5% of 250.00 USD customs value" }),
    estimated: z.boolean(),
    exempted: z.boolean().openapi({ description: "An exclusion fired: the measure is listed at 0%" }),
    exclusion_code: z.string().nullable(),
  })
  .openapi("AssessmentRateApplied");

const AssessedItem = z
  .object({
    item_id: z.string().openapi({ example: "itm_01a2011f8c5b7e7d2a9c1e4f6a8b0c2e" }),
    sku: z.string().nullable(),
    title: z.string().nullable(),
    hs_code: z.string().nullable().openapi({
      example: "6109100010",
      description: "The code assessed: declared, from the catalogue, or suggested by the classifier",
    }),
    hs_code_source: z.string().nullable().openapi({
      example: "declared",
      description: "declared (or the source the item was created with), catalogue, classified",
    }),
    classification: z
      .object({ confidence: z.string(), score: z.number(), description: z.string().nullable() })
      .nullable()
      .openapi({ description: "Present when the code was suggested by the classifier" }),
    origin_country: z
      .string()
      .nullable()
      .openapi({ example: "VN", description: "The item's origin, else the sender's country" }),
    quantity: z.number().int(),
    unit_value: z.string().openapi({ example: "12.5" }),
    declared_currency: z.string().nullable().openapi({
      example: "USD",
      description: "Currency of unit_value: the item's, else its order's, else its parcel's",
    }),
    tariff_line: z.string().nullable().openapi({ example: "6109.10.00" }),
    rate_found: z.boolean(),
    customs_value: z.string().nullable().openapi({ example: "250.00" }),
    duty: z.string().nullable().openapi({
      example: "41.25",
      description: "Duty of the line; null when the item was not assessed or no tariff line was found",
    }),
    tax: z
      .string()
      .nullable()
      .openapi({ example: "0.00", description: "VAT/GST of the line (entry-level fees are in `fees`)" }),
    rates_applied: z.array(RateApplied),
    notes: z.array(z.string()),
    message: z.string().nullable().openapi({ description: "Why no duty was computed when no tariff line was found" }),
    error: z.string().nullable().openapi({
      description: "Why the item was not assessed (no code could be found, no origin, a currency without a rate)",
    }),
  })
  .openapi("AssessedItem");

const AssessmentSchema = z
  .object({
    assessment_id: z.string().openapi({ example: "asm_01a2011f9d0e7a4b8c2d4e6f8a0b2c4d" }),
    consignment_id: z.string(),
    destination_country: z.string().openapi({ example: "US" }),
    currency: z.string().openapi({
      example: "USD",
      description: "The destination currency every amount is in (values converted at the ECB rate of the entry date)",
    }),
    entry_date: z
      .string()
      .openapi({ example: "2026-03-02", description: "The consignment's entry date, else the day of the run" }),
    total_duty: money("Customs duties of all assessed items, additional measures included", "41.25"),
    total_tax: money("total_vat + total_fees: VAT/GST of the items and entry-level fees (e.g. US MPF/HMF)", "33.89"),
    total_vat: money("VAT/GST of all assessed items", "0.00"),
    total_fees: money("Entry-level fees, floor and cap applied once per entry", "33.89"),
    total: money("total_duty + total_tax", "75.14"),
    complete: z.boolean().openapi({
      description: "False when an item was not assessed or had no tariff line: the totals cover the other items only",
    }),
    items: z.array(AssessedItem),
    fees: z.array(z.object({ code: z.string(), name: z.string(), amount: z.string(), basis: z.string() })),
    notes: z.array(z.string()),
    data_source: z.object({ version: z.string(), source: z.string(), imported_at: z.string() }).nullable(),
    request_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("Assessment");

const Unassessable = z
  .object({
    success: z.literal(false),
    message: z.string().openapi({
      example:
        "Consignment 'con_01a2011f8c5b7e7d2a9c1e4f6a8b0c2d' has no receiver country: duties cannot be assessed without a destination (receiver.country_code)",
    }),
    error: z.literal("unprocessable"),
    request_id: z.string(),
    errors: z
      .array(z.string())
      .optional()
      .openapi({ description: "With a country-rule refusal: the rules' descriptions" }),
    rule_violations: z.array(z.object({ code: z.string(), description: z.string() })).optional(),
  })
  .openapi("AssessmentRefused");

const notFound = { 404: json(ErrorSchema, "No such consignment (or assessment) in this workspace") };

const run = createRoute({
  method: "post",
  path: "/consignments/{id}/assessments",
  tags,
  summary: "Run a duty and tax assessment of the consignment",
  description:
    "Assesses every item into the receiver's country with its declared HS code (or the catalogue's, or one suggested by the classifier from its title and description), " +
    "its origin (else the sender's country) and its unit value, as one entry priced by the calculate engine. The result is stored and `duties.calculated` is emitted. " +
    "`total_duty` is customs duty; `total_tax` is VAT/GST plus entry-level fees. Items that cannot be assessed are listed with `duty: null` and the reason, and `complete` is false. " +
    "422 when the consignment has no receiver country, no items, an unsupported destination, or a workspace country rule refuses it.",
  ...scoped("consignments:write"),
  request: { params: IdParam },
  responses: {
    200: json(
      AssessmentSchema.extend({ success: z.literal(true), message: z.string() }),
      "The stored assessment: the Assessment object's fields, beside `success` and `message` as every success body",
    ),
    ...notFound,
    422: json(Unassessable, "The consignment cannot be assessed, or a workspace country rule refused it"),
    ...errorResponses,
  },
});

const list = createRoute({
  method: "get",
  path: "/consignments/{id}/assessments",
  tags,
  summary: "List the consignment's assessments, newest first",
  ...scoped("consignments:read"),
  request: { params: IdParam, query: ListQuery },
  responses: {
    200: json(ok({ assessments: z.array(AssessmentSchema), has_more: z.boolean() }), "One page"),
    ...notFound,
    ...errorResponses,
  },
});

const one = createRoute({
  method: "get",
  path: "/consignments/{id}/assessments/{assessment_id}",
  tags,
  summary: "Retrieve one assessment (its fields beside success and message)",
  ...scoped("consignments:read"),
  request: { params: AssessmentParams },
  responses: {
    200: json(AssessmentSchema.extend({ success: z.literal(true), message: z.string() }), "The assessment"),
    ...notFound,
    ...errorResponses,
  },
});

export const assessmentRoutes = newWorkspaceRouter()
  .openapi(run, async (c) => {
    const { assessment, deliveryIds } = await runAssessment({ ctx: c.get("ctx"), input: c.req.valid("param") });
    // Committed: hand the new deliveries to the queue now (the cron sweep catches any this misses).
    if (deliveryIds.length) c.executionCtx.waitUntil(enqueue(c.env.WEBHOOKS, deliveryIds));
    return c.json({ success: true as const, message: "Assessment completed", ...assessment }, 200);
  })
  .openapi(list, async (c) => {
    const input = { id: c.req.valid("param").id, ...c.req.valid("query") };
    const { assessments, hasMore } = await listAssessments({ ctx: c.get("ctx"), input });
    return c.json({ success: true as const, message: "", assessments, has_more: hasMore }, 200);
  })
  .openapi(one, async (c) => {
    const { id, assessment_id } = c.req.valid("param");
    const assessment = await getAssessment({ ctx: c.get("ctx"), input: { id, assessmentId: assessment_id } });
    return c.json({ success: true as const, message: "", ...assessment }, 200);
  });
