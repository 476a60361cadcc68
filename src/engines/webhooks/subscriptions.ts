/**
 * Which endpoints an event goes to. A subscription is a list of exact event types or category wildcards
 * (`manifest.*`); an empty list subscribes to every event.
 */
export const EVENT_TYPE_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
export const WILDCARD_RE = /^[a-z][a-z0-9_]*\.\*$/;

export function matches(subscription: readonly string[], type: string): boolean {
  if (subscription.length === 0) return true;
  return subscription.some((s) => s === type || (s.endsWith(".*") && type.startsWith(s.slice(0, -1))));
}
