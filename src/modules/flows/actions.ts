/**
 * Flow actions: which flows a new consignment matches, and carrying out one action for a consignment.
 *
 * An action never writes on its own: it returns the statements that record its effect (hold, document,
 * pre-alert, events, outbox rows), and the caller commits them in one batch: the create's batch for inline
 * (`wait`) actions, the run's batch for background ones. So a failed inline action leaves nothing behind, and
 * a background run either records all of its successful effects together with its own outcome or nothing.
 * The one write outside the batch is a generated document's bytes in R2; the caller deletes them if its batch
 * fails. Every row an action adds under a consignment is written only while the consignment exists (see
 * consignment-records/rows.ts), so a run racing a delete leaves nothing behind either.
 */
import { and, eq, sql } from "drizzle-orm";
import type { BaseContext, Call, Deps, WorkspaceContext } from "../../core/context";
import type { Db } from "../../db/client";
import {
  consignmentDocuments,
  consignmentHolds,
  consignmentPreAlerts,
  type flowRuns,
  flows,
  parcelLabels,
} from "../../db/schema/index";
import { isoAt } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { dec } from "../../lib/money";
import { compliancePass } from "../compliance/service";
import { eventInsert, insertChild, type Statement, withdrawOutboxUnless } from "../consignment-records/rows";
import { buildTradeDocument, storeTradeDocument, type TradeDocumentSpec } from "../consignment-records/trade-documents";
import type { DocumentRow, HoldRow, PreAlertRow, Tree } from "../consignment-records/tree";
import { holdPlacedEvent } from "../consignment-records/wire";
import { labelsForTree } from "../labels/service";
import { type EndpointRow, outboxStatements } from "../webhooks/service";
import type { ActionT, ActionType } from "./schemas";

export type FlowRow = typeof flows.$inferSelect;

/**
 * What an action needs: the database, the bindings (documents go to R2), the clock and ids, and the workspace
 * it acts in. A request's ServiceContext qualifies; a background run builds one from the run's workspace.
 */
export interface ActionContext extends BaseContext {
  workspace: Pick<WorkspaceContext, "id" | "mode" | "organizationId">;
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
      /** Tracking numbers issued by a label action, per parcel. */
      labels?: { parcelId: string; trackingNumber: string }[];
      r2Keys: string[];
      deliveryIds: string[];
    }
  | { ok: false; type: ActionType; errors: string[] };

export type Succeeded = Extract<ActionOutcome, { ok: true }>;
export type Failed = Extract<ActionOutcome, { ok: false }>;

export interface ActionInput {
  /** Inline actions see the consignment as it is about to be inserted; background ones as it is stored. */
  tree: Tree;
  action: ActionT;
  run: RunInfo;
}

/** Carries out one action for a consignment; a failure the client can fix is an outcome, storage errors throw. */
export async function runAction({ ctx, input }: Call<ActionInput, ActionContext>): Promise<ActionOutcome> {
  const { action } = input;
  const step = { ctx, tree: input.tree, run: input.run, event: actionEvent(ctx, input) };
  switch (action.type) {
    case "add_tags":
      return addTags(step, action);
    case "place_hold":
      return placeHold(step, action);
    case "generate_commercial_invoice":
    case "generate_customs_declaration":
      return generateDocument(step, action);
    case "send_pre_alert":
      return sendPreAlert(step, action);
    case "generate_label":
      return generateLabel(step, action);
    case "compliance_check":
      return complianceCheck(step, action);
  }
}

/**
 * One compliance pass (modules/compliance) over the consignment as the action sees it. Its check, holds,
 * events and webhooks commit with the caller's batch; what it finds never fails the action (the holds stop
 * the consignment instead), only storage errors throw.
 */
async function complianceCheck({ ctx, tree, run }: Step, action: ActionOf<"compliance_check">): Promise<ActionOutcome> {
  const pass = await compliancePass({
    ctx: { ...ctx, requestId: run.requestId },
    input: { tree, source: "flow", flowId: run.flow.id },
  });
  const holds = pass.holds.map((h) => ({ hold_id: h.id, code: h.code, reason: h.reason }));
  const result = { check_id: pass.row.id, outcome: pass.row.outcome, holds, warnings: pass.decision.warnings };
  return done(action.type, result, pass.statements, { deliveryIds: pass.deliveryIds });
}

type ActionOf<K extends ActionType> = Extract<ActionT, { type: K }>;

interface Step {
  ctx: ActionContext;
  tree: Tree;
  run: RunInfo;
  /** The consignment event recording this action's effect. */
  event: (type: string, data: Record<string, unknown>) => Statement;
}

function actionEvent(ctx: ActionContext, { tree, run }: ActionInput) {
  return (type: string, data: Record<string, unknown>) =>
    eventInsert(ctx.db, ctx.deps.ids, {
      consignmentId: tree.consignment.id,
      workspaceId: ctx.workspace.id,
      type,
      data: { ...data, flow_id: run.flow.id, flow_name: run.flow.name, run_id: run.runId, inline: run.runId === null },
      requestId: run.requestId,
      createdAt: isoAt(run.nowMs),
    });
}

const done = (
  type: ActionType,
  result: Record<string, unknown>,
  statements: Statement[],
  extra: Partial<Succeeded> = {},
): Succeeded => ({ ok: true, type, result, statements, r2Keys: [], deliveryIds: [], ...extra });

function addTags({ tree, event }: Step, action: ActionOf<"add_tags">): ActionOutcome {
  const existing = (JSON.parse(tree.consignment.extra) as { tags?: string[] }).tags ?? [];
  const added = action.tags.filter((t, i, all) => !existing.includes(t) && all.indexOf(t) === i);
  return done(action.type, { tags_added: added }, [event("tags.added", { tags: added })], {
    tags: [...existing, ...added],
  });
}

/** A hold, its consignment event and its `hold.placed` webhook (withdrawn unless the hold was written). */
async function placeHold({ ctx, tree, run, event }: Step, action: ActionOf<"place_hold">): Promise<ActionOutcome> {
  const c = tree.consignment;
  const hold: HoldRow = {
    id: ctx.deps.ids.prefixed("hld"),
    workspaceId: ctx.workspace.id,
    consignmentId: c.id,
    code: action.code ?? null,
    reason: action.reason,
    status: "active",
    source: "flow",
    flowId: run.flow.id,
    placedAt: isoAt(run.nowMs),
    releasedAt: null,
    releaseReason: null,
  };
  const outbox = await outboxStatements({ ctx, input: { event: holdPlacedEvent(c, hold) } });
  const statements = [
    insertChild(ctx.db, consignmentHolds, hold),
    event("hold.placed", { hold_id: hold.id, code: hold.code, reason: hold.reason }),
    ...outbox.statements,
    ...withdrawOutboxUnless(ctx.db, outbox.eventId, holdStored(hold.id)),
  ];
  return done(action.type, { hold_id: hold.id }, statements, { hold, deliveryIds: outbox.deliveryIds });
}

const holdStored = (id: string) => sql`EXISTS (SELECT 1 FROM ${consignmentHolds} WHERE ${consignmentHolds.id} = ${id})`;

/** A commercial invoice (HTML by default, as before the PDF existed) or a CN 22 / CN 23 customs declaration. */
async function generateDocument(
  { ctx, tree, run, event }: Step,
  action: ActionOf<"generate_commercial_invoice"> | ActionOf<"generate_customs_declaration">,
): Promise<ActionOutcome> {
  const spec: TradeDocumentSpec =
    action.type === "generate_commercial_invoice"
      ? // No `format` (as in every flow stored before it existed) keeps making HTML.
        { type: "commercial_invoice", format: action.format ?? "html", declaration: action.declaration }
      : { type: "customs_declaration", form: action.form, declaration: action.declaration };
  const made = await buildTradeDocument(tree, spec, run.nowMs);
  if (!made.ok) return { ok: false, type: action.type, errors: made.errors };
  const c = tree.consignment;
  const document = await storeTradeDocument(
    ctx.env.ARCHIVE,
    {
      id: ctx.deps.ids.prefixed("doc"),
      workspaceId: ctx.workspace.id,
      consignmentId: c.id,
      flowId: run.flow.id,
      createdAt: isoAt(run.nowMs),
    },
    made.document,
  );
  const summary = made.document.meta.invoice_number
    ? { invoice_number: made.document.meta.invoice_number }
    : { form: made.document.meta.form };
  const statements = [
    insertChild(ctx.db, consignmentDocuments, document),
    event("document.generated", { document_id: document.id, type: document.type, ...summary }),
  ];
  return done(action.type, { document_id: document.id, ...summary }, statements, {
    document,
    r2Keys: [document.storageKey],
  });
}

/** Tracking numbers and a label for every parcel (see modules/labels); the rows commit with the caller's batch. */
async function generateLabel(
  { ctx, tree, run, event }: Step,
  action: ActionOf<"generate_label">,
): Promise<ActionOutcome> {
  const c = tree.consignment;
  const made = await labelsForTree(ctx, tree, action, run.nowMs);
  if ("error" in made) return { ok: false, type: action.type, errors: [made.error as string] };
  const id = ctx.deps.ids.prefixed("doc");
  const key = `documents/${ctx.workspace.id}/${c.id}/${id}.pdf`;
  await ctx.env.ARCHIVE.put(key, made.document.bytes, {
    httpMetadata: { contentType: made.document.contentType },
    customMetadata: { consignment_id: c.id, type: "label" },
  });
  const now = isoAt(run.nowMs);
  const trackingNumbers = made.parcels.map((p) => p.trackingNumber);
  const document: DocumentRow = {
    id,
    workspaceId: ctx.workspace.id,
    consignmentId: c.id,
    type: "label",
    storageKey: key,
    contentType: made.document.contentType,
    size: made.document.bytes.byteLength,
    sha256: await sha256Hex(made.document.bytes),
    meta: JSON.stringify({ carrier: made.carrier, service: made.service, tracking_numbers: trackingNumbers }),
    flowId: run.flow.id,
    createdAt: now,
  };
  const statements = [
    insertChild(ctx.db, consignmentDocuments, document),
    ...made.parcels.map((p) =>
      insertChild(ctx.db, parcelLabels, {
        parcelId: p.parcelId,
        consignmentId: c.id,
        workspaceId: ctx.workspace.id,
        carrier: made.carrier,
        service: made.service,
        trackingNumber: p.trackingNumber,
        documentId: id,
        createdAt: now,
      }),
    ),
    event("labels.issued", {
      carrier: made.carrier,
      service: made.service,
      document_id: id,
      tracking_numbers: trackingNumbers,
    }),
  ];
  return done(action.type, { document_id: id, carrier: made.carrier, tracking_numbers: trackingNumbers }, statements, {
    document,
    labels: made.parcels,
    r2Keys: [key],
  });
}

async function sendPreAlert(
  { ctx, tree, run, event }: Step,
  action: ActionOf<"send_pre_alert">,
): Promise<ActionOutcome> {
  const c = tree.consignment;
  const id = ctx.deps.ids.prefixed("pal");
  const payload = preAlertPayload(tree);
  const outbox = await outboxStatements({
    ctx,
    input: {
      event: {
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
      endpoints: run.endpoints,
    },
  });
  const preAlert: PreAlertRow = {
    id,
    workspaceId: ctx.workspace.id,
    consignmentId: c.id,
    recipient: action.recipient,
    channel: "webhook",
    eventId: outbox.eventId,
    payload: JSON.stringify(payload),
    flowId: run.flow.id,
    createdAt: isoAt(run.nowMs),
  };
  const statements = [
    insertChild(ctx.db, consignmentPreAlerts, preAlert),
    event("pre_alert.sent", { pre_alert_id: id, recipient: action.recipient, event_id: outbox.eventId }),
    ...outbox.statements,
    // No webhook for a pre-alert that a concurrent delete kept from being recorded.
    ...withdrawOutboxUnless(ctx.db, outbox.eventId, preAlertStored(id)),
  ];
  return done(
    action.type,
    { pre_alert_id: id, event_id: outbox.eventId, deliveries: outbox.deliveryIds.length },
    statements,
    { preAlert, deliveryIds: outbox.deliveryIds },
  );
}

const preAlertStored = (id: string) =>
  sql`EXISTS (SELECT 1 FROM ${consignmentPreAlerts} WHERE ${consignmentPreAlerts.id} = ${id})`;

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

/** An action's result as the create response (`data.flows`) and the run's record show it. */
export const outcomeToWire = (o: ActionOutcome) =>
  o.ok ? { type: o.type, status: "succeeded", ...o.result } : { type: o.type, status: "failed", errors: o.errors };

/** A consignment's `extra` JSON with its tags replaced. */
export const extraWithTags = (extra: string, tags: string[]) =>
  JSON.stringify({ ...(JSON.parse(extra) as object), tags });

export const discardDocuments = (archive: R2Bucket, keys: string[]) =>
  keys.length ? archive.delete(keys).catch(() => undefined) : Promise.resolve();

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
