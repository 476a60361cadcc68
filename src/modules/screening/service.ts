/**
 * Ongoing screening (no Hono): the parties a workspace holds are screened when they appear and again whenever
 * a sanctions list version changes; a new hit opens an alert, which an officer clears or confirms.
 *
 * - **Discovery** (`discoverParties`, cron): new consignments (sender, receiver, supporting agents) and
 *   customers are read after a cursor, in id order, and their parties upserted (one row per distinct name,
 *   company and country in a workspace) with a ref to where they appear. Rows younger than DISCOVERY_LAG_MS
 *   are left for the next run, so a create that commits a little after a later id is not skipped.
 * - **Screening** (`rescreenParties`, cron): parties never screened, or screened against another index key
 *   (the list versions: an activation in the dataset registry changes it), in bounded batches. A match at or
 *   above `screening.alert_threshold` (default 0.85) opens an alert, with a `screening.match` webhook, unless
 *   the same party and entry already have one for what the entry says now: a cleared pair is not raised again
 *   unless the listed entry changes.
 * - **Decision** (`decideAlert`): `cleared` or `confirmed` with a reason, audited like every request; by the
 *   workspace setting `screening.hold_on`, a confirmed alert (or, with `high_score`, an alert scoring 0.95 or
 *   more as it opens) places a `screening` hold on the party's consignments.
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { BaseContext, Call, ServiceContext } from "../../core/context";
import type { Db } from "../../db/client";
import {
  consignmentHolds,
  consignments,
  customers,
  sanctionEntries,
  screeningAlerts,
  screeningCursors,
  screeningParties,
  screeningPartyRefs,
  workspaceSettings,
  workspaces,
} from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { ApiError, conflict, notFound } from "../../lib/errors";
import { insertChild, type Statement, withdrawOutboxUnless } from "../consignment-records/rows";
import { holdPlacedEvent } from "../consignment-records/wire";
import { currentIndex, screenMany } from "../screen/service";
import { enqueue, outboxStatements } from "../webhooks/service";

const DISCOVERY_LAG_MS = 10_000;
const DEFAULT_THRESHOLD = 0.85;
const HIGH_SCORE = 0.95;
/** Parties one run screens: about 130 ms of engine time on the full lists (bench/rescreen-offline.mjs). */
export const PARTIES_PER_RUN = 2_000;

type AlertRow = typeof screeningAlerts.$inferSelect;
type PartyRow = typeof screeningParties.$inferSelect;

interface FoundParty {
  name: string;
  company: string | null;
  countryCode: string | null;
  role: string;
}

const norm = (s: string | null) => (s ?? "").normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

async function partyKey(p: FoundParty): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${norm(p.name)}|${norm(p.company)}|${p.countryCode ?? ""}`),
  );
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A party of a consignment record: a person when a contact is named (with the company beside), else the company. */
function partyOf(raw: unknown, role: string): FoundParty | null {
  if (!raw || typeof raw !== "object") return null;
  const p = raw as {
    company_name?: string | null;
    contact?: { name?: string | null } | null;
    country_code?: string | null;
  };
  const person = p.contact?.name?.trim() || null;
  const company = p.company_name?.trim() || null;
  const name = person ?? company;
  if (!name) return null;
  return { name, company: person ? company : null, countryCode: p.country_code ?? null, role };
}

function consignmentParties(row: { sender: string | null; receiver: string | null; extra: string }): FoundParty[] {
  const out: FoundParty[] = [];
  const parse = (t: string | null) => (t ? (JSON.parse(t) as unknown) : null);
  for (const [role, value] of [
    ["sender", parse(row.sender)],
    ["receiver", parse(row.receiver)],
  ] as const) {
    const p = partyOf(value, role);
    if (p) out.push(p);
  }
  const agents = (parse(row.extra) as { supporting_agents?: Record<string, unknown> } | null)?.supporting_agents ?? {};
  for (const [role, value] of Object.entries(agents)) {
    const p = partyOf(value, role);
    if (p) out.push(p);
  }
  return out;
}

async function cursor(db: Db, source: string): Promise<string> {
  const [row] = await db.select().from(screeningCursors).where(eq(screeningCursors.source, source)).limit(1);
  return row?.position ?? "";
}

const cursorStatement = (db: Db, source: string, position: string, now: number) =>
  db
    .insert(screeningCursors)
    .values({ source, position, updatedAt: now })
    .onConflictDoUpdate({ target: screeningCursors.source, set: { position, updatedAt: now } });

/** The statements that file one party occurrence: the party (once per workspace) and its ref. */
async function fileParty(
  ctx: BaseContext,
  workspaceId: string,
  p: FoundParty,
  refType: "consignment" | "customer",
  refId: string,
  now: string,
) {
  const key = await partyKey(p);
  return [
    ctx.db
      .insert(screeningParties)
      .values({
        id: ctx.deps.ids.prefixed("pty"),
        workspaceId,
        partyKey: key,
        name: p.name,
        company: p.company,
        countryCode: p.countryCode,
        screenedKey: null,
        screenedAt: null,
        createdAt: now,
      })
      .onConflictDoNothing(),
    ctx.db
      .insert(screeningPartyRefs)
      .select(
        sql`SELECT id, workspace_id, ${refType}, ${refId}, ${p.role} FROM screening_parties WHERE workspace_id = ${workspaceId} AND party_key = ${key}`,
      )
      .onConflictDoNothing(),
  ] as Statement[];
}

/**
 * Reads consignments and customers created since the last run (at most `limit` of each) and files their
 * parties. Returns how many records were read.
 */
export async function discoverParties({ ctx, input }: Call<{ limit?: number }, BaseContext>): Promise<number> {
  const limit = input.limit ?? PARTIES_PER_RUN;
  const nowMs = ctx.deps.clock.now();
  const now = isoAt(nowMs);
  const settled = isoAt(nowMs - DISCOVERY_LAG_MS);
  let read = 0;

  const afterCon = await cursor(ctx.db, "consignments");
  const cons = await ctx.db
    .select({
      id: consignments.id,
      workspaceId: consignments.workspaceId,
      sender: consignments.sender,
      receiver: consignments.receiver,
      extra: consignments.extra,
    })
    .from(consignments)
    .where(and(gt(consignments.id, afterCon), lt(consignments.createdAt, settled)))
    .orderBy(asc(consignments.id))
    .limit(limit);
  if (cons.length) {
    const statements: Statement[] = [];
    for (const c of cons)
      for (const p of consignmentParties(c))
        statements.push(...(await fileParty(ctx, c.workspaceId, p, "consignment", c.id, now)));
    statements.push(cursorStatement(ctx.db, "consignments", (cons[cons.length - 1] as { id: string }).id, nowMs));
    await ctx.db.batch(statements as [Statement, ...Statement[]]);
    read += cons.length;
  }

  const afterCus = Number((await cursor(ctx.db, "customers")) || 0);
  const custs = await ctx.db
    .select({
      id: customers.id,
      workspaceId: customers.workspaceId,
      name: customers.name,
      addresses: customers.addresses,
    })
    .from(customers)
    .where(and(gt(customers.id, afterCus), lt(customers.createdAt, settled)))
    .orderBy(asc(customers.id))
    .limit(limit);
  if (custs.length) {
    const statements: Statement[] = [];
    for (const c of custs) {
      const country = (JSON.parse(c.addresses) as { country_code?: string }[])[0]?.country_code ?? null;
      const p: FoundParty = { name: c.name, company: null, countryCode: country, role: "customer" };
      statements.push(...(await fileParty(ctx, c.workspaceId, p, "customer", String(c.id), now)));
    }
    statements.push(
      cursorStatement(ctx.db, "customers", String((custs[custs.length - 1] as { id: number }).id), nowMs),
    );
    await ctx.db.batch(statements as [Statement, ...Statement[]]);
    read += custs.length;
  }
  return read;
}

// ------------------------------------------------------------------------------------------ screening

type Hits = Awaited<ReturnType<typeof screenMany>>["hits"];

/**
 * What each hit entry says now (its row hash in the version it was found in), and the (party, entry, hash)
 * triples that already have an alert, so a pair is raised once per content of the entry.
 */
async function knownPairs(db: Db, parties: PartyRow[], hits: Hits) {
  const flat = hits.flat();
  const hashes = new Map<string, string>();
  for (let i = 0; i < flat.length; i += 40) {
    const slice = flat.slice(i, i + 40);
    const rows = await db
      .select({ id: sanctionEntries.id, hash: sanctionEntries.rowHash, version: sanctionEntries.listVersion })
      .from(sanctionEntries)
      .where(
        or(...slice.map((h) => and(eq(sanctionEntries.id, h.entryId), eq(sanctionEntries.listVersion, h.listVersion)))),
      );
    // Rows loaded before hashes were kept have none: their version stands in.
    for (const r of rows) hashes.set(`${r.id}@${r.version}`, r.hash || r.version);
  }
  // Only parties with a hit can have a pair to look up: most batches hold few.
  const partyIds = parties.filter((_, i) => (hits[i] ?? []).length > 0).map((p) => p.id);
  const existing = new Set<string>();
  for (let i = 0; i < partyIds.length; i += 90) {
    const rows = await db
      .select({ partyId: screeningAlerts.partyId, entryId: screeningAlerts.entryId, hash: screeningAlerts.entryHash })
      .from(screeningAlerts)
      .where(inArray(screeningAlerts.partyId, partyIds.slice(i, i + 90)));
    for (const r of rows) existing.add(`${r.partyId}|${r.entryId}|${r.hash}`);
  }
  return { hashes, existing };
}

interface WorkspacePolicy {
  id: string;
  mode: "live" | "sandbox";
  threshold: number;
  holdOn: "off" | "confirmed" | "high_score";
}

async function policies(db: Db, ids: string[]): Promise<Map<string, WorkspacePolicy>> {
  const rows: { id: string; mode: string }[] = [];
  const settings: { workspaceId: string; settings: string }[] = [];
  // D1 binds at most 100 parameters a statement: a batch of parties can span more workspaces than that.
  for (let i = 0; i < ids.length; i += 90) {
    const slice = ids.slice(i, i + 90);
    const [w, s] = await db.batch([
      db.select({ id: workspaces.id, mode: workspaces.mode }).from(workspaces).where(inArray(workspaces.id, slice)),
      db.select().from(workspaceSettings).where(inArray(workspaceSettings.workspaceId, slice)),
    ]);
    rows.push(...w);
    settings.push(...s);
  }
  const doc = new Map(settings.map((s) => [s.workspaceId, JSON.parse(s.settings) as Record<string, unknown>]));
  return new Map(
    rows.map((w) => {
      const d = doc.get(w.id) ?? {};
      const threshold =
        typeof d["screening.alert_threshold"] === "number" ? d["screening.alert_threshold"] : DEFAULT_THRESHOLD;
      const holdOn = (d["screening.hold_on"] as WorkspacePolicy["holdOn"] | undefined) ?? "confirmed";
      return [w.id, { id: w.id, mode: w.mode as WorkspacePolicy["mode"], threshold, holdOn }];
    }),
  );
}

/** A consignment as a hold's webhook names it. */
interface HeldRef {
  id: string;
  shipmentRef: string;
  externalCode: string | null;
}

/** The consignments a party appears on that hold no active `screening` hold yet. */
async function unheldConsignments(db: Db, partyId: string): Promise<HeldRef[]> {
  const refs = await db
    .select({ id: screeningPartyRefs.refId })
    .from(screeningPartyRefs)
    .where(and(eq(screeningPartyRefs.partyId, partyId), eq(screeningPartyRefs.refType, "consignment")));
  const ids = [...new Set(refs.map((r) => r.id))];
  const out: HeldRef[] = [];
  for (let i = 0; i < ids.length; i += 90) {
    const slice = ids.slice(i, i + 90);
    const [held, alive] = await db.batch([
      db
        .select({ id: consignmentHolds.consignmentId })
        .from(consignmentHolds)
        .where(
          and(
            inArray(consignmentHolds.consignmentId, slice),
            eq(consignmentHolds.code, "screening"),
            eq(consignmentHolds.status, "active"),
          ),
        ),
      // Consignments deleted since are gone from the table: hold only those still there.
      db
        .select({ id: consignments.id, shipmentRef: consignments.shipmentRef, externalCode: consignments.externalCode })
        .from(consignments)
        .where(inArray(consignments.id, slice)),
    ]);
    const existing = new Set(held.map((h) => h.id));
    out.push(...alive.filter((a) => !existing.has(a.id)));
  }
  return out;
}

/**
 * A `screening` hold on each consignment, and its `hold.placed` webhook (withdrawn in the same batch unless the
 * hold was written: a consignment deleted meanwhile gets neither).
 */
async function holdStatements(
  ctx: BaseContext,
  workspace: { id: string; mode: "live" | "sandbox" },
  held: HeldRef[],
  alert: AlertRow,
  now: string,
): Promise<{ statements: Statement[]; deliveryIds: string[] }> {
  const statements: Statement[] = [];
  const deliveryIds: string[] = [];
  for (const c of held) {
    const hold = {
      id: ctx.deps.ids.prefixed("hld"),
      workspaceId: workspace.id,
      consignmentId: c.id,
      code: "screening",
      reason: `Screening alert ${alert.id}: ${alert.matchedName} (${alert.listCode}, score ${alert.score})`,
      status: "active" as const,
      source: "screening",
      flowId: null,
      placedAt: now,
      releasedAt: null,
      releaseReason: null,
    };
    const out = await outboxStatements({
      ctx: { db: ctx.db, deps: ctx.deps, workspace },
      input: { event: holdPlacedEvent(c, hold) },
    });
    const stored = sql`EXISTS (SELECT 1 FROM ${consignmentHolds} WHERE ${consignmentHolds.id} = ${hold.id})`;
    statements.push(
      insertChild(ctx.db, consignmentHolds, hold),
      ...(out.statements as Statement[]),
      ...withdrawOutboxUnless(ctx.db, out.eventId, stored),
    );
    deliveryIds.push(...out.deliveryIds);
  }
  return { statements, deliveryIds };
}

/**
 * Screens the next parties whose screening is out of date (never screened, or against other list versions)
 * and opens alerts for new hits. Returns how many parties were screened; 0 when no list is loaded.
 */
export async function rescreenParties({ ctx, input }: Call<{ limit?: number }, BaseContext>): Promise<number> {
  const nowMs = ctx.deps.clock.now();
  const now = isoAt(nowMs);
  let key: string;
  try {
    key = (await currentIndex(ctx.db, nowMs, ctx.env.ARCHIVE)).key;
  } catch (err) {
    if (err instanceof ApiError && err.code === "unavailable") return 0;
    throw err;
  }
  const parties = await ctx.db
    .select()
    .from(screeningParties)
    .where(or(isNull(screeningParties.screenedKey), ne(screeningParties.screenedKey, key)))
    .limit(input.limit ?? PARTIES_PER_RUN);
  if (!parties.length) return 0;
  const policy = await policies(ctx.db, [...new Set(parties.map((p) => p.workspaceId))]);
  const minThreshold = Math.min(...[...policy.values()].map((p) => p.threshold), DEFAULT_THRESHOLD);
  const { hits } = await screenMany(
    ctx.db,
    nowMs,
    parties.map((p) => ({ name: p.name, company: p.company ?? undefined })),
    minThreshold,
  );

  const { hashes, existing } = await knownPairs(ctx.db, parties, hits);

  const statements: Statement[] = [];
  const deliveryIds: string[] = [];
  for (const [i, party] of parties.entries()) {
    const p = policy.get(party.workspaceId);
    for (const hit of hits[i] ?? []) {
      if (!p || hit.score < p.threshold) continue;
      const hash = hashes.get(`${hit.entryId}@${hit.listVersion}`) ?? hit.listVersion;
      if (existing.has(`${party.id}|${hit.entryId}|${hash}`)) continue;
      existing.add(`${party.id}|${hit.entryId}|${hash}`);
      const alert: AlertRow = {
        id: ctx.deps.ids.prefixed("sca"),
        workspaceId: party.workspaceId,
        partyId: party.id,
        entryId: hit.entryId,
        entryHash: hash,
        listCode: hit.listCode,
        listVersion: hit.listVersion,
        score: hit.score,
        matchedName: hit.match.matched_name,
        match: JSON.stringify(hit.match),
        status: "open",
        reason: null,
        decidedBy: null,
        decidedAt: null,
        heldConsignments: "[]",
        createdAt: now,
      };
      const held =
        p.holdOn === "high_score" && hit.score >= HIGH_SCORE ? await unheldConsignments(ctx.db, party.id) : [];
      alert.heldConsignments = JSON.stringify(held.map((h) => h.id));
      statements.push(ctx.db.insert(screeningAlerts).values(alert).onConflictDoNothing());
      const holds = await holdStatements(ctx, { id: p.id, mode: p.mode }, held, alert, now);
      statements.push(...holds.statements);
      deliveryIds.push(...holds.deliveryIds);
      const out = await outboxStatements({
        ctx: { db: ctx.db, deps: ctx.deps, workspace: { id: p.id, mode: p.mode } },
        input: { event: { type: "screening.match", data: alertEvent(alert, party) } },
      });
      statements.push(...(out.statements as Statement[]));
      deliveryIds.push(...out.deliveryIds);
    }
  }
  // One statement marks the whole batch screened (ids as one JSON parameter): a statement per party would
  // spend D1's per-invocation query budget on bookkeeping.
  statements.push(
    ctx.db
      .update(screeningParties)
      .set({ screenedKey: key, screenedAt: now })
      .where(sql`${screeningParties.id} IN (SELECT value FROM json_each(${JSON.stringify(parties.map((p) => p.id))}))`),
  );
  for (let i = 0; i < statements.length; i += 200)
    await ctx.db.batch(statements.slice(i, i + 200) as [Statement, ...Statement[]]);
  if (deliveryIds.length) await enqueue(ctx.env.WEBHOOKS, deliveryIds);
  return parties.length;
}

function alertEvent(a: AlertRow, party: Pick<PartyRow, "id" | "name" | "company" | "countryCode">) {
  return {
    alert_id: a.id,
    party: { id: party.id, name: party.name, company: party.company, country_code: party.countryCode },
    entry_id: a.entryId,
    list_code: a.listCode,
    list_version: a.listVersion,
    score: a.score,
    matched_name: a.matchedName,
  };
}

// ------------------------------------------------------------------------------------------ alerts API

function alertToWire(a: AlertRow, party?: PartyRow) {
  return {
    id: a.id,
    status: a.status,
    party: party
      ? { id: party.id, name: party.name, company: party.company, country_code: party.countryCode }
      : { id: a.partyId, name: null, company: null, country_code: null },
    entry_id: a.entryId,
    list_code: a.listCode,
    list_version: a.listVersion,
    score: a.score,
    matched_name: a.matchedName,
    match: JSON.parse(a.match) as Record<string, unknown>,
    reason: a.reason,
    decided_by: a.decidedBy,
    decided_at: a.decidedAt,
    held_consignments: JSON.parse(a.heldConsignments) as string[],
    created_at: a.createdAt,
  };
}

async function withParties(db: Db, alerts: AlertRow[]) {
  const ids = [...new Set(alerts.map((a) => a.partyId))];
  const parties = ids.length ? await db.select().from(screeningParties).where(inArray(screeningParties.id, ids)) : [];
  const byId = new Map(parties.map((p) => [p.id, p]));
  return alerts.map((a) => alertToWire(a, byId.get(a.partyId)));
}

export async function listAlerts({
  ctx,
  input,
}: Call<{
  status?: AlertRow["status"] | undefined;
  party_id?: string | undefined;
  limit: number;
  starting_after?: string | undefined;
}>) {
  const rows = await ctx.db
    .select()
    .from(screeningAlerts)
    .where(
      and(
        eq(screeningAlerts.workspaceId, ctx.workspace.id),
        input.status ? eq(screeningAlerts.status, input.status) : undefined,
        input.party_id ? eq(screeningAlerts.partyId, input.party_id) : undefined,
        input.starting_after ? lt(screeningAlerts.id, input.starting_after) : undefined,
      ),
    )
    .orderBy(desc(screeningAlerts.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return { alerts: await withParties(ctx.db, page), has_more: rows.length > input.limit };
}

async function alertOf(ctx: ServiceContext, id: string): Promise<AlertRow> {
  const [row] = await ctx.db
    .select()
    .from(screeningAlerts)
    .where(and(eq(screeningAlerts.workspaceId, ctx.workspace.id), eq(screeningAlerts.id, id)))
    .limit(1);
  if (!row) throw notFound(`Unknown screening alert ${id}`);
  return row;
}

const oneWire = async (db: Db, alert: AlertRow) => {
  const [party] = await db.select().from(screeningParties).where(eq(screeningParties.id, alert.partyId)).limit(1);
  return alertToWire(alert, party);
};

export async function getAlert({ ctx, input }: Call<{ id: string }>) {
  return oneWire(ctx.db, await alertOf(ctx, input.id));
}

/** The officer's decision on an open alert; a confirmed one holds the party's consignments by policy. */
export async function decideAlert({
  ctx,
  input,
}: Call<{ id: string; decision: "cleared" | "confirmed"; reason: string }>) {
  const alert = await alertOf(ctx, input.id);
  if (alert.status !== "open")
    throw conflict(`Screening alert ${alert.id} was already ${alert.status} on ${alert.decidedAt}; open alerts only`);
  const now = isoAt(ctx.deps.clock.now());
  const policy = (await policies(ctx.db, [ctx.workspace.id])).get(ctx.workspace.id);
  const held =
    input.decision === "confirmed" && policy && policy.holdOn !== "off"
      ? await unheldConsignments(ctx.db, alert.partyId)
      : [];
  const decided: AlertRow = {
    ...alert,
    status: input.decision,
    reason: input.reason,
    decidedBy: ctx.actor.clientId,
    decidedAt: now,
    heldConsignments: JSON.stringify([...(JSON.parse(alert.heldConsignments) as string[]), ...held.map((h) => h.id)]),
  };
  const holds = await holdStatements(ctx, ctx.workspace, held, alert, now);
  await ctx.db.batch([
    ctx.db
      .update(screeningAlerts)
      .set({
        status: decided.status,
        reason: decided.reason,
        decidedBy: decided.decidedBy,
        decidedAt: decided.decidedAt,
        heldConsignments: decided.heldConsignments,
      })
      .where(and(eq(screeningAlerts.id, alert.id), eq(screeningAlerts.status, "open"))),
    ...holds.statements,
  ]);
  return { alert: await oneWire(ctx.db, decided), deliveryIds: holds.deliveryIds };
}
