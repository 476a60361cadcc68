/** Wire schemas of the restrict area: the check request and response, custom rules, history rows. */
import { z } from "@hono/zod-openapi";
import { tokens } from "../../engines/restrict/text";
import { CountryCode, hsCode, IsoDate } from "../../http/schemas";

const text = (max: number, example?: string) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .optional()
    .openapi(example ? { example } : {});

const RestrictItem = z
  .object({
    sku: text(100, "SKU-1001"),
    title: text(500, "Carved ivory figurine"),
    description: text(2000, "Hand-carved decorative figurine"),
    hs_code: hsCode(4, 10).nullable().optional().openapi({ example: "9601.10", type: "string" }),
    country_of_origin: CountryCode.nullable().optional(),
    materials: text(500, "ivory"),
    category: text(200, "Home decor"),
    brand: text(200),
  })
  .strict()
  .openapi("RestrictItem");

export const RestrictRequest = z
  .object({
    destination_country: CountryCode,
    origin_country: CountryCode.nullable().optional(),
    items: z.array(RestrictItem).min(1, "must have at least 1 item").max(100, "must have at most 100 items"),
  })
  .strict()
  .openapi("RestrictRequest", {
    example: {
      destination_country: "US",
      origin_country: "GB",
      items: [
        { sku: "SKU-1001", title: "Carved ivory figurine", hs_code: "9601.10" },
        { sku: "SKU-1002", title: "Vodka 70cl", hs_code: "2208.60", country_of_origin: "RU" },
        { sku: "SKU-1003", title: "Cotton T-shirt", hs_code: "6109.10" },
      ],
    },
  });

const Direction = z.enum(["IMPORT", "EXPORT"]);
const RuleType = z.enum(["prohibition", "restriction", "observation"]);
const Requirement = z.enum(["required", "may_be_required"]);

const RestrictionMatch = z
  .object({
    id: z.string().openapi({ example: "restriction_35" }),
    source: z.enum(["platform", "org"]),
    hs_code: z.string().nullable().openapi({ example: null }),
    imposing_country_code: z.string().openapi({ example: "US" }),
    measure_direction: Direction,
    rule_type: RuleType,
    title: z.string().openapi({ example: "African elephant ivory" }),
    summary: z.string(),
    agency: z.string().nullable().openapi({ example: "FWS" }),
    agency_flag: z.string().nullable().openapi({ example: "FW2" }),
    requirement: Requirement.nullable(),
    source_url: z.string().nullable().openapi({ example: "https://www.ecfr.gov/current/title-50/section-17.40" }),
    source_ref: z.string().nullable().openapi({ example: "50 CFR 17.40(e)" }),
    confidence: z.enum(["HIGH", "MEDIUM"]),
  })
  .openapi("RestrictionMatch");

const CoverageFields = {
  rule_count: z.number().int().openapi({
    description: "Platform import rules the destination's checks run (its own and, for EU members, the Union's)",
    example: 86,
  }),
  families: z.record(z.string(), z.number().int()).openapi({
    description: "Those rules by kind of goods",
    example: { food_animal: 6, weapons: 3, tobacco: 3 },
  }),
  last_reviewed: IsoDate.nullable().openapi({
    description: "Latest date any of those rules was checked against its source",
    example: "2026-11-24",
  }),
};

const CheckCoverage = z
  .object({
    ...CoverageFields,
    origin_export_rule_count: z.number().int().nullable().openapi({
      description: "Platform export rules of origin_country in force; null without an origin",
    }),
    data_version: z.string().nullable().openapi({ example: "2026-11-24.1" }),
  })
  .openapi("RestrictCoverage", {
    description:
      "What the platform rule set holds for this check, so a clean answer can be told apart from thin coverage",
  });

export const CoverageListing = z
  .object({
    success: z.literal(true),
    message: z.string(),
    as_of: IsoDate,
    data_version: z.string().nullable(),
    destinations: z.array(z.object({ country_code: z.string().openapi({ example: "KR" }), ...CoverageFields })),
  })
  .openapi("RestrictCoverageListing");

export const RestrictResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    created_at: z.string(),
    destination_country: z.string(),
    origin_country: z.string().nullable(),
    coverage: CheckCoverage,
    items: z.array(
      z.object({
        sku: z.string().nullable(),
        title: z.string().nullable(),
        description: z.string().nullable(),
        hs_code: z.string().nullable(),
        country_of_origin: z.string().nullable(),
        restrictions: z.array(RestrictionMatch).nullable(),
      }),
    ),
    match_count: z.number().int(),
    has_prohibitions: z.boolean(),
    has_restrictions: z.boolean(),
    duration_ms: z.number().int(),
  })
  .openapi("RestrictResponse");

export const NotEnabledSchema = z
  .object({ success: z.literal(false), message: z.string() })
  .passthrough()
  .openapi("RestrictNotEnabled", {
    example: { success: false, message: "Restricted-goods checks are not enabled for destination ZW" },
  });

const Keyword = z
  .string()
  .trim()
  .min(1)
  .max(100, "must be at most 100 characters")
  .refine((k) => tokens(k).length > 0, "must contain at least one letter or digit");

export const CreateRuleBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    summary: z.string().max(2000).optional(),
    rule_type: RuleType,
    measure_direction: Direction,
    imposing_country_code: CountryCode,
    hs_code: hsCode(2, 10).nullable().optional().openapi({ description: "HS prefix, 2-10 digits", example: "9503" }),
    keywords: z
      .array(Keyword)
      .min(1)
      .max(50)
      .nullable()
      .optional()
      .openapi({ example: ["fidget spinner"] }),
    origin_country_code: CountryCode.nullable().optional(),
    requirement: Requirement.nullable().optional(),
    source_url: z
      .string()
      .url()
      .max(2000)
      .regex(/^https?:\/\//i, "must be an http(s) URL")
      // JSON Schema patterns take no flags: the case-insensitive scheme spelled out.
      .openapi({ pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" })
      .nullable()
      .optional(),
    source_ref: z.string().max(500).nullable().optional(),
    valid_from: IsoDate.nullable().optional(),
    valid_to: IsoDate.nullable().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (!r.hs_code && !r.keywords?.length && !r.origin_country_code) {
      ctx.addIssue({
        code: "custom",
        path: ["hs_code"],
        message: "a rule needs hs_code, keywords or origin_country_code",
      });
    }
    if (r.hs_code && r.keywords?.length) {
      ctx.addIssue({
        code: "custom",
        path: ["keywords"],
        message: "a rule matches by hs_code or by keywords, not both",
      });
    }
    if (r.valid_from && r.valid_to && r.valid_to < r.valid_from) {
      ctx.addIssue({ code: "custom", path: ["valid_to"], message: "must not be before valid_from" });
    }
  })
  .openapi("CreateRestrictionRule", {
    example: {
      title: "No toy weapons to Australia",
      summary: "Our carrier contract excludes replica and toy weapons.",
      rule_type: "prohibition",
      measure_direction: "IMPORT",
      imposing_country_code: "AU",
      keywords: ["toy gun", "replica pistol"],
    },
  });

export const OrgRuleSchema = z
  .object({
    id: z.number().int().openapi({ example: 12 }),
    source: z.literal("org"),
    title: z.string(),
    summary: z.string(),
    rule_type: RuleType,
    measure_direction: Direction,
    imposing_country_code: z.string(),
    hs_code: z.string().nullable(),
    keywords: z.array(z.string()).nullable(),
    origin_country_code: z.string().nullable(),
    requirement: Requirement.nullable(),
    source_url: z.string().nullable(),
    source_ref: z.string().nullable(),
    valid_from: z.string().nullable(),
    valid_to: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("RestrictionRule");

export const HistoryRow = z
  .object({
    id: z.string().openapi({ example: "019a8f0c-5b7e-7d2a-9c1e-4f6a8b0c2d4e" }),
    sender_country_code: z.string().nullable().openapi({ example: "GB" }),
    receiver_country_code: z.string().nullable().openapi({ example: "US" }),
    item_count: z.number().int().openapi({ example: 3 }),
    match_count: z.number().int().openapi({ example: 2 }),
    duration_ms: z.number().int().openapi({ example: 4 }),
    created_at: z.string(),
  })
  .openapi("RestrictHistoryRow");
