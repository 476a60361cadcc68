/**
 * Pulls the identifiers a person would search the archive by out of a JSON request body: shipment refs,
 * external codes, tracking numbers (parcel barcodes), declaration refs, order refs and the free `references`
 * object. One generic walk serves every route, so a new route that carries these keys is searchable without
 * registering anything. Pure and bounded: it visits at most MAX_NODES values and returns at most MAX_REFS.
 */

export interface Ref {
  ref_type: string;
  ref_value: string;
}

/** Body key → ref type. Keys not listed here are ignored (except inside `references`). */
const KEY_TYPES: Record<string, string> = {
  shipment_ref: "shipment_ref",
  external_code: "external_code",
  tracking_number: "tracking_number",
  tracking_code: "tracking_number",
  barcode: "tracking_number",
  declaration_ref: "declaration_ref",
  declaration_number: "declaration_ref",
  order_ref: "order_ref",
  invoice_number: "invoice_number",
};

const MAX_NODES = 20_000;
const MAX_REFS = 500;
const MAX_VALUE = 200;

export function extractRefs(body: unknown): Ref[] {
  const out = new Map<string, Ref>();
  let visited = 0;
  const add = (ref_type: string, value: unknown) => {
    if (typeof value !== "string" && typeof value !== "number") return;
    const ref_value = String(value).trim();
    if (!ref_value || ref_value.length > MAX_VALUE || out.size >= MAX_REFS) return;
    out.set(`${ref_type}\u0000${ref_value}`, { ref_type, ref_value });
  };
  const walk = (node: unknown): void => {
    if (++visited > MAX_NODES || out.size >= MAX_REFS) return;
    if (Array.isArray(node)) {
      for (const v of node) walk(v);
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const type = KEY_TYPES[key];
      if (type) add(type, value);
      else if (key === "references" && value && typeof value === "object" && !Array.isArray(value)) {
        // The spec's free references object: each member is searchable under its own name.
        for (const [rk, rv] of Object.entries(value)) add(rk, rv);
      }
      if (value && typeof value === "object") walk(value);
    }
  };
  walk(body);
  return [...out.values()];
}
