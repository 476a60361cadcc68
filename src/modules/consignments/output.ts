/** Wire shapes of consignments: the create output (spec "Consignment (output)") and the retrieval object. */
import type { ConsignmentRow, ItemRow, OrderRow, Tree } from "../consignment-records/tree";

type PartyInput = Record<string, unknown> | undefined;

/** Party for output: registrations grouped under `tax_duty`, `contact` always present. */
export function partyOut(p: PartyInput, receiver: boolean) {
  if (!p) return null;
  const c = (p.contact ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {
    code: p.code ?? null,
    company_name: p.company_name ?? null,
    address_1: p.address_1 ?? null,
    address_2: p.address_2 ?? null,
    address_3: p.address_3 ?? null,
    city: p.city ?? null,
    state_province: p.state_province ?? null,
    post_code: p.post_code ?? null,
    country_code: p.country_code ?? null,
    contact: { name: c.name ?? null, phone: c.phone ?? null, email: c.email ?? null },
    tax_duty: {
      eori_id: p.eori_id ?? null,
      ioss_id: p.ioss_id ?? null,
      vat_id: p.vat_id ?? null,
      tax_id: p.tax_id ?? null,
      manufacturer_id: p.manufacturer_id ?? null,
    },
  };
  if (receiver) {
    out.time_zone = p.time_zone ?? null;
    out.type = p.type ?? null;
  }
  return out;
}

function itemOut(i: ItemRow, orderRef: string | null) {
  const extra = JSON.parse(i.extra) as Record<string, unknown>;
  return {
    id: i.id,
    item_ref: i.sku,
    title: i.title,
    description: i.description,
    quantity: i.quantity,
    amount: i.unitValue,
    currency_code: i.currencyCode,
    country_of_origin: i.countryOfOrigin,
    harmonised_code: i.hsCode,
    hs_code_source: i.hsCodeSource,
    order_ref: orderRef,
    weight: i.weight,
    ...extra,
  };
}

function orderOut(o: OrderRow) {
  return {
    id: o.id,
    order_ref: o.orderRef,
    amount: o.amount,
    currency_code: o.currencyCode,
    order_date: o.orderDate,
    invoice_number: o.invoiceNumber,
    ...(JSON.parse(o.charges) as Record<string, unknown>),
  };
}

export function consignmentOut(c: Omit<ConsignmentRow, "retrieval">, customer: { id: number; name: string } | null) {
  const extra = JSON.parse(c.extra) as Record<string, unknown>;
  return {
    id: c.id,
    customer_id: c.customerId,
    shipment_ref: c.shipmentRef,
    external_code: c.externalCode,
    type: c.type as "delivery" | "return" | "exchange",
    incoterm: c.incoterm,
    status: c.status,
    entry_date: c.entryDate,
    transport_mode: c.transportMode,
    weight_unit: c.weightUnit,
    measurement_unit: c.measurementUnit,
    movement_indicator: c.movementIndicator,
    sender: c.sender ? JSON.parse(c.sender) : null,
    receiver: c.receiver ? JSON.parse(c.receiver) : null,
    customer,
    ...extra,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

/** The create output's `parcels` (orders and items nested) and `orders` (consignment-level, with their items). */
export function createdTree(t: Tree) {
  const orderRef = new Map(t.orders.map((o) => [o.id, o.orderRef]));
  const parcels = t.parcels.map((p) => ({
    id: p.id,
    barcode: p.barcode,
    sender_ref: p.senderRef,
    packaging_type: p.packagingType,
    weight_value: p.weightValue,
    ...(p.dimensions ? (JSON.parse(p.dimensions) as Record<string, unknown>) : {}),
    declared_value: p.declaredValue,
    currency_code: p.currencyCode,
    items: t.items
      .filter((i) => i.parcelId === p.id && !t.orders.some((o) => o.id === i.orderId && o.parcelId === p.id))
      .map((i) => itemOut(i, i.orderId ? (orderRef.get(i.orderId) ?? null) : null)),
    orders: t.orders
      .filter((o) => o.parcelId === p.id)
      .map((o) => ({
        ...orderOut(o),
        items: t.items.filter((i) => i.orderId === o.id).map((i) => itemOut(i, o.orderRef)),
      })),
  }));
  const orders = t.orders
    .filter((o) => o.parcelId === null)
    .map((o) => ({
      ...orderOut(o),
      items: t.items.filter((i) => i.orderId === o.id).map((i) => itemOut(i, o.orderRef)),
    }));
  return { parcels, orders };
}

/** The retrieval object: parcels → orders → items, items as the spec's retrieval fields. */
export function retrievalTree(t: Tree) {
  const retrievalItem = (i: ItemRow) => ({
    id: i.id,
    sku: i.sku,
    title: i.title,
    description: i.description,
    quantity: i.quantity,
    unit_value: i.unitValue,
    currency_code: i.currencyCode,
    country_of_origin: i.countryOfOrigin,
    harmonised_code: i.hsCode,
  });
  return t.parcels.map((p) => {
    const inParcel = t.items.filter((i) => i.parcelId === p.id);
    const orderIds = [...new Set(inParcel.map((i) => i.orderId))];
    return {
      id: p.id,
      barcode: p.barcode,
      packaging_type: p.packagingType,
      weight_value: p.weightValue,
      orders: orderIds.map((oid) => {
        const o = t.orders.find((x) => x.id === oid);
        return {
          order_ref: o?.orderRef ?? null,
          invoice_number: o?.invoiceNumber ?? null,
          items: inParcel.filter((i) => i.orderId === oid).map(retrievalItem),
        };
      }),
    };
  });
}
