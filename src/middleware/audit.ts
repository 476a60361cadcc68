/**
 * Writes the audit row after the response is built, through waitUntil, so it adds no latency. Runs for
 * every request on the API surfaces, including 401/403/404/429 and 5xx; the health check and the API
 * reference pages are not API requests and are not audited.
 */
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { isoAt } from "../lib/clock";
import { extractRefs } from "../engines/refs/extract";
import { outcomeOf } from "../modules/audit/service";
import { refInserts } from "../modules/requests/service";
import { requestAudit } from "../db/schema/index";

const NOT_AUDITED = new Set(["/health", "/openapi.json", "/docs"]);

export const audit = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (NOT_AUDITED.has(c.req.path)) return;
  const { deps, requestId, startedAt } = c.var;
  const status = c.res.status;
  const matched = routePath(c, -1);
  const archived = c.var.archived;
  const auth = c.var.auth;
  const row = {
    id: requestId,
    workspaceId: c.var.workspace?.id ?? null,
    surface: c.var.surface ?? "public",
    // An unmatched request has no route pattern; its path stands in.
    route: matched && matched !== "*" && matched !== "/*" ? matched : c.req.path,
    path: c.req.path,
    method: c.req.method,
    source: "http" as const,
    actor: auth?.clientId ?? (c.var.platformAdmin ? "platform-admin" : null),
    customerId: auth?.customerId ?? null,
    httpStatus: status,
    outcome: outcomeOf(status),
    durationMs: Math.max(0, Math.round(deps.clock.now() - startedAt)),
    hasBody: Boolean(archived),
    bodyKey: archived?.key ?? null,
    bodyContentType: archived?.contentType ?? null,
    bodySize: archived?.size ?? null,
    errorSummary: status >= 400 ? (c.var.errorSummary ?? `HTTP ${status}`).slice(0, 500) : null,
    createdAt: isoAt(startedAt),
  };
  const db = createDb(c.env.DB);
  // The body is still cached on the request from the archive step; parsing it happens after the response.
  const body = archived && c.var.workspace ? c.req.arrayBuffer() : null;
  const workspaceId = c.var.workspace?.id;
  const write = (async () => {
    const refs = body && workspaceId ? refsOf(await body) : [];
    const inserts = workspaceId ? refInserts(db, workspaceId, requestId, refs, row.createdAt) : [];
    await db.batch([db.insert(requestAudit).values(row), ...inserts]);
  })().catch((err) => {
    // The response is already on its way; the failure goes to the logs (never the body or headers).
    console.error(JSON.stringify({ msg: "audit write failed", request_id: requestId, error: String(err) }));
  });
  try {
    c.executionCtx.waitUntil(write);
  } catch {
    await write; // no execution context (plain app.request in unit tests)
  }
});

function refsOf(raw: ArrayBuffer) {
  try {
    return extractRefs(JSON.parse(new TextDecoder().decode(raw)));
  } catch {
    return []; // not JSON (it was refused or failed validation): nothing to extract
  }
}
