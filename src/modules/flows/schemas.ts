/**
 * Flow definitions: a trigger (`consignment.created`), an optional external_code match and up to 10 actions.
 * Each action runs in the background unless it says `wait: true`, in which case it runs inside the create
 * request, its results are part of the 201, and its failure rejects the create (422, nothing written).
 */
import { z } from "@hono/zod-openapi";

const TRIGGERS = ["consignment.created"] as const;
const ACTION_TYPES = [
  "add_tags",
  "place_hold",
  "generate_commercial_invoice",
  "send_pre_alert",
  "generate_label",
  "generate_customs_declaration",
  "compliance_check",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

const wait = z.boolean().default(false).openapi({
  description:
    "Run inside the create request and include the result in its response; a failure rejects the create with 422.",
});

const Tag = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _:./-]*$/u, "letters, digits, space and _ : . / - only")
  // The document carries the pattern without its JavaScript flag (JSON Schema patterns are Unicode-aware).
  .openapi({ pattern: "^[\\p{L}\\p{N}][\\p{L}\\p{N} _:./-]*$" });

const AddTags = z.object({ type: z.literal("add_tags"), tags: z.array(Tag).min(1).max(20), wait }).strict();
const PlaceHold = z
  .object({
    type: z.literal("place_hold"),
    reason: z.string().trim().min(1).max(500).openapi({ example: "Manual review of high-value shipment" }),
    code: z.string().trim().min(1).max(50).optional().openapi({ example: "REVIEW" }),
    wait,
  })
  .strict();
const GenerateInvoice = z
  .object({
    type: z.literal("generate_commercial_invoice"),
    /** Printed under the lines; the usual export declaration when absent. */
    declaration: z.string().trim().min(1).max(1000).optional(),
    format: z.enum(["html", "pdf"]).optional().openapi({
      description: "`html` (a printable page; when absent) or `pdf` (A4)",
    }),
    wait,
  })
  .strict();
const GenerateCustomsDeclaration = z
  .object({
    type: z.literal("generate_customs_declaration"),
    form: z.enum(["CN22", "CN23"]).optional().openapi({
      description:
        "The UPU form; by default the CN 23 unless the value is declared in SDR (XDR) and within 300 SDR (see README)",
    }),
    /** Printed above the signature; the UPU form's own certification when absent. */
    declaration: z.string().trim().min(1).max(1000).optional(),
    wait,
  })
  .strict();
const SendPreAlert = z
  .object({
    type: z.literal("send_pre_alert"),
    recipient: z.string().trim().min(1).max(254).openapi({
      description: "Who the pre-alert is for (broker or agent email or code); carried in the webhook event",
      example: "broker@customs.example",
    }),
    wait,
  })
  .strict();

const GenerateLabel = z
  .object({
    type: z.literal("generate_label"),
    carrier: z.string().trim().min(1).max(50).optional().openapi({
      description: "The carrier; default: the consignment's `carrier.code`, else `postal` (UPU S10)",
      example: "postal",
    }),
    service: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional()
      .openapi({ description: "The carrier's service (postal: CP, RR, EE)", example: "CP" }),
    wait,
  })
  .strict();

const ComplianceCheck = z
  .object({
    type: z.literal("compliance_check"),
    wait: wait.openapi({
      description:
        "Run inside the create request: the check and its holds are part of the 201 (`data.compliance_check`, `data.holds`). The create is not rejected for what the check finds; the holds stop the consignment instead.",
    }),
  })
  .strict();

const Action = z
  .discriminatedUnion("type", [
    AddTags,
    PlaceHold,
    GenerateInvoice,
    SendPreAlert,
    GenerateLabel,
    GenerateCustomsDeclaration,
    ComplianceCheck,
  ])
  .openapi("FlowAction");
export type ActionT = z.output<typeof Action>;

export const FlowInput = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Hold and invoice DDP parcels" }),
    trigger: z.enum(TRIGGERS).default("consignment.created"),
    external_code: z.string().trim().min(1).max(100).nullable().optional().openapi({
      description: "Only consignments with this external_code trigger the flow; null or absent: every consignment",
    }),
    actions: z.array(Action).min(1).max(10),
    enabled: z.boolean().optional(),
  })
  .strict();
export type FlowInputT = z.output<typeof FlowInput>;

export const FlowUpdate = z
  .object({
    name: FlowInput.shape.name.optional(),
    external_code: FlowInput.shape.external_code,
    actions: FlowInput.shape.actions.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

export const FlowSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    trigger: z.enum(TRIGGERS),
    external_code: z.string().nullable(),
    actions: z.array(Action),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Flow");
