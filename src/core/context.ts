/**
 * The one service context. Every service verb has the shape `verb({ ctx, input })`: tenancy, the caller and
 * the injected clock and ids come from `ctx`, never from the input. The workspace middleware builds it once
 * per request (see `serviceContextFor`); jobs (queue, cron) build a `BaseContext` and take the workspace
 * from the row they work on.
 */
import type { Db } from "../db/client";
import { createDb } from "../db/client";
import type { usageLog } from "../db/schema/usage";
import type { BucketName } from "../engines/rate-limit/buckets";
import type { BucketLimit } from "../engines/rate-limit/sliding-window";
import type { Clock } from "../lib/clock";
import type { IdSource } from "../lib/ids";
import type { Scope } from "../lib/scopes";

export type UsageLogInsert = typeof usageLog.$inferInsert;

/** Injected time and ids, so windows, signatures and retries are testable with explicit clocks. */
export interface Deps {
  clock: Clock;
  ids: IdSource;
}

/** The workspace the request's host names. */
export interface WorkspaceContext {
  id: string;
  slug: string;
  name: string;
  mode: "live" | "sandbox";
  organizationId: string;
  createdAt: string;
  archiveRetentionDays: number;
  limits: Record<BucketName, BucketLimit>;
}

/**
 * Where organization-level configuration that changes answers lives (the HS blocklist, custom restriction
 * rules): per organization and mode, so a sandbox workspace never changes a live workspace's answers, nor the
 * reverse. Rate limits stay per organization (the spec).
 */
export interface ConfigScope {
  organizationId: string;
  mode: "live" | "sandbox";
}

export const configScope = (ws: Pick<WorkspaceContext, "organizationId" | "mode">): ConfigScope => ({
  organizationId: ws.organizationId,
  mode: ws.mode,
});

/** A cache key for a config scope. */
export const configKey = (s: ConfigScope): string => `${s.organizationId}|${s.mode}`;

/** Who is calling: the authenticated API client behind the bearer token. Scopes are the client's current ones. */
export interface Actor {
  clientRowId: string;
  clientId: string;
  clientName: string;
  scopes: Scope[];
  /** Set for a customer-pinned client: it sees and acts on that customer's data only. */
  customerId: number | null;
}

/** What every verb may use, inside or outside a request: the database, the bindings, the clock and ids. */
export interface BaseContext {
  db: Db;
  env: Env;
  deps: Deps;
}

/**
 * What an engine's service needs inside a workspace, with or without a request: the workspace's id (its
 * rows), and its organization and mode (organization-level configuration). A request's ServiceContext
 * qualifies; a background job builds one from the workspace row it works for.
 */
export interface WorkspaceScopedContext extends BaseContext {
  workspace: Pick<WorkspaceContext, "id" | "mode" | "organizationId">;
}

/** A verb's context inside one workspace: who asks, for which workspace, under which request id. */
export interface ServiceContext extends BaseContext {
  workspace: WorkspaceContext;
  actor: Actor;
  requestId: string;
  /** When the request started (ms, from the injected clock): durations and as-of dates derive from it. */
  startedAt: number;
  /**
   * The engine-call log row of this request, set by `recordUsage` (core/usage.ts); the audit step writes it
   * with the request's audit row.
   */
  usage: UsageLogInsert | UsageLogInsert[] | undefined;
}

/** The verb shape: `verb({ ctx, input })`. */
export interface Call<I, C = ServiceContext> {
  ctx: C;
  input: I;
}

export function baseContext(env: Env, deps: Deps): BaseContext {
  return { db: createDb(env.DB), env, deps };
}

/** Built once per request by the workspace middleware (bearerAuth), after authentication. */
export function serviceContextFor(
  base: BaseContext,
  workspace: WorkspaceContext,
  actor: Actor,
  request: { requestId: string; startedAt: number },
): ServiceContext {
  return { ...base, workspace, actor, requestId: request.requestId, startedAt: request.startedAt, usage: undefined };
}
