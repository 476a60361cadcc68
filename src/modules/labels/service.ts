/**
 * Labels for a consignment's parcels (no Hono): the carrier (explicit, or `postal` by default) numbers every
 * parcel and draws the labels; the tracking numbers, a `label` document (listed under the consignment's
 * documents) and a `labels.issued` consignment event commit in one batch, only while the consignment still
 * exists and has no labels yet. Serials come from the workspace's range, allocated atomically before the
 * batch: a failed issue leaves a gap in the range, never a duplicate number.
 */
import { asc, eq, inArray, notExists, sql } from "drizzle-orm";
import type { Call, ServiceContext } from "../../core/context";
import {
  carrierSerials,
  consignmentDocuments,
  consignmentItems,
  consignmentParcels,
  consignments,
  parcelLabels,
} from "../../db/schema/index";
import { type CarrierAdapter, postalCarrier } from "../../engines/carriers/index";
import { isoAt } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { conflict, unprocessable } from "../../lib/errors";
import { eventInsert } from "../consignment-records/rows";
import { consignmentNotFound, visibleConsignment } from "../consignments/access";

/** The carriers this deployment has; an integration that needs an account adds its adapter here. */
function carrierFor(code: string, originCountry: string): CarrierAdapter | null {
  if (code === "postal") return postalCarrier(originCountry);
  return null;
}
export const CARRIERS = ["postal"] as const;

interface Party {
  company_name?: string | null;
  contact?: { name?: string | null } | null;
  address_1?: string | null;
  address_2?: string | null;
  city?: string | null;
  state_province?: string | null;
  post_code?: string | null;
  country_code?: string | null;
}

const addressOf = (raw: string | null) => {
  const p = (raw ? JSON.parse(raw) : {}) as Party;
  return {
    name: p.contact?.name || p.company_name || "-",
    lines: [
      p.contact?.name && p.company_name ? p.company_name : null,
      p.address_1,
      p.address_2,
      [p.post_code, p.city, p.state_province].filter(Boolean).join(" "),
    ].filter((l): l is string => Boolean(l)),
    countryCode: p.country_code ?? null,
  };
};

/** Reserves `count` serials of the workspace's range in one statement and returns the first. */
async function reserveSerials(
  ctx: { db: ServiceContext["db"]; workspace: { id: string } },
  carrier: string,
  service: string,
  count: number,
): Promise<number> {
  const [row] = await ctx.db
    .insert(carrierSerials)
    .values({ workspaceId: ctx.workspace.id, carrier, service, next: count })
    .onConflictDoUpdate({
      target: [carrierSerials.workspaceId, carrierSerials.carrier, carrierSerials.service],
      set: { next: sql`${carrierSerials.next} + ${count}` },
    })
    .returning({ next: carrierSerials.next });
  const end = row?.next ?? count;
  if (end > 99_999_999) throw conflict(`The ${service} serial range of this workspace is exhausted`);
  return end - count;
}

type ConsignmentRow = typeof consignments.$inferSelect;

export async function issueLabels({
  ctx,
  input,
}: Call<{ id: string; carrier?: string | undefined; service?: string | undefined }>) {
  const [heads, existing] = await ctx.db.batch([
    ctx.db.select().from(consignments).where(visibleConsignment(ctx, input.id)).limit(1),
    ctx.db
      .select({ parcelId: parcelLabels.parcelId })
      .from(parcelLabels)
      .where(eq(parcelLabels.consignmentId, input.id)),
  ]);
  const c = heads[0];
  if (!c) throw consignmentNotFound(input.id);
  if (existing.length) throw conflict(`Consignment '${c.id}' already has labels; cancel them first to issue new ones`);
  const [parcels, items] = await ctx.db.batch([
    ctx.db
      .select()
      .from(consignmentParcels)
      .where(eq(consignmentParcels.consignmentId, c.id))
      .orderBy(asc(consignmentParcels.position)),
    ctx.db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, c.id)),
  ]);
  const nowMs = ctx.deps.clock.now();
  const made = await labelsForTree(ctx, { consignment: c, parcels, items }, input, nowMs);
  if ("error" in made) throw unprocessable(made.error as string);
  const { carrier: code, service } = made;
  const now = isoAt(nowMs);
  const labels = { document: made.document, trackingNumbers: made.parcels.map((p) => p.trackingNumber) };
  // The rows only go in while the consignment exists and has no labels: a concurrent issue or delete wins.
  const documentId = ctx.deps.ids.prefixed("doc");
  const key = `documents/${ctx.workspace.id}/${c.id}/${documentId}.pdf`;
  await ctx.env.ARCHIVE.put(key, labels.document.bytes, {
    httpMetadata: { contentType: labels.document.contentType },
    customMetadata: { consignment_id: c.id, type: "label" },
  });
  const stillThere = sql`EXISTS (SELECT 1 FROM ${consignments} WHERE ${consignments.id} = ${c.id})`;
  const noLabels = notExists(
    ctx.db.select({ id: parcelLabels.parcelId }).from(parcelLabels).where(eq(parcelLabels.consignmentId, c.id)),
  );
  // Column order of parcel_labels: parcel, consignment, workspace, carrier, service, number, document, time.
  const payload = JSON.stringify(
    made.parcels.map((p) => [p.parcelId, c.id, ctx.workspace.id, code, service, p.trackingNumber, documentId, now]),
  );
  const [inserted] = await ctx.db.batch([
    ctx.db
      .insert(parcelLabels)
      .select(
        sql`SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7 FROM json_each(${payload}) WHERE ${stillThere} AND ${noLabels}`,
      )
      .returning({ parcelId: parcelLabels.parcelId }),
    ctx.db
      .insert(consignmentDocuments)
      .select(
        sql`SELECT ${documentId}, ${ctx.workspace.id}, ${c.id}, 'label', ${key}, ${labels.document.contentType}, ${labels.document.bytes.byteLength}, ${await sha256Hex(labels.document.bytes)}, ${JSON.stringify({ carrier: code, service, tracking_numbers: labels.trackingNumbers })}, NULL, ${now} WHERE EXISTS (SELECT 1 FROM ${parcelLabels} WHERE ${parcelLabels.documentId} = ${documentId})`,
      ),
    eventInsert(ctx.db, ctx.deps.ids, {
      consignmentId: c.id,
      workspaceId: ctx.workspace.id,
      type: "labels.issued",
      data: { carrier: code, service, document_id: documentId, tracking_numbers: labels.trackingNumbers },
      requestId: ctx.requestId,
      createdAt: now,
    }),
  ]);
  if (!inserted.length) {
    await ctx.env.ARCHIVE.delete(key);
    throw conflict(`Consignment '${c.id}' got labels or was deleted meanwhile`);
  }
  return {
    carrier: code,
    service,
    document: { id: documentId, content_type: labels.document.contentType, size: labels.document.bytes.byteLength },
    parcels: made.parcels.map((p) => ({ parcel_id: p.parcelId, tracking_number: p.trackingNumber })),
  };
}

/** Cancels a consignment's labels: the carrier voids the numbers, the rows and the document go. */
export async function cancelLabels({ ctx, input }: Call<{ id: string }>) {
  const [heads, rows] = await ctx.db.batch([
    ctx.db.select({ id: consignments.id }).from(consignments).where(visibleConsignment(ctx, input.id)).limit(1),
    ctx.db.select().from(parcelLabels).where(eq(parcelLabels.consignmentId, input.id)),
  ]);
  if (!heads[0]) throw consignmentNotFound(input.id);
  if (!rows.length) throw conflict(`Consignment '${input.id}' has no labels to cancel`);
  const first = rows[0] as (typeof rows)[number];
  const carrier = carrierFor(first.carrier, "XX");
  await carrier?.cancel(rows.map((r) => r.trackingNumber));
  const docs = [...new Set(rows.map((r) => r.documentId))];
  const [gone] = await ctx.db.batch([
    ctx.db
      .delete(consignmentDocuments)
      .where(inArray(consignmentDocuments.id, docs))
      .returning({ key: consignmentDocuments.storageKey }),
    ctx.db.delete(parcelLabels).where(eq(parcelLabels.consignmentId, input.id)),
    eventInsert(ctx.db, ctx.deps.ids, {
      consignmentId: input.id,
      workspaceId: ctx.workspace.id,
      type: "labels.cancelled",
      data: { tracking_numbers: rows.map((r) => r.trackingNumber) },
      requestId: ctx.requestId,
      createdAt: isoAt(ctx.deps.clock.now()),
    }),
  ]);
  if (gone.length) await ctx.env.ARCHIVE.delete(gone.map((g) => g.key));
  return { cancelled: rows.map((r) => r.trackingNumber) };
}

/**
 * Labels for a consignment as a flow action sees it (inline: the rows about to be inserted): serials
 * reserved, labels drawn, the PDF stored; the caller commits the rows. Returns null when the carrier or
 * service is unknown (the action's failure, 422 inline).
 */
export async function labelsForTree(
  ctx: { db: ServiceContext["db"]; env: Env; deps: ServiceContext["deps"]; workspace: { id: string } },
  tree: {
    consignment: ConsignmentRow;
    parcels: (typeof consignmentParcels.$inferSelect)[];
    items: (typeof consignmentItems.$inferSelect)[];
  },
  choice: { carrier?: string | undefined; service?: string | undefined },
  nowMs: number,
) {
  const c = tree.consignment;
  const stored = (JSON.parse(c.extra) as { carrier?: { code?: string } }).carrier?.code;
  const code = choice.carrier ?? stored ?? "postal";
  const carrier = carrierFor(code, c.senderCountry ?? "XX");
  if (!carrier) return { error: `Unknown carrier '${code}'; this deployment has: ${CARRIERS.join(", ")}` };
  const service = choice.service ?? carrier.services[0] ?? "CP";
  if (!carrier.services.includes(service))
    return { error: `Carrier '${code}' has no service '${service}'; it offers ${carrier.services.join(", ")}` };
  if (!tree.parcels.length) return { error: "The consignment has no parcels to label" };
  const parcels = [...tree.parcels].sort((a, b) => a.position - b.position);
  const first = await reserveSerials(ctx, code, service, parcels.length);
  const labels = await carrier.createLabels({
    service,
    serials: parcels.map((_, i) => first + i),
    label: {
      createdAt: isoAt(nowMs),
      shipmentRef: c.shipmentRef,
      sender: addressOf(c.sender),
      receiver: addressOf(c.receiver),
      parcels: parcels.map((p) => ({
        position: p.position + 1,
        weightKg: Number(p.weightKg).toFixed(3),
        contents: tree.items
          .filter((i) => i.parcelId === p.id)
          .map((i) => ({
            description: i.title ?? i.description ?? i.sku ?? "-",
            quantity: i.quantity,
            hsCode: i.hsCode,
            origin: i.countryOfOrigin,
            value: i.unitValue,
            currency: i.currencyCode,
          })),
      })),
    },
  });
  return {
    carrier: code,
    service,
    document: labels.document,
    parcels: parcels.map((p, i) => ({ parcelId: p.id, trackingNumber: labels.trackingNumbers[i] as string })),
  };
}
