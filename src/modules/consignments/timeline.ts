/**
 * The human-readable timeline: one line per raw consignment event, in the order they happened. Pure, so the
 * wording is tested without storage; unknown event types still appear (with their type as the title) rather
 * than vanish from the record.
 */
export interface RawEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface TimelineEntry {
  at: string;
  event_id: string;
  type: string;
  title: string;
  detail: string | null;
  actor: string;
}

const by = (d: Record<string, unknown>) =>
  d.flow_id != null ? `flow '${String(d.flow_name)}' (${String(d.flow_id)})${d.inline ? ", inline" : ""}` : "api";
const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(", ") : "");

export function timelineEntry(e: RawEvent): TimelineEntry {
  const d = e.data;
  const base = { at: e.createdAt, event_id: e.id, type: e.type, actor: by(d) };
  switch (e.type) {
    case "consignment.created": {
      const flows =
        Array.isArray(d.flows_matched) && d.flows_matched.length ? `; flows triggered: ${list(d.flows_matched)}` : "";
      return {
        ...base,
        actor: "api",
        title: "Consignment created",
        detail: `${String(d.shipment_ref)}: ${String(d.parcels)} parcel(s), ${String(d.items)} item(s)${flows}`,
      };
    }
    case "consignment.updated": {
      const added = Array.isArray(d.added) && d.added.length ? `; added ${list(d.added)}` : "";
      const removed = Array.isArray(d.removed) && d.removed.length ? `; removed ${list(d.removed)}` : "";
      return {
        ...base,
        actor: "api",
        title: "Consignment amended",
        detail: `changed ${list(d.changed_fields) || "nothing"}${added}${removed}`,
      };
    }
    case "tags.added":
      return { ...base, title: "Tags added", detail: list(d.tags) || "no new tags" };
    case "hold.placed":
      return { ...base, title: "Hold placed", detail: `${d.code ? `[${String(d.code)}] ` : ""}${String(d.reason)}` };
    case "hold.released":
      return {
        ...base,
        title: "Hold released",
        detail: `${String(d.hold_id)}${d.reason ? `: ${String(d.reason)}` : ""}`,
      };
    case "document.generated":
      if (d.type === "customs_declaration")
        return {
          ...base,
          title: "Customs declaration generated",
          detail: `${String(d.form)} (document ${String(d.document_id)})`,
        };
      return {
        ...base,
        title: "Commercial invoice generated",
        detail: `invoice ${String(d.invoice_number)} (document ${String(d.document_id)})`,
      };
    case "compliance.checked":
      return {
        ...base,
        title: d.outcome === "hold" ? "Compliance check: hold" : "Compliance check: release",
        detail: `check ${String(d.check_id)}: ${Array.isArray(d.hold_ids) ? d.hold_ids.length : 0} hold(s), ${String(d.warnings ?? 0)} warning(s)`,
      };
    case "pre_alert.sent":
      return { ...base, title: "Pre-alert sent", detail: `to ${String(d.recipient)}` };
    case "flow.action_failed":
      return { ...base, title: `Flow action failed: ${String(d.action)}`, detail: list(d.errors) };
    case "deletion.refused":
      return { ...base, actor: "api", title: "Deletion refused", detail: list(d.reasons) };
    case "assessment.created":
      return {
        ...base,
        actor: "api",
        title: "Duty assessment run",
        detail: `${String(d.destination_country)}: duty ${String(d.total_duty)} ${String(d.currency)}, tax ${String(d.total_tax)} ${String(d.currency)} (assessment ${String(d.assessment_id)})`,
      };
    default:
      return { ...base, title: e.type, detail: null };
  }
}
