/**
 * The amend body, derived from the create schema so the two cannot drift apart: every object of the create
 * body becomes a merge patch of itself (each field optional, `null` to remove it, unknown keys refused), and
 * the elements of `parcels`, `orders` and `items` may name the `id` of an existing parcel, order or item.
 * Defaults are left out (a patch that omits a field leaves it as it is); what the merged consignment must
 * satisfy is checked afterwards by the create schema itself (./amend-document.ts).
 */
import { z } from "@hono/zod-openapi";
import { ConsignmentInput } from "./schemas";

const IDENTIFIED: Record<string, string> = {
  parcels: "An existing parcel's id (`par_…`) to amend it; leave it out for a new parcel",
  orders: "An existing order's id (`ord_…`) to amend it; leave it out for a new order",
  items: "An existing item's id (`itm_…`) to amend it (from any parcel); leave it out for a new item",
};

/** The schema inside optional, nullable and default wrappers. */
function core(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodDefault) s = s.removeDefault() as z.ZodType;
    else return s;
  }
}

/** A merge patch of `schema`; `key` is the field it sits under, which says whether its list is identified. */
function patchOf(schema: z.ZodType, key?: string): z.ZodType {
  const inner = core(schema);
  if (inner instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(inner.shape as Record<string, z.ZodType>).map(([k, v]) => [
        k,
        patchOf(v, k).nullable().optional(),
      ]),
    );
    const catchall = inner._zod.def.catchall;
    const patch = z.object(shape);
    // The create's objects refuse unknown keys, but for the free-form ones (an item's dangerous_goods).
    return catchall && !(catchall instanceof z.ZodNever) ? patch.catchall(catchall) : patch.strict();
  }
  const described = key ? IDENTIFIED[key] : undefined;
  if (inner instanceof z.ZodArray && described) {
    const element = patchOf(inner.element as z.ZodType);
    if (!(element instanceof z.ZodObject)) throw new Error(`the ${key} of a consignment are objects`);
    // The merged list is held to the create's own limits; this one only bounds the work of merging it.
    return z
      .array(element.extend({ id: z.string().min(1).max(100).optional().openapi({ description: described }) }))
      .max(1000);
  }
  return inner;
}

const derived = patchOf(ConsignmentInput);
if (!(derived instanceof z.ZodObject)) throw new Error("the consignment create body is an object");

export const ConsignmentPatch = (derived as z.ZodObject<Record<string, z.ZodType>>).openapi("ConsignmentAmend", {
  description:
    "A JSON merge patch (RFC 7396) of the create body: objects merge field by field and `null` removes a field. `parcels`, `orders` and a parcel's `items` (and its nested `orders[].items`), when given, are the complete new lists: an element naming an existing `id` amends that parcel, order or item and keeps its id, an element without one is new, and one left out is removed.",
  example: {
    receiver: { city: "Dallas", post_code: "75201" },
    parcels: [
      {
        id: "par_01a2011f8c5b7e7d2a9c1e4f6a8b0c2d",
        weight_value: 0.6,
        items: [{ id: "itm_01a2011f8c5b7e7d2a9c1e4f6a8b0c2e", hs_code: "6109.90" }],
      },
      {
        weight_value: 0.3,
        items: [
          {
            sku: "CAP-1",
            title: "Cotton cap",
            quantity: 1,
            unit_value: 8,
            country_of_origin: "PT",
            hs_code: "6505.00",
          },
        ],
      },
    ],
  },
});
