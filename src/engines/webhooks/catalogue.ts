/**
 * The catalogue of webhook event types: what a subscription may name. An endpoint subscribed to a type that
 * does not exist (`consignment.craeted`) would silently never receive anything, so subscriptions are checked
 * against this list; `GET {api}/settings/webhooks/event-types` serves it.
 */
export interface EventTypeInfo {
  type: string;
  description: string;
  /** JSON Schema of the envelope's `data` for this type (the OpenAPI document's `webhooks` section). */
  data: Record<string, unknown>;
}

const str = { type: "string" };
const nullableStr = { type: ["string", "null"] };
/** Amounts in event data are exact decimal strings, as in the resources they summarise. */
const amount = { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?$" };
const consignmentRef = {
  consignment_id: { ...str, description: "The consignment's id (`con_…`)" },
  shipment_ref: str,
  external_code: nullableStr,
};

export const EVENT_TYPES: readonly EventTypeInfo[] = [
  {
    type: "consignment.created",
    description: "A consignment was created (spec).",
    data: {
      type: "object",
      required: ["consignment_id", "shipment_ref", "external_code", "customer_id", "status"],
      properties: {
        ...consignmentRef,
        customer_id: { type: ["integer", "null"] },
        status: { ...str, const: "created" },
      },
    },
  },
  {
    type: "consignment.updated",
    description:
      "A consignment was amended (PATCH): what changed, as paths in the create body (`receiver.city`, `parcels[0].items[1].hs_code`; a list whose membership changed is named itself, a new element by its index).",
    data: {
      type: "object",
      required: ["consignment_id", "shipment_ref", "external_code", "customer_id", "changed_fields", "updated_at"],
      properties: {
        ...consignmentRef,
        customer_id: { type: ["integer", "null"] },
        changed_fields: { type: "array", items: str, minItems: 1 },
        updated_at: str,
      },
    },
  },
  {
    type: "consignment.pre_alert",
    description: "A flow sent a pre-alert for a consignment.",
    data: {
      type: "object",
      required: ["consignment_id", "shipment_ref", "external_code", "pre_alert_id", "recipient", "pre_alert"],
      properties: {
        ...consignmentRef,
        pre_alert_id: { ...str, description: "`pal_…`" },
        recipient: str,
        pre_alert: {
          type: "object",
          description: "The consignment as sent to the recipient: parties, parcels, items and values",
        },
      },
    },
  },
  {
    type: "duties.calculated",
    description: "A consignment duty assessment run completed (spec).",
    data: {
      type: "object",
      required: [
        "consignment_id",
        "shipment_ref",
        "external_code",
        "assessment_id",
        "destination_country",
        "total_duty",
        "total_tax",
        "currency",
      ],
      properties: {
        ...consignmentRef,
        assessment_id: { ...str, description: "`asm_…`" },
        destination_country: str,
        total_duty: amount,
        total_tax: amount,
        currency: str,
      },
    },
  },
  {
    type: "webhook.test",
    description: "A test event sent from POST /settings/webhooks/{id}/test.",
    data: {
      type: "object",
      required: ["webhook_id", "message", "request_id"],
      properties: { webhook_id: str, message: str, request_id: str },
    },
  },
  {
    type: "screening.match",
    description:
      "Ongoing screening opened an alert: a party the workspace holds matched a listed entry (on its first screening or after a list changed).",
    data: {
      type: "object",
      required: ["alert_id", "party", "entry_id", "list_code", "list_version", "score", "matched_name"],
      properties: {
        alert_id: { ...str, description: "`sca_…`" },
        party: {
          type: "object",
          required: ["id", "name", "company", "country_code"],
          properties: { id: str, name: str, company: nullableStr, country_code: nullableStr },
        },
        entry_id: { ...str, description: "`{list_code}:{source_ref}`" },
        list_code: str,
        list_version: str,
        score: { type: "number" },
        matched_name: str,
      },
    },
  },
  {
    type: "compliance.checked",
    description:
      "A compliance check ran over a consignment (screening, restrictions, classification, landed cost): its outcome and the holds it placed.",
    data: {
      type: "object",
      required: [...Object.keys(consignmentRef), "check_id", "outcome", "hold_ids", "warning_count"],
      properties: {
        ...consignmentRef,
        check_id: { ...str, description: "`cck_…` (GET …/compliance-checks/{check_id})" },
        outcome: { type: "string", enum: ["release", "hold"] },
        hold_ids: { type: "array", items: str },
        warning_count: { type: "integer" },
      },
    },
  },
  {
    type: "hold.placed",
    description:
      "A hold was placed on a consignment: by a compliance check, by ongoing screening, by a flow's `place_hold` action or by hand (POST …/holds).",
    data: {
      type: "object",
      required: [...Object.keys(consignmentRef), "hold_id", "code", "reason", "source"],
      properties: {
        ...consignmentRef,
        hold_id: { ...str, description: "`hld_…`" },
        code: nullableStr,
        reason: str,
        source: { ...str, description: "`compliance`, `screening`, `flow` or `api`" },
      },
    },
  },
  {
    type: "hold.released",
    description: "A hold on a consignment was released, with the reason given.",
    data: {
      type: "object",
      required: [...Object.keys(consignmentRef), "hold_id", "code", "reason"],
      properties: {
        ...consignmentRef,
        hold_id: { ...str, description: "`hld_…`" },
        code: nullableStr,
        reason: nullableStr,
      },
    },
  },
  {
    type: "manifest.created",
    description: "A manifest was created with its first consignments.",
    data: {
      type: "object",
      required: ["manifest_id", "carrier", "reference", "consignment_ids"],
      properties: {
        manifest_id: { ...str, description: "`man_…`" },
        carrier: nullableStr,
        reference: nullableStr,
        consignment_ids: { type: "array", items: str },
      },
    },
  },
  {
    type: "manifest.closed",
    description: "A manifest was closed: its consignments are final and its PDF generated.",
    data: {
      type: "object",
      required: ["manifest_id", "carrier", "reference", "consignment_ids", "closed_at"],
      properties: {
        manifest_id: { ...str, description: "`man_…`" },
        carrier: nullableStr,
        reference: nullableStr,
        consignment_ids: { type: "array", items: str },
        closed_at: str,
      },
    },
  },
];

/**
 * Categories a wildcard may name: the categories of the types above (`manifest` among them, which the spec
 * reserves for manifest events).
 */
export const EVENT_CATEGORIES: readonly string[] = [
  ...new Set([...EVENT_TYPES.map((e) => e.type.split(".")[0] ?? ""), "manifest"]),
].sort();

const KNOWN = new Set(EVENT_TYPES.map((e) => e.type));

/** Why a subscription entry is refused, or null when it names a known type or category wildcard. */
export function subscriptionProblem(entry: string): string | null {
  if (entry.endsWith(".*")) {
    const category = entry.slice(0, -2);
    return EVENT_CATEGORIES.includes(category)
      ? null
      : `unknown event category '${category}' (known: ${EVENT_CATEGORIES.join(", ")})`;
  }
  return KNOWN.has(entry) ? null : `unknown event type '${entry}' (see GET /settings/webhooks/event-types)`;
}
