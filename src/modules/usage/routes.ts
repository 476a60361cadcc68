/**
 * `GET {api}/usage-history/{kind}` factory: each engine area mounts its own history with its scope and its
 * row shape, over the shared usage log.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, json, newWorkspaceRouter, scoped } from "../../http/router";
import type { Scope } from "../../lib/scopes";
import { listUsage, type UsageKind, type UsageRow } from "./service";

const HistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  starting_after: z.string().uuid().optional().openapi({ description: "A request id: return older rows" }),
  ending_before: z.string().uuid().optional().openapi({ description: "A request id: return newer rows" }),
});

export function usageHistoryRoutes<T extends z.ZodType>(
  kind: UsageKind,
  scope: Scope,
  rowSchema: T,
  toWire: (row: UsageRow) => z.output<T>,
) {
  const route = createRoute({
    method: "get",
    path: `/usage-history/${kind}`,
    tags: ["Usage history"],
    summary: `History of ${kind} requests, newest first`,
    ...scoped(scope),
    request: { query: HistoryQuerySchema },
    responses: {
      200: json(
        z.object({ success: z.literal(true), message: z.string(), data: z.array(rowSchema), has_more: z.boolean() }),
        "One page",
      ),
      ...errorResponses,
    },
  });
  return newWorkspaceRouter().openapi(route, async (c) => {
    const { rows, hasMore } = await listUsage({ ctx: c.get("ctx"), input: { kind, query: c.req.valid("query") } });
    return c.json({ success: true as const, message: "", data: rows.map(toWire), has_more: hasMore }, 200);
  });
}
