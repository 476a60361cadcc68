/**
 * The documented shapes of a consignment on the wire (output.ts builds them): the create output, the list
 * rows and the retrieval object. Fields a client sent and the API keeps as given (`shipping`, `references`,
 * an item's `dangerous_goods`…) are described by the create schema itself, so the two cannot drift apart.
 * Amounts the API stores are exact decimal strings.
 */
import { z } from "@hono/zod-openapi";
import { ConsignmentInput, Item } from "./schemas";

const text = () => z.string().nullable();
const decimal = () => z.string().openapi({ example: "12.5", description: "Exact decimal" });

const PartyOut = z
  .object({
    code: text(),
    company_name: text(),
    address_1: text(),
    address_2: text(),
    address_3: text(),
    city: text(),
    state_province: text(),
    post_code: text(),
    country_code: text(),
    contact: z.object({ name: text(), phone: text(), email: text() }),
    tax_duty: z.object({
      eori_id: text(),
      ioss_id: text(),
      vat_id: text(),
      tax_id: text(),
      manufacturer_id: text(),
    }),
    time_zone: text().optional().openapi({ description: "Receiver only" }),
    type: text().optional().openapi({ description: "Receiver only" }),
  })
  .openapi("ConsignmentParty");

/** What the create keeps as sent, besides the columns of its own. */
const kept = ConsignmentInput.omit({
  shipment_ref: true,
  customer_id: true,
  type: true,
  external_code: true,
  incoterm: true,
  entry_date: true,
  transport_mode: true,
  weight_unit: true,
  measurement_unit: true,
  movement_indicator: true,
  sender: true,
  receiver: true,
  orders: true,
  parcels: true,
}).shape;

export const ConsignmentHead = z
  .object({
    ...kept,
    id: z.string().openapi({ example: "con_01a2011f8c5b7e7d2a9c1e4f6a8b0c2d" }),
    customer_id: z.number().int().nullable(),
    shipment_ref: z.string(),
    external_code: text(),
    type: z.enum(["delivery", "return", "exchange"]),
    incoterm: text(),
    status: z.string().openapi({ example: "created" }),
    entry_date: text(),
    transport_mode: text(),
    weight_unit: z.string(),
    measurement_unit: z.string(),
    movement_indicator: text(),
    sender: PartyOut.nullable(),
    receiver: PartyOut.nullable(),
    customer: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ConsignmentHead");

const itemKept = Item.omit({
  quantity: true,
  unit_value: true,
  currency_code: true,
  order_ref: true,
  sku: true,
  title: true,
  description: true,
  harmonised_code: true,
  hs_code: true,
  hs_code_source: true,
  country_of_origin: true,
  weight: true,
}).shape;

const ItemOut = z
  .object({
    ...itemKept,
    id: z.string(),
    item_ref: text().openapi({ description: "The item's sku" }),
    title: text(),
    description: text(),
    quantity: z.number().int(),
    amount: decimal().openapi({ description: "Unit value, exact decimal (sent as `unit_value`)" }),
    currency_code: text(),
    country_of_origin: text(),
    harmonised_code: text(),
    hs_code_source: text(),
    order_ref: text(),
    weight: z.string().nullable(),
  })
  .openapi("ConsignmentItem");

const Charge = z.object({ amount: decimal(), currency_code: z.string() });

const OrderOut = z
  .object({
    id: z.string(),
    order_ref: text(),
    amount: z.string().nullable(),
    currency_code: text(),
    order_date: text(),
    invoice_number: text(),
    shipping_charge: Charge.optional(),
    insurance_charge: Charge.optional(),
    other_charge: Charge.optional(),
    items: z.array(ItemOut),
  })
  .openapi("ConsignmentOrder");

const dimension = z.string().optional();

const ParcelOut = z
  .object({
    id: z.string(),
    barcode: text(),
    sender_ref: text(),
    packaging_type: z.string(),
    weight_value: decimal(),
    height: dimension,
    height_cm: dimension,
    width: dimension,
    width_cm: dimension,
    depth: dimension,
    depth_cm: dimension,
    declared_value: z.string().nullable(),
    currency_code: text(),
    tracking_number: z.string().optional().openapi({
      description: "Issued by an inline `generate_label` flow action (the parcel's own `barcode` is never changed)",
    }),
    items: z.array(ItemOut).openapi({ description: "Items of the parcel outside its nested orders" }),
    orders: z.array(OrderOut).openapi({ description: "Orders given inside the parcel (the legacy shape)" }),
  })
  .openapi("ConsignmentParcel");

/** The create output's `data`; `documents` is filled in by the route with the module's document schema. */
export const createdData = (document: z.ZodType) =>
  z.object({
    consignment: ConsignmentHead,
    parcels: z.array(ParcelOut),
    orders: z.array(OrderOut).openapi({ description: "Consignment-level orders (the new shape) with their items" }),
    documents: z.array(document).openapi({ description: "Made by inline flow actions" }),
    validation_warnings: z
      .array(z.object({ rule_id: z.number().int(), name: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "When warning rules matched" }),
    flows: z
      .array(
        z.object({
          flow_id: z.number().int(),
          name: z.string(),
          actions: z.array(z.record(z.string(), z.unknown())).openapi({
            description: "Each inline action's outcome: `type`, `ok`, and what it produced or why it failed",
          }),
        }),
      )
      .optional()
      .openapi({ description: "Inline flow actions and their results, when any ran" }),
  });

const RetrievalItem = z.object({
  id: z.string(),
  sku: text(),
  title: text(),
  description: text(),
  quantity: z.number().int(),
  unit_value: decimal(),
  currency_code: text(),
  country_of_origin: text(),
  harmonised_code: text(),
});

/** GET /consignments/{id}: the head and the parcels as the spec's retrieval object. */
export const ConsignmentRetrieval = ConsignmentHead.extend({
  parcels: z.array(
    z.object({
      id: z.string(),
      barcode: text(),
      packaging_type: z.string(),
      weight_value: decimal(),
      orders: z.array(z.object({ order_ref: text(), invoice_number: text(), items: z.array(RetrievalItem) })),
    }),
  ),
}).openapi("Consignment");

/** PATCH /consignments/{id}: the amended consignment as the create answers it, and what changed. */
export const AmendedData = z
  .object({
    consignment: ConsignmentHead,
    parcels: z.array(ParcelOut),
    orders: z.array(OrderOut).openapi({ description: "Consignment-level orders with their items" }),
    changed_fields: z.array(z.string()).openapi({
      description:
        "Paths in the create body that changed (`receiver.city`, `parcels[0].items[1].hs_code`; a list whose membership changed is named itself, a new element by its index); empty when the patch changed nothing",
      example: ["receiver.city", "parcels[0].items[0].hs_code", "parcels", "parcels[1]"],
    }),
    validation_warnings: z
      .array(z.object({ rule_id: z.number().int(), name: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "When warning rules matched the amended consignment" }),
  })
  .openapi("ConsignmentAmended");
