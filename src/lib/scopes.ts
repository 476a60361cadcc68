/** The spec's ten scopes, the settings pair, and the request-archive extension. */
export const SCOPES = [
  "consignments:read",
  "consignments:write",
  "customers:read",
  "customers:write",
  "catalogue:read",
  "catalogue:write",
  "classify:read",
  "calculate:read",
  "restrict:read",
  "screen:read",
  "settings:read",
  "settings:write",
  "requests:read",
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** `settings:write` implies `settings:read`: a client that may change settings may also read them. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  return needed === "settings:read" && granted.includes("settings:write");
}
