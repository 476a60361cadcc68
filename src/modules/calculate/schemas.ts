/** Wire schemas of the calculate area (request bodies with their rules, response shapes with examples). */
import { z } from "@hono/zod-openapi";
import {
  CountryCode,
  CurrencyCode,
  hsCode,
  IsoDate,
  measureNumber,
  moneyNumber,
  quantityNumber,
} from "../../http/schemas";

const money = (description: string) => moneyNumber().openapi({ description });

const Component = z.object({
  material: z.string().trim().min(1).max(100).openapi({ example: "steel" }),
  value: moneyNumber().openapi({
    example: 40,
    description: "Value of this material per unit, in the request currency",
  }),
});

/**
 * Metals traceability (the consignment item's fields of the same names): where the metal was melted and poured,
 * smelted or cast. Section 232 measures that depend on them (aluminium smelted or cast in Russia; Mexican steel
 * melted and poured outside North America) are charged when they hold and listed as conditional when not given.
 */
const AlcoholPercentage = z.number().finite().min(0).max(100).optional().openapi({
  example: 13.5,
  description:
    "Alcohol by volume, percent: decides the excise rate band (US wine, UK Alcohol Duty, German sparkling wine and intermediate products), the litres of pure alcohol (UK, German alcohol tax) and the proof gallons of spirits (US), and the UK or EU still wine line (13 % vol or less, or over)",
});
/** Totals of a quote; `excise` only when the goods carry excise. */
const Totals = z.object({
  duty: z.number(),
  fees: z.number(),
  vat: z.number(),
  excise: z.number().optional(),
  total: z.number(),
});
const metalCountry = (description: string) => CountryCode.optional().openapi({ description });
const MetalOriginFields = {
  country_of_melt_pour: metalCountry("ISO alpha-2 country where the steel was melted and poured"),
  primary_country_of_smelt: metalCountry(
    "ISO alpha-2 country where the largest volume of the primary aluminum was smelted",
  ),
  secondary_country_of_smelt: metalCountry(
    "ISO alpha-2 country where the second largest volume of the primary aluminum was smelted",
  ),
  country_of_cast: metalCountry("ISO alpha-2 country where the aluminum was most recently cast"),
};

export const CalculateBody = z
  .object({
    hs_code: hsCode(4, 10).openapi({ example: "6109.10.00" }),
    origin_country: CountryCode.openapi({ example: "CN" }),
    destination_country: CountryCode.openapi({ example: "US" }),
    declared_value: moneyNumber().openapi({
      example: 1000,
      description: "Customs value per unit; the line total is value × quantity",
    }),
    quantity: quantityNumber().default(1).openapi({ example: 1 }),
    currency: CurrencyCode.optional().openapi({ description: "Currency of the values; default the destination's" }),
    weight: measureNumber().optional().openapi({ example: 2.5, description: "Total net weight of the line" }),
    weight_unit: z.enum(["kg", "lb"]).default("kg"),
    shipping_cost: money("Added to the customs value for CIF-basis destinations").default(0),
    insurance_cost: money("Same as shipping_cost").default(0),
    transport_mode: z.enum(["sea", "air", "road", "rail"]).default("sea"),
    shipping_terms: z.enum(["FOB", "CIF", "EXW", "DDP"]).default("FOB"),
    shipment_channel: z.enum(["postal", "courier"]).optional(),
    ioss: z.boolean().optional().openapi({
      description:
        "The seller is registered in the EU's Import One-Stop Shop (assumed when absent): up to 150 EUR the VAT is then charged at the sale (point_of_sale_tax, outside the totals), and from 2026-07-01 the EU flat duty applies; false keeps the VAT at import and the duty relief",
    }),
    entry_date: IsoDate.optional().openapi({ description: "Rates are resolved as of this date; default today (UTC)" }),
    components: z.array(Component).max(10, "at most 10 components").default([]),
    metal_weight_percentage: z.number().finite().min(0).max(100).optional(),
    ...MetalOriginFields,
    manual_claims: z
      .array(z.string().trim().min(1).max(50))
      .max(20, "at most 20 claims")
      .default([])
      .openapi({
        example: ["9903.88.69"],
        description:
          "Chapter 99 codes of the claim-only exemptions to apply, as offered in `exemptions.available_exemptions` (e.g. 9903.88.69 a Section 301 product exclusion, 9903.03.08 Mexican goods entered free under USMCA for the Section 122 surcharge)",
      }),
    destination_region: z.string().trim().min(1).max(20).optional().openapi({ example: "CA-ON" }),
    volume: measureNumber().optional().openapi({
      example: 9,
      description: "Total volume of the line (not per unit, like weight), for per-litre rates",
    }),
    volume_unit: z.enum(["l", "hl", "ml"]).default("l"),
    alcohol_percentage: AlcoholPercentage,
  })
  .strict()
  .openapi("CalculateRequest", {
    example: {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "US",
      declared_value: 1000,
      quantity: 1,
      currency: "USD",
      entry_date: "2026-03-02",
    },
  });

export const MultipleLine = z
  .object({
    hs_code: hsCode(4, 10),
    origin_country: CountryCode,
    declared_value: moneyNumber(),
    currency: CurrencyCode.optional(),
    quantity: quantityNumber().optional(),
    weight: measureNumber().optional().openapi({ description: "Total net weight of the line" }),
    weight_unit: z.enum(["kg", "lb"]).optional(),
    components: z.array(Component).max(10).optional(),
    metal_weight_percentage: z.number().finite().min(0).max(100).optional(),
    ...MetalOriginFields,
    manual_claims: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    volume: measureNumber().optional().openapi({ description: "Total volume of the line (not per unit)" }),
    volume_unit: z.enum(["l", "hl", "ml"]).optional(),
    alcohol_percentage: AlcoholPercentage,
  })
  .strict();

export const MultipleBody = z
  .object({
    destination_country: CountryCode,
    codes: z
      .array(
        z.record(z.string(), z.unknown()).openapi({
          description:
            "A line: hs_code (4-10 digits), origin_country, declared_value (per unit) required; currency, quantity, weight, weight_unit, components, metal_weight_percentage, country_of_melt_pour, primary_country_of_smelt, secondary_country_of_smelt, country_of_cast, manual_claims, volume, volume_unit, alcohol_percentage optional (missing values fall back to the batch-level ones). A line that fails validation is reported in `results` and does not fail the batch.",
        }),
      )
      .min(1, "at least 1 line")
      .max(50, "at most 50 lines"),
    reference: z.string().max(200).optional(),
    currency: CurrencyCode.optional(),
    quantity: quantityNumber().optional(),
    weight: measureNumber().optional(),
    weight_unit: z.enum(["kg", "lb"]).default("kg"),
    shipping_cost: money("Shipment level; not spread over line values").default(0),
    insurance_cost: money("Shipment level").default(0),
    transport_mode: z.enum(["sea", "air", "road", "rail"]).default("sea"),
    shipping_terms: z.enum(["FOB", "CIF", "EXW", "DDP"]).default("FOB"),
    shipment_channel: z.enum(["postal", "courier"]).optional(),
    ioss: z.boolean().optional().openapi({
      description:
        "The seller is registered in the EU's Import One-Stop Shop (assumed when absent): up to 150 EUR the VAT is then charged at the sale (point_of_sale_tax, outside the totals), and from 2026-07-01 the EU flat duty applies; false keeps the VAT at import and the duty relief",
    }),
    entry_date: IsoDate.optional(),
    destination_region: z.string().trim().min(1).max(20).optional(),
  })
  .strict()
  .openapi("CalculateMultipleRequest", {
    example: {
      destination_country: "GB",
      reference: "PO-1001",
      currency: "USD",
      shipping_cost: 25,
      entry_date: "2026-03-02",
      codes: [
        { hs_code: "6109100010", origin_country: "CN", declared_value: 12.5, quantity: 40 },
        { hs_code: "6204.62", origin_country: "BD", declared_value: 30, quantity: 10 },
      ],
    },
  });

export const StackingBody = z
  .object({
    hs_code: hsCode(2, 10).openapi({ example: "8504.40" }),
    origin_country: CountryCode.openapi({ example: "CN" }),
    destination_country: CountryCode.default("US"),
    entry_date: IsoDate.optional(),
  })
  .strict();

export const StackingRequest = StackingBody.openapi("StackingRequest", {
  example: { hs_code: "7326.90.86", origin_country: "CN", entry_date: "2026-03-02" },
});

export const StackingBulkBody = z
  .object({
    items: z
      .array(
        z
          .object({
            ref: z.string().max(200).optional(),
            hs_code: z.unknown(),
            origin_country: z.unknown(),
            destination_country: z.unknown().optional(),
            entry_date: z.unknown().optional(),
          })
          .passthrough(),
      )
      .min(1)
      .max(500, "at most 500 items"),
  })
  .strict()
  .openapi("StackingBulkRequest", {
    example: {
      items: [
        { ref: "sku-1", hs_code: "8504.40.95", origin_country: "CN" },
        { ref: "sku-2", hs_code: "9403.60.80", origin_country: "VN" },
      ],
    },
  });

const DataSourceSchema = z.object({ version: z.string(), source: z.string(), imported_at: z.string() }).nullable();
/** Beside the spec's `data_source` (the tariff): every dataset the quote read, by its registry name. */
const DataSourcesSchema = z
  .record(z.string(), z.object({ version: z.string(), source: z.string(), imported_at: z.string() }))
  .openapi({
    description:
      "Every reference dataset the quote read, by its name in the dataset registry (GET /platform/v1/datasets): the tariff (`tariffs`, or `tariffs-us` when a USITC edition was uploaded), `vat`, `customs_rules`, and the FX series used (`fx`, or `fx-hmrc` for a UK quote at HMRC's monthly rate)",
  });
const TariffLineWire = z.object({
  name: z.string(),
  rate: z.string(),
  amount: z.number(),
  type: z.string(),
  code: z.string().optional(),
  estimated: z.boolean().optional(),
  exempted: z.boolean().optional(),
  exclusion_code: z.string().optional(),
  exclusion_name: z.string().optional(),
  basis: z.string(),
});
const ConditionalMeasure = z.object({
  name: z.string(),
  code: z.string(),
  rate: z.string(),
  type: z.string(),
  note: z.string(),
});
const Tier = z.object({ tariffs: z.array(TariffLineWire), total_duty: z.number() });

const CalculateResult = z
  .object({
    hs_code: z.string(),
    origin_country: z.string(),
    destination_country: z.string(),
    entry_date: z.string(),
    transport_mode: z.string(),
    shipping_terms: z.string(),
    quantity: z.number(),
    rate_found: z.boolean(),
    tariff_line: z
      .object({
        code: z.string(),
        schedule: z.string(),
        description: z.string(),
        resolution: z
          .object({
            requested: z.string(),
            method: z.enum(["exact", "national_line", "highest_of_range"]),
            lines_considered: z.number().int(),
            range: z.string().nullable(),
            chosen: z.string().nullable(),
            description: z.string().nullable(),
          })
          .nullable()
          .openapi({ description: "How the requested code was matched to a tariff line" }),
      })
      .nullable(),
    currencies: z.object({
      declared: z.string(),
      destination: z.string(),
      exchange_rate: z.number(),
      source: z.string().nullable(),
      rate_date: z.string().nullable(),
    }),
    values: z.object({
      declared_value_per_unit: z.number(),
      declared_value_total: z.number(),
      customs_value: z.number(),
      shipping_cost: z.number(),
      insurance_cost: z.number(),
      customs_value_basis: z.string(),
      basis: z.string(),
    }),
    complete: z.boolean(),
    warnings: z
      .array(
        z.object({
          code: z.literal("prohibited"),
          rule_id: z.string(),
          title: z.string(),
          summary: z.string(),
          imposing_country: z.string(),
          agency: z.string().nullable(),
          source_url: z.string().nullable(),
        }),
      )
      .optional()
      .openapi({
        description:
          "Prohibitions the restricted-goods rules hold for this code, origin and destination on the entry date: the goods may not be imported at all",
      }),
    incomplete_reasons: z
      .array(
        z.object({
          code: z.enum([
            "no_tariff",
            "unknown_code",
            "estimated_duty",
            "conditional_measure",
            "estimated_fee",
            "excise_not_computed",
            "preference_not_modelled",
          ]),
          message: z.string(),
        }),
      )
      .optional(),
    entry: z
      .object({
        type: z.enum(["formal", "informal"]),
        entered_value: z.number(),
        informal_limit: z.number(),
        basis: z.string(),
        source_url: z.string(),
      })
      .optional(),
    exemptions: z.object({
      de_minimis_threshold: z.number().nullable(),
      de_minimis_exempt: z.boolean(),
      de_minimis_source_url: z.string().optional(),
      tax_de_minimis_threshold: z.number().nullable().optional(),
      tax_de_minimis_exempt: z.boolean().optional(),
      tariff_exemptions: z.array(
        z.object({ code: z.string(), name: z.string(), applies_to: z.string(), claimed: z.boolean() }),
      ),
      available_exemptions: z.array(
        z.object({ code: z.string(), name: z.string(), applies_to: z.string(), condition: z.string().nullable() }),
      ),
    }),
    estimated_duties: z
      .object({
        tariffs: z.array(TariffLineWire),
        normal_tariff: Tier.optional(),
        preferential_tariff: Tier.optional(),
        punitive_tariff: Tier.optional(),
        tier: z.string().nullable(),
        total_duty: z.number(),
      })
      .passthrough(),
    // Keyed by fee code (MPF, HMF...) beside their sum; a record of either, as TypeScript cannot type an
    // object whose one named number sits among fee-object entries.
    fees: z
      .record(
        z.string(),
        z.union([
          z.object({
            code: z.string(),
            name: z.string(),
            amount: z.number(),
            estimated: z.literal(true).optional(),
            basis: z.string(),
            source_url: z.string(),
          }),
          z.number(),
        ]),
      )
      .optional()
      .openapi({
        description:
          "Entry-level fees by code (e.g. MPF, HMF), each a fee object, and `total_fees`, their sum (a number)",
      }),
    vat: z
      .object({
        rate: z.number(),
        amount: z.number(),
        code: z.string().optional(),
        name: z.string(),
        basis: z.string(),
      })
      .optional(),
    point_of_sale_tax: z
      .object({
        rate: z.number(),
        amount: z.number(),
        name: z.string(),
        collected_by: z.string(),
        basis: z.string(),
        source_url: z.string(),
      })
      .optional()
      .openapi({
        description:
          "VAT/GST the seller charges at the sale (UK consignments up to 135 GBP, AU goods up to 1,000 AUD): not import VAT, not in the totals",
      }),
    refundable_duties: z
      .object({
        status: z.literal("deposited_refundable"),
        authority: z.string(),
        reason: z.string(),
        tariffs: z.array(TariffLineWire),
        conditional: z.array(ConditionalMeasure).optional(),
        total: z.number(),
      })
      .optional()
      .openapi({
        description:
          "US entries dated 2025-02-04 to 2026-02-23: the IEEPA duties (fentanyl, reciprocal) deposited at the time, each on its own line, refundable since Learning Resources v. Trump; never in the totals",
      }),
    excise: z
      .object({
        taxes: z.array(
          z.object({
            code: z.string(),
            name: z.string(),
            rate: z.string(),
            quantity: z.string(),
            amount: z.number(),
            basis: z.string(),
            source_url: z.string(),
          }),
        ),
        not_computed: z.array(z.object({ code: z.string(), name: z.string(), reason: z.string() })).optional(),
        total: z.number(),
      })
      .optional()
      .openapi({
        description:
          "Excise taxes collected at import with the duty (US federal excise on beer, wine, spirits, cigarettes; the UK Alcohol Duty; Germany's alcohol, sparkling wine, intermediate products and coffee taxes), in the totals and, where there is one, the VAT base; present only for goods the data holds excise for. What the request lacks the facts for (volume, alcohol_percentage) is in not_computed and the quote is not complete",
      }),
    additional_tariff_measures: z.array(ConditionalMeasure),
    notes: z.array(z.string()),
    totals: Totals,
  })
  .passthrough();

export const CalculateResponse = CalculateResult.extend({
  success: z.literal(true),
  message: z.string(),
  data_source: DataSourceSchema,
  data_sources: DataSourcesSchema,
  request_id: z.string().nullable(),
}).openapi("CalculateResponse", {
  example: {
    success: true,
    message: "",
    hs_code: "61091000",
    origin_country: "CN",
    destination_country: "US",
    entry_date: "2026-03-02",
    transport_mode: "sea",
    shipping_terms: "FOB",
    quantity: 1,
    rate_found: true,
    complete: true,
    entry: {
      type: "informal",
      entered_value: 1000,
      informal_limit: 2500,
      basis:
        "Entered value 1,000.00 USD does not exceed the 2,500.00 USD informal entry limit (19 CFR 143.21(a)); de minimis release is not available",
      source_url: "https://www.ecfr.gov/current/title-19/chapter-I/part-143/subpart-C/section-143.21",
    },
    tariff_line: {
      code: "6109.10.00",
      schedule: "US",
      description: "T-shirts, singlets, tank tops and similar garments, knitted or crocheted, of cotton",
      resolution: {
        requested: "61091000",
        method: "exact",
        lines_considered: 1,
        range: null,
        chosen: "6109.10.00",
        description: "T-shirts, singlets, tank tops and similar garments, knitted or crocheted, of cotton",
      },
    },
    currencies: { declared: "USD", destination: "USD", exchange_rate: 1, source: null, rate_date: null },
    values: {
      declared_value_per_unit: 1000,
      declared_value_total: 1000,
      customs_value: 1000,
      shipping_cost: 0,
      insurance_cost: 0,
      customs_value_basis: "FOB",
      basis: "FOB: 1,000.00 USD goods; shipping and insurance are not part of the customs value",
    },
    exemptions: {
      de_minimis_threshold: null,
      de_minimis_exempt: false,
      de_minimis_source_url: "https://www.cbp.gov/newsroom/announcements/trade-notices",
      tariff_exemptions: [],
      available_exemptions: [],
    },
    estimated_duties: {
      tariffs: [
        {
          name: "MFN duty (HTS 6109.10.00)",
          rate: "16.5%",
          amount: 165,
          type: "ad_valorem",
          code: "6109.10.00",
          basis: "16.5% of 1,000.00 USD customs value",
        },
        {
          name: "Section 301 China, List 4A",
          rate: "7.5%",
          amount: 75,
          type: "additional",
          code: "9903.88.15",
          basis: "7.5% of 1,000.00 USD customs value",
        },
        {
          name: "Section 122 balance-of-payments surcharge",
          rate: "10%",
          amount: 100,
          type: "additional",
          code: "9903.03.01",
          basis: "10% of 1,000.00 USD customs value",
        },
      ],
      normal_tariff: {
        tariffs: [
          {
            name: "MFN duty (HTS 6109.10.00)",
            rate: "16.5%",
            amount: 165,
            type: "ad_valorem",
            code: "6109.10.00",
            basis: "16.5% of 1,000.00 USD customs value",
          },
        ],
        total_duty: 165,
      },
      tier: "normal_tariff",
      total_duty: 340,
    },
    fees: {
      MPF: {
        code: "MPF",
        name: "Merchandise Processing Fee (informal entry)",
        amount: 2.69,
        basis: "Flat 2.69 USD per informal entry",
        source_url: "https://www.federalregister.gov/documents/2025/07/23/2025-13869",
      },
      HMF: {
        code: "HMF",
        name: "Harbor Maintenance Fee",
        amount: 1.25,
        basis: "0.125% of 1,000.00 USD customs value (sea only)",
        source_url: "https://www.ecfr.gov/current/title-19/chapter-I/part-24/section-24.24",
      },
      total_fees: 3.94,
    },
    additional_tariff_measures: [],
    notes: ["De minimis (duty): De minimis ended for goods of China and Hong Kong from 2025-05-02 (EO 14256)"],
    totals: { duty: 340, fees: 3.94, vat: 0, total: 343.94 },
    warnings: [],
    data_source: {
      version: "2026-11-28.6",
      source:
        "USITC tariff database 2025 (2025-06-06); HTSUS Chapter 99 (Rev 6 2026: Section 301, Section 232 incl. Russian aluminum and metal-origin rules, Section 122 surcharge 2026-02-24 to 2026-07-23) via Budget Lab at Yale tariff-rate-tracker; UK Global Tariff 2021 (DIT, OGL v3) with the EU CET as published beside it",
      imported_at: "2026-11-22T02:25:12.430Z",
    },
    data_sources: {
      tariffs: {
        version: "2026-11-28.6",
        source: "USITC tariff database 2025 (2025-06-06); HTSUS Chapter 99 (Rev 6 2026) …",
        imported_at: "2026-11-22T02:25:12.430Z",
      },
      vat: {
        version: "2026-11-28.2",
        source: "ibericode/vat-rates (2025-08, EU27 + GB); npm sales-tax 2.23.0 …",
        imported_at: "2026-11-22T02:25:12.430Z",
      },
      customs_rules: {
        version: "2026-11-28.5",
        source: "Hand-curated from official sources (CBP, 19 CFR, EUR-Lex, GOV.UK …); a source_url on every row",
        imported_at: "2026-11-22T02:25:12.430Z",
      },
      fx: {
        version: "2026-04-13",
        source: "ECB euro foreign exchange reference rates …",
        imported_at: "2026-11-22T02:25:12.430Z",
      },
    },
    request_id: "01a20112-8bef-7389-930e-0fb45e6b07f1",
  },
});

export const RuleErrors = z
  .object({ errors: z.array(z.object({ code: z.string(), description: z.string() })) })
  .openapi("CountryRuleViolation", {
    example: {
      errors: [{ code: "min_declared_value", description: "Declared value must be at least 10.00 USD for DE" }],
    },
  });

export const MultipleResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    reference: z.string().nullable(),
    destination_country: z.string(),
    currency: z.string().nullable().openapi({ description: "Currency of the totals and every figure" }),
    results: z.array(z.unknown()),
    shipment: z.unknown(),
    complete: z.boolean().openapi({
      description: "False when a line failed or any line's duty, fees or taxes could not be determined (see each line)",
    }),
    totals: Totals,
    data_source: DataSourceSchema,
    data_sources: DataSourcesSchema.optional(),
    request_id: z.string().nullable(),
    execution_time: z.number(),
  })
  .openapi("CalculateMultipleResponse");

export const StackingResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    hs_code: z.string(),
    origin_country: z.string(),
    destination_country: z.string(),
    entry_date: z.string(),
    rate_found: z.boolean(),
    tariffs: z.array(
      z.object({
        name: z.string(),
        rate: z.string(),
        type: z.string(),
        code: z.string().optional(),
        exempted: z.boolean().optional(),
        exclusion_code: z.string().optional(),
        exclusion_name: z.string().optional(),
      }),
    ),
    potential_exclusion_codes: z
      .array(z.object({ code: z.string(), name: z.string(), applied: z.literal(false), reason: z.string() }))
      .optional(),
    conditional_measures: z
      .array(
        z.object({ name: z.string(), rate: z.string(), type: z.string(), code: z.string(), condition: z.string() }),
      )
      .optional(),
    data_source: DataSourceSchema,
    request_id: z.string().nullable(),
  })
  .passthrough()
  .openapi("StackingResponse", {
    example: {
      success: true,
      message: "",
      hs_code: "8483509040",
      origin_country: "CN",
      destination_country: "US",
      entry_date: "2026-03-02",
      rate_found: true,
      tariffs: [
        { name: "MFN duty", rate: "2.8%", type: "ad_valorem", code: "8483.50.90" },
        {
          name: "Section 301 China, List 1",
          rate: "0%",
          type: "additional",
          code: "9903.88.01",
          exempted: true,
          exclusion_code: "9903.88.69",
          exclusion_name: "USTR product exclusion for 8483.50.9040",
        },
        {
          name: "Section 122 balance-of-payments surcharge",
          rate: "0%",
          type: "additional",
          code: "9903.03.01",
          exempted: true,
          exclusion_code: "9903.03.06",
          exclusion_name:
            "Article subject to Section 232 (note 2(aa)(v)): 9903.81.91 Section 232 steel derivatives (on steel content)",
        },
      ],
      potential_exclusion_codes: [
        {
          code: "9903.81.92",
          name: "Steel derivative: steel melted and poured in the United States",
          applied: false,
          reason:
            "Claim-only: The steel content was melted and poured in the United States (send it in manual_claims on /calculate)",
        },
      ],
      conditional_measures: [
        {
          name: "Section 232 steel derivatives (on steel content)",
          rate: "50%",
          type: "additional",
          code: "9903.81.91",
          condition:
            'Duty on the value of the steel content: give components [{material: "steel", value}] or metal_weight_percentage',
        },
      ],
      data_source: null,
      request_id: "01a20112-8c29-7382-9aa0-ebdc79a8aa92",
    },
  });

export const StackingBulkResponse = z
  .object({
    results: z.array(
      z
        .object({ index: z.number(), ref: z.string().nullable(), success: z.boolean(), error: z.string().optional() })
        .passthrough(),
    ),
    execution_time: z.number(),
    request_id: z.string().nullable(),
  })
  .openapi("StackingBulkResponse");

const RULE_TYPES = ["min_declared_value", "max_declared_value", "required_fields", "blocked_origins"] as const;
const REQUIRABLE_FIELDS = [
  "currency",
  "weight",
  "shipping_cost",
  "insurance_cost",
  "shipment_channel",
  "entry_date",
  "components",
  "metal_weight_percentage",
  "destination_region",
  "volume",
  "transport_mode",
  "shipping_terms",
] as const;

export const CountryRuleBody = z
  .object({
    destination_country: z
      .union([CountryCode, z.literal("*")])
      .openapi({ example: "DE", description: "ISO alpha-2, or * for every destination" }),
    rule_type: z.enum(RULE_TYPES),
    value: z
      .number()
      .finite()
      .min(0)
      .optional()
      .openapi({ description: "min/max_declared_value: the line total (value × quantity) bound" }),
    currency: CurrencyCode.optional().openapi({
      description: "min/max_declared_value: currency of `value` (converted at the ECB rate of the entry date)",
    }),
    fields: z
      .array(z.enum(REQUIRABLE_FIELDS))
      .min(1)
      .optional()
      .openapi({ description: "required_fields: request fields that must be sent" }),
    countries: z.array(CountryCode).min(1).optional().openapi({ description: "blocked_origins: origins refused" }),
    code: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits and _.:- only")
      .optional(),
    description: z.string().trim().min(1).max(500).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    const need = (k: "value" | "fields" | "countries") => {
      if (b[k] === undefined)
        ctx.addIssue({ code: "custom", path: [k], message: `is required for rule_type ${b.rule_type}` });
    };
    if (b.rule_type === "min_declared_value" || b.rule_type === "max_declared_value") need("value");
    if (b.rule_type === "required_fields") need("fields");
    if (b.rule_type === "blocked_origins") need("countries");
  })
  .openapi("CountryRuleRequest", {
    example: {
      destination_country: "DE",
      rule_type: "min_declared_value",
      value: 10,
      currency: "EUR",
      description: "Declared values under 10 EUR are refused",
    },
  });

export const CountryRuleUpdate = z
  .object({
    value: moneyNumber().optional(),
    currency: CurrencyCode.optional(),
    fields: z.array(z.enum(REQUIRABLE_FIELDS)).min(1).optional(),
    countries: z.array(CountryCode).min(1).optional(),
    code: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9_.:-]+$/)
      .optional(),
    description: z.string().trim().min(1).max(500).optional(),
  })
  .strict();

export const CountryRuleSchema = z
  .object({
    id: z.number().int(),
    destination_country: z.string(),
    rule_type: z.string(),
    value: z.number().nullable(),
    currency: z.string().nullable(),
    fields: z.array(z.string()).nullable(),
    countries: z.array(z.string()).nullable(),
    code: z.string(),
    description: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("CountryRule");
