import { z } from "@hono/zod-openapi";
import { BUCKETS } from "../../engines/rate-limit/buckets";

export const SlugSchema = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9-]+$/, "slug: 3-63 characters of a-z, 0-9 and '-'")
  .refine((s) => !s.startsWith("-") && !s.endsWith("-"), "slug may not start or end with '-'")
  .openapi({ example: "acme" });

export const WorkspaceSchema = z
  .object({
    id: z.string().openapi({ example: "ws_019a8f0c5b7e7d2a9c1e4f6a8b0c2d4e" }),
    slug: z.string(),
    name: z.string(),
    mode: z.enum(["live", "sandbox"]),
    organization_id: z.string(),
    created_at: z.string(),
  })
  .openapi("Workspace");

const BucketOverride = z.object({
  limit: z.number().int().min(1).max(1_000_000_000),
  window_seconds: z.number().int().min(1).max(86_400),
});

const RateLimitsSchema = z
  .object(
    Object.fromEntries(BUCKETS.map((b) => [b, BucketOverride.optional()])) as Record<
      (typeof BUCKETS)[number],
      z.ZodOptional<typeof BucketOverride>
    >,
  )
  .strict()
  .openapi("RateLimits", { example: { api: { limit: 5000, window_seconds: 10 } } });

export const CreateWorkspaceBody = z
  .object({
    slug: SlugSchema,
    name: z.string().trim().min(1).max(200).openapi({ example: "Acme Imports" }),
    mode: z.enum(["live", "sandbox"]).optional().openapi({ description: "Default live" }),
    organization_id: z.string().min(1).max(100).optional().openapi({ description: "Join an existing organization" }),
  })
  .strict();

export const UpdateWorkspaceBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    rate_limits: RateLimitsSchema.optional(),
    archive_retention_days: z
      .number()
      .int()
      .min(1)
      .max(36_525)
      .optional()
      .openapi({ description: "Days the request archive keeps audit rows and bodies (default 2557, seven years)" }),
  })
  .strict();
