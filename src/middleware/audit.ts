/**
 * Writes the audit row after the response is built, through waitUntil, so it adds no latency (group-committed
 * with the rows of other requests within AUDIT_FLUSH_MS, see modules/audit/writer). Runs for
 * every request on the API surfaces, including 401/403/404/429 and 5xx; the health check and the API
 * reference pages are not API requests and are not audited.
 */
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import { createDb } from "../db/client";
import { extractRefs } from "../engines/refs/extract";
import type { AppEnv } from "../env";
import { isoAt } from "../lib/clock";
import { outcomeOf } from "../modules/audit/service";
import { flushWindow, queueAudit, writeEntries } from "../modules/audit/writer";

const NOT_AUDITED = new Set(["/health", "/openapi.json", "/docs"]);

export const audit = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (NOT_AUDITED.has(c.req.path)) return;
  const deps = c.get("deps");
  const requestId = c.get("requestId");
  const startedAt = c.get("startedAt");
  const status = c.res.status;
  const matched = routePath(c, -1);
  const archived = c.get("archived");
  const auth = c.get("auth");
  const row = {
    id: requestId,
    workspaceId: c.get("workspace")?.id ?? null,
    surface: c.get("surface") ?? "public",
    // An unmatched request has no route pattern; its path stands in.
    route: matched && matched !== "*" && matched !== "/*" ? matched : c.req.path,
    path: c.req.path,
    method: c.req.method,
    source: "http" as const,
    actor: auth?.clientId ?? (c.get("platformAdmin") ? "platform-admin" : null),
    customerId: auth?.customerId ?? null,
    httpStatus: status,
    outcome: outcomeOf(status),
    durationMs: Math.max(0, Math.round(deps.clock.now() - startedAt)),
    hasBody: Boolean(archived),
    bodyKey: archived?.key ?? null,
    bodyContentType: archived?.contentType ?? null,
    bodySize: archived?.size ?? null,
    errorSummary: status >= 400 ? (c.get("errorSummary") ?? `HTTP ${status}`).slice(0, 500) : null,
    createdAt: isoAt(startedAt),
  };
  // The body is still cached on the request from the archive step (this resolves at once). It is kept as
  // plain bytes, and refs are parsed at flush time, off the response path.
  const raw = archived && c.get("workspace") ? await c.req.arrayBuffer() : null;
  // The engine-call log row a verb recorded on the service context (core/usage.ts), written in the same batch.
  const entry = { row, refs: async () => (raw ? refsOf(raw) : []), usage: c.get("ctx")?.usage };
  const db = createDb(c.env.DB);
  let ctx: { waitUntil(p: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined; // no execution context: plain app.request in unit tests
  }
  if (ctx) queueAudit(db, entry, (p) => ctx.waitUntil(p), flushWindow(c.env.AUDIT_FLUSH_MS));
  else await writeEntries(db, [entry]);
});

function refsOf(raw: ArrayBuffer) {
  try {
    return extractRefs(JSON.parse(new TextDecoder().decode(raw)));
  } catch {
    return []; // not JSON (it was refused or failed validation): nothing to extract
  }
}
