/**
 * Every module builds its routes on `newRouter()`: one OpenAPIHono with the shared validation hook, so a
 * zod failure anywhere becomes the same 400 `{success: false, message, errors: [{field, message}]}`.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv, WorkspaceEnv } from "../env";
import { type FieldError, validationFailed } from "../lib/errors";
import type { Scope } from "../lib/scopes";
import { archiveBody, archiveBodyAlongside } from "../middleware/archive";
import { requireScope, unpinned } from "../middleware/auth";

export function zodIssuesToFieldErrors(issues: readonly z.core.$ZodIssue[], target?: string): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return { field: path || (target === "json" ? "body" : (target ?? "")), message: issue.message };
  });
}

const defaultHook = (result: { success: boolean; error?: unknown; target?: string }) => {
  if (!result.success) {
    const issues = (result.error as { issues: readonly z.core.$ZodIssue[] }).issues;
    throw validationFailed(zodIssuesToFieldErrors(issues, result.target));
  }
};

/** A router for surfaces without a workspace (platform, token endpoint). */
export const newRouter = () => new OpenAPIHono<AppEnv>({ defaultHook });

/**
 * A router for workspace routes (`{api}`): mounted behind host routing and bearerAuth, so its handlers read a
 * non-optional `c.get("ctx")` (the service context), `c.get("workspace")` and `c.get("auth")`.
 */
export const newWorkspaceRouter = () => new OpenAPIHono<WorkspaceEnv>({ defaultHook });

/**
 * Guard for a workspace route: scope check (403), optional extra buckets, then the body archive, in that
 * order, so refused requests are never archived as processed. Spread into createRoute().
 */
export function scoped(scope: Scope, ...extra: MiddlewareHandler<AppEnv>[]) {
  return {
    middleware: [requireScope(scope), ...extra, archiveBody] as MiddlewareHandler[],
    security: [{ oauth2: [scope] }],
    "x-customer-pinned": pinnedAnswer(scope, extra),
  };
}

/**
 * What a customer-pinned client gets, documented on every operation (and checked for every route by
 * test/route-security.test.ts): `forbidden` (403) for workspace-wide settings and organization configuration,
 * `scoped` where the module narrows the data to the client's customer.
 */
function pinnedAnswer(scope: Scope, extra: MiddlewareHandler<AppEnv>[]): "forbidden" | "scoped" {
  return scope.startsWith("settings:") || extra.includes(unpinned) ? "forbidden" : "scoped";
}

/**
 * Guard for a POST that only computes an answer (no state change beyond its log): as `scoped`, but the body
 * archive runs beside the handler and is awaited before the response (see archiveBodyAlongside).
 */
export function scopedCompute(scope: Scope, ...extra: MiddlewareHandler<AppEnv>[]) {
  return {
    middleware: [requireScope(scope), ...extra, archiveBodyAlongside] as MiddlewareHandler[],
    security: [{ oauth2: [scope] }],
    "x-customer-pinned": pinnedAnswer(scope, extra),
  };
}

/**
 * Guard for a write that reads before it commits: the same middleware as `scopedCompute` (the archive put
 * overlaps the handler); the handler must await `c.get("archiveGate")()` before its commit.
 */
export function scopedWrite(scope: Scope, ...extra: MiddlewareHandler<AppEnv>[]) {
  return scopedCompute(scope, ...extra);
}

/** Common wire schemas. */
export const ErrorSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.string().openapi({ example: "not_found" }),
    request_id: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  // Some errors add details of their own beside the envelope (`received` for a 415, `limit_bytes` for a 413,
  // `original_request_id` for an idempotency conflict): documented with each error, allowed here.
  .catchall(z.unknown())
  .openapi("Error");

export const RateLimitedSchema = z
  .object({ error: z.literal("rate_limited"), message: z.string() })
  .openapi("RateLimited");

export const errorResponses = {
  400: { description: "Invalid request", content: { "application/json": { schema: ErrorSchema } } },
  401: {
    description: "Missing, invalid, expired or revoked token",
    content: { "application/json": { schema: ErrorSchema } },
  },
  403: { description: "Missing scope", content: { "application/json": { schema: ErrorSchema } } },
  429: { description: "Rate limited", content: { "application/json": { schema: RateLimitedSchema } } },
} as const;

/** The success envelope around a payload: `{success: true, message, ...shape}`. */
export const ok = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ success: z.literal(true), message: z.string(), ...shape });

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/** Keyset list query shared by list endpoints. */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ example: 50 }),
  starting_after: z.string().min(1).max(100).optional().openapi({ description: "Return items older than this id" }),
});
