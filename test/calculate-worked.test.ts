/**
 * Worked cases on the full reference data: every expected figure was computed by hand from the data files
 * (data/tariffs, data/customs, data/vat, data/fx) as a broker would, and is pinned here. Rounding is once, at
 * the edge: a total is the rounded exact sum, not the sum of rounded lines.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadDataset, setup } from "./helpers";

type Api = Awaited<ReturnType<typeof setup>>["api"];
let api: Api;

beforeAll(async () => {
  for (const d of ["tariffs", "vat", "fx", "customs_rules"]) await loadDataset(d);
  ({ api } = await setup());
}, 120_000);

const get = (o: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((v, k) => (v === null || v === undefined ? v : (v as Record<string, unknown>)[k]), o);

const US = { destination_country: "US", currency: "USD", entry_date: "2026-03-02" };

// [name, request, {path: expected}]
const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ["ad valorem MFN (16.5%) with MPF at its floor and HMF", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000 },
    { "estimated_duties.tier": "normal_tariff", "estimated_duties.tariffs.0.amount": 165, "estimated_duties.tariffs.0.basis": "16.5% of 1,000.00 USD customs value", "fees.MPF.amount": 33.58, "fees.HMF.amount": 1.25, "totals.total": 199.83 }],
  ["HMF only for sea: none by air", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000, transport_mode: "air" },
    { "fees.HMF": undefined, "totals.fees": 33.58, "totals.total": 198.58 }],
  ["Section 301 List 4A (7.5%) stacked on MFN for China", { ...US, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1000 },
    { "estimated_duties.tariffs.1.code": "9903.88.15", "estimated_duties.tariffs.1.amount": 75, "totals.duty": 240, "totals.total": 274.83 }],
  ["Section 301 not yet in force (List 3 from 2018-09-24)", { ...US, hs_code: "9403.60.80", origin_country: "CN", declared_value: 1000, entry_date: "2018-09-01" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0, "fees.MPF": undefined, "totals.fees": 1.25 }],
  ["Section 301 List 3 at 10% (2018-09-24 to 2019-05-09)", { ...US, hs_code: "9403.60.80", origin_country: "CN", declared_value: 1000, entry_date: "2019-01-15" },
    { "estimated_duties.tariffs.1.rate": "10%", "totals.duty": 100 }],
  ["Section 301 List 3 at 25% from 2019-05-10", { ...US, hs_code: "9403.60.80", origin_country: "CN", declared_value: 1000, entry_date: "2019-06-03" },
    { "estimated_duties.tariffs.1.rate": "25%", "totals.duty": 250 }],
  ["four-year-review 301 (100%) on an EV", { ...US, hs_code: "8703.80.00", origin_country: "CN", declared_value: 40000 },
    { "estimated_duties.tariffs.0.amount": 1000, "estimated_duties.tariffs.1.code": "9903.91.03", "estimated_duties.tariffs.1.amount": 40000, "fees.MPF.amount": 138.56, "fees.HMF.amount": 50, "totals.total": 41188.56 }],
  ["preferential tariff for a KORUS origin", { ...US, hs_code: "6109.10.00", origin_country: "KR", declared_value: 1000 },
    { "estimated_duties.tier": "preferential_tariff", "estimated_duties.preferential_tariff.total_duty": 0, "totals.duty": 0, "totals.total": 34.83 }],
  ["preferential specific rate (KORUS 10 cents/kg)", { ...US, hs_code: "0406.10.08", origin_country: "KR", declared_value: 100, weight: 10 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 1, "fees.HMF.amount": 0.13, "totals.fees": 33.71, "totals.total": 34.71 }],
  ["specific duty per kg ($1.509/kg × 10 kg)", { ...US, hs_code: "0406.10.08", origin_country: "FR", declared_value: 100, weight: 10 },
    { "estimated_duties.tariffs.0.type": "specific", "estimated_duties.tariffs.0.amount": 15.09, "estimated_duties.tariffs.0.basis": "1.509 USD/KG × 10 kg = 15.09 USD", "totals.total": 48.8 }],
  ["weight in lb converted to kg", { ...US, hs_code: "0406.10.08", origin_country: "FR", declared_value: 100, weight: 10, weight_unit: "lb" },
    { "estimated_duties.tariffs.0.amount": 6.84, "totals.total": 40.55 }],
  ["specific duty without a weight is estimated, not guessed", { ...US, hs_code: "0406.10.08", origin_country: "FR", declared_value: 100 },
    { "estimated_duties.tariffs.0.estimated": true, "estimated_duties.tariffs.0.amount": 0, "totals.duty": 0 }],
  ["compound: $1.104/kg + 14.9%", { ...US, hs_code: "0402.29.50", origin_country: "NZ", declared_value: 200, weight: 10 },
    { "estimated_duties.tariffs.0.type": "compound", "estimated_duties.tariffs.0.amount": 40.84, "totals.fees": 33.83, "totals.total": 74.67 }],
  ["compound on the second unit (41 cents/kg + 16.3%)", { ...US, hs_code: "6201.20.11", origin_country: "VN", declared_value: 50, quantity: 12, weight: 6 },
    { "estimated_duties.tariffs.0.amount": 100.26, "values.customs_value": 600, "totals.fees": 34.33, "totals.total": 134.59 }],
  ["three-part compound (per article + % + per kg)", { ...US, hs_code: "6505.00.08", origin_country: "VN", declared_value: 2, quantity: 100, weight: 10 },
    { "estimated_duties.tariffs.0.amount": 15.85, "totals.total": 49.68 }],
  ["free line", { ...US, hs_code: "8517.13.00", origin_country: "VN", declared_value: 800 },
    { "estimated_duties.tariffs.0.type": "free", "totals.duty": 0, "totals.total": 34.58 }],
  ["column 2 (punitive) for Russia", { ...US, hs_code: "6109.10.00", origin_country: "RU", declared_value: 1000 },
    { "estimated_duties.tier": "punitive_tariff", "estimated_duties.punitive_tariff.total_duty": 900, "totals.total": 934.83 }],
  ["Russia before column 2 applied (2022-04-09): MFN; FY2021 MPF floor", { ...US, hs_code: "6109.10.00", origin_country: "RU", declared_value: 1000, entry_date: "2021-06-01" },
    { "estimated_duties.tier": "normal_tariff", "totals.duty": 165, "fees.MPF.amount": 27.23, "totals.total": 193.48 }],
  ["column 2 specific per litre with the volume in hl", { ...US, hs_code: "2203.00.00", origin_country: "RU", declared_value: 500, volume: 2, volume_unit: "hl" },
    { "estimated_duties.tariffs.0.amount": 26.4, "totals.total": 60.61 }],
  ["Section 232 steel on the full value (50%)", { ...US, hs_code: "7208.36.00", origin_country: "BR", declared_value: 10000, entry_date: "2025-09-02" },
    { "estimated_duties.tariffs.1.code": "9903.81.87", "estimated_duties.tariffs.1.amount": 5000, "fees.MPF.amount": 34.64, "fees.HMF.amount": 12.5, "totals.total": 5047.14 }],
  ["Section 232 steel for the UK at 25%", { ...US, hs_code: "7208.36.00", origin_country: "GB", declared_value: 10000, entry_date: "2025-09-02" },
    { "estimated_duties.tariffs.1.code": "9903.81.86", "totals.duty": 2500, "totals.total": 2547.14 }],
  ["Section 232 steel: Canada exempt before 2025-03-12", { ...US, hs_code: "7208.36.00", origin_country: "CA", declared_value: 10000, entry_date: "2024-06-03" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0, "totals.total": 47.14 }],
  ["Section 232 steel at 25% before 2025-03-12 for other origins", { ...US, hs_code: "7208.36.00", origin_country: "VN", declared_value: 10000, entry_date: "2024-06-03" },
    { "estimated_duties.tariffs.1.code": "9903.80.01", "totals.duty": 2500 }],
  ["Section 232 aluminum derivative on its content (components)", { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02", components: [{ material: "aluminium", value: 300 }] },
    { "estimated_duties.tariffs.1.code": "9903.85.08", "estimated_duties.tariffs.1.amount": 150, "estimated_duties.tariffs.1.basis": "50% of 300.00 USD aluminum content value (from components)", "totals.total": 183.96 }],
  ["Section 232 content estimated from metal_weight_percentage", { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02", metal_weight_percentage: 40 },
    { "estimated_duties.tariffs.1.amount": 200, "estimated_duties.tariffs.1.estimated": true, "totals.total": 233.96 }],
  ["Section 232 content measure without facts is conditional, outside the totals", { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02" },
    { "estimated_duties.tariffs.length": 1, "additional_tariff_measures.0.code": "9903.85.08", "totals.duty": 0, "totals.total": 33.96 }],
  ["claim 9903.85.09 listed as available", { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02", components: [{ material: "aluminum", value: 300 }] },
    { "exemptions.available_exemptions.0.code": "9903.85.09", "exemptions.tariff_exemptions.length": 0 }],
  ["claim 9903.85.09 applied via manual_claims", { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02", components: [{ material: "aluminum", value: 300 }], manual_claims: ["9903.85.09"] },
    { "estimated_duties.tariffs.1.exempted": true, "estimated_duties.tariffs.1.amount": 0, "exemptions.tariff_exemptions.0.code": "9903.85.09", "exemptions.tariff_exemptions.0.claimed": true, "totals.total": 33.96 }],
  ["301 product exclusion offered as a claim", { ...US, hs_code: "7326.90.86", origin_country: "CN", declared_value: 1000 },
    { "exemptions.available_exemptions.0.code": "9903.88.69", "totals.duty": 279 }],
  ["301 product exclusion claimed", { ...US, hs_code: "7326.90.86", origin_country: "CN", declared_value: 1000, manual_claims: ["9903.88.69"] },
    { "estimated_duties.tariffs.1.exempted": true, "estimated_duties.tariffs.1.exclusion_code": "9903.88.69", "totals.duty": 29 }],
  ["301 exclusion fires on its 10-digit statistical number", { ...US, hs_code: "3926.90.99.10", origin_country: "CN", declared_value: 1000 },
    { "estimated_duties.tariffs.0.amount": 53, "estimated_duties.tariffs.1.exempted": true, "exemptions.tariff_exemptions.0.code": "9903.88.69", "exemptions.tariff_exemptions.0.claimed": false, "totals.duty": 53 }],
  ["301 exclusion at 8 digits: duty applies, exclusion offered", { ...US, hs_code: "3926.90.99", origin_country: "CN", declared_value: 1000 },
    { "estimated_duties.tariffs.1.amount": 75, "exemptions.tariff_exemptions.length": 0, "totals.duty": 128 }],
  ["301 exclusion expired after 2026-11-09", { ...US, hs_code: "3926.90.99.10", origin_country: "CN", declared_value: 1000, entry_date: "2026-11-10" },
    { "estimated_duties.tariffs.1.amount": 75, "totals.duty": 128, "fees.MPF.amount": 33.58 }],
  ["MPF capped at the FY2026 maximum", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 500000 },
    { "fees.MPF.amount": 651.5, "fees.HMF.amount": 625, "totals.total": 83776.5 }],
  ["MPF between floor and cap", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 50000, transport_mode: "air" },
    { "fees.MPF.amount": 173.2, "totals.total": 8423.2 }],
  ["FOB destination: shipping and insurance are not customs value", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000, shipping_cost: 100, insurance_cost: 20 },
    { "values.customs_value": 1000, "values.shipping_cost": 100, "values.customs_value_basis": "FOB", "totals.total": 199.83 }],
  ["FOB destination with a CIF price: freight deducted", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1120, shipping_terms: "CIF", shipping_cost: 100, insurance_cost: 20 },
    { "values.customs_value": 1000, "totals.total": 199.83 }],
  ["CIF destination: VAT on customs value + duty (DE)", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "de", currency: "EUR", entry_date: "2026-03-02", declared_value: 1000, shipping_cost: 100, insurance_cost: 20 },
    { "values.customs_value": 1120, "values.customs_value_basis": "CIF", "totals.duty": 134.4, "vat.rate": 19, "vat.amount": 238.34, "vat.basis": "19% of 1,254.40 EUR (customs value 1,120.00 EUR + duty 134.40 EUR)", "totals.total": 372.74 }],
  ["UK Global Tariff and UK VAT", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "GB", currency: "GBP", entry_date: "2026-03-02", declared_value: 1000 },
    { "tariff_line.schedule": "GB", "totals.duty": 120, "vat.amount": 224, "totals.total": 344 }],
  ["FX: USD converted to GBP at the ECB cross rate of the entry date", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "GB", currency: "USD", entry_date: "2026-03-02", declared_value: 1000 },
    { "currencies.exchange_rate": 0.747051, "currencies.rate_date": "2026-03-02", "values.customs_value": 747.05, "totals.duty": 89.65, "totals.total": 256.99 }],
  ["FX on a Sunday uses the last ECB business day", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "GB", currency: "USD", entry_date: "2026-03-01", declared_value: 1000 },
    { "currencies.exchange_rate": 0.742313, "currencies.rate_date": "2026-02-27" }],
  ["EU member outside the euro answers in its own currency", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "PL", currency: "EUR", entry_date: "2026-03-02", declared_value: 1000 },
    { "currencies.destination": "PLN", "values.customs_value": 4244, "totals.duty": 509.28, "vat.rate": 23, "totals.total": 1602.53 }],
  ["EU duty de minimis (150 EUR) exempt, VAT still due", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "DE", currency: "EUR", entry_date: "2026-03-02", declared_value: 100 },
    { "exemptions.de_minimis_exempt": true, "exemptions.de_minimis_threshold": 150, "exemptions.tax_de_minimis_threshold": null, "exemptions.tax_de_minimis_exempt": false, "totals.duty": 0, "vat.amount": 19, "totals.total": 19 }],
  ["EU VAT de minimis (22 EUR) before 2021-07-01", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "DE", currency: "EUR", entry_date: "2021-06-01", declared_value: 20 },
    { "exemptions.tax_de_minimis_exempt": true, "exemptions.tax_de_minimis_threshold": 22, "totals.total": 0 }],
  ["EU VAT de minimis abolished from 2021-07-01", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "DE", currency: "EUR", entry_date: "2021-07-01", declared_value: 20 },
    { "exemptions.tax_de_minimis_exempt": false, "vat.amount": 3.8, "totals.total": 3.8 }],
  ["US de minimis (800 USD) before the suspension: no duty, no fees", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 500, entry_date: "2025-08-01" },
    { "exemptions.de_minimis_exempt": true, "exemptions.de_minimis_threshold": 800, "totals.duty": 0, "fees": undefined, "totals.total": 0 }],
  ["US de minimis suspended from 2025-08-29", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 500, entry_date: "2025-09-02" },
    { "exemptions.de_minimis_exempt": false, "exemptions.de_minimis_threshold": null, "totals.duty": 82.5, "totals.total": 115.84 }],
  ["US de minimis ended for China from 2025-05-02", { ...US, hs_code: "6109.10.00", origin_country: "CN", declared_value: 500, entry_date: "2025-06-02" },
    { "exemptions.de_minimis_exempt": false, "totals.duty": 120, "totals.total": 153.34 }],
  ["CA courier, US origin: duty within 150 CAD, GST above 40 CAD", { hs_code: "6109.10.00", origin_country: "US", destination_country: "CA", currency: "CAD", entry_date: "2026-03-02", declared_value: 100, shipment_channel: "courier" },
    { "rate_found": false, "exemptions.de_minimis_threshold": 150, "exemptions.de_minimis_exempt": true, "exemptions.tax_de_minimis_threshold": 40, "exemptions.tax_de_minimis_exempt": false, "vat.amount": 5, "totals.total": 5 }],
  ["CA postal: the 20 CAD thresholds apply", { hs_code: "6109.10.00", origin_country: "US", destination_country: "CA", currency: "CAD", entry_date: "2026-03-02", declared_value: 100, shipment_channel: "postal" },
    { "exemptions.de_minimis_threshold": 20, "exemptions.de_minimis_exempt": false, "exemptions.tax_de_minimis_threshold": 20, "vat.amount": 5 }],
  ["CA courier under 40 CAD: tax exempt", { hs_code: "6109.10.00", origin_country: "US", destination_country: "CA", currency: "CAD", entry_date: "2026-03-02", declared_value: 30, shipment_channel: "courier" },
    { "exemptions.tax_de_minimis_exempt": true, "vat.amount": 0, "totals.total": 0 }],
  ["regional tax: Ontario HST 13%", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "CA", currency: "CAD", entry_date: "2026-03-02", declared_value: 200, destination_region: "CA-ON" },
    { "vat.code": "CA-ON", "vat.rate": 13, "vat.amount": 26 }],
  ["regional tax: Canary Islands outside the VAT area", { hs_code: "6109.10.00", origin_country: "CN", destination_country: "ES", currency: "EUR", entry_date: "2026-03-02", declared_value: 1000, destination_region: "es-cn" },
    { "totals.duty": 120, "vat.rate": 0, "vat.amount": 0, "totals.total": 120 }],
  ["4-digit code resolves to the highest-duty national line", { ...US, hs_code: "6109", origin_country: "VN", declared_value: 1000 },
    { "tariff_line.resolution.method": "highest_of_range", "tariff_line.code": "6109.90.10", "totals.duty": 320 }],
  ["quantity × per-unit value", { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 25, quantity: 40 },
    { "values.declared_value_per_unit": 25, "values.declared_value_total": 1000, "totals.duty": 165 }],
  ["unknown code: rate_found false with a message", { ...US, hs_code: "9999.99.99", origin_country: "VN", declared_value: 100 },
    { "rate_found": false, "totals.duty": 0 }],
];

describe("calculate: worked cases", () => {
  it("has at least 40 cases", () => expect(cases.length).toBeGreaterThanOrEqual(40));
  it.each(cases)("%s", async (_name, body, expected) => {
    const res = await api("/calculate", { json: body });
    const json = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(json)).toBe(200);
    for (const [path, value] of Object.entries(expected)) expect(get(json, path), `${path} in ${JSON.stringify(json, null, 1)}`).toEqual(value);
  });
});
