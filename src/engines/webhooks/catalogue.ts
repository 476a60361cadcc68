/**
 * The catalogue of webhook event types: what a subscription may name. An endpoint subscribed to a type that
 * does not exist (`consignment.craeted`) would silently never receive anything, so subscriptions are checked
 * against this list; `GET {api}/settings/webhooks/event-types` serves it.
 */
export interface EventTypeInfo {
  type: string;
  description: string;
}

export const EVENT_TYPES: readonly EventTypeInfo[] = [
  { type: "consignment.created", description: "A consignment was created (spec)." },
  { type: "consignment.pre_alert", description: "A flow sent a pre-alert for a consignment." },
  { type: "duties.calculated", description: "A consignment duty assessment run completed (spec)." },
  { type: "webhook.test", description: "A test event sent from POST /settings/webhooks/{id}/test." },
];

/**
 * Categories a wildcard may name: the categories of the types above, and `manifest`, which the spec reserves
 * for manifest events (`manifest.*` subscriptions are accepted ahead of them).
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
