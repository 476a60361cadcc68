/**
 * Organizations and workspaces: provisioning (the operator's platform API) and host → workspace resolution.
 * Every verb runs outside a workspace request, on a `BaseContext`.
 */
import { eq } from "drizzle-orm";
import type { BaseContext, Call, WorkspaceContext } from "../../core/context";
import { isUniqueViolation } from "../../db/client";
import { organizations, workspaces } from "../../db/schema/index";
import { effectiveLimits, type LimitOverrides } from "../../engines/rate-limit/buckets";
import { isoAt } from "../../lib/clock";
import { conflict, notFound } from "../../lib/errors";
import { TtlCache } from "../../lib/ttl-cache";
import { type CreateClientInput, type CreatedClient, provisionClient } from "../api-clients/service";

/** Seven years: customs record-keeping rules run from three (EU) to five (US) years after entry. */
const DEFAULT_RETENTION_DAYS = 2557;

/** Positive lookups live 30 s; unknown slugs 5 s, so a slug provisioned elsewhere shows up quickly. */
const bySlug = new TtlCache<WorkspaceContext | null>(30_000);
const NEGATIVE_TTL_MS = 5_000;

function toContext(row: typeof workspaces.$inferSelect, orgLimits: string): WorkspaceContext {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    mode: row.mode,
    organizationId: row.organizationId,
    createdAt: row.createdAt,
    archiveRetentionDays: row.archiveRetentionDays,
    limits: effectiveLimits(JSON.parse(orgLimits) as LimitOverrides),
  };
}

/** Resolves a subdomain slug; null when no such workspace exists. */
export async function findWorkspaceBySlug({
  ctx,
  input,
}: Call<{ slug: string }, BaseContext>): Promise<WorkspaceContext | null> {
  const { slug } = input;
  const cached = bySlug.get(slug, ctx.deps.clock);
  if (cached !== undefined) return cached;
  const rows = await ctx.db
    .select({ ws: workspaces, limits: organizations.rateLimits })
    .from(workspaces)
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .where(eq(workspaces.slug, slug))
    .limit(1);
  const row = rows[0];
  const value = row ? toContext(row.ws, row.limits) : null;
  bySlug.set(slug, value, ctx.deps.clock, value ? undefined : NEGATIVE_TTL_MS);
  return value;
}

/** Forgets cached workspaces after a change made in this isolate (other isolates catch up within the TTL). */
function forgetWorkspaces(slugs: string[]): void {
  for (const s of slugs) bySlug.delete(s);
}

export function workspaceToWire(ws: WorkspaceContext) {
  return {
    id: ws.id,
    slug: ws.slug,
    name: ws.name,
    mode: ws.mode,
    organization_id: ws.organizationId,
    created_at: ws.createdAt,
  };
}

export interface CreateWorkspaceInput {
  slug: string;
  name: string;
  mode?: "live" | "sandbox";
  organization_id?: string;
}

/**
 * Creates a workspace, and its organization when none is named. Fails with 409 on a taken slug and
 * 404 on an unknown organization. Organization and workspace are written in one batch.
 */
export async function createWorkspace({
  ctx,
  input,
}: Call<CreateWorkspaceInput, BaseContext>): Promise<WorkspaceContext> {
  const { db, deps } = ctx;
  const now = isoAt(deps.clock.now());
  const existing = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.slug, input.slug))
    .limit(1);
  if (existing.length) throw conflict(`A workspace with slug '${input.slug}' already exists`);

  let orgId = input.organization_id;
  let orgLimits = "{}";
  if (orgId) {
    const org = await db.select().from(organizations).where(eq(organizations.id, orgId)).limit(1);
    if (!org[0]) throw notFound(`Organization '${orgId}' not found`);
    orgLimits = org[0].rateLimits;
  }
  const wsRow = {
    id: deps.ids.prefixed("ws"),
    organizationId: orgId ?? deps.ids.prefixed("org"),
    slug: input.slug,
    name: input.name,
    mode: input.mode ?? "live",
    archiveRetentionDays: DEFAULT_RETENTION_DAYS,
    createdAt: now,
    updatedAt: now,
  } as const;
  const insertWs = db.insert(workspaces).values(wsRow);
  try {
    if (orgId) await insertWs;
    else {
      orgId = wsRow.organizationId;
      await db.batch([
        db.insert(organizations).values({ id: orgId, name: input.name, createdAt: now, updatedAt: now }),
        insertWs,
      ]);
    }
  } catch (err) {
    // Two concurrent creates of one slug: the unique index decides, and the loser gets the same 409.
    if (isUniqueViolation(err)) throw conflict(`A workspace with slug '${input.slug}' already exists`);
    throw err;
  }
  forgetWorkspaces([input.slug]);
  return toContext(wsRow, orgLimits);
}

export interface UpdateWorkspaceInput {
  name?: string;
  rate_limits?: LimitOverrides;
  archive_retention_days?: number;
}

/** Renames a workspace and/or sets rate-limit overrides on its organization (shared by its workspaces). */
export async function updateWorkspace({
  ctx,
  input: { slug, patch },
}: Call<{ slug: string; patch: UpdateWorkspaceInput }, BaseContext>): Promise<WorkspaceContext> {
  const { db, deps } = ctx;
  const now = isoAt(deps.clock.now());
  const ws = await requireWorkspace({ ctx, input: { slug } });
  const writes = [];
  if (patch.name !== undefined || patch.archive_retention_days !== undefined) {
    writes.push(
      db
        .update(workspaces)
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.archive_retention_days !== undefined ? { archiveRetentionDays: patch.archive_retention_days } : {}),
          updatedAt: now,
        })
        .where(eq(workspaces.id, ws.id)),
    );
  }
  if (patch.rate_limits) {
    const org = await db.select().from(organizations).where(eq(organizations.id, ws.organizationId)).limit(1);
    const merged = { ...(JSON.parse(org[0]?.rateLimits ?? "{}") as LimitOverrides), ...patch.rate_limits };
    writes.push(
      db
        .update(organizations)
        .set({ rateLimits: JSON.stringify(merged), updatedAt: now })
        .where(eq(organizations.id, ws.organizationId)),
    );
  }
  const [first, ...rest] = writes;
  if (first) await db.batch([first, ...rest]);
  // Every workspace of the organization shares the limits: drop them all from this isolate's cache.
  const siblings = await db
    .select({ slug: workspaces.slug })
    .from(workspaces)
    .where(eq(workspaces.organizationId, ws.organizationId));
  forgetWorkspaces(siblings.map((s) => s.slug));
  return requireWorkspace({ ctx, input: { slug } });
}

/** The workspace a slug names; 404 when there is none. */
async function requireWorkspace(call: Call<{ slug: string }, BaseContext>): Promise<WorkspaceContext> {
  const ws = await findWorkspaceBySlug(call);
  if (!ws) throw notFound(`Workspace '${call.input.slug}' not found`);
  return ws;
}

/** The operator creates an API client in a workspace named by its slug (no caller scopes to respect). */
export async function createWorkspaceClient({
  ctx,
  input,
}: Call<{ slug: string; client: CreateClientInput }, BaseContext>): Promise<CreatedClient> {
  const ws = await requireWorkspace({ ctx, input: { slug: input.slug } });
  return provisionClient({ ctx, input: { workspaceId: ws.id, client: input.client } });
}
