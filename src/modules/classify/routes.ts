/**
 * `{api}/classify`, `/classify/modes`, `/classify/blocklist` (add, delete, import, list) and
 * `/usage-history/classify`, all with scope classify:read. URL, image and ai classification also count against
 * the organization's `classify_heavy` bucket (one per item), before the body is archived.
 */

import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import {
  ErrorSchema,
  errorResponses,
  json,
  jsonBody,
  newWorkspaceRouter,
  scoped,
  scopedCompute,
  zodIssuesToFieldErrors,
} from "../../http/router";
import { CountryCode, CurrencyCode, hsCode, intId } from "../../http/schemas";
import { badRequest, validationFailed } from "../../lib/errors";
import { isCountry } from "../../lib/iso";
import { readBodyLimited } from "../../middleware/archive";
import { unpinned } from "../../middleware/auth";
import { rateLimit } from "../../middleware/rate-limit";
import { usageHistoryRoutes } from "../usage/routes";
import {
  addBlock,
  type BlockTarget,
  type BulkClassifyItem,
  type BulkClassifyResult,
  type Classification,
  classify,
  classifyBulk,
  entryToWire,
  importBlocklist,
  listBlocks,
  MODE_SLUGS,
  modes,
  removeBlock,
} from "./service";

const tags = ["Classify"];
const blocklistTags = ["Classify: blocklist"];

// ---------------------------------------------------------------------------------------------------------
// Schemas

const HttpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), "must be an http(s) URL");

/** http(s) URL, gs:// URI or a base64 image data URL (about 9 MB). */
const ImageUrl = z
  .string()
  .max(12_600_000, "must be at most about 9 MB")
  .refine(
    (s) => /^https?:\/\/\S+$/i.test(s) || /^gs:\/\/\S+$/.test(s) || /^data:image\/[a-z0-9.+-]+;base64,/i.test(s),
    "must be an http(s) URL, a gs:// URI or a data:image/*;base64 URL",
  );

const ClassifyBody = z
  .object({
    description: z.string().max(2000).optional().openapi({ example: "Men's cotton crew neck t-shirt, short sleeves" }),
    image_url: ImageUrl.optional(),
    product_url: HttpUrl.optional().openapi({ example: "https://shop.example.com/products/classic-tee" }),
    destination_country: CountryCode.openapi({ example: "US" }),
    mode: z.enum(MODE_SLUGS).optional().openapi({ description: "Mode slug (GET /classify/modes); default `standard`" }),
    title: z.string().max(500).optional(),
    brand: z.string().max(200).optional(),
    sku: z.string().max(100).optional(),
    type: z.string().max(200).optional().openapi({ example: "Apparel" }),
    country_of_origin: CountryCode.optional(),
    price: z.number().nonnegative().finite().optional(),
    currency: CurrencyCode.optional(),
    hs_code: hsCode(2, 10)
      .optional()
      .openapi({ description: "Partial code (2-10 digits, dots allowed) that narrows the search", example: "61" }),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.description === undefined && b.image_url === undefined && b.product_url === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["description"],
        message: "at least one of description, image_url, product_url is required",
      });
    }
    if (b.image_url !== undefined && b.product_url !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["image_url"],
        message: "image_url and product_url are mutually exclusive",
      });
    }
  })
  .openapi("ClassifyRequest", {
    example: { description: "Men's cotton crew neck t-shirt", destination_country: "US" },
  });

const Level = z.object({ name: z.string(), number: z.string(), description: z.string() });
const ResultSchema = z
  .object({
    code: z.string().openapi({ example: "6109100012" }),
    country: z
      .string()
      .openapi({ example: "US", description: "The schedule the code belongs to (EU for member states)" }),
    chapter: Level,
    heading: Level,
    subheading: Level,
    tariff: Level,
    score: z.number().min(0).max(1),
    confidence: z.enum(["high", "medium", "low"]),
    reasoning: z.string(),
  })
  .openapi("ClassificationResult");

const DataSourceSchema = z
  .object({ version: z.string(), source: z.string(), imported_at: z.string() })
  .openapi("DataSource");

const Common = {
  original_description: z.string().nullable(),
  customs_description: z.string().nullable(),
  usedWebSearch: z.boolean(),
  country: z.string(),
  classification_source_country: z.string().optional(),
  mode: z.string(),
  data_source: DataSourceSchema.nullable(),
  request_id: z.string().nullable(),
  used_url: z.boolean().optional(),
  url_description: z.string().nullable().optional(),
  used_image: z.boolean().optional(),
  image_description: z.string().nullable().optional(),
  ai: z
    .object({
      model: z.string(),
      used: z.boolean(),
      fallback: z.string().nullable(),
      duration_ms: z.number().int(),
    })
    .optional()
    .openapi({
      description:
        "Modes `ai` and `image`: the Workers AI model asked, whether its answer was used, and why not (the answer then falls back to the standard ranking or the caller's text)",
    }),
};

const ClassifyResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    ...Common,
    top_result: ResultSchema.nullable(),
    results: z.array(ResultSchema),
    blocked: z.literal(true).optional(),
    rulings: z
      .array(
        z.object({
          ruling_number: z.string(),
          code: z.string(),
          subject: z.string(),
          url: z.string(),
          similarity: z.number().min(0).max(1),
        }),
      )
      .optional()
      .openapi({
        description:
          "Classification rulings about similar products (precedents), best first, when any is similar enough; `similarity` is the cosine of the texts (0-1). The five most similar vote in the ranking (their subheading and heading, in proportion to the similarity, for a description of more than four words); up to three are cited.",
      }),
  })
  .openapi("ClassifyResponse", {
    example: {
      success: true,
      message: "",
      original_description: "Men's cotton crew neck t-shirt",
      customs_description:
        "T-shirts, singlets, tank tops and similar garments, knitted or crocheted, of cotton: Men's or boys': Other T-shirts: Men's (338)",
      usedWebSearch: false,
      top_result: {
        code: "6109100012",
        country: "US",
        chapter: {
          name: "Chapter 61",
          number: "61",
          description: "Apparel and clothing accessories; knitted or crocheted",
        },
        heading: {
          name: "Heading 6109",
          number: "6109",
          description: "T-shirts, singlets and other vests; knitted or crocheted",
        },
        subheading: {
          name: "Subheading 6109.10",
          number: "610910",
          description: "T-shirts, singlets and other vests; of cotton, knitted or crocheted",
        },
        tariff: {
          name: "US HTS 6109.10.0012",
          number: "6109100012",
          description:
            "T-shirts, singlets, tank tops and similar garments, knitted or crocheted, of cotton: Men's or boys': Other T-shirts: Men's (338)",
        },
        score: 0.97,
        confidence: "high",
        reasoning:
          'product term "t shirt" points to 6109; subheading text matches cotton. National line 6109.10.00; statistical suffix 12: men\'s.',
      },
      results: [],
      country: "US",
      mode: "standard",
      data_source: {
        version: "hs2022.2024-01+us-hts2025.06+ukgt2021+syn13+ic1+us10-2026r10+rul13+ref1",
        source: "HS2022 nomenclature (…)",
        imported_at: "2026-11-22T02:00:00.000Z",
      },
      request_id: "019a8f0c-5b7e-7d2a-9c1e-4f6a8b0c2d4e",
    },
  });

const UnclassifiableResponse = z
  .object({
    success: z.literal(false),
    message: z.string(),
    unclassifiable: z.literal(true),
    reason: z.string(),
    ...Common,
    top_result: z.null(),
    results: z.array(ResultSchema).length(0),
  })
  .openapi("Unclassifiable", {
    example: {
      success: false,
      message: "None of the words in the description appear in the HS nomenclature or the product vocabulary",
      unclassifiable: true,
      reason: "None of the words in the description appear in the HS nomenclature or the product vocabulary",
      original_description: "xqzvbn wprtkl",
      customs_description: null,
      usedWebSearch: false,
      top_result: null,
      results: [],
      country: "US",
      mode: "standard",
      data_source: {
        version: "hs2022.2024-01+us-hts2025.06+ukgt2021+syn13+ic1+us10-2026r10+rul13+ref1",
        source: "HS2022 nomenclature (…)",
        imported_at: "2026-11-22T02:00:00.000Z",
      },
      request_id: "019a8f0c-5b7e-7d2a-9c1e-4f6a8b0c2d4e",
    },
  });

const ModeSchema = z
  .object({
    slug: z.string().openapi({ example: "standard" }),
    name: z.string(),
    description: z.string(),
    inputs: z.array(z.enum(["description", "title", "product_url", "image_url"])),
    available: z.boolean(),
    default: z.boolean(),
    unavailable_reason: z.string().nullable(),
  })
  .openapi("ClassifyMode");

/** Blocklist code: 2-13 characters of digits and dots, stored digits only. */
const BlockCode = z
  .string()
  .trim()
  .min(2)
  .max(13)
  .regex(/^[0-9.]+$/, "must be digits, optionally with dots")
  .transform((s) => s.replace(/\./g, ""))
  .refine((s) => s.length >= 2, "must have at least 2 digits")
  .openapi({ example: "9301", type: "string" });

/** ISO alpha-2 (case-insensitive) or GLOBAL. */
const BlockCountry = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => s === "GLOBAL" || isCountry(s), "must be an ISO 3166-1 alpha-2 code or GLOBAL")
  .openapi({ example: "GLOBAL", type: "string" });

const Reason = z.string().max(1000);

const EntrySchema = z
  .object({
    id: z.number().int(),
    hs_code: z.string(),
    country_code: z.string(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("BlocklistEntry", {
    example: {
      id: 12,
      hs_code: "9301",
      country_code: "GLOBAL",
      reason: "We do not ship weapons",
      created_at: "2026-11-22T02:00:00.000Z",
    },
  });

const ImportEntry = z
  .object({
    hs_code: BlockCode,
    country_code: BlockCountry.optional(),
    destination_country: BlockCountry.optional(),
    reason: Reason.nullable().optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.country_code && e.destination_country && e.country_code !== e.destination_country) {
      ctx.addIssue({
        code: "custom",
        path: ["country_code"],
        message: "country_code and destination_country disagree",
      });
    }
  });

// ---------------------------------------------------------------------------------------------------------
// Rate limit for URL and image work (cost = items; one per request here)

/** A classification that reads a page, an image or asks a model: it counts against `classify_heavy`. */
const isHeavy = (item: unknown): boolean => {
  const b = (item ?? {}) as Record<string, unknown>;
  return (
    b.product_url !== undefined ||
    b.image_url !== undefined ||
    b.mode === "url" ||
    b.mode === "image" ||
    b.mode === "ai"
  );
};

/**
 * Reads the body once (the archive then reuses it) and charges `classify_heavy` one per heavy item: the body
 * itself for POST /classify, each of `items` for POST /classify/bulk.
 */
const heavyLimit = createMiddleware<AppEnv>(async (c, next) => {
  let body: unknown = null;
  try {
    body = JSON.parse(new TextDecoder().decode(await readBodyLimited(c.req)));
  } catch {
    // Malformed or oversized bodies are answered by the archive and the validator, in their usual way.
  }
  const items = (body as { items?: unknown } | null)?.items;
  const cost = Array.isArray(items) ? items.filter(isHeavy).length : isHeavy(body) ? 1 : 0;
  if (cost === 0) return next();
  return rateLimit("classify_heavy", () => cost)(c, next);
});

// ---------------------------------------------------------------------------------------------------------
// Routes

const classifyRoute = createRoute({
  method: "post",
  path: "/classify",
  tags,
  summary: "Suggest HS codes for a product",
  description:
    "Ranks the destination's tariff lines for a product description (mode `standard`), product page (mode `url`), " +
    "image (mode `image`, described by a Workers AI vision model) or with the standard candidates reranked by a Workers AI text model (mode `ai`). " +
    "US and GB use their national schedules, EU member states the EU schedule (`classification_source_country: EU`), other destinations HS2022 subheadings. " +
    "Codes on the organization's blocklist are removed; `blocked: true` when every suggestion was. Every call is logged (`request_id`).",
  ...scopedCompute("classify:read", heavyLimit),
  request: { body: jsonBody(ClassifyBody) },
  responses: {
    200: json(ClassifyResponse, "Suggestions, best first"),
    422: json(UnclassifiableResponse, "The input cannot be classified"),
    503: json(ErrorSchema, "The nomenclature is not loaded"),
    ...errorResponses,
  },
});

const BULK_MAX = 100;

const BulkBody = z
  .object({
    items: z
      .array(
        z
          .object({ ref: z.string().max(200).optional() })
          .passthrough()
          .openapi({ description: "One POST /classify body, plus an optional `ref` echoed in its result" }),
      )
      .min(1)
      .max(BULK_MAX, `at most ${BULK_MAX} items`),
  })
  .strict()
  .openapi("ClassifyBulkRequest", {
    example: {
      items: [
        { ref: "sku-1", description: "Men's cotton crew neck t-shirt", destination_country: "US" },
        { ref: "sku-2", description: "Stainless steel chef's knife", destination_country: "GB" },
      ],
    },
  });

const BulkResult = z
  .object({
    index: z.number().int(),
    ref: z.string().nullable(),
    success: z.boolean(),
    error: z
      .string()
      .optional()
      .openapi({ description: "Why this item failed (invalid, unclassifiable, or its mode refused it)" }),
    unclassifiable: z.literal(true).optional(),
  })
  .passthrough()
  .openapi("ClassifyBulkResult", {
    description:
      "A successful item carries the POST /classify answer's fields (without request_id); a failed one `error`, and `unclassifiable: true` with the 422 answer's fields when the text could not be classified.",
  });

const BulkResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    results: z.array(BulkResult),
    execution_time: z.number().int(),
    request_id: z.string().nullable(),
  })
  .openapi("ClassifyBulkResponse", {
    example: {
      success: true,
      message: "2 of 2 items classified",
      results: [
        { index: 0, ref: "sku-1", success: true },
        { index: 1, ref: "sku-2", success: false, error: "destination_country: Required" },
      ],
      execution_time: 4,
      request_id: "019a8f0c-5b7e-7d2a-9c1e-4f6a8b0c2d4e",
    },
  });

const bulkRoute = createRoute({
  method: "post",
  path: "/classify/bulk",
  tags,
  summary: `Classify up to ${BULK_MAX} products`,
  description:
    "Each item has the POST /classify shape plus an optional `ref`; results come back in request order with `index` and `ref`. " +
    "An invalid or unclassifiable item is reported in its result without failing the batch. Each classified item is a row of the classify history " +
    "(its `request_id` is this request's). url, image and ai items count one each against `classify_heavy`.",
  ...scopedCompute("classify:read", heavyLimit),
  request: { body: jsonBody(BulkBody) },
  responses: {
    200: json(BulkResponse, "One result per item, in order"),
    503: json(ErrorSchema, "The nomenclature is not loaded"),
    ...errorResponses,
  },
});

const modesRoute = createRoute({
  method: "get",
  path: "/classify/modes",
  tags,
  summary: "Classification modes",
  ...scoped("classify:read"),
  responses: {
    200: json(
      z.object({ success: z.literal(true), message: z.string(), modes: z.array(ModeSchema) }).openapi({
        example: {
          success: true,
          message: "",
          modes: [
            {
              slug: "standard",
              name: "Standard",
              description: "…",
              inputs: ["description", "title"],
              available: true,
              default: true,
              unavailable_reason: null,
            },
          ],
        },
      }),
      "Every mode, available or not",
    ),
    ...errorResponses,
  },
});

const addRoute = createRoute({
  method: "post",
  path: "/classify/blocklist",
  tags: blocklistTags,
  summary: "Block an HS code (and every code under it) for a destination or GLOBAL",
  ...scoped("classify:read", unpinned),
  request: {
    body: jsonBody(
      z
        .object({ hs_code: BlockCode, destination_country: BlockCountry, reason: Reason.nullable().optional() })
        .strict()
        .openapi({ example: { hs_code: "93.01", destination_country: "GLOBAL", reason: "We do not ship weapons" } }),
    ),
  },
  responses: {
    201: json(
      z.object({ success: z.literal(true), message: z.string(), entry: EntrySchema.nullable() }).openapi({
        example: {
          success: true,
          message: "9301 blocked for GLOBAL",
          entry: {
            id: 12,
            hs_code: "9301",
            country_code: "GLOBAL",
            reason: "We do not ship weapons",
            created_at: "2026-11-22T02:00:00.000Z",
          },
        },
      }),
      "Added; `entry` is null when the code was already blocked",
    ),
    ...errorResponses,
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/classify/blocklist/{code}",
  tags: blocklistTags,
  summary: "Remove a blocklist entry by id, or by HS code and destination",
  description:
    "An all-digit `code` without `destination_country` is an entry id (404 when unknown). Otherwise `code` is an HS code (dots allowed) and `destination_country` is required (400 without it).",
  ...scoped("classify:read", unpinned),
  request: {
    params: z.object({ code: z.string().min(1).max(20).openapi({ example: "12" }) }),
    query: z.object({ destination_country: BlockCountry.optional() }),
  },
  responses: {
    200: json(
      z
        .object({ success: z.literal(true), message: z.string() })
        .openapi({ example: { success: true, message: "Blocklist entry 12 removed" } }),
      "Removed",
    ),
    404: json(ErrorSchema, "No such entry"),
    ...errorResponses,
  },
});

const importRoute = createRoute({
  method: "post",
  path: "/classify/blocklist/import",
  tags: blocklistTags,
  summary: "Replace the whole blocklist (atomic; an empty array clears it)",
  ...scoped("classify:read", unpinned),
  request: {
    body: jsonBody(
      z
        .object({ entries: z.array(ImportEntry).max(5000) })
        .strict()
        .openapi({
          example: {
            entries: [
              { hs_code: "9301", reason: "Weapons" },
              { hs_code: "2402.20", country_code: "GB" },
            ],
          },
        }),
    ),
  },
  responses: {
    201: json(
      z
        .object({ success: z.literal(true), message: z.string(), count: z.number().int() })
        .openapi({ example: { success: true, message: "Blocklist replaced with 2 entries", count: 2 } }),
      "Loaded",
    ),
    ...errorResponses,
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/classify/blocklist",
  tags: blocklistTags,
  summary: "List the organization's blocklist, newest first",
  ...scoped("classify:read"),
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      starting_after: intId(12).optional().openapi({ description: "An entry id: return older entries" }),
      destination_country: BlockCountry.optional().openapi({
        description: "Only entries with exactly this country_code",
      }),
    }),
  },
  responses: {
    200: json(
      z
        .object({ success: z.literal(true), message: z.string(), entries: z.array(EntrySchema), has_more: z.boolean() })
        .openapi({
          example: {
            success: true,
            message: "",
            entries: [
              {
                id: 12,
                hs_code: "9301",
                country_code: "GLOBAL",
                reason: "We do not ship weapons",
                created_at: "2026-11-22T02:00:00.000Z",
              },
            ],
            has_more: false,
          },
        }),
      "One page",
    ),
    ...errorResponses,
  },
});

const HistoryRow = z
  .object({
    id: z.string(),
    request_id: z.string(),
    destination_country: z.string().nullable(),
    mode: z.string().nullable(),
    description: z.string().nullable(),
    top_code: z.string().nullable(),
    confidence: z.string().nullable(),
    result_count: z.number().int(),
    blocked: z.boolean(),
    unclassifiable: z.boolean(),
    duration_ms: z.number().int(),
    created_at: z.string(),
  })
  .openapi("ClassifyHistoryRow", {
    example: {
      id: "019a8f0c-5b7e-7d2a-9c1e-4f6a8b0c2d4e",
      request_id: "019a8f0c-5b7e-7d2a-9c1e-4f6a8b0c2d4e",
      destination_country: "US",
      mode: "standard",
      description: "Men's cotton crew neck t-shirt",
      top_code: "6109100012",
      confidence: "high",
      result_count: 5,
      blocked: false,
      unclassifiable: false,
      duration_ms: 3,
      created_at: "2026-11-22T02:00:00.000Z",
    },
  });

/** The 200 answer: suggestions best first, in the classify contract's shape. */
function classificationToWire(out: Classification, requestId: string) {
  const top = out.results[0] ?? null;
  return {
    success: true as const,
    message: out.message,
    original_description: out.originalDescription,
    usedWebSearch: false,
    country: out.country,
    ...(out.sourceCountry ? { classification_source_country: out.sourceCountry } : {}),
    mode: out.mode,
    data_source: out.dataSource,
    request_id: requestId,
    ...(out.page ?? {}),
    ...(out.image ?? {}),
    ...(out.model ? { ai: out.model } : {}),
    customs_description: top ? top.tariff.description : null,
    top_result: top,
    results: out.results,
    ...(out.blockedAll ? { blocked: true as const } : {}),
    ...(out.rulings.length ? { rulings: out.rulings } : {}),
  };
}

/** POST /classify/bulk's answer: each item's classification (or failure) in request order. */
function bulkToWire(results: BulkClassifyResult[], requestId: string) {
  return results.map((r) => {
    if (r.success) {
      const { request_id: _id, success: _ok, ...answer } = classificationToWire(r.classification, requestId);
      return { index: r.index, ref: r.ref, success: true, ...answer };
    }
    if (r.unclassifiable) {
      const { request_id: _id, success: _ok, message: _m, ...answer } = r.unclassifiable.body(requestId);
      return { index: r.index, ref: r.ref, success: false, error: r.error, ...answer };
    }
    return { index: r.index, ref: r.ref, success: false, error: r.error };
  });
}

/** Validates each bulk item against the single-classify body: a bad item becomes its own error, not a 400. */
function bulkItems(items: ({ ref?: string | undefined } & Record<string, unknown>)[]): BulkClassifyItem[] {
  return items.map(({ ref, ...rest }, index) => {
    const parsed = ClassifyBody.safeParse(rest);
    const refOut = ref ?? null;
    if (parsed.success) return { index, ref: refOut, input: parsed.data };
    const error = zodIssuesToFieldErrors(parsed.error.issues)
      .map((f) => `${f.field}: ${f.message}`)
      .join("; ");
    return { index, ref: refOut, error };
  });
}

/** `{code}` of DELETE /classify/blocklist/{code}: an entry id (all digits, no destination) or an HS code. */
function blockTarget(code: string, destination: string | undefined): BlockTarget {
  if (/^\d+$/.test(code) && destination === undefined) {
    const id = Number(code);
    if (!Number.isSafeInteger(id)) throw validationFailed([{ field: "code", message: "is not a valid entry id" }]);
    return { id };
  }
  if (!/^[0-9.]+$/.test(code) || code.replace(/\./g, "").length < 2 || code.length > 13)
    throw validationFailed([{ field: "code", message: "must be an entry id or an HS code of 2-13 digits and dots" }]);
  if (destination === undefined) throw badRequest("destination_country is required when deleting by HS code");
  return { hs_code: code.replace(/\./g, ""), country_code: destination };
}

export const classifyRoutes = newWorkspaceRouter()
  .openapi(classifyRoute, async (c) => {
    const ctx = c.get("ctx");
    // Unclassifiable text is thrown as a 422 after its usage row is recorded on the context.
    const out = await classify({ ctx, input: c.req.valid("json") });
    // Written with the audit row after the response: the log never adds latency to a checkout.
    return c.json(classificationToWire(out, ctx.requestId), 200);
  })
  .openapi(bulkRoute, async (c) => {
    const ctx = c.get("ctx");
    const results = await classifyBulk({ ctx, input: bulkItems(c.req.valid("json").items) });
    const ok = results.filter((r) => r.success).length;
    return c.json(
      {
        success: true as const,
        message: `${ok} of ${results.length} items classified`,
        results: bulkToWire(results, ctx.requestId),
        execution_time: Math.max(0, Math.round(ctx.deps.clock.now() - ctx.startedAt)),
        request_id: ctx.requestId,
      },
      200,
    );
  })
  .openapi(modesRoute, (c) => c.json({ success: true as const, message: "", modes: modes(c.env) }, 200))
  .openapi(addRoute, async (c) => {
    const input = c.req.valid("json");
    const row = await addBlock({
      ctx: c.get("ctx"),
      input: { hs_code: input.hs_code, country_code: input.destination_country, reason: input.reason },
    });
    return c.json(
      {
        success: true as const,
        message: row
          ? `${input.hs_code} blocked for ${input.destination_country}`
          : `${input.hs_code} was already blocked for ${input.destination_country}`,
        entry: row ? entryToWire(row) : null,
      },
      201,
    );
  })
  .openapi(deleteRoute, async (c) => {
    const target = blockTarget(c.req.valid("param").code, c.req.valid("query").destination_country);
    await removeBlock({ ctx: c.get("ctx"), input: target });
    const message =
      "id" in target
        ? `Blocklist entry ${target.id} removed`
        : `${target.hs_code} unblocked for ${target.country_code}`;
    return c.json({ success: true as const, message }, 200);
  })
  .openapi(importRoute, async (c) => {
    const { entries } = c.req.valid("json");
    const count = await importBlocklist({
      ctx: c.get("ctx"),
      input: {
        entries: entries.map((e) => ({
          hs_code: e.hs_code,
          country_code: e.country_code ?? e.destination_country ?? "GLOBAL",
          reason: e.reason,
        })),
      },
    });
    return c.json(
      {
        success: true as const,
        message: count ? `Blocklist replaced with ${count} entries` : "Blocklist cleared",
        count,
      },
      201,
    );
  })
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const { rows, hasMore } = await listBlocks({
      ctx: c.get("ctx"),
      input: { limit: q.limit, starting_after: q.starting_after, country_code: q.destination_country },
    });
    return c.json({ success: true as const, message: "", entries: rows.map(entryToWire), has_more: hasMore }, 200);
  })
  .route(
    "/",
    usageHistoryRoutes("classify", "classify:read", HistoryRow, (r) => {
      const d = JSON.parse(r.detail || "{}") as Record<string, unknown>;
      return {
        id: r.id,
        // A bulk item's row has its own id; its request is the bulk request.
        request_id: (d.request_id as string) ?? r.id,
        destination_country: r.receiverCountryCode,
        mode: (d.mode as string) ?? null,
        description: (d.description as string) ?? null,
        top_code: (d.top_code as string) ?? null,
        confidence: (d.confidence as string) ?? null,
        result_count: r.matchCount,
        blocked: d.blocked === true,
        unclassifiable: d.unclassifiable === true,
        duration_ms: r.durationMs,
        created_at: r.createdAt,
      };
    }),
  );
