/**
 * API clients of a workspace: created by the platform API or under settings, listed, amended, deleted.
 * Secrets are 32 random bytes shown once and stored as SHA-256; lookups for authentication go through a
 * 30-second per-isolate cache, so amendments and deletions reach every isolate within 60 s.
 *
 * Under settings a client manages other clients only within its own reach: it may grant only scopes it holds,
 * and may amend or delete only a client whose scopes it holds too, or a `settings:write` key could strip or
 * delete a more powerful key (or hand its scopes to a new one). Customer-pinned clients manage none.
 */
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { Actor, BaseContext, Call } from "../../core/context";
import { apiClients, customers } from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { conflict, forbidden, notFound, unprocessable } from "../../lib/errors";
import { hasScope, type Scope } from "../../lib/scopes";
import { TtlCache } from "../../lib/ttl-cache";

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
export async function loadClientForAuth({
  ctx,
  input,
}: Call<{ clientRowId: string }, BaseContext>): Promise<ClientRecord | null> {
  const cached = authCache.get(input.clientRowId, ctx.deps.clock);
  if (cached !== undefined) return cached;
  const [row] = await ctx.db
    .select()
    .from(apiClients)
    .where(and(eq(apiClients.id, input.clientRowId), isNull(apiClients.deletedAt)))
    .limit(1);
  const value = row ? toRecord(row) : null;
  authCache.set(input.clientRowId, value, ctx.deps.clock);
  return value;
}

/** Finds an active client by its public client_id within one workspace (token endpoint). */
export async function findClientByClientId({
  ctx,
  input,
}: Call<{ workspaceId: string; clientId: string }, BaseContext>): Promise<
  (ClientRecord & { secretHash: string }) | null
> {
  const [row] = await ctx.db
    .select()
    .from(apiClients)
    .where(
      and(
        eq(apiClients.clientId, input.clientId),
        eq(apiClients.workspaceId, input.workspaceId),
        isNull(apiClients.deletedAt),
      ),
    )
    .limit(1);
  return row ? { ...toRecord(row), secretHash: row.secretHash } : null;
}

export interface CreateClientInput {
  name: string;
  scopes: Scope[];
  customer_id?: number | null | undefined;
}

export interface CreatedClient {
  client: ClientRecord;
  /** The one-time secret: only its hash is stored. */
  secret: string;
}

/**
 * Inserts a client into a workspace with no caller to check: the operator path (platform API), and the last
 * step of `createClient`. 422 when the customer is not in the workspace.
 */
export async function provisionClient({
  ctx,
  input,
}: Call<{ workspaceId: string; client: CreateClientInput }, BaseContext>): Promise<CreatedClient> {
  const { workspaceId, client } = input;
  const customerId = client.customer_id ?? null;
  if (customerId !== null) {
    const found = await ctx.db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.id, customerId), eq(customers.workspaceId, workspaceId)))
      .limit(1);
    if (!found.length)
      throw unprocessable(`Unknown customer_id ${customerId}`, {
        errors: [{ field: "customer_id", message: `no customer ${customerId} in this workspace` }],
      });
  }
  const now = isoAt(ctx.deps.clock.now());
  const secret = randomToken(32, "cs_");
  const row: ClientRow = {
    id: ctx.deps.ids.prefixed("apc"),
    workspaceId,
    name: client.name,
    clientId: randomToken(16, "ci_"),
    secretHash: await sha256Hex(secret),
    scopes: JSON.stringify([...new Set(client.scopes)]),
    customerId,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await ctx.db.insert(apiClients).values(row);
  return { client: toRecord(row), secret };
}

/** The scopes of `wanted` the actor does not hold (`settings:write` covers `settings:read`). */
function notHeld(actor: Actor, wanted: readonly Scope[]): Scope[] {
  return [...new Set(wanted.filter((s) => !hasScope(actor.scopes, s)))];
}

function assertUnpinned(actor: Actor): void {
  if (actor.customerId !== null) throw forbidden("Customer-pinned clients cannot manage API clients");
}

/** 403 unless the actor holds every scope it would grant. */
function assertMayGrant(actor: Actor, scopes: readonly Scope[]): void {
  assertUnpinned(actor);
  const missing = notHeld(actor, scopes);
  if (missing.length) throw forbidden(`Cannot grant scopes this client does not hold: ${missing.join(", ")}`);
}

/** 403 unless the actor holds every scope the target client holds now. */
function assertMayManage(actor: Actor, target: ClientRecord): void {
  assertUnpinned(actor);
  const missing = notHeld(actor, target.scopes);
  if (missing.length)
    throw forbidden(`Cannot manage an API client holding scopes this client does not hold: ${missing.join(", ")}`);
}

/** Creates a client in the caller's workspace with at most the caller's scopes; the secret is returned once. */
export async function createClient({ ctx, input }: Call<CreateClientInput>): Promise<CreatedClient> {
  assertMayGrant(ctx.actor, input.scopes);
  return provisionClient({ ctx, input: { workspaceId: ctx.workspace.id, client: input } });
}

export interface ListClientsInput {
  limit: number;
  starting_after?: string | undefined;
}

/** Newest first, keyset on the time-sortable id. */
export async function listClients({
  ctx,
  input,
}: Call<ListClientsInput>): Promise<{ clients: ClientRecord[]; hasMore: boolean }> {
  const conditions = [eq(apiClients.workspaceId, ctx.workspace.id), isNull(apiClients.deletedAt)];
  if (input.starting_after) conditions.push(lt(apiClients.id, input.starting_after));
  const rows = await ctx.db
    .select()
    .from(apiClients)
    .where(and(...conditions))
    .orderBy(desc(apiClients.id))
    .limit(input.limit + 1);
  return { clients: rows.slice(0, input.limit).map(toRecord), hasMore: rows.length > input.limit };
}

/** The live row of a client of the context's workspace; 404 for another workspace's or a deleted client. */
async function loadRow({ ctx, input }: Call<{ id: string }>): Promise<ClientRow> {
  const [row] = await ctx.db
    .select()
    .from(apiClients)
    .where(and(eq(apiClients.id, input.id), eq(apiClients.workspaceId, ctx.workspace.id), isNull(apiClients.deletedAt)))
    .limit(1);
  if (!row) throw notFound(`API client '${input.id}' not found`);
  return row;
}

export async function getClient(call: Call<{ id: string }>): Promise<ClientRecord> {
  return toRecord(await loadRow(call));
}

export interface UpdateClientInput {
  name?: string | undefined;
  scopes?: Scope[] | undefined;
}

/**
 * The write of an amendment or deletion, guarded on the scopes the caller was checked against: if they changed
 * in between (another request widened them), nothing is written and the caller gets a 409, or a 404 when the
 * client was deleted meanwhile.
 */
async function writeChecked(
  call: Call<{ id: string }>,
  checked: ClientRow,
  patch: Partial<ClientRow>,
): Promise<ClientRow> {
  const { ctx } = call;
  const [row] = await ctx.db
    .update(apiClients)
    .set(patch)
    .where(and(eq(apiClients.id, checked.id), isNull(apiClients.deletedAt), eq(apiClients.scopes, checked.scopes)))
    .returning();
  authCache.delete(checked.id);
  if (row) return row;
  await loadRow(call);
  throw conflict(`API client '${checked.id}' changed while this request ran; read it again and retry`);
}

/** Renames a client or replaces its scopes; both the client's current and its new scopes must be the caller's. */
export async function updateClient({
  ctx,
  input,
}: Call<{ id: string; patch: UpdateClientInput }>): Promise<ClientRecord> {
  const current = await loadRow({ ctx, input });
  assertMayManage(ctx.actor, toRecord(current));
  const { name, scopes } = input.patch;
  if (scopes !== undefined) assertMayGrant(ctx.actor, scopes);
  const patch: Partial<ClientRow> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (name !== undefined) patch.name = name;
  if (scopes !== undefined) patch.scopes = JSON.stringify([...new Set(scopes)]);
  return toRecord(await writeChecked({ ctx, input }, current, patch));
}

/** Soft-deletes: tokens stop working (within 60 s everywhere, at once in this isolate). */
export async function deleteClient({ ctx, input }: Call<{ id: string }>): Promise<void> {
  const current = await loadRow({ ctx, input });
  assertMayManage(ctx.actor, toRecord(current));
  await writeChecked({ ctx, input }, current, { deletedAt: isoAt(ctx.deps.clock.now()) });
}
