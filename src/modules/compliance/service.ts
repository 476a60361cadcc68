/**
 * One compliance pass over a consignment (no Hono): the four engines meet on it. Every party (sender,
 * receiver, supporting agents) is screened against the sanctions lists; every item is checked against the
 * restriction rules (destination import, origin export, the organization's own); items without an HS code are
 * classified; the landed cost is quoted. The findings become one stored check, and holds by the workspace's
 * policy (engines/compliance/policy.ts).
 *
 * The pass computes and returns statements; the caller commits them in one batch (the route's own, or a
 * create's batch for the inline flow action), so the check, its holds, their consignment events and the
 * webhook events `compliance.checked` and `hold.placed` commit together or not at all, and only while the
 * consignment exists. A part that cannot run (no lists loaded, no destination, checks not enabled for the
 * destination, no tariff) is recorded as not run, with the reason, and the rest still runs.
 */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Call, WorkspaceScopedContext } from "../../core/context";
import type { DataSource } from "../../core/data-source";
import { complianceChecks, consignmentHolds, consignments } from "../../db/schema/index";
import {
  type ClassificationFinding,
  type Decision,
  decide,
  type Findings,
  type GoodsFinding,
  type PartyFinding,
  type Policy,
} from "../../engines/compliance/policy";
import { complianceSummaryPdf } from "../../engines/documents/compliance-pdf";
import { isoAt } from "../../lib/clock";
import { ApiError, notFound } from "../../lib/errors";
import { nomenclatureSource } from "../classify/service";
import { eventInsert, insertChild, type Statement, withdrawOutboxUnless } from "../consignment-records/rows";
import type { HoldRow, Tree } from "../consignment-records/tree";
import { holdPlacedEvent } from "../consignment-records/wire";
import { consignmentHeadQuery, consignmentNotFound } from "../consignments/access";
import { type AssessContext, assessmentOut, assessTree } from "../consignments/assessments";
import { loadConsignment } from "../consignments/service";
import { checkGoods } from "../restrict/service";
import { currentIndex, type ScreenRequest, screenMany } from "../screen/service";
import { cachedSettings } from "../settings/service";
import { type EndpointRow, outboxStatements } from "../webhooks/service";

export type ComplianceRow = typeof complianceChecks.$inferSelect;

/** The screening list threshold: matches below it are not matches at all (see the screen engine). */
const LIST_THRESHOLD = 0.7;
const DEFAULT_HOLD_SCORE = 0.85;

interface Party {
  company_name?: string | null;
  contact?: { name?: string | null } | null;
  address_1?: string | null;
  city?: string | null;
  state_province?: string | null;
  post_code?: string | null;
  country_code?: string | null;
}

const SUPPORTING_AGENTS = ["importer_of_record", "billing", "return", "pudo"] as const;

/** Who a consignment names: sender, receiver and supporting agents with a name to screen. */
function partiesOf(tree: Tree): { role: string; party: Party }[] {
  const c = tree.consignment;
  const extra = JSON.parse(c.extra) as { supporting_agents?: Record<string, Party | undefined> };
  const out: { role: string; party: Party }[] = [];
  const add = (role: string, p: Party | null | undefined) => {
    if (p && (p.contact?.name?.trim() || p.company_name?.trim())) out.push({ role, party: p });
  };
  add("sender", c.sender ? (JSON.parse(c.sender) as Party) : null);
  add("receiver", c.receiver ? (JSON.parse(c.receiver) as Party) : null);
  for (const role of SUPPORTING_AGENTS) add(role, extra.supporting_agents?.[role]);
  return out;
}

/** A party as the screen engine takes it: the person and the company both, merged by the engine. */
function screenRequest(p: Party): ScreenRequest {
  const person = p.contact?.name?.trim() || undefined;
  const company = p.company_name?.trim() || undefined;
  const address = {
    line_1: p.address_1 ?? undefined,
    city: p.city ?? undefined,
    state: p.state_province ?? undefined,
    postal_code: p.post_code ?? undefined,
    country_code: p.country_code ?? undefined,
  };
  return { name: person ?? company ?? "", company: person ? company : undefined, address };
}

const partyName = (p: Party) =>
  [p.contact?.name?.trim(), p.company_name?.trim()].filter(Boolean).join(" / ") || "(unnamed)";

interface Part<T> {
  run_id: string;
  status: "completed" | "not_run";
  reason: string | null;
  data_source: DataSource | null;
  result: T | null;
}

const notRun = <T>(runId: string, reason: string): Part<T> => ({
  run_id: runId,
  status: "not_run",
  reason,
  data_source: null,
  result: null,
});

/** A failure the client or the data can explain (422, 403, 503) makes a part not run; anything else throws. */
const explained = (e: unknown) => e instanceof ApiError;

async function screeningPart(ctx: ComplianceContext, tree: Tree, runId: string) {
  const parties = partiesOf(tree);
  try {
    const nowMs = ctx.deps.clock.now();
    const loaded = await currentIndex(ctx.db, nowMs, ctx.env.ARCHIVE);
    const { hits } = await screenMany(
      ctx.db,
      nowMs,
      parties.map((p) => screenRequest(p.party)),
      LIST_THRESHOLD,
    );
    const findings: PartyFinding[] = parties.map((p, i) => ({
      role: p.role,
      name: partyName(p.party),
      matches: (hits[i] ?? []).map((h) => ({
        score: h.score,
        list_code: h.listCode,
        list_version: h.listVersion,
        entry_id: h.entryId,
        entry_name: h.match.entry.name,
        matched_name: h.match.matched_name,
        programs: h.match.entry.programs,
      })),
    }));
    const lists = loaded.lists.map((l) => ({ code: l.code, version: l.version }));
    const part: Part<{ parties: PartyFinding[]; lists: typeof lists }> = {
      run_id: runId,
      status: "completed",
      reason: parties.length ? null : "The consignment names no party to screen",
      data_source: loaded.dataSource,
      result: { parties: findings, lists },
    };
    return part;
  } catch (e) {
    if (!explained(e)) throw e;
    return notRun<{ parties: PartyFinding[]; lists: { code: string; version: string }[] }>(
      runId,
      `Parties were not screened: ${(e as ApiError).message}`,
    );
  }
}

const itemLabel = (tree: Tree, i: number) => {
  const item = tree.items[i];
  return `${i + 1}${item?.sku ? ` (${item.sku})` : item?.title ? ` (${item.title.slice(0, 60)})` : ""}`;
};

async function restrictionsPart(ctx: ComplianceContext, tree: Tree, runId: string) {
  const c = tree.consignment;
  type Result = { destination: string; origin: string | null; items: GoodsFinding[] };
  if (!c.receiverCountry) return notRun<Result>(runId, "No receiver country: restrictions were not checked");
  if (!tree.items.length) return notRun<Result>(runId, "No items to check");
  try {
    const checked = await checkGoods({
      ctx,
      input: {
        destination_country: c.receiverCountry,
        origin_country: c.senderCountry,
        items: tree.items.map((i) => ({
          sku: i.sku,
          title: i.title,
          description: i.description,
          hs_code: i.hsCode,
          country_of_origin: i.countryOfOrigin ?? c.senderCountry,
        })),
      },
    });
    const items: GoodsFinding[] = checked.items.map((it, i) => ({
      item_id: tree.items[i]?.id ?? "",
      label: itemLabel(tree, i),
      matches: (it.restrictions ?? []).map((m) => ({
        id: m.id,
        rule_type: m.rule_type,
        requirement: m.requirement,
        title: m.title,
        imposing_country_code: m.imposing_country_code,
        measure_direction: m.measure_direction,
        agency: m.agency,
        source_url: m.source_url,
      })),
    }));
    const part: Part<Result> = {
      run_id: runId,
      status: "completed",
      reason: null,
      data_source: checked.dataSource,
      result: { destination: checked.destination, origin: checked.origin, items },
    };
    return part;
  } catch (e) {
    if (!explained(e)) throw e;
    return notRun<Result>(runId, `Restrictions were not checked: ${(e as ApiError).message}`);
  }
}

type Assessment = ReturnType<typeof assessmentOut>;

/** The landed-cost quote (which also classifies the items that came without a code). */
async function landedCostPart(ctx: ComplianceContext, tree: Tree, runId: string): Promise<Part<Assessment>> {
  try {
    const assessment = assessmentOut(await assessTree(ctx, tree));
    return {
      run_id: runId,
      status: "completed",
      reason: assessment.complete ? null : "Some items have no duty figure (see items[].error)",
      data_source: assessment.data_source,
      result: assessment,
    };
  } catch (e) {
    if (!explained(e)) throw e;
    return notRun<Assessment>(runId, `Landed cost was not quoted: ${(e as ApiError).message}`);
  }
}

async function classificationPart(
  ctx: ComplianceContext,
  tree: Tree,
  landed: Part<Assessment>,
  runId: string,
): Promise<Part<{ items: ClassificationFinding[] }>> {
  const without = tree.items.flatMap((item, i) => (item.hsCode ? [] : [{ item, i }]));
  const destination = tree.consignment.receiverCountry;
  if (!without.length)
    return { run_id: runId, status: "completed", reason: null, data_source: null, result: { items: [] } };
  if (!destination || !landed.result)
    return notRun(runId, `Items without an HS code were not classified: ${landed.reason ?? "no destination"}`);
  const assessed = new Map(landed.result.items.map((a) => [a.item_id, a]));
  const items = without.map(({ item, i }): ClassificationFinding => {
    const a = assessed.get(item.id);
    return {
      item_id: item.id,
      label: itemLabel(tree, i),
      code: a?.hs_code ?? null,
      confidence: (a?.classification?.confidence as ClassificationFinding["confidence"]) ?? null,
      error: a?.hs_code ? null : (a?.error ?? "not classified"),
    };
  });
  const dataSource = await nomenclatureSource(ctx, destination);
  return { run_id: runId, status: "completed", reason: null, data_source: dataSource, result: { items } };
}

/** What the pass needs: the workspace's data and settings, and the request it runs under (null in a job). */
export type ComplianceContext = AssessContext & WorkspaceScopedContext;

async function policyOf(ctx: ComplianceContext): Promise<Policy> {
  const settings = await cachedSettings({ ctx });
  return {
    holds: (settings["compliance.holds"] ?? "on") === "on",
    screeningHoldScore: settings["compliance.screening_hold_score"] ?? DEFAULT_HOLD_SCORE,
  };
}

export interface PassInput {
  tree: Tree;
  source: "api" | "flow";
  flowId: number | null;
  /** Webhook endpoints already read by the caller (a flow run); read here otherwise. */
  endpoints?: EndpointRow[] | undefined;
}

export interface Pass {
  row: ComplianceRow;
  holds: HoldRow[];
  decision: Decision;
  statements: Statement[];
  deliveryIds: string[];
}

/** Runs the engines over the consignment as given and builds the statements that record the outcome. */
export async function compliancePass({ ctx, input }: Call<PassInput, ComplianceContext>): Promise<Pass> {
  const { tree } = input;
  const runId = () => ctx.deps.ids.prefixed("run");
  const [policy, screening, restrictions, landed] = await Promise.all([
    policyOf(ctx),
    screeningPart(ctx, tree, runId()),
    restrictionsPart(ctx, tree, runId()),
    landedCostPart(ctx, tree, runId()),
  ]);
  const classification = await classificationPart(ctx, tree, landed, runId());
  const findings: Findings = {
    parties: screening.result?.parties ?? [],
    goods: restrictions.result?.items ?? [],
    classifications: classification.result?.items ?? [],
    gaps: [screening, restrictions, classification, landed].flatMap((p) =>
      p.status === "not_run" || (p === landed && p.reason) ? [p.reason ?? ""] : [],
    ),
  };
  const decision = decide(findings, policy);
  const now = isoAt(ctx.deps.clock.now());
  const holds = policy.holds ? holdRows(ctx, tree, decision, input, now) : [];
  const row: ComplianceRow = {
    id: ctx.deps.ids.prefixed("cck"),
    workspaceId: ctx.workspace.id,
    consignmentId: tree.consignment.id,
    outcome: decision.outcome,
    policy: JSON.stringify({ holds: policy.holds ? "on" : "off", screening_hold_score: policy.screeningHoldScore }),
    screening: JSON.stringify(screening),
    restrictions: JSON.stringify(restrictions),
    classification: JSON.stringify(classification),
    landedCost: JSON.stringify(landed),
    holds: JSON.stringify(holds.map((h) => ({ hold_id: h.id, code: h.code, reason: h.reason }))),
    warnings: JSON.stringify(decision.warnings),
    source: input.source,
    requestId: ctx.requestId,
    createdAt: now,
  };
  const { statements, deliveryIds } = await recordStatements(ctx, { tree, row, holds, endpoints: input.endpoints });
  return { row, holds, decision, statements, deliveryIds };
}

function holdRows(ctx: ComplianceContext, tree: Tree, decision: Decision, input: PassInput, now: string): HoldRow[] {
  return decision.holds.map((h) => ({
    id: ctx.deps.ids.prefixed("hld"),
    workspaceId: ctx.workspace.id,
    consignmentId: tree.consignment.id,
    code: h.code,
    reason: h.reason.slice(0, 500),
    status: "active" as const,
    source: "compliance",
    flowId: input.flowId,
    placedAt: now,
    releasedAt: null,
    releaseReason: null,
  }));
}

const checkStored = (id: string) =>
  sql`EXISTS (SELECT 1 FROM ${complianceChecks} WHERE ${complianceChecks.id} = ${id})`;

/** The check, its holds and their events, and the webhook events, written only while the consignment exists. */
async function recordStatements(
  ctx: ComplianceContext,
  p: { tree: Tree; row: ComplianceRow; holds: HoldRow[]; endpoints?: EndpointRow[] | undefined },
) {
  const c = p.tree.consignment;
  const ref = { consignment_id: c.id, shipment_ref: c.shipmentRef, external_code: c.externalCode };
  const warnings = JSON.parse(p.row.warnings) as string[];
  const summary = { check_id: p.row.id, outcome: p.row.outcome, hold_ids: p.holds.map((h) => h.id) };
  const event = (type: string, data: Record<string, unknown>) =>
    eventInsert(ctx.db, ctx.deps.ids, {
      consignmentId: c.id,
      workspaceId: ctx.workspace.id,
      type,
      data,
      requestId: ctx.requestId,
      createdAt: p.row.createdAt,
      when: checkStored(p.row.id),
    });
  const outbox = [
    await outboxStatements({
      ctx,
      input: {
        event: { type: "compliance.checked", data: { ...ref, ...summary, warning_count: warnings.length } },
        endpoints: p.endpoints,
      },
    }),
    ...(await Promise.all(
      p.holds.map((h) =>
        outboxStatements({
          ctx,
          input: { event: holdPlacedEvent(c, h), endpoints: p.endpoints },
        }),
      ),
    )),
  ];
  const statements: Statement[] = [
    insertChild(ctx.db, complianceChecks, p.row).returning({ id: complianceChecks.id }),
    ...p.holds.map((h) => insertChild(ctx.db, consignmentHolds, h)),
    event("compliance.checked", { ...summary, warnings: warnings.length }),
    ...p.holds.map((h) => event("hold.placed", { hold_id: h.id, code: h.code, reason: h.reason, check_id: p.row.id })),
    ...outbox.flatMap((o) => [...o.statements, ...withdrawOutboxUnless(ctx.db, o.eventId, checkStored(p.row.id))]),
  ];
  return { statements, deliveryIds: outbox.flatMap((o) => o.deliveryIds) };
}

/** POST …/compliance-check: the pass over the stored consignment, committed; 404 if it is not visible. */
export async function runComplianceCheck({ ctx, input }: Call<{ id: string }>) {
  const tree = await loadConsignment({ ctx, input: { id: input.id } });
  const pass = await compliancePass({ ctx, input: { tree, source: "api", flowId: null } });
  const [first, ...rest] = pass.statements;
  if (!first) throw new Error("a compliance pass always records its check");
  const [inserted] = (await ctx.db.batch([first, ...rest])) as unknown[][];
  // The check's insert comes first and is conditional on the consignment: nothing inserted, a delete won.
  if (!inserted?.length) throw consignmentNotFound(input.id);
  return pass;
}

export async function listComplianceChecks({
  ctx,
  input,
}: Call<{ id: string; limit: number; starting_after?: string | undefined }>) {
  const where = [eq(complianceChecks.consignmentId, input.id), eq(complianceChecks.workspaceId, ctx.workspace.id)];
  if (input.starting_after) where.push(lt(complianceChecks.id, input.starting_after));
  const [head, rows] = await ctx.db.batch([
    consignmentHeadQuery(ctx, input.id),
    ctx.db
      .select()
      .from(complianceChecks)
      .where(and(...where))
      .orderBy(desc(complianceChecks.id))
      .limit(input.limit + 1),
  ]);
  if (!head.length) throw consignmentNotFound(input.id);
  return { rows: rows.slice(0, input.limit), hasMore: rows.length > input.limit };
}

export async function getComplianceCheck({ ctx, input }: Call<{ id: string; checkId: string }>) {
  const [head, rows] = await ctx.db.batch([
    consignmentHeadQuery(ctx, input.id),
    ctx.db
      .select()
      .from(complianceChecks)
      .where(
        and(
          eq(complianceChecks.id, input.checkId),
          eq(complianceChecks.consignmentId, input.id),
          eq(complianceChecks.workspaceId, ctx.workspace.id),
        ),
      )
      .limit(1),
  ]);
  if (!head.length) throw consignmentNotFound(input.id);
  const [row] = rows;
  if (!row) throw notFound(`Compliance check '${input.checkId}' not found on consignment '${input.id}'`);
  return row;
}

/** One engine's part of a stored check, as it is read back. */
type StoredPart = Omit<Part<Record<string, unknown>>, "data_source"> & { data_source: DataSource | null };

/** The stored check as the API answers it. */
export const checkToWire = (r: ComplianceRow) => ({
  id: r.id,
  consignment_id: r.consignmentId,
  outcome: r.outcome,
  holds: JSON.parse(r.holds) as { hold_id: string; code: string; reason: string }[],
  warnings: JSON.parse(r.warnings) as string[],
  policy: JSON.parse(r.policy) as { holds: "on" | "off"; screening_hold_score: number },
  screening: JSON.parse(r.screening) as StoredPart,
  restrictions: JSON.parse(r.restrictions) as StoredPart,
  classification: JSON.parse(r.classification) as StoredPart,
  landed_cost: JSON.parse(r.landedCost) as StoredPart,
  source: r.source,
  request_id: r.requestId,
  created_at: r.createdAt,
});

type Wire = ReturnType<typeof checkToWire>;
type WirePart = StoredPart;

/** Per engine, the lines an officer reads: what it looked at and what it found. */
function sectionLines(title: string, part: WirePart, lines: (r: Record<string, unknown>) => string[]) {
  return {
    title,
    status: part.status,
    runId: part.run_id,
    dataVersion: part.data_source?.version ?? null,
    lines: [...(part.reason ? [part.reason] : []), ...(part.result ? lines(part.result) : [])],
  };
}

function summarySections(w: Wire) {
  const screening = sectionLines("Sanctions screening", w.screening, (r) => {
    const parties = r.parties as PartyFinding[];
    const lists = (r.lists as { code: string; version: string }[]).map((l) => `${l.code} ${l.version}`).join(", ");
    return [
      `Lists: ${lists || "-"}`,
      ...parties.map((p) =>
        p.matches.length
          ? `${p.role} ${p.name}: ${p.matches.map((m) => `${m.entry_name} (${m.list_code}, ${m.score})`).join("; ")}`
          : `${p.role} ${p.name}: no match`,
      ),
    ];
  });
  const restrictions = sectionLines("Restricted goods", w.restrictions, (r) =>
    (r.items as GoodsFinding[]).map((g) =>
      g.matches.length
        ? `Item ${g.label}: ${g.matches.map((m) => `${m.rule_type} ${m.title} (${m.imposing_country_code}, ${m.id})`).join("; ")}`
        : `Item ${g.label}: no rule applies`,
    ),
  );
  const classification = sectionLines("Classification of items without an HS code", w.classification, (r) =>
    (r.items as ClassificationFinding[]).map(
      (c) => `Item ${c.label}: ${c.code ? `${c.code} (${c.confidence ?? "?"} confidence)` : `none: ${c.error}`}`,
    ),
  );
  const landed = sectionLines("Landed cost", w.landed_cost, (r) => [
    `Destination ${r.destination_country}, entry ${r.entry_date}, ${r.complete ? "complete" : "incomplete"}`,
    `Duty ${r.total_duty} ${r.currency}; taxes and fees ${r.total_tax} ${r.currency}; total ${r.total} ${r.currency}`,
  ]);
  return [screening, restrictions, classification, landed];
}

/** GET …/compliance-checks/{check_id}/document: the summary PDF, drawn from the stored record. */
export async function complianceDocument({ ctx, input }: Call<{ id: string; checkId: string }>) {
  const [row, heads] = await Promise.all([
    getComplianceCheck({ ctx, input }),
    ctx.db
      .select({ shipmentRef: consignments.shipmentRef })
      .from(consignments)
      .where(eq(consignments.id, input.id))
      .limit(1),
  ]);
  const w = checkToWire(row);
  return complianceSummaryPdf({
    checkId: w.id,
    consignmentId: w.consignment_id,
    shipmentRef: heads[0]?.shipmentRef ?? "-",
    workspace: ctx.workspace.slug,
    createdAt: w.created_at,
    outcome: w.outcome,
    policy: `holds ${w.policy.holds}, screening hold score ${w.policy.screening_hold_score}`,
    holds: w.holds,
    warnings: w.warnings,
    sections: summarySections(w),
  });
}
