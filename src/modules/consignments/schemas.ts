/**
 * Consignment create input, field by field from the spec's Consignment, Party, Order, Parcel and Item tables.
 * Cross-field rules (order_ref links, international origin, top-level items) live in the service, so that
 * every rejection reaches the client in the spec's 422 body.
 */
import { z } from "@hono/zod-openapi";
import { CountryCode, CurrencyCode, IsoDate, measureNumber, moneyNumber } from "../../http/schemas";

const str = (max: number) => z.string().max(max);
const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

const INCOTERMS = ["EXW", "FCA", "FAS", "FOB", "CFR", "CIF", "CPT", "CIP", "DAP", "DPU", "DDP", "DDU", "DAT"] as const;

const Money = z.object({ amount: moneyNumber(), currency_code: CurrencyCode }).strict();

const Contact = z
  .object({ name: opt(str(200)), phone: opt(str(50)), email: opt(z.string().email().max(254)) })
  .strict();

const partyShape = {
  code: opt(str(100)),
  company_name: opt(str(200)),
  address_1: opt(str(200)),
  address_2: opt(str(200)),
  address_3: opt(str(200)),
  city: opt(str(100)),
  state_province: opt(str(100)),
  post_code: opt(str(20)),
  country_code: opt(CountryCode),
  contact: Contact.optional(),
  eori_id: opt(str(50)),
  ioss_id: opt(str(50)),
  vat_id: opt(str(50)),
  tax_id: opt(str(50)),
  manufacturer_id: opt(str(50)),
};
const Sender = z.object(partyShape).strict();
const Receiver = z
  .object({ ...partyShape, time_zone: opt(str(64)), type: opt(z.enum(["Business", "Residential"])) })
  .strict();

const SlimAddress = z
  .object({
    company_name: opt(str(200)),
    address_1: opt(str(200)),
    address_2: opt(str(200)),
    city: opt(str(100)),
    state_province: opt(str(100)),
    post_code: opt(str(20)),
    country_code: opt(CountryCode),
    type: opt(str(50)),
    contact: Contact.optional(),
  })
  .strict();

export const Item = z
  .object({
    quantity: z.number().int("must be a whole number").positive("must be a positive integer").max(1_000_000),
    unit_value: moneyNumber(),
    currency_code: opt(CurrencyCode),
    order_ref: opt(str(100)),
    sku: opt(str(100)),
    title: opt(str(500)),
    description: opt(str(2000)),
    harmonised_code: opt(z.string().regex(/^[0-9][0-9. ]{3,15}$/, "must be an HS code of 4-12 digits")),
    hs_code: opt(z.string().regex(/^[0-9][0-9. ]{3,15}$/, "must be an HS code of 4-12 digits")),
    hs_code_source: opt(str(100)),
    country_of_origin: opt(CountryCode),
    product_url: opt(z.string().url().max(2000)),
    weight: opt(measureNumber()),
    country_of_melt_pour: opt(CountryCode),
    primary_country_of_smelt: opt(CountryCode),
    secondary_country_of_smelt: opt(CountryCode),
    country_of_cast: opt(CountryCode),
    nature_type: opt(str(10)),
    certificate_number: opt(str(100)),
    compliance: z.record(z.string().max(50), z.unknown()).optional(),
    dangerous_goods: z
      .object({
        un_id: opt(str(10)),
        shipping_name: opt(str(500)),
        product_class: opt(str(20)),
        packaging_group: opt(str(10)),
      })
      .catchall(z.unknown())
      .optional(),
  })
  .strict();

const orderShape = {
  order_ref: str(100).min(1),
  amount: opt(moneyNumber()),
  currency_code: opt(CurrencyCode),
  order_date: opt(IsoDate),
  invoice_number: opt(str(100)),
  shipping_charge: Money.optional(),
  insurance_charge: Money.optional(),
  other_charge: Money.optional(),
};
const Order = z.object(orderShape).strict();
const NestedOrder = z
  .object({ ...orderShape, order_ref: opt(str(100)), items: z.array(Item).max(1000).default([]) })
  .strict();

const Parcel = z
  .object({
    weight_value: measureNumber(),
    sender_ref: opt(str(100)),
    barcode: opt(str(100)),
    packaging_type: z.enum(["BAG", "BOX", "ENVELOPE", "PALLET", "TUBE"]).default("BOX"),
    height: opt(z.number().nonnegative().max(1e5)),
    width: opt(z.number().nonnegative().max(1e5)),
    depth: opt(z.number().nonnegative().max(1e5)),
    declared_value: opt(moneyNumber()),
    currency_code: opt(CurrencyCode),
    items: z.array(Item).max(1000).default([]),
    orders: z.array(NestedOrder).max(200).default([]),
  })
  .strict();

export const ConsignmentInput = z
  .object({
    shipment_ref: z
      .string()
      .min(1, "must be 1-100 characters")
      .max(100, "must be 1-100 characters")
      .openapi({ example: "SHP-1001" }),
    customer_id: opt(z.number().int().positive()),
    type: z.enum(["delivery", "return", "exchange"]).default("delivery"),
    external_code: opt(str(100)),
    incoterm: opt(
      z
        .string()
        .transform((s) => s.toUpperCase())
        .pipe(z.enum(INCOTERMS)),
    ),
    entry_date: opt(IsoDate),
    transport_mode: opt(z.enum(["sea", "air", "road", "rail"])),
    weight_unit: z.enum(["kg", "g", "lb", "oz"]).default("kg"),
    measurement_unit: z.enum(["cm", "mm", "inch"]).default("cm"),
    movement_indicator: opt(z.enum(["b2b", "b2c", "c2b", "c2c"])),
    shipping: Money.optional(),
    insurance: Money.optional(),
    tags: z.array(str(100)).max(50).optional(),
    references: z
      .object({
        external_item_code: opt(str(100)),
        external_order_code: opt(str(100)),
        special_provision: opt(str(100)),
        sender_ukims_number: opt(str(100)),
        receiver_ukims_number: opt(str(100)),
      })
      .strict()
      .optional(),
    supporting_agents: z
      .object({
        return: SlimAddress.optional(),
        pudo: SlimAddress.optional(),
        importer_of_record: SlimAddress.optional(),
        billing: SlimAddress.optional(),
      })
      .strict()
      .optional(),
    carrier: z
      .object({
        org_carrier_id: z.union([z.number().int(), str(100)]),
        service_id: opt(z.union([z.number().int(), str(100)])),
        additional_service_ids: z
          .array(z.union([z.number().int(), str(100)]))
          .max(20)
          .optional(),
      })
      .strict()
      .optional(),
    sender: Sender.optional(),
    receiver: Receiver.optional(),
    orders: z.array(Order).max(200, "at most 200 orders").optional(),
    parcels: z.array(Parcel).max(500).default([]),
    nature_type: opt(str(10)),
    shipping_date: opt(IsoDate),
    invoice_number: opt(str(100)),
    invoice_url: opt(z.string().url().max(2000)),
    office_of_origin: opt(str(100)),
    windsor_not_at_risk: opt(z.boolean()),
    picking_ref: opt(str(100)),
    contract_condition: opt(str(100)),
    total_discount: Money.optional(),
    attributes: z
      .object({
        cash_on_delivery: z.unknown().optional(),
        notification_type: z.unknown().optional(),
        flexible_delivery: z.unknown().optional(),
        pod_required: z.unknown().optional(),
        content_type: z.unknown().optional(),
      })
      .strict()
      .optional(),
    committed_delivery_window: z
      .object({ from: z.string().max(40), to: z.string().max(40) })
      .strict()
      .optional(),
    volume_unit: opt(z.enum(["ml", "l"])),
  })
  .strict()
  .openapi("ConsignmentCreate", {
    example: {
      shipment_ref: "SHP-1001",
      external_code: "DDP-EXPRESS",
      incoterm: "DDP",
      transport_mode: "air",
      weight_unit: "kg",
      sender: {
        company_name: "Acme Ltd",
        address_1: "1 High St",
        city: "London",
        post_code: "E1 6AN",
        country_code: "GB",
        eori_id: "GB123456789000",
      },
      receiver: {
        company_name: "Buyer Inc",
        address_1: "5 Main St",
        city: "Austin",
        state_province: "TX",
        post_code: "73301",
        country_code: "US",
        type: "Business",
      },
      orders: [{ order_ref: "ORD-1", amount: 25, currency_code: "GBP", invoice_number: "INV-1" }],
      parcels: [
        {
          weight_value: 0.4,
          barcode: "JD0001",
          items: [
            {
              order_ref: "ORD-1",
              sku: "TSHIRT-M",
              title: "Cotton T-shirt",
              quantity: 2,
              unit_value: 12.5,
              currency_code: "GBP",
              country_of_origin: "PT",
              hs_code: "6109.10",
            },
          ],
        },
      ],
    },
  });

export type ConsignmentInputT = z.infer<typeof ConsignmentInput>;
export type ItemT = z.infer<typeof Item>;
