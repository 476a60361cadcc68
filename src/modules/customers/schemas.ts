import { z } from "@hono/zod-openapi";
import { CountryCode } from "../../http/schemas";

const Contact = z
  .object({
    name: z.string().max(200).nullable().optional(),
    phone: z.string().max(50).nullable().optional(),
    email: z.string().email().max(254).nullable().optional(),
  })
  .strict();

const Address = z
  .object({
    type: z.enum(["billing", "shipping", "registered", "return", "other"]).default("shipping"),
    company_name: z.string().max(200).nullable().optional(),
    address_1: z.string().min(1).max(200),
    address_2: z.string().max(200).nullable().optional(),
    address_3: z.string().max(200).nullable().optional(),
    city: z.string().min(1).max(100),
    state_province: z.string().max(100).nullable().optional(),
    post_code: z.string().max(20).nullable().optional(),
    country_code: CountryCode,
    contact: Contact.optional(),
  })
  .strict()
  .openapi("Address");

const TaxRegistrations = z
  .object({
    eori_id: z.string().max(50).nullable().optional(),
    vat_id: z.string().max(50).nullable().optional(),
    ioss_id: z.string().max(50).nullable().optional(),
    tax_id: z.string().max(50).nullable().optional(),
    ukims_number: z.string().max(50).nullable().optional(),
  })
  .strict();

export const CustomerInput = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Northwind Traders" }),
    email: z.string().email().max(254).nullable().optional().openapi({ example: "ops@northwind.example" }),
    phone: z.string().max(50).nullable().optional(),
    external_ref: z.string().max(100).nullable().optional().openapi({ example: "CRM-4411" }),
    addresses: z.array(Address).max(20).optional(),
    tax_registrations: TaxRegistrations.optional(),
  })
  .strict();

export type AddressT = z.output<typeof Address>;
export type TaxRegistrationsT = z.output<typeof TaxRegistrations>;

export const CustomerSchema = z
  .object({
    id: z.number().int().openapi({ example: 42 }),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    external_ref: z.string().nullable(),
    addresses: z.array(Address),
    tax_registrations: TaxRegistrations,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Customer");
