/**
 * Flows: definitions (CRUD), matching on consignment create, and carrying out their actions.
 *
 * An action never writes on its own: it returns the statements that record its effect (hold, document,
 * pre-alert, events, outbox rows), and the caller commits them in one batch: the create's batch for inline
 * (`wait`) actions, the run's batch for background ones. So a failed inline action leaves nothing behind, and
 * a background run either records all of its successful effects together with its own outcome or nothing.
 * The one write outside the batch is a generated document's bytes in R2; the caller deletes them if its batch
 * fails.
 */
import { and, desc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  consignmentDocuments,
  consignmentHolds,
  consignmentItems,
  consignmentOrders,
  consignmentParcels,
  consignmentPreAlerts,
  consignments,
  flowRuns,
  flows,
  workspaces,
} from "../../db/schema/index";
import { commercialInvoice } from "../../engines/documents/commercial-invoice";
import type { Deps, WorkspaceContext } from "../../core/context";
import { isoAt } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { notFound } from "../../lib/errors";
import { dec } from "../../lib/money";
import { sendAll } from "../../lib/queues";
import { eventInsert } from "../consignments/events";
import type { Tree } from "../consignments/output";
import { recordInternalRun } from "../requests/service";
import { type EndpointRow, liveEndpointsQuery, outboxStatements } from "../webhooks/service";
import type { ActionT, ActionType, FlowInputT } from "./schemas";

export interface FlowCtx {
  db: Db;
  deps: Deps;
  archive: R2Bucket;
}

export type FlowRow = typeof flows.$inferSelect;
type HoldRow = typeof consignmentHolds.$inferSelect;
type DocumentRow = typeof consignmentDocuments.$inferSelect;
type PreAlertRow = typeof consignmentPreAlerts.$inferSelect;
type Statement = unknown;

// ---- definitions -------------------------------------------------------------------------------------------

export const flowToWire = (r: FlowRow) => ({
  id: r.id,
  name: r.name,
  trigger: r.trigger as "consignment.created",
  external_code: r.externalCode,
  actions: JSON.parse(r.actions) as Record<string, unknown>[],
  enabled: r.enabled,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

export async function createFlow(
  { db, deps }: Pick<FlowCtx, "db" | "deps">,
  workspaceId: string,
  input: FlowInputT,
): Promise<FlowRow> {
  const now = isoAt(deps.clock.now());
  const [row] = await db
    .insert(flows)
    .values({
      workspaceId,
      name: input.name,
      trigger: input.trigger,
      externalCode: input.external_code ?? null,
      actions: JSON.stringify(input.actions),
      enabled: input.enabled ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function getFlow({ db }: Pick<FlowCtx, "db">, workspaceId: string, id: number): Promise<FlowRow> {
  const [row] = await db
    .select()
    .from(flows)
    .where(and(eq(flows.id, id), eq(flows.workspaceId, workspaceId)))
    .limit(1);
  if (!row) throw notFound(`Flow ${id} not found`);
  return row;
}

export async function listFlows(
  { db }: Pick<FlowCtx, "db">,
  workspaceId: string,
  q: { limit: number; starting_after?: number | undefined },
) {
  const where = [eq(flows.workspaceId, workspaceId)];
  if (q.starting_after) where.push(lt(flows.id, q.starting_after));
  const rows = await db
    .select()
    .from(flows)
    .where(and(...where))
    .orderBy(desc(flows.id))
    .limit(q.limit + 1);
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}

export async function updateFlow(
  ctx: Pick<FlowCtx, "db" | "deps">,
  workspaceId: string,
  id: number,
  patch: {
    name?: string | undefined;
    external_code?: string | null | undefined;
    actions?: ActionT[] | undefined;
    enabled?: boolean | undefined;
  },
) {
  await getFlow(ctx, workspaceId, id);
  const set: Partial<typeof flows.$inferInsert> = { updatedAt: isoAt(ctx.deps.clock.now()) };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.external_code !== undefined) set.externalCode = patch.external_code;
  if (patch.actions !== undefined) set.actions = JSON.stringify(patch.actions);
  if (patch.enabled !== undefined) set.enabled = patch.enabled;
  const [row] = await ctx.db
    .update(flows)
    .set(set)
    .where(and(eq(flows.id, id), eq(flows.workspaceId, workspaceId)))
    .returning();
  return row!;
}

/** Runs already created keep their own copy of the actions, so deleting a flow does not cancel them. */
export async function deleteFlow(ctx: Pick<FlowCtx, "db">, workspaceId: string, id: number): Promise<void> {
  await getFlow(ctx, workspaceId, id);
  await ctx.db.delete(flows).where(and(eq(flows.id, id), eq(flows.workspaceId, workspaceId)));
}

/** Enabled flows of a trigger, oldest first (the order their actions run in); a query for the caller's read batch. */
export const enabledFlowsQuery = (db: Db, workspaceId: string, trigger: string) =>
  db
    .select()
    .from(flows)
    .where(and(eq(flows.workspaceId, workspaceId), eq(flows.trigger, trigger), eq(flows.enabled, true)))
    .orderBy(flows.id);

export const matchingFlows = (rows: FlowRow[], externalCode: string | null) =>
  rows.filter((r) => r.externalCode === null || r.externalCode === externalCode);

export const actionsOf = (r: FlowRow) => JSON.parse(r.actions) as ActionT[];

// ---- wire shapes of what actions leave behind -----------------------------------------------------------------

export const holdToWire = (h: HoldRow) => ({
  id: h.id,
  code: h.code,
  reason: h.reason,
  status: h.status,
  source: h.source,
  flow_id: h.flowId,
  placed_at: h.placedAt,
  released_at: h.releasedAt,
  release_reason: h.releaseReason,
});

export const documentToWire = (d: DocumentRow) => ({
  id: d.id,
  type: d.type,
  content_type: d.contentType,
  size: d.size,
  sha256: d.sha256,
  ...(JSON.parse(d.meta) as Record<string, unknown>),
  flow_id: d.flowId,
  download_path: `/consignments/${d.consignmentId}/documents/${d.id}/content`,
  created_at: d.createdAt,
});

export const preAlertToWire = (p: PreAlertRow) => ({
  id: p.id,
  recipient: p.recipient,
  channel: p.channel,
  event_id: p.eventId,
  payload: JSON.parse(p.payload) as Record<string, unknown>,
  flow_id: p.flowId,
  created_at: p.createdAt,
});

// ---- actions -----------------------------------------------------------------------------------------------

export interface Subject {
  ws: Pick<WorkspaceContext, "id" | "mode">;
  tree: Tree;
}

export interface RunInfo {
  flow: { id: number; name: string };
  /** The flow run (background) or null (inline, inside the create request). */
  runId: string | null;
  requestId: string | null;
  endpoints: EndpointRow[];
  nowMs: number;
}

export type ActionOutcome =
  | {
      ok: true;
      type: ActionType;
      result: Record<string, unknown>;
      statements: Statement[];
      tags?: string[];
      hold?: HoldRow;
      document?: DocumentRow;
      preAlert?: PreAlertRow;
      r2Keys: string[];
      deliveryIds: string[];
    }
  | { ok: false; type: ActionType; errors: string[] };

const party = (json: string | null) => (json ? (JSON.parse(json) as Record<string, unknown>) : null);

/** What a pre-alert tells its recipient: the consignment in brief, as it is now. */
function preAlertPayload(t: Tree) {
  const values = new Map<string, ReturnType<typeof dec>>();
  for (const i of t.items) {
    const ccy = i.currencyCode ?? t.orders.find((o) => o.id === i.orderId)?.currencyCode ?? null;
    if (ccy) values.set(ccy, (values.get(ccy) ?? dec(0)).plus(dec(i.unitValue).times(i.quantity)));
  }
  const c = t.consignment;
  return {
    consignment_id: c.id,
    shipment_ref: c.shipmentRef,
    external_code: c.externalCode,
    incoterm: c.incoterm,
    transport_mode: c.transportMode,
    sender_country: c.senderCountry,
    receiver_country: c.receiverCountry,
    parcels: t.parcels.map((p) => ({ id: p.id, barcode: p.barcode, weight_kg: p.weightKg })),
    item_count: t.items.length,
    hs_codes: [...new Set(t.items.map((i) => i.hsCode).filter((x): x is string => Boolean(x)))],
    declared_values: Object.fromEntries([...values].map(([k, v]) => [k, v.toString()])),
  };
}

function invoiceInput(t: Tree, declaration: string | undefined) {
  const c = t.consignment;
  const extra = JSON.parse(c.extra) as Record<string, unknown>;
  const orderOf = new Map(t.orders.map((o) => [o.id, o]));
  const parcelOf = new Map(t.parcels.map((p) => [p.id, p]));
  const charges: { label: string; amount: string; currency: string }[] = [];
  for (const o of t.orders) {
    const ch = JSON.parse(o.charges) as Record<string, { amount: string; currency_code: string }>;
    for (const [k, v] of Object.entries(ch))
      charges.push({
        label: `${k.replace("_charge", "")} charge${o.orderRef ? ` (order ${o.orderRef})` : ""}`,
        amount: v.amount,
        currency: v.currency_code,
      });
  }
  const shipping = extra.shipping as { amount: number; currency_code: string } | undefined;
  if (shipping?.currency_code)
    charges.push({ label: "shipping", amount: String(shipping.amount), currency: shipping.currency_code });
  const invoiceNumbers = [...new Set(t.orders.map((o) => o.invoiceNumber).filter((x): x is string => Boolean(x)))];
  return {
    shipmentRef: c.shipmentRef,
    consignmentId: c.id,
    date: c.createdAt.slice(0, 10),
    incoterm: c.incoterm,
    invoiceNumber:
      (extra.invoice_number as string | undefined) ?? (invoiceNumbers.length === 1 ? invoiceNumbers[0]! : null),
    sender: party(c.sender),
    receiver: party(c.receiver),
    items: t.items.map((i) => ({
      sku: i.sku,
      title: i.title,
      description: i.description,
      quantity: i.quantity,
      unitValue: i.unitValue,
      currency:
        i.currencyCode ??
        (i.orderId ? (orderOf.get(i.orderId)?.currencyCode ?? null) : null) ??
        parcelOf.get(i.parcelId)?.currencyCode ??
        null,
      hsCode: i.hsCode,
      origin: i.countryOfOrigin,
      weightKg: i.weightKg,
    })),
    charges,
    parcelCount: t.parcels.length,
    grossWeightKg: t.parcels.reduce((s, p) => s.plus(p.weightKg), dec(0)).toString(),
    declaration,
  };
}

export const documentKey = (workspaceId: string, consignmentId: string, documentId: string) =>
  `documents/${workspaceId}/${consignmentId}/${documentId}.html`;

/**
 * Carries out one action for a consignment. Inline actions see the consignment as it is about to be
 * inserted; background ones as it is stored.
 */
export async function runAction(ctx: FlowCtx, s: Subject, action: ActionT, run: RunInfo): Promise<ActionOutcome> {
  const { db, deps } = ctx;
  const c = s.tree.consignment;
  const now = isoAt(run.nowMs);
  const event = (type: string, data: Record<string, unknown>) =>
    eventInsert(db, deps.ids, {
      consignmentId: c.id,
      workspaceId: s.ws.id,
      type,
      data: { ...data, flow_id: run.flow.id, flow_name: run.flow.name, run_id: run.runId, inline: run.runId === null },
      requestId: run.requestId,
      createdAt: now,
    });
  switch (action.type) {
    case "add_tags": {
      const existing = ((JSON.parse(c.extra) as { tags?: string[] }).tags ?? []) as string[];
      const added = action.tags.filter((t, i, all) => !existing.includes(t) && all.indexOf(t) === i);
      return {
        ok: true,
        type: action.type,
        result: { tags_added: added },
        tags: [...existing, ...added],
        statements: [event("tags.added", { tags: added })],
        r2Keys: [],
        deliveryIds: [],
      };
    }
    case "place_hold": {
      const hold: HoldRow = {
        id: deps.ids.prefixed("hld"),
        workspaceId: s.ws.id,
        consignmentId: c.id,
        code: action.code ?? null,
        reason: action.reason,
        status: "active",
        source: "flow",
        flowId: run.flow.id,
        placedAt: now,
        releasedAt: null,
        releaseReason: null,
      };
      return {
        ok: true,
        type: action.type,
        result: { hold_id: hold.id },
        hold,
        statements: [
          db.insert(consignmentHolds).values(hold),
          event("hold.placed", { hold_id: hold.id, code: hold.code, reason: hold.reason }),
        ],
        r2Keys: [],
        deliveryIds: [],
      };
    }
    case "generate_commercial_invoice": {
      const made = commercialInvoice(invoiceInput(s.tree, action.declaration));
      if (!made.ok) return { ok: false, type: action.type, errors: made.errors };
      const id = deps.ids.prefixed("doc");
      const key = documentKey(s.ws.id, c.id, id);
      const bytes = new TextEncoder().encode(made.html);
      await ctx.archive.put(key, bytes, {
        httpMetadata: { contentType: "text/html; charset=utf-8" },
        customMetadata: { consignment_id: c.id, type: "commercial_invoice" },
      });
      const document: DocumentRow = {
        id,
        workspaceId: s.ws.id,
        consignmentId: c.id,
        type: "commercial_invoice",
        storageKey: key,
        contentType: "text/html; charset=utf-8",
        size: bytes.byteLength,
        sha256: await sha256Hex(made.html),
        meta: JSON.stringify({ invoice_number: made.invoiceNumber, totals: made.totals }),
        flowId: run.flow.id,
        createdAt: now,
      };
      return {
        ok: true,
        type: action.type,
        result: { document_id: id, invoice_number: made.invoiceNumber },
        document,
        statements: [
          db.insert(consignmentDocuments).values(document),
          event("document.generated", {
            document_id: id,
            type: "commercial_invoice",
            invoice_number: made.invoiceNumber,
          }),
        ],
        r2Keys: [key],
        deliveryIds: [],
      };
    }
    case "send_pre_alert": {
      const id = deps.ids.prefixed("pal");
      const payload = preAlertPayload(s.tree);
      const outbox = await outboxStatements(
        ctx,
        s.ws,
        {
          type: "consignment.pre_alert",
          data: {
            consignment_id: c.id,
            shipment_ref: c.shipmentRef,
            external_code: c.externalCode,
            pre_alert_id: id,
            recipient: action.recipient,
            pre_alert: payload,
          },
        },
        run.endpoints,
      );
      const preAlert: PreAlertRow = {
        id,
        workspaceId: s.ws.id,
        consignmentId: c.id,
        recipient: action.recipient,
        channel: "webhook",
        eventId: outbox.eventId,
        payload: JSON.stringify(payload),
        flowId: run.flow.id,
        createdAt: now,
      };
      return {
        ok: true,
        type: action.type,
        result: { pre_alert_id: id, event_id: outbox.eventId, deliveries: outbox.deliveryIds.length },
        preAlert,
        statements: [
          db.insert(consignmentPreAlerts).values(preAlert),
          event("pre_alert.sent", { pre_alert_id: id, recipient: action.recipient, event_id: outbox.eventId }),
          ...outbox.statements,
        ],
        r2Keys: [],
        deliveryIds: outbox.deliveryIds,
      };
    }
  }
}

/** An action's result as the create response (`data.flows`) and the run's record show it. */
export const outcomeToWire = (o: ActionOutcome) =>
  o.ok ? { type: o.type, status: "succeeded", ...o.result } : { type: o.type, status: "failed", errors: o.errors };

/** A consignment's `extra` JSON with its tags replaced. */
export const extraWithTags = (extra: string, tags: string[]) =>
  JSON.stringify({ ...(JSON.parse(extra) as object), tags });

export const discardDocuments = (archive: R2Bucket, keys: string[]) =>
  keys.length ? archive.delete(keys).catch(() => undefined) : Promise.resolve();

// ---- background runs ---------------------------------------------------------------------------------------

export const RUN_CLAIM_MS = 60_000;
export const MAX_RUN_ATTEMPTS = 5;

/** Flow-run rows for the background actions of the matched flows: inserted in the create's own batch. */
export function runRows(deps: Deps, workspaceId: string, consignmentId: string, matched: FlowRow[], nowMs: number) {
  const out: (typeof flowRuns.$inferInsert)[] = [];
  for (const f of matched) {
    const background = actionsOf(f).filter((a) => !a.wait);
    if (!background.length) continue;
    out.push({
      id: deps.ids.requestId(),
      workspaceId,
      flowId: f.id,
      flowName: f.name,
      consignmentId,
      actions: JSON.stringify(background),
      status: "pending",
      attemptCount: 0,
      nextAttemptAt: nowMs,
      createdAt: isoAt(nowMs),
    });
  }
  return out;
}

export interface FlowRunMessage {
  flow_run_id: string;
}

export const enqueueRuns = (queue: Queue, ids: string[]) =>
  sendAll<FlowRunMessage>(
    queue,
    ids.map((id) => ({ flow_run_id: id })),
  );

/** Pending runs that are due and not claimed: what the cron sweep hands to the queue. */
export async function dueRuns({ db, deps }: Pick<FlowCtx, "db" | "deps">, limit = 200): Promise<string[]> {
  const nowMs = deps.clock.now();
  const rows = await db
    .select({ id: flowRuns.id })
    .from(flowRuns)
    .where(
      and(
        eq(flowRuns.status, "pending"),
        lte(flowRuns.nextAttemptAt, nowMs),
        or(isNull(flowRuns.lockedUntil), lte(flowRuns.lockedUntil, nowMs)),
      ),
    )
    .orderBy(flowRuns.nextAttemptAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

export type RunOutcome = { status: "skipped" } | { status: "succeeded" | "failed"; deliveryIds: string[] };

/**
 * Carries out one background run. A conditional UPDATE claims it (pending, unclaimed or claim expired), so
 * two workers never run it at once; the claim also pushes its next attempt back, so a worker that dies
 * mid-run leaves it to the sweep after the claim expires. Action failures (a consignment that cannot be
 * invoiced, say) are outcomes, recorded with the run; storage errors throw, and the run is tried again.
 * The run's audit row (source `flow`, its input archived in R2) is committed in the same batch as its effects.
 */
export async function executeRun(ctx: FlowCtx, runId: string): Promise<RunOutcome> {
  const { db, deps } = ctx;
  const started = deps.clock.now();
  const [run] = await db
    .update(flowRuns)
    .set({
      lockedUntil: started + RUN_CLAIM_MS,
      nextAttemptAt: started + RUN_CLAIM_MS,
      attemptCount: sql`${flowRuns.attemptCount} + 1`,
    })
    .where(
      and(
        eq(flowRuns.id, runId),
        eq(flowRuns.status, "pending"),
        or(isNull(flowRuns.lockedUntil), lte(flowRuns.lockedUntil, started)),
      ),
    )
    .returning();
  if (!run) return { status: "skipped" };

  const flow = { id: run.flowId, name: run.flowName };
  const actions = JSON.parse(run.actions) as ActionT[];
  const [wsRows, head, parcels, orders, items] = await db.batch([
    db
      .select({ id: workspaces.id, mode: workspaces.mode })
      .from(workspaces)
      .where(eq(workspaces.id, run.workspaceId))
      .limit(1),
    db
      .select()
      .from(consignments)
      .where(and(eq(consignments.id, run.consignmentId), eq(consignments.workspaceId, run.workspaceId)))
      .limit(1),
    db
      .select()
      .from(consignmentParcels)
      .where(eq(consignmentParcels.consignmentId, run.consignmentId))
      .orderBy(consignmentParcels.position),
    db
      .select()
      .from(consignmentOrders)
      .where(eq(consignmentOrders.consignmentId, run.consignmentId))
      .orderBy(consignmentOrders.position),
    db
      .select()
      .from(consignmentItems)
      .where(eq(consignmentItems.consignmentId, run.consignmentId))
      .orderBy(consignmentItems.position),
  ]);
  const ws = wsRows[0];
  const consignment = head[0];
  const finish = (status: "succeeded" | "failed", results: unknown[], error: string | null) =>
    db
      .update(flowRuns)
      .set({ status, results: JSON.stringify(results), error, lockedUntil: null, finishedAt: isoAt(deps.clock.now()) })
      .where(eq(flowRuns.id, run.id));
  const record = (status: number, errorSummary: string | null, statements: Statement[]) =>
    recordInternalRun(
      db,
      ctx.archive,
      {
        workspaceId: run.workspaceId,
        source: "flow",
        route: `flow:consignment.created/${flow.id}`,
        actor: `flow:${flow.id}`,
        customerId: consignment?.customerId ?? null,
        httpStatus: status,
        durationMs: deps.clock.now() - started,
        errorSummary,
        body: {
          bytes: JSON.stringify({
            flow_run_id: run.id,
            flow_id: flow.id,
            flow_name: flow.name,
            trigger: "consignment.created",
            consignment_id: run.consignmentId,
            actions,
          }),
          contentType: "application/json",
        },
        refs: [{ ref_type: "consignment_id", ref_value: run.consignmentId }],
      },
      { id: run.id, nowMs: deps.clock.now() },
      statements as never[],
    );

  if (!ws || !consignment) {
    const error = `consignment ${run.consignmentId} no longer exists`;
    await record(404, error, [finish("failed", [], error)]);
    return { status: "failed", deliveryIds: [] };
  }
  if (run.attemptCount > MAX_RUN_ATTEMPTS) {
    const error = `gave up after ${MAX_RUN_ATTEMPTS} attempts`;
    await record(500, error, [finish("failed", [], error)]);
    return { status: "failed", deliveryIds: [] };
  }

  const tree: Tree = { consignment, parcels, orders, items };
  const endpoints = actions.some((a) => a.type === "send_pre_alert") ? await liveEndpointsQuery(db, ws) : [];
  const info: RunInfo = { flow, runId: run.id, requestId: null, endpoints, nowMs: deps.clock.now() };
  const outcomes: ActionOutcome[] = [];
  for (const a of actions) {
    const o = await runAction(ctx, { ws, tree }, a, info);
    outcomes.push(o);
    // Later actions see earlier tags (the invoice and pre-alert read the stored consignment otherwise).
    if (o.ok && o.tags)
      tree.consignment = { ...tree.consignment, extra: extraWithTags(tree.consignment.extra, o.tags) };
  }
  const failed = outcomes.filter((o): o is Extract<ActionOutcome, { ok: false }> => !o.ok);
  const done = outcomes.filter((o): o is Extract<ActionOutcome, { ok: true }> => o.ok);
  const statements: Statement[] = done.flatMap((o) => o.statements);
  if (done.some((o) => o.tags)) {
    statements.push(
      db
        .update(consignments)
        .set({ extra: tree.consignment.extra, updatedAt: isoAt(info.nowMs) })
        .where(eq(consignments.id, consignment.id)),
    );
  }
  for (const f of failed) {
    statements.push(
      eventInsert(db, deps.ids, {
        consignmentId: consignment.id,
        workspaceId: ws.id,
        type: "flow.action_failed",
        data: { flow_id: flow.id, flow_name: flow.name, run_id: run.id, action: f.type, errors: f.errors },
        requestId: null,
        createdAt: isoAt(info.nowMs),
      }),
    );
  }
  const results = outcomes.map(outcomeToWire);
  const error = failed.length ? failed.flatMap((f) => f.errors).join("; ") : null;
  statements.push(finish(failed.length ? "failed" : "succeeded", results, error));
  try {
    await record(failed.length ? 422 : 200, error, statements);
  } catch (err) {
    await discardDocuments(
      ctx.archive,
      done.flatMap((o) => o.r2Keys),
    );
    throw err;
  }
  return { status: failed.length ? "failed" : "succeeded", deliveryIds: done.flatMap((o) => o.deliveryIds) };
}
