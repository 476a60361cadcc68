/**
 * API clients of a workspace: created by the platform API or under settings, listed, amended, deleted.
 * Secrets are 32 random bytes shown once and stored as SHA-256; lookups for authentication go through a
 * 30-second per-isolate cache, so amendments and deletions reach every isolate within 60 s.
 */
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import { apiClients, customers } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { notFound, unprocessable } from "../../lib/errors";
import type { Scope } from "../../lib/scopes";
import { TtlCache } from "../../lib/ttl-cache";
import type { ServiceCtx } from "../workspaces/service";

type ClientRow = typeof apiClients.$inferSelect;

export interface ClientRecord {
  id: string;
  workspaceId: string;
  clientId: string;
  name: string;
  scopes: Scope[];
  customerId: number | null;
  createdAt: string;
  updatedAt: string;
}

const toRecord = (row: ClientRow): ClientRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  clientId: row.clientId,
  name: row.name,
  scopes: JSON.parse(row.scopes) as Scope[],
  customerId: row.customerId ?? null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const clientToWire = (c: ClientRecord) => ({
  id: c.id,
  client_id: c.clientId,
  name: c.name,
  scopes: c.scopes,
  customer_id: c.customerId,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

const authCache = new TtlCache<ClientRecord | null>(30_000);

/** The live record behind a token's subject, or null when the client was deleted. */
export async function loadClientForAuth({ db, deps }: ServiceCtx, clientRowId: string): Promise<ClientRecord | null> {
  const cached = authCache.get(clientRowId, deps.clock);
  if (cached !== undefined) return cached;
  const rows = await db
    .select()
    .from(apiClients)
    .where(and(eq(apiClients.id, clientRowId), isNull(apiClients.deletedAt)))
    .limit(1);
  const value = rows[0] ? toRecord(rows[0]) : null;
  authCache.set(clientRowId, value, deps.clock);
  return value;
}

/** Finds an active client by its public client_id within one workspace (token endpoint). */
export async function findClientByClientId(
  { db }: ServiceCtx,
  workspaceId: string,
  clientId: string,
): Promise<(ClientRecord & { secretHash: string }) | null> {
  const rows = await db
    .select()
    .from(apiClients)
    .where(
      and(eq(apiClients.clientId, clientId), eq(apiClients.workspaceId, workspaceId), isNull(apiClients.deletedAt)),
    )
    .limit(1);
  const row = rows[0];
  return row ? { ...toRecord(row), secretHash: row.secretHash } : null;
}

export interface CreateClientInput {
  name: string;
  scopes: Scope[];
  customer_id?: number | null | undefined;
}

/** Creates a client; returns the record and the one-time secret. 422 when the customer is not in the workspace. */
export async function createClient(
  ctx: ServiceCtx,
  workspaceId: string,
  input: CreateClientInput,
): Promise<{ client: ClientRecord; secret: string }> {
  const { db, deps } = ctx;
  const customerId = input.customer_id ?? null;
  if (customerId !== null) {
    const found = await db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.id, customerId), eq(customers.workspaceId, workspaceId)))
      .limit(1);
    if (!found.length)
      throw unprocessable(`Unknown customer_id ${customerId}`, {
        errors: [`customer_id: no customer ${customerId} in this workspace`],
      });
  }
  const now = isoAt(deps.clock.now());
  const secret = randomToken(32, "cs_");
  const row: ClientRow = {
    id: deps.ids.prefixed("apc"),
    workspaceId,
    name: input.name,
    clientId: randomToken(16, "ci_"),
    secretHash: await sha256Hex(secret),
    scopes: JSON.stringify([...new Set(input.scopes)]),
    customerId,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await db.insert(apiClients).values(row);
  return { client: toRecord(row), secret };
}

export interface ListClientsInput {
  limit: number;
  starting_after?: string | undefined;
}

/** Newest first, keyset on the time-sortable id. */
export async function listClients({ db }: ServiceCtx, workspaceId: string, input: ListClientsInput) {
  const conditions = [eq(apiClients.workspaceId, workspaceId), isNull(apiClients.deletedAt)];
  if (input.starting_after) conditions.push(lt(apiClients.id, input.starting_after));
  const rows = await db
    .select()
    .from(apiClients)
    .where(and(...conditions))
    .orderBy(desc(apiClients.id))
    .limit(input.limit + 1);
  return { clients: rows.slice(0, input.limit).map(toRecord), hasMore: rows.length > input.limit };
}

export async function getClient({ db }: ServiceCtx, workspaceId: string, id: string): Promise<ClientRecord> {
  const rows = await db
    .select()
    .from(apiClients)
    .where(and(eq(apiClients.id, id), eq(apiClients.workspaceId, workspaceId), isNull(apiClients.deletedAt)))
    .limit(1);
  if (!rows[0]) throw notFound(`API client '${id}' not found`);
  return toRecord(rows[0]);
}

export interface UpdateClientInput {
  name?: string | undefined;
  scopes?: Scope[] | undefined;
}

export async function updateClient(ctx: ServiceCtx, workspaceId: string, id: string, input: UpdateClientInput) {
  const current = await getClient(ctx, workspaceId, id);
  const now = isoAt(ctx.deps.clock.now());
  const patch: Partial<ClientRow> = { updatedAt: now };
  if (input.name !== undefined) patch.name = input.name;
  if (input.scopes !== undefined) patch.scopes = JSON.stringify([...new Set(input.scopes)]);
  await ctx.db.update(apiClients).set(patch).where(eq(apiClients.id, current.id));
  authCache.delete(id);
  return getClient(ctx, workspaceId, id);
}

/** Soft-deletes: tokens stop working (within 60 s everywhere, at once in this isolate). */
export async function deleteClient(ctx: ServiceCtx, workspaceId: string, id: string): Promise<void> {
  const current = await getClient(ctx, workspaceId, id);
  await ctx.db
    .update(apiClients)
    .set({ deletedAt: isoAt(ctx.deps.clock.now()) })
    .where(eq(apiClients.id, current.id));
  authCache.delete(id);
}
