/** Wire shapes of what hangs off a consignment: holds, generated documents and pre-alerts. */
import type { DocumentRow, HoldRow, PreAlertRow } from "./tree";

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

/**
 * The `hold.placed` webhook event of a hold, whoever placed it (by hand, a flow, a compliance check, ongoing
 * screening): the consignment's references and the hold (webhook catalogue).
 */
export const holdPlacedEvent = (
  c: { id: string; shipmentRef: string; externalCode: string | null },
  h: Pick<HoldRow, "id" | "code" | "reason" | "source">,
) => ({
  type: "hold.placed",
  data: {
    consignment_id: c.id,
    shipment_ref: c.shipmentRef,
    external_code: c.externalCode,
    hold_id: h.id,
    code: h.code,
    reason: h.reason,
    source: h.source,
  },
});
