/**
 * Consignments and their children. Parcels, orders and items get generated text ids so that one `db.batch`
 * can insert a whole consignment with its links (autoincrement ids would not be known in advance).
 * Amounts and weights are exact decimals kept as text; weights and dimensions are stored as sent and
 * normalized (kg, cm) for the engines.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const consignments = sqliteTable(
  "consignments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    customerId: integer("customer_id"),
    shipmentRef: text("shipment_ref").notNull(),
    externalCode: text("external_code"),
    type: text("type").notNull(),
    status: text("status").notNull(),
    incoterm: text("incoterm"),
    entryDate: text("entry_date"),
    transportMode: text("transport_mode"),
    weightUnit: text("weight_unit").notNull(),
    measurementUnit: text("measurement_unit").notNull(),
    movementIndicator: text("movement_indicator"),
    senderCountry: text("sender_country"),
    receiverCountry: text("receiver_country"),
    /** JSON: sender and receiver parties as normalized for output. */
    sender: text("sender"),
    receiver: text("receiver"),
    /** JSON: every other top-level field (shipping, insurance, tags, references, carrier, ...). */
    extra: text("extra").notNull().default("{}"),
    /**
     * JSON: the retrieval object's `parcels` (parcels → orders → items), written with the rows at create and
     * rewritten in the same batch by every amend (the only write that changes parcels, orders and items), so
     * GET serves this instead of re-reading and re-assembling ~100 child rows (one row read instead of four
     * queries). Null for rows written before it existed: GET then assembles from the child rows.
     */
    retrieval: text("retrieval"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("consignments_ws_id_idx").on(t.workspaceId, t.id),
    index("consignments_ws_ref_idx").on(t.workspaceId, t.shipmentRef),
    index("consignments_ws_customer_idx").on(t.workspaceId, t.customerId, t.id),
  ],
);

export const consignmentParcels = sqliteTable(
  "consignment_parcels",
  {
    id: text("id").primaryKey(),
    consignmentId: text("consignment_id").notNull(),
    position: integer("position").notNull(),
    senderRef: text("sender_ref"),
    barcode: text("barcode"),
    packagingType: text("packaging_type").notNull(),
    weightValue: text("weight_value").notNull(),
    weightKg: text("weight_kg").notNull(),
    /** JSON {height, width, depth} as sent and in cm. */
    dimensions: text("dimensions"),
    declaredValue: text("declared_value"),
    currencyCode: text("currency_code"),
  },
  (t) => [index("consignment_parcels_con_idx").on(t.consignmentId, t.position)],
);

export const consignmentOrders = sqliteTable(
  "consignment_orders",
  {
    id: text("id").primaryKey(),
    consignmentId: text("consignment_id").notNull(),
    /** Set for legacy orders nested in a parcel; null for consignment-level orders. */
    parcelId: text("parcel_id"),
    position: integer("position").notNull(),
    orderRef: text("order_ref"),
    amount: text("amount"),
    currencyCode: text("currency_code"),
    orderDate: text("order_date"),
    invoiceNumber: text("invoice_number"),
    /** JSON: shipping_charge, insurance_charge, other_charge. */
    charges: text("charges").notNull().default("{}"),
  },
  (t) => [index("consignment_orders_con_idx").on(t.consignmentId, t.position)],
);

export const consignmentItems = sqliteTable(
  "consignment_items",
  {
    id: text("id").primaryKey(),
    consignmentId: text("consignment_id").notNull(),
    parcelId: text("parcel_id").notNull(),
    orderId: text("order_id"),
    position: integer("position").notNull(),
    sku: text("sku"),
    title: text("title"),
    description: text("description"),
    quantity: integer("quantity").notNull(),
    unitValue: text("unit_value").notNull(),
    currencyCode: text("currency_code"),
    hsCode: text("hs_code"),
    hsCodeSource: text("hs_code_source"),
    countryOfOrigin: text("country_of_origin"),
    weight: text("weight"),
    weightKg: text("weight_kg"),
    /** JSON: every other item field (product_url, metals traceability, compliance, dangerous goods...). */
    extra: text("extra").notNull().default("{}"),
  },
  (t) => [index("consignment_items_con_idx").on(t.consignmentId, t.position)],
);

/** Raw consignment events (created, flow actions, holds, assessments, deletion attempts): the timeline's source. */
export const consignmentEvents = sqliteTable(
  "consignment_events",
  {
    id: text("id").primaryKey(),
    consignmentId: text("consignment_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    type: text("type").notNull(),
    /** JSON detail. */
    data: text("data").notNull().default("{}"),
    requestId: text("request_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("consignment_events_con_idx").on(t.consignmentId, t.createdAt)],
);
