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

// 2026-03-02 is inside the Section 122 window (2026-02-24 to 2026-07-23): US lines carry its 10% unless exempt.
const US = { destination_country: "US", currency: "USD", entry_date: "2026-03-02" };
const GB = { destination_country: "GB", currency: "GBP", entry_date: "2026-03-02" };
const AU = { destination_country: "AU", currency: "AUD", entry_date: "2026-03-02" };
/** A Chinese T-shirt into Germany on 2026-03-02 (the EU's 150 EUR relief and the IOSS cases). */
const DE_MAR = {
  hs_code: "6109.10.00",
  origin_country: "CN",
  destination_country: "DE",
  currency: "EUR",
  entry_date: "2026-03-02",
};
const JP = { destination_country: "JP", currency: "JPY", entry_date: "2026-06-01" };
const CA = { destination_country: "CA", currency: "CAD", entry_date: "2026-10-01" };
const SG = { destination_country: "SG", currency: "SGD", entry_date: "2026-06-01" };
const HK = { destination_country: "HK", currency: "HKD", entry_date: "2026-06-01" };
const CH = { destination_country: "CH", currency: "CHF", entry_date: "2026-06-01" };
const S122_ENDED =
  "Section 122 balance-of-payments surcharge (HTSUS 9903.03.01) not charged: it ran from 2026-02-24 to 2026-07-23 (150 days) and no extension is in the data";

// [name, request, {path: expected}]
const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "ad valorem MFN (16.5%), informal entry: flat MPF 2.69 (FY2026) and HMF",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000 },
    {
      "estimated_duties.tier": "normal_tariff",
      "estimated_duties.tariffs.0.amount": 165,
      "estimated_duties.tariffs.0.basis": "16.5% of 1,000.00 USD customs value",
      "estimated_duties.tariffs.1.code": "9903.03.01",
      "estimated_duties.tariffs.1.amount": 100,
      "fees.MPF.amount": 2.69,
      "fees.HMF.amount": 1.25,
      "totals.total": 268.94,
    },
  ],
  [
    "HMF only for sea: none by air",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000, transport_mode: "air" },
    { "fees.HMF": undefined, "totals.fees": 2.69, "totals.total": 267.69 },
  ],
  // US entry type (19 CFR 143.21(a)): an entered value not over 2,500 USD is an informal entry and pays the flat
  // informal MPF (19 CFR 24.23(b)(1)(ii); FY2026 2.69 USD, CBP Dec. 25-10, 90 FR 34665); above it a formal entry
  // pays 0.3464% within the FY2026 floor 33.58 and cap 651.50 (same notice). De minimis is suspended from 2025-08-29.
  [
    "formal entry above 2,500 USD: 0.3464% of 3,000 = 10.39, raised to the 33.58 floor",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 3000, transport_mode: "air" },
    // duty 16.5% × 3,000 = 495 + Section 122 10% × 3,000 = 300 → 795; total 795 + 33.58.
    {
      "entry.type": "formal",
      "entry.informal_limit": 2500,
      "fees.MPF.amount": 33.58,
      "fees.MPF.estimated": undefined,
      "totals.duty": 795,
      "totals.total": 828.58,
    },
  ],
  [
    "formal entry at the cap: 0.3464% of 200,000 = 692.80, capped at 651.50",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 200000, transport_mode: "air" },
    // duty 33,000 + 20,000 = 53,000; total 53,651.50.
    { "entry.type": "formal", "fees.MPF.amount": 651.5, "totals.total": 53651.5 },
  ],
  [
    "informal at exactly 2,500 USD (143.21(a): not exceeding 2,500)",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 2500, transport_mode: "air" },
    // duty 412.50 + 250 = 662.50; MPF 2.69; total 665.19.
    { "entry.type": "informal", "fees.MPF.amount": 2.69, "totals.duty": 662.5, "totals.total": 665.19 },
  ],
  [
    "formal at 2,500.01 USD: 0.3464% = 8.66, floor 33.58",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 2500.01, transport_mode: "air" },
    // duty 16.5% × 2,500.01 = 412.50165 + 250.001 = 662.50265; total 662.50265 + 33.58 = 696.08265.
    { "entry.type": "formal", "fees.MPF.amount": 33.58, "totals.total": 696.08 },
  ],
  [
    "FY2027 (from 2026-10-01) informal MPF: 2.77 (FR Doc 2026-15530)",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 1000,
      transport_mode: "air",
      entry_date: "2026-11-02",
    },
    // duty 16.5% × 1,000 = 165 (Section 122 over); MPF 2.77; total 167.77.
    { "entry.type": "informal", "fees.MPF.amount": 2.77, "fees.MPF.estimated": undefined, "totals.total": 167.77 },
  ],
  [
    "FY2027 formal MPF floor 34.58 (FR Doc 2026-15530)",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 3000,
      transport_mode: "air",
      entry_date: "2026-11-02",
    },
    // duty 495; MPF 0.3464% × 3,000 = 10.39 → FY2027 floor 34.58; total 529.58.
    { "entry.type": "formal", "fees.MPF.amount": 34.58, "fees.MPF.estimated": undefined, "totals.total": 529.58 },
  ],
  [
    "FY2027 formal MPF cap 670.86 (FR Doc 2026-15530)",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 250000,
      transport_mode: "air",
      entry_date: "2026-11-02",
    },
    // MPF 0.3464% × 250,000 = 866.00 → FY2027 cap 670.86.
    { "entry.type": "formal", "fees.MPF.amount": 670.86, "fees.MPF.estimated": undefined },
  ],
  [
    "before 2025-04-30 an article over 250 USD under a Chapter 99 heading makes a 1,000 USD entry formal",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "CN",
      declared_value: 1000,
      transport_mode: "air",
      entry_date: "2025-03-03",
    },
    // Section 301 List 4A 7.5% (9903.88.15) classifies the T-shirt in Chapter 99, Subchapter III; at 1,000 USD it is
    // over the 250 USD of 19 CFR 143.21(a)'s parenthetical: formal entry, MPF 0.3464% × 1,000 = 3.46 → FY2025 floor 32.71.
    { "entry.type": "formal", "fees.MPF.amount": 32.71 },
  ],
  [
    "the same T-shirt entered 2025-05-15, after CBP suspended the 250 USD parenthetical (90 FR 17608): informal",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "CN",
      declared_value: 1000,
      transport_mode: "air",
      entry_date: "2025-05-15",
    },
    // FY2025 informal MPF 2.62.
    { "entry.type": "informal", "fees.MPF.amount": 2.62 },
  ],
  [
    "an IEEPA duty deposited at entry (refundable now) was a Chapter 99 classification too: Viet Nam 2025-04-15",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 1000,
      transport_mode: "air",
      entry_date: "2025-04-15",
    },
    // Reciprocal 10% (9903.01.25) from 2025-04-05: formal entry, MPF floor 32.71.
    { "entry.type": "formal", "fees.MPF.amount": 32.71 },
  ],
  [
    "no Chapter 99 heading on the article: Viet Nam 2025-03-03, 1,000 USD stays informal",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 1000,
      transport_mode: "air",
      entry_date: "2025-03-03",
    },
    { "entry.type": "informal", "fees.MPF.amount": 2.62 },
  ],
  [
    "FY2028 (from 2027-10-01) not yet published: FY2027 informal MPF 2.77 carried forward, flagged estimated",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 1000,
      transport_mode: "air",
      entry_date: "2027-11-02",
    },
    { "entry.type": "informal", "fees.MPF.amount": 2.77, "fees.MPF.estimated": true },
  ],
  [
    "Section 301: a printer U.S. note 20(s) lists under List 4A pays 7.5%, not the 25% of List 3 the upstream also gave it",
    {
      ...US,
      hs_code: "8443.32.10",
      origin_country: "CN",
      declared_value: 10000,
      transport_mode: "air",
      entry_date: "2025-06-02",
    },
    // 8443.32.10 (printer units): List 4A, 9903.88.15, 7.5% × 10,000 = 750.
    { "estimated_duties.tariffs.1.code": "9903.88.15", "estimated_duties.tariffs.1.amount": 750 },
  ],
  [
    "Section 301 List 4A (7.5%) and the Section 122 surcharge (10%) stacked on MFN for China",
    { ...US, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1000 },
    {
      "estimated_duties.tariffs.1.code": "9903.88.15",
      "estimated_duties.tariffs.1.amount": 75,
      "estimated_duties.tariffs.2.code": "9903.03.01",
      "estimated_duties.tariffs.2.amount": 100,
      "estimated_duties.tariffs.2.basis": "10% of 1,000.00 USD customs value",
      "totals.duty": 340,
      "totals.total": 343.94,
    },
  ],
  // Section 301 list audit: lithium-ion batteries 8507.60.00 are on List 4A (9903.88.15), 7.5% from 2020-02-14
  // (HTSUS 8507.60.00 "+7.5%"); the four-year review (USTR, 89 FR 76581) raised EV batteries (8507.60.0010,
  // 9903.91.01) to 25% from 2024-09-27 and the others (9903.91.06) to 25% from 2026-01-01. MFN 3.4%.
  [
    "Section 301 List 4A: lithium-ion batteries at 7.5% in 2025 (before the four-year-review increase)",
    { ...US, entry_date: "2025-06-02", hs_code: "8507.60.00", origin_country: "CN", declared_value: 1000 },
    // MFN 3.4% × 1,000 = 34; 301 7.5% × 1,000 = 75; duty 109; EV batteries (8507.60.00.10) are told apart, and
    // the Section 232 auto-parts duty (from 2025-05-03) hangs on the batteries being vehicle parts.
    {
      "estimated_duties.tariffs.1.code": "9903.88.15",
      "estimated_duties.tariffs.1.amount": 75,
      "additional_tariff_measures.0.code": "9903.94.05",
      "additional_tariff_measures.1.code": "9903.91.01",
      "totals.duty": 109,
    },
  ],
  [
    "Section 301: lithium-ion EV batteries (8507.60.00.10) at 25% from 2024-09-27, in place of List 4A",
    { ...US, entry_date: "2025-06-02", hs_code: "8507.60.0010", origin_country: "CN", declared_value: 1000 },
    // MFN 34 + 301 25% × 1,000 = 250 → duty 284.
    { "estimated_duties.tariffs.1.code": "9903.91.01", "estimated_duties.tariffs.1.amount": 250, "totals.duty": 284 },
  ],
  // A quote says when it is not final (complete: false with the reasons) and charges no fee on an unknown code.
  [
    "complete quote: every part determined",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000 },
    { complete: true, incomplete_reasons: undefined },
  ],
  [
    "unknown code: no duty, no MPF or HMF, complete false",
    { ...US, hs_code: "9999.99.99", origin_country: "VN", declared_value: 100 },
    {
      rate_found: false,
      complete: false,
      "incomplete_reasons.0.code": "unknown_code",
      fees: undefined,
      "totals.total": 0,
    },
  ],
  [
    "Section 232 content not given: conditional measure makes the quote incomplete",
    { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02" },
    { complete: false, "incomplete_reasons.0.code": "conditional_measure" },
  ],
  [
    "Section 301 not yet in force (List 3 from 2018-09-24)",
    { ...US, hs_code: "9403.60.80", origin_country: "CN", declared_value: 1000, entry_date: "2018-09-01" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0, "fees.MPF": undefined, "totals.fees": 1.25 },
  ],
  [
    "Section 301 List 3 at 10% (2018-09-24 to 2019-05-09)",
    { ...US, hs_code: "9403.60.80", origin_country: "CN", declared_value: 1000, entry_date: "2019-01-15" },
    { "estimated_duties.tariffs.1.rate": "10%", "totals.duty": 100 },
  ],
  [
    "Section 301 List 3 at 25% from 2019-05-10",
    { ...US, hs_code: "9403.60.80", origin_country: "CN", declared_value: 1000, entry_date: "2019-06-03" },
    { "estimated_duties.tariffs.1.rate": "25%", "totals.duty": 250 },
  ],
  [
    "four-year-review 301 (100%) on an EV, on top of the Section 232 autos duty",
    { ...US, hs_code: "8703.80.00", origin_country: "CN", declared_value: 40000 },
    // MFN 2.5% = 1,000; 232 autos 25% = 10,000; 301 100% = 40,000 (note 33(a): other chapter 99 duties stack);
    // no Section 122 on a car under 232 autos (note 2(aa)(v)(2)); duty 51,000 + MPF 138.56 + HMF 50.
    {
      "estimated_duties.tariffs.0.amount": 1000,
      "estimated_duties.tariffs.1.code": "9903.94.01",
      "estimated_duties.tariffs.1.amount": 10000,
      "estimated_duties.tariffs.2.code": "9903.91.03",
      "estimated_duties.tariffs.2.amount": 40000,
      "estimated_duties.tariffs.3.exempted": true,
      "fees.MPF.amount": 138.56,
      "fees.HMF.amount": 50,
      "totals.total": 51188.56,
    },
  ],
  [
    "preferential tariff for a KORUS origin",
    { ...US, hs_code: "6109.10.00", origin_country: "KR", declared_value: 1000 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.preferential_tariff.total_duty": 0,
      "estimated_duties.tariffs.1.code": "9903.03.01",
      "totals.duty": 100,
      "fees.MPF": undefined,
      "exemptions.tariff_exemptions": [
        {
          code: "KR",
          name: "MPF exemption: goods originating under the United States-Korea FTA (19 CFR 24.23(c))",
          applies_to: "MPF",
          claimed: false,
        },
      ],
      "totals.total": 101.25,
    },
  ],
  [
    "preferential specific rate (KORUS 10 cents/kg)",
    { ...US, hs_code: "0406.10.08", origin_country: "KR", declared_value: 100, weight: 10 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "totals.duty": 11,
      "fees.HMF.amount": 0.13,
      "totals.fees": 0.13,
      "totals.total": 11.13,
    },
  ],
  [
    "specific duty per kg ($1.509/kg × 10 kg)",
    { ...US, hs_code: "0406.10.08", origin_country: "FR", declared_value: 100, weight: 10 },
    {
      "estimated_duties.tariffs.0.type": "specific",
      "estimated_duties.tariffs.0.amount": 15.09,
      "estimated_duties.tariffs.0.basis": "1.509 USD/KG × 10 kg = 15.09 USD",
      "totals.duty": 25.09,
      "totals.total": 27.91,
    },
  ],
  [
    "weight in lb converted to kg",
    { ...US, hs_code: "0406.10.08", origin_country: "FR", declared_value: 100, weight: 10, weight_unit: "lb" },
    { "estimated_duties.tariffs.0.amount": 6.84, "totals.total": 19.66 },
  ],
  [
    "specific duty without a weight is estimated, not guessed",
    { ...US, hs_code: "0406.10.08", origin_country: "FR", declared_value: 100 },
    {
      "estimated_duties.tariffs.0.estimated": true,
      "estimated_duties.tariffs.0.amount": 0,
      "estimated_duties.tariffs.1.amount": 10,
      "totals.duty": 10,
    },
  ],
  [
    "compound: $1.104/kg + 14.9%",
    { ...US, hs_code: "0402.29.50", origin_country: "NZ", declared_value: 200, weight: 10 },
    {
      "estimated_duties.tariffs.0.type": "compound",
      "estimated_duties.tariffs.0.amount": 40.84,
      "totals.fees": 2.94,
      "totals.total": 63.78,
    },
  ],
  [
    "compound on the second unit (41 cents/kg + 16.3%)",
    { ...US, hs_code: "6201.20.11", origin_country: "VN", declared_value: 50, quantity: 12, weight: 6 },
    {
      "estimated_duties.tariffs.0.amount": 100.26,
      "values.customs_value": 600,
      "estimated_duties.tariffs.1.amount": 60,
      "totals.fees": 3.44,
      "totals.total": 163.7,
    },
  ],
  [
    "three-part compound (per article + % + per kg)",
    { ...US, hs_code: "6505.00.08", origin_country: "VN", declared_value: 2, quantity: 100, weight: 10 },
    { "estimated_duties.tariffs.0.amount": 15.85, "totals.total": 38.79 },
  ],
  [
    "free line",
    { ...US, hs_code: "8517.13.00", origin_country: "VN", declared_value: 800 },
    { "estimated_duties.tariffs.0.type": "free", "totals.duty": 0, "totals.total": 3.69 },
  ],
  [
    "column 2 (punitive) for Russia",
    { ...US, hs_code: "6109.10.00", origin_country: "RU", declared_value: 1000 },
    {
      "estimated_duties.tier": "punitive_tariff",
      "estimated_duties.punitive_tariff.total_duty": 900,
      "totals.duty": 1000,
      "totals.total": 1003.94,
    },
  ],
  [
    "Russia before column 2 applied (2022-04-09): MFN; FY2021 informal MPF 2.18",
    { ...US, hs_code: "6109.10.00", origin_country: "RU", declared_value: 1000, entry_date: "2021-06-01" },
    { "estimated_duties.tier": "normal_tariff", "totals.duty": 165, "fees.MPF.amount": 2.18, "totals.total": 168.43 },
  ],
  [
    "column 2 specific per litre with the volume in hl",
    { ...US, hs_code: "2203.00.00", origin_country: "RU", declared_value: 500, volume: 2, volume_unit: "hl" },
    // 79.715 of duty and fees, plus beer excise 18 USD × 200 l / 117.3478 l per barrel = 30.678: 110.393.
    { "estimated_duties.tariffs.0.amount": 26.4, "totals.excise": 30.68, "totals.total": 110.39 },
  ],
  [
    "Section 232 steel on the full value (50%)",
    { ...US, hs_code: "7208.36.00", origin_country: "BR", declared_value: 10000, entry_date: "2025-09-02" },
    {
      "estimated_duties.tariffs.1.code": "9903.81.87",
      "estimated_duties.tariffs.1.amount": 5000,
      "fees.MPF.amount": 34.64,
      "fees.HMF.amount": 12.5,
      "totals.total": 5047.14,
    },
  ],
  [
    "Section 232 steel for the UK at 25%",
    { ...US, hs_code: "7208.36.00", origin_country: "GB", declared_value: 10000, entry_date: "2025-09-02" },
    { "estimated_duties.tariffs.1.code": "9903.81.94", "totals.duty": 2500, "totals.total": 2547.14 },
  ],
  [
    "Section 232 steel: Canada exempt before 2025-03-12",
    { ...US, hs_code: "7208.36.00", origin_country: "CA", declared_value: 10000, entry_date: "2024-06-03" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0, "totals.total": 47.14 },
  ],
  [
    "Section 232 steel at 25% before 2025-03-12 for other origins",
    { ...US, hs_code: "7208.36.00", origin_country: "VN", declared_value: 10000, entry_date: "2024-06-03" },
    { "estimated_duties.tariffs.1.code": "9903.80.01", "totals.duty": 2500 },
  ],
  // Section 232 before 2025-03-12: who was exempt, and when (7208.36.00 and 7601.10.60 free, 7606.12.30 MFN 3%, a
  // line of the data from 2020-12-30; no MPF is in the data before FY2021, HMF 0.125% is).
  [
    "Section 232 steel: EU steel paid 25% from 2018-06-01 (its exemption ended)",
    { ...US, hs_code: "7208.36.00", origin_country: "DE", declared_value: 10000, entry_date: "2019-01-15" },
    {
      "estimated_duties.tariffs.1.code": "9903.80.01",
      "estimated_duties.tariffs.1.amount": 2500,
      "totals.duty": 2500,
      "fees.MPF": undefined,
      "totals.fees": 12.5,
    },
  ],
  [
    "Section 232 steel: EU steel within its tariff-rate quota from 2022-01-01",
    { ...US, hs_code: "7208.36.00", origin_country: "DE", declared_value: 10000, entry_date: "2022-02-01" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0 },
  ],
  [
    "Section 232 steel: Canada paid 25% from 2018-06-01 until its exemption of 2019-05-20",
    { ...US, hs_code: "7208.36.00", origin_country: "CA", declared_value: 10000, entry_date: "2018-08-01" },
    { "estimated_duties.tariffs.1.code": "9903.80.01", "totals.duty": 2500 },
  ],
  [
    "Section 232 steel: Canada exempt again from 2019-05-20",
    { ...US, hs_code: "7208.36.00", origin_country: "CA", declared_value: 10000, entry_date: "2019-06-03" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0 },
  ],
  [
    "Section 232 steel: Turkey at 50% (9903.80.02) from 2018-08-13 to 2019-05-20",
    { ...US, hs_code: "7208.36.00", origin_country: "TR", declared_value: 10000, entry_date: "2018-10-01" },
    {
      "estimated_duties.tariffs.1.code": "9903.80.02",
      "estimated_duties.tariffs.1.amount": 5000,
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 5000,
    },
  ],
  [
    "Section 232 steel: Turkey back at 25% from 2019-05-21",
    { ...US, hs_code: "7208.36.00", origin_country: "TR", declared_value: 10000, entry_date: "2019-06-03" },
    { "estimated_duties.tariffs.1.code": "9903.80.01", "totals.duty": 2500 },
  ],
  [
    "Section 232: Korean steel exempt (quota), Korean aluminium paid 10% from 2018-05-01",
    { ...US, hs_code: "7601.10.60", origin_country: "KR", declared_value: 10000, entry_date: "2018-07-02" },
    { "estimated_duties.tariffs.1.code": "9903.85.01", "estimated_duties.tariffs.1.amount": 1000, "totals.duty": 1000 },
  ],
  [
    "Section 232: Korean aluminium still exempt before 2018-05-01",
    { ...US, hs_code: "7601.10.60", origin_country: "KR", declared_value: 10000, entry_date: "2018-04-16" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0 },
  ],
  [
    "Section 232: Japanese steel within its quota from 2022-04-01, Japanese aluminium still at 10%",
    { ...US, hs_code: "7606.12.30", origin_country: "JP", declared_value: 10000, entry_date: "2023-01-16" },
    { "estimated_duties.tariffs.1.code": "9903.85.01", "estimated_duties.tariffs.1.amount": 1000, "totals.duty": 1300 },
  ],
  [
    "Section 232 steel: Japan within its quota on 2023-01-16",
    { ...US, hs_code: "7208.36.00", origin_country: "JP", declared_value: 10000, entry_date: "2023-01-16" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0 },
  ],
  [
    "Section 232 steel: the United Kingdom paid 25% in 2020, within its quota from 2022-06-01",
    { ...US, hs_code: "7208.36.00", origin_country: "GB", declared_value: 10000, entry_date: "2020-06-01" },
    { "estimated_duties.tariffs.1.code": "9903.80.01", "totals.duty": 2500 },
  ],
  [
    "Section 232 aluminium: Ukraine's suspension covered steel only",
    { ...US, hs_code: "7606.12.30", origin_country: "UA", declared_value: 10000, entry_date: "2023-01-16" },
    { "estimated_duties.tariffs.1.code": "9903.85.01", "estimated_duties.tariffs.1.amount": 1000 },
  ],
  [
    "Section 232 aluminium: Brazil paid 10% from 2018-06-01 (its steel was under quota)",
    { ...US, hs_code: "7601.10.60", origin_country: "BR", declared_value: 10000, entry_date: "2019-01-15" },
    { "estimated_duties.tariffs.1.code": "9903.85.01", "totals.duty": 1000 },
  ],
  [
    "Section 232 aluminum derivative on its content (components)",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "VN",
      declared_value: 1000,
      entry_date: "2025-09-02",
      components: [{ material: "aluminium", value: 300 }],
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.08",
      "estimated_duties.tariffs.1.amount": 150,
      "estimated_duties.tariffs.1.basis": "50% of 300.00 USD aluminum content value (from components)",
      "totals.total": 153.87,
    },
  ],
  [
    "Section 232 content estimated from metal_weight_percentage",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "VN",
      declared_value: 1000,
      entry_date: "2025-09-02",
      metal_weight_percentage: 40,
    },
    { "estimated_duties.tariffs.1.amount": 200, "estimated_duties.tariffs.1.estimated": true, "totals.total": 203.87 },
  ],
  [
    "Section 232 content measure without facts is conditional, outside the totals",
    { ...US, hs_code: "9403.20.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02" },
    {
      "estimated_duties.tariffs.length": 1,
      "additional_tariff_measures.0.code": "9903.85.08",
      "totals.duty": 0,
      "totals.total": 3.87,
    },
  ],
  [
    "claim 9903.85.09 listed as available",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "VN",
      declared_value: 1000,
      entry_date: "2025-09-02",
      components: [{ material: "aluminum", value: 300 }],
    },
    { "exemptions.available_exemptions.0.code": "9903.85.09", "exemptions.tariff_exemptions.length": 0 },
  ],
  [
    "claim 9903.85.09 applied via manual_claims",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "VN",
      declared_value: 1000,
      entry_date: "2025-09-02",
      components: [{ material: "aluminum", value: 300 }],
      manual_claims: ["9903.85.09"],
    },
    {
      "estimated_duties.tariffs.1.exempted": true,
      "estimated_duties.tariffs.1.amount": 0,
      "exemptions.tariff_exemptions.0.code": "9903.85.09",
      "exemptions.tariff_exemptions.0.claimed": true,
      "totals.total": 3.87,
    },
  ],
  [
    "301 product exclusion offered as a claim",
    { ...US, hs_code: "7326.90.86", origin_country: "CN", declared_value: 1000 },
    { "exemptions.available_exemptions.0.code": "9903.88.69", "totals.duty": 379 },
  ],
  [
    "301 product exclusion claimed",
    { ...US, hs_code: "7326.90.86", origin_country: "CN", declared_value: 1000, manual_claims: ["9903.88.69"] },
    {
      "estimated_duties.tariffs.1.exempted": true,
      "estimated_duties.tariffs.1.exclusion_code": "9903.88.69",
      "totals.duty": 129,
    },
  ],
  [
    "301 exclusion fires on its 10-digit statistical number",
    { ...US, hs_code: "3926.90.99.10", origin_country: "CN", declared_value: 1000 },
    {
      "estimated_duties.tariffs.0.amount": 53,
      "estimated_duties.tariffs.1.exempted": true,
      "exemptions.tariff_exemptions.0.code": "9903.88.69",
      "exemptions.tariff_exemptions.0.claimed": false,
      "totals.duty": 153,
    },
  ],
  [
    "301 exclusion at 8 digits: duty applies, exclusion offered",
    { ...US, hs_code: "3926.90.99", origin_country: "CN", declared_value: 1000 },
    { "estimated_duties.tariffs.1.amount": 75, "exemptions.tariff_exemptions.length": 0, "totals.duty": 228 },
  ],
  [
    "301 exclusion expired after 2026-11-09",
    { ...US, hs_code: "3926.90.99.10", origin_country: "CN", declared_value: 1000, entry_date: "2026-11-10" },
    // Informal MPF of FY2027 (from 2026-10-01): 2.77.
    { "estimated_duties.tariffs.1.amount": 75, "totals.duty": 128, "fees.MPF.amount": 2.77 },
  ],
  [
    "MPF capped at the FY2026 maximum",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 500000 },
    { "fees.MPF.amount": 651.5, "fees.HMF.amount": 625, "totals.total": 133776.5 },
  ],
  [
    "MPF between floor and cap",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 50000, transport_mode: "air" },
    { "fees.MPF.amount": 173.2, "totals.total": 13423.2 },
  ],
  [
    "FOB destination: shipping and insurance are not customs value",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 1000,
      shipping_cost: 100,
      insurance_cost: 20,
    },
    {
      "values.customs_value": 1000,
      "values.shipping_cost": 100,
      "values.customs_value_basis": "FOB",
      "totals.total": 268.94,
    },
  ],
  [
    "FOB destination with a CIF price: freight deducted",
    {
      ...US,
      hs_code: "6109.10.00",
      origin_country: "VN",
      declared_value: 1120,
      shipping_terms: "CIF",
      shipping_cost: 100,
      insurance_cost: 20,
    },
    { "values.customs_value": 1000, "totals.total": 268.94 },
  ],
  [
    "CIF destination: VAT on customs value + duty (DE)",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "de",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 1000,
      shipping_cost: 100,
      insurance_cost: 20,
    },
    {
      "values.customs_value": 1120,
      "values.customs_value_basis": "CIF",
      "totals.duty": 134.4,
      "vat.rate": 19,
      "vat.amount": 238.34,
      "vat.basis": "19% of 1,254.40 EUR (customs value 1,120.00 EUR + duty 134.40 EUR)",
      "totals.total": 372.74,
    },
  ],
  // Reduced VAT on goods whose scope the code shows (EC TEDB / HMRC rates, from 2025-08-27): books 7% in DE,
  // a painting 5.5% in FR on import, books zero-rated in GB. Duty on 4901 and 9701 is free under the CET and UKGT.
  [
    "reduced VAT: a book into Germany at 7%",
    {
      hs_code: "4901.99.00",
      origin_country: "US",
      destination_country: "DE",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 200,
    },
    {
      "totals.duty": 0,
      "vat.rate": 7,
      "vat.amount": 14,
      "vat.name": "VAT (reduced rate)",
      "vat.basis":
        "7% of 200.00 EUR (customs value 200.00 EUR); reduced rate for books, brochures and leaflets, children's picture, drawing and colouring books, printed music (HS 4901; EC TEDB LOAN_LIBRARIES (Directive 2006/112/EC Annex III point 6)), standard rate 19%",
      "totals.total": 14,
    },
  ],
  [
    "reduced VAT: a painting imported into France at 5.5%",
    {
      hs_code: "9701.10.00",
      origin_country: "US",
      destination_country: "FR",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 10000,
    },
    { "totals.duty": 0, "vat.rate": 5.5, "vat.amount": 550, "totals.total": 550 },
  ],
  [
    "reduced VAT: a newspaper into Italy at 4% (Annex III point 6 rate; no separate newspaper entry)",
    {
      hs_code: "4902.10.00",
      origin_country: "US",
      destination_country: "IT",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 500,
    },
    { "vat.rate": 4, "vat.amount": 20 },
  ],
  [
    "zero-rated VAT: books into the UK",
    {
      hs_code: "4901.99.00",
      origin_country: "US",
      destination_country: "GB",
      currency: "GBP",
      entry_date: "2026-03-02",
      declared_value: 1000,
    },
    { "totals.duty": 0, "vat.rate": 0, "vat.amount": 0, "totals.total": 0 },
  ],
  [
    "the Canary Islands' own rate stands over a reduced national one",
    {
      hs_code: "9701.10.00",
      origin_country: "US",
      destination_country: "ES",
      destination_region: "ES-CN",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 1000,
    },
    { "vat.rate": 0, "vat.code": "ES-CN" },
  ],
  [
    "UK Global Tariff and UK VAT",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "GB",
      currency: "GBP",
      entry_date: "2026-03-02",
      declared_value: 1000,
    },
    { "tariff_line.schedule": "GB", "totals.duty": 120, "vat.amount": 224, "totals.total": 344 },
  ],
  [
    "FX: USD converted to GBP at the ECB cross rate of the entry date",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "GB",
      currency: "USD",
      entry_date: "2026-03-02",
      declared_value: 1000,
    },
    {
      "currencies.exchange_rate": 0.747051,
      "currencies.rate_date": "2026-03-02",
      "values.customs_value": 747.05,
      "totals.duty": 89.65,
      "totals.total": 256.99,
    },
  ],
  [
    "FX on a Sunday uses the last ECB business day",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "GB",
      currency: "USD",
      entry_date: "2026-03-01",
      declared_value: 1000,
    },
    { "currencies.exchange_rate": 0.742313, "currencies.rate_date": "2026-02-27" },
  ],
  [
    "EU member outside the euro answers in its own currency",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "PL",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 1000,
    },
    // The EU customs rate for March 2026: ECB of 2026-02-18 (penultimate Wednesday of February), 4.2165 PLN/EUR.
    // 1,000 EUR = 4,216.50 PLN; duty 12% = 505.98; VAT 23% of 4,722.48 = 1,086.17; total 1,592.15.
    {
      "currencies.destination": "PLN",
      "currencies.rate_date": "2026-02-18",
      "values.customs_value": 4216.5,
      "totals.duty": 505.98,
      "vat.rate": 23,
      "totals.total": 1592.15,
    },
  ],
  [
    "EU customs rate: a USD invoice into Germany on 2026-03-31 converts at the ECB rate of 2026-02-18 (1.1845)",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "DE",
      currency: "USD",
      entry_date: "2026-03-31",
      declared_value: 1000,
    },
    // 1,000 / 1.1845 = 844.238 EUR; duty 12% = 101.309; VAT 19% of 945.547 = 179.654; total 280.96.
    {
      "currencies.rate_date": "2026-02-18",
      "currencies.exchange_rate": 0.844238,
      "values.customs_value": 844.24,
      "totals.total": 280.96,
    },
  ],
  [
    "EU customs rate: an April entry takes March's penultimate Wednesday (2026-03-18, 1.15 USD/EUR)",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "FR",
      currency: "USD",
      entry_date: "2026-04-10",
      declared_value: 1000,
    },
    { "currencies.rate_date": "2026-03-18", "currencies.exchange_rate": 0.869565 },
  ],
  [
    "EU duty de minimis (150 EUR) exempt, VAT still due at import for a seller outside the IOSS",
    { ...DE_MAR, declared_value: 100, ioss: false },
    {
      "exemptions.de_minimis_exempt": true,
      "exemptions.de_minimis_threshold": 150,
      "exemptions.tax_de_minimis_threshold": null,
      "exemptions.tax_de_minimis_exempt": false,
      "totals.duty": 0,
      "vat.amount": 19,
      "totals.total": 19,
      point_of_sale_tax: undefined,
    },
  ],
  [
    // Import One-Stop Shop (VAT Directive art. 369l-369x, from 2021-07-01): up to 150 EUR the seller charges the VAT
    // at the sale; the goods are released without import VAT.
    "EU 100 EUR with the seller in the IOSS (the default): VAT 19% × 100 = 19 at the point of sale, not import VAT",
    { ...DE_MAR, declared_value: 100 },
    { vat: undefined, "point_of_sale_tax.amount": 19, "totals.vat": 0, "totals.total": 0 },
  ],
  [
    "EU 200 EUR: above the IOSS limit the VAT is import VAT again",
    { ...DE_MAR, declared_value: 200 },
    { point_of_sale_tax: undefined, "totals.duty": 24, "vat.amount": 42.56 },
  ],
  [
    "EU VAT de minimis (22 EUR) before 2021-07-01",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "DE",
      currency: "EUR",
      entry_date: "2021-06-01",
      declared_value: 20,
    },
    { "exemptions.tax_de_minimis_exempt": true, "exemptions.tax_de_minimis_threshold": 22, "totals.total": 0 },
  ],
  [
    "EU VAT de minimis abolished from 2021-07-01",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "DE",
      currency: "EUR",
      entry_date: "2021-07-01",
      declared_value: 20,
      ioss: false,
    },
    { "exemptions.tax_de_minimis_exempt": false, "vat.amount": 3.8, "totals.total": 3.8 },
  ],
  [
    "US de minimis (800 USD) before the suspension: no duty, no fees",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 500, entry_date: "2025-08-01" },
    {
      "exemptions.de_minimis_exempt": true,
      "exemptions.de_minimis_threshold": 800,
      "totals.duty": 0,
      fees: undefined,
      "totals.total": 0,
    },
  ],
  [
    "US de minimis suspended from 2025-08-29",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 500, entry_date: "2025-09-02" },
    {
      "exemptions.de_minimis_exempt": false,
      "exemptions.de_minimis_threshold": null,
      "totals.duty": 82.5,
      "totals.total": 85.75,
    },
  ],
  [
    "US de minimis ended for China from 2025-05-02",
    { ...US, hs_code: "6109.10.00", origin_country: "CN", declared_value: 500, entry_date: "2025-06-02" },
    { "exemptions.de_minimis_exempt": false, "totals.duty": 120, "totals.total": 123.25 },
  ],
  [
    "CA courier, US origin: duty within 150 CAD, GST above 40 CAD",
    {
      hs_code: "6109.10.00",
      origin_country: "US",
      destination_country: "CA",
      currency: "CAD",
      entry_date: "2026-03-02",
      declared_value: 100,
      shipment_channel: "courier",
    },
    {
      rate_found: true,
      "exemptions.de_minimis_threshold": 150,
      "exemptions.de_minimis_exempt": true,
      "exemptions.tax_de_minimis_threshold": 40,
      "exemptions.tax_de_minimis_exempt": false,
      "vat.amount": 5,
      "totals.total": 5,
    },
  ],
  [
    "CA postal: the 20 CAD thresholds apply",
    {
      hs_code: "6109.10.00",
      origin_country: "US",
      destination_country: "CA",
      currency: "CAD",
      entry_date: "2026-03-02",
      declared_value: 100,
      shipment_channel: "postal",
    },
    {
      "exemptions.de_minimis_threshold": 20,
      "exemptions.de_minimis_exempt": false,
      "exemptions.tax_de_minimis_threshold": 20,
      "vat.amount": 5,
    },
  ],
  [
    "CA courier under 40 CAD: tax exempt",
    {
      hs_code: "6109.10.00",
      origin_country: "US",
      destination_country: "CA",
      currency: "CAD",
      entry_date: "2026-03-02",
      declared_value: 30,
      shipment_channel: "courier",
    },
    { "exemptions.tax_de_minimis_exempt": true, "vat.amount": 0, "totals.total": 0 },
  ],
  // Point-of-sale taxes, outside the import totals: UK VAT on consignments of 135 GBP or less is charged by the
  // seller at the sale (gov.uk "VAT and overseas goods sold directly to customers in the UK"); AU GST on goods of
  // 1,000 AUD or less is collected by the vendor (ATO "GST on low-value imported goods").
  [
    "UK 100 GBP: duty relieved (135 GBP), VAT 20% × 100 = 20 at the point of sale, not import VAT",
    { ...GB, hs_code: "6109.10.00", origin_country: "CN", declared_value: 100 },
    {
      vat: undefined,
      "point_of_sale_tax.amount": 20,
      "point_of_sale_tax.rate": 20,
      "point_of_sale_tax.collected_by": "seller at the point of sale",
      "totals.vat": 0,
      "totals.total": 0,
    },
  ],
  [
    "UK 200 GBP: above 135, import VAT as before and no point-of-sale block",
    { ...GB, hs_code: "6109.10.00", origin_country: "CN", declared_value: 200 },
    { point_of_sale_tax: undefined, "vat.rate": 20 },
  ],
  [
    "AU 500 AUD: GST 10% × 500 = 50 collected by the vendor, outside the totals",
    { ...AU, hs_code: "6109.10.00", origin_country: "CN", declared_value: 500 },
    { vat: undefined, "point_of_sale_tax.amount": 50, "totals.vat": 0, "totals.total": 0 },
  ],
  [
    "AU 1,500 AUD: GST at the border, 10% × 1,500 = 150 (chapter 61 is missing from the Australian data: incomplete)",
    { ...AU, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1500 },
    { point_of_sale_tax: undefined, "vat.amount": 150, "totals.vat": 150, complete: false },
  ],
  // Australia: ABF Working Tariff Schedule 3 general rates (2026), customs value FOB; GST 10% on the value of the
  // taxable importation (customs value + duty + transport and insurance to Australia), GST Act s. 13-20.
  [
    "AU car of 8703.23.90 from Germany: general rate 5% × 40,000 = 2,000; GST 10% × (40,000 + 2,000 + 1,000 freight) = 4,300",
    { ...AU, hs_code: "8703.23.90", origin_country: "DE", declared_value: 40000, shipping_cost: 1000 },
    {
      "estimated_duties.tier": "normal_tariff",
      "estimated_duties.tariffs.0.amount": 2000,
      "estimated_duties.tariffs.0.name": "MFN duty (Australian Customs Tariff 8703.23.90)",
      "vat.amount": 4300,
      "totals.total": 6300,
      complete: true,
    },
  ],
  [
    // Japan-Australia EPA (Schedule 11): goods not listed in the schedule are Free.
    "AU car of 8703.23.90 from Japan: Free under an agreement (JAEPA, CPTPP or RCEP); GST 10% × 41,000 = 4,100",
    { ...AU, hs_code: "8703.23.90", origin_country: "JP", declared_value: 40000, shipping_cost: 1000 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 0, "vat.amount": 4100, complete: true },
  ],
  [
    // Schedule 3's third column: "5% DCS4% CAFree DCT5%" gives goods of Canada Free.
    "AU car of 8703.23.90 from Canada: the third column's CA rate Free",
    { ...AU, hs_code: "8703.23.90", origin_country: "CA", declared_value: 40000 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 0 },
  ],
  [
    "AU smartphone of 8517.13.00 at 1,500 AUD from China: Free general rate, GST 150, complete",
    { ...AU, hs_code: "8517.13.00", origin_country: "CN", declared_value: 1500 },
    { "totals.duty": 0, "vat.amount": 150, "totals.total": 150, complete: true },
  ],
  // Canada: the Customs Tariff schedule T2026 (CBSA); value for duty FOB; GST 5% (HST where the province has it)
  // on the value plus duty (Excise Tax Act s. 215). Rates of 6109.10.00 (T-shirts of cotton): MFN 18%, AUT/NZT 11%,
  // every free trade treatment Free, General Tariff 35%.
  [
    "CA cotton T-shirt from Russia: General Tariff 35% × 200 = 70 (MFN withdrawn 2022-03-02); GST 5% × 270 = 13.5",
    { ...CA, hs_code: "6109.10.00", origin_country: "RU", declared_value: 200 },
    { "estimated_duties.tier": "punitive_tariff", "totals.duty": 70, "vat.amount": 13.5, complete: true },
  ],
  [
    "CA entry of 2022-03-01: the data holds the 2026 schedule only, so no line is in force and nothing is priced",
    { ...CA, hs_code: "6109.10.00", origin_country: "RU", declared_value: 200, entry_date: "2022-03-01" },
    { rate_found: false, complete: false, "incomplete_reasons.0.code": "unknown_code" },
  ],
  [
    "CA same T-shirt from Viet Nam: CPTPT Free (CPTPP in force for Viet Nam 2019-01-14); GST 5% × 200 = 10",
    { ...CA, hs_code: "6109.10.00", origin_country: "VN", declared_value: 200 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 0, "vat.amount": 10 },
  ],
  [
    "CA same T-shirt from Australia: CPTPT Free beats the Australia Tariff's 11%",
    { ...CA, hs_code: "6109.10.00", origin_country: "AU", declared_value: 200 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 0 },
  ],
  [
    "CA same T-shirt from Bangladesh: Least Developed Country Tariff Free; GST 5% × 200 = 10",
    { ...CA, hs_code: "6109.10.00", origin_country: "BD", declared_value: 200 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 0, "vat.amount": 10 },
  ],
  [
    "CA same T-shirt from Vanuatu in 2026: MFN 18%, Vanuatu graduated from the LDCT on 2025-01-01",
    { ...CA, hs_code: "6109.10.00", origin_country: "VU", declared_value: 200 },
    { "estimated_duties.tier": "normal_tariff", "totals.duty": 36 },
  ],
  [
    "CA same T-shirt from India: MFN 18% (India left the General Preferential Tariff in 2015, which excludes apparel)",
    { ...CA, hs_code: "6109.10.00", origin_country: "IN", declared_value: 200 },
    { "estimated_duties.tier": "normal_tariff", "totals.duty": 36, "vat.amount": 11.8 },
  ],
  [
    "CA leather slippers of 6403.99.91 from Japan: CPTPT 3% × 400 = 12 (still staged) instead of MFN 18% (72)",
    { ...CA, hs_code: "6403.99.91", origin_country: "JP", declared_value: 400 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 12, "vat.amount": 20.6 },
  ],
  [
    "CA same slippers from Germany: CEUT Free; GST 5% × 400 = 20",
    { ...CA, hs_code: "6403.99.91", origin_country: "DE", declared_value: 400 },
    { "totals.duty": 0, "vat.amount": 20 },
  ],
  [
    "CA same slippers from the UK: UKT Free (Canada-UK Trade Continuity Agreement); CEUT ended for the UK on 2020-12-31",
    { ...CA, hs_code: "6403.99.91", origin_country: "GB", declared_value: 400 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.0.name":
        "Preferential duty, United Kingdom Tariff (Canada-UK Trade Continuity Agreement) (Canadian Customs Tariff 6403.99.91)",
      "totals.duty": 0,
    },
  ],
  [
    "CA turkeys within access commitment, 0105.99.11 from Brazil: 1.9¢/kg × 500 kg = 9.50",
    { ...CA, hs_code: "0105.99.11", origin_country: "BR", declared_value: 1000, weight: 500, weight_unit: "kg" },
    { "totals.duty": 9.5, "vat.amount": 50.48 },
  ],
  [
    "CA French wine of 2204.21: CEUT Free, but the excise duty on wine is not in the data, so the quote is not final",
    { ...CA, hs_code: "2204.21", origin_country: "FR", declared_value: 1000, volume: 90, volume_unit: "l" },
    {
      "totals.duty": 0,
      complete: false,
      "incomplete_reasons.0.code": "excise_not_computed",
      "incomplete_reasons.0.message": expect.stringContaining("Excise duty on wine"),
    },
  ],
  // Japan: Japan Customs tariff schedule 2026-07-09 (WTO conventional rate unless parenthesised, else temporary,
  // else general; EPA columns), customs value CIF (Customs Tariff Act art. 4); consumption tax 10% (8% on food,
  // Consumption Tax Act) on the customs value plus duty; duty and tax waived on goods of 10,000 JPY or less.
  [
    "JP knit cotton overcoat 6101.20.000 from the US: MFN 10.9% × 200,000 = 21,800; consumption tax 10% × 221,800 = 22,180",
    { ...JP, hs_code: "6101.20.000", origin_country: "US", declared_value: 200000 },
    {
      "estimated_duties.tier": "normal_tariff",
      "estimated_duties.tariffs.0.name": "MFN duty (Japan tariff 6101.20.000)",
      "estimated_duties.tariffs.0.amount": 21800,
      "vat.amount": 22180,
      "totals.total": 43980,
      complete: true,
    },
  ],
  [
    "JP same coat from China: RCEP's schedule for China 6.8% × 200,000 = 13,600; tax 10% × 213,600 = 21,360",
    { ...JP, hs_code: "6101.20.000", origin_country: "CN", declared_value: 200000 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.0.amount": 13600,
      "vat.amount": 21360,
      "totals.total": 34960,
    },
  ],
  [
    "JP same coat from Viet Nam: Free under an agreement (CPTPP, AJCEP or the Japan-Viet Nam EPA); tax 20,000",
    { ...JP, hs_code: "6101.20.000", origin_country: "VN", declared_value: 200000 },
    { "estimated_duties.tier": "preferential_tariff", "totals.duty": 0, "vat.amount": 20000, "totals.total": 20000 },
  ],
  [
    "JP a 6-digit code is priced on the highest-duty 9-digit line under it",
    { ...JP, hs_code: "6101.20", origin_country: "US", declared_value: 200000 },
    { "totals.duty": 21800, "tariff_line.resolution.method": "national_line", "tariff_line.code": "6101.20.000" },
  ],
  [
    "JP 8,000 JPY coat: duty and consumption tax waived (10,000 JPY or less)",
    { ...JP, hs_code: "6101.20.000", origin_country: "US", declared_value: 8000 },
    { "totals.duty": 0, "vat.amount": 0, "totals.total": 0 },
  ],
  [
    "JP natural honey 0409.00.000 from China: 25.5% × 100,000 = 25,500; reduced consumption tax 8% on food × 125,500 = 10,040",
    { ...JP, hs_code: "0409.00.000", origin_country: "CN", declared_value: 100000 },
    { "totals.duty": 25500, "vat.rate": 8, "vat.amount": 10040, "totals.total": 35540 },
  ],
  [
    // "15% or 125 JPY/l, whichever is lower, but not under 67 JPY/l": 15% × 30,000 = 4,500 against 125 × 8 = 1,000.
    "JP still wine 2204.21.020, 8 l from South Africa: 1,000 JPY duty; the liquor tax is not in the data, so not complete",
    { ...JP, hs_code: "2204.21.020", origin_country: "ZA", declared_value: 30000, volume: 8 },
    { "totals.duty": 1000, "vat.amount": 3100, complete: false },
  ],
  // Singapore: a free port, customs duty only on intoxicating liquor and tobacco (Singapore Customs, Duties and
  // Dutiable Goods); GST 9% on the CIF value plus duty; up to 400 SGD a GST-registered overseas vendor charges it.
  [
    "SG T-shirt of 6109.10 at 500 SGD from China: Free; GST 9% × 500 = 45 at import",
    { ...SG, hs_code: "6109.10.00", origin_country: "CN", declared_value: 500 },
    {
      "estimated_duties.tariffs.0.name": "MFN duty (Singapore Customs 6109.10)",
      "totals.duty": 0,
      "vat.amount": 45,
      "totals.total": 45,
      complete: true,
    },
  ],
  [
    "SG 300 SGD: GST 9% × 300 = 27 charged by the overseas vendor at the sale, outside the totals",
    { ...SG, hs_code: "6109.10.00", origin_country: "CN", declared_value: 300 },
    { vat: undefined, "point_of_sale_tax.amount": 27, "totals.total": 0 },
  ],
  [
    "SG wine of 2204.21: dutiable, its rate not in the data: not complete",
    { ...SG, hs_code: "2204.21", origin_country: "FR", declared_value: 1000 },
    { complete: false },
  ],
  [
    "SG car of 8703.23 from Japan: no customs duty, excise on the open market value not in the data: not complete",
    { ...SG, hs_code: "8703.23", origin_country: "JP", declared_value: 30000 },
    { "totals.duty": 0, "vat.amount": 2700, complete: false },
  ],
  [
    "HK T-shirt of 6109.10 from China: no tariff and no VAT; the quote is complete at 0",
    { ...HK, hs_code: "6109.10.00", origin_country: "CN", declared_value: 5000 },
    { "totals.duty": 0, vat: undefined, "totals.total": 0, complete: true },
  ],
  [
    "HK whisky of 2208.30: a dutiable commodity, rate by strength not computed: not complete",
    { ...HK, hs_code: "2208.30", origin_country: "GB", declared_value: 5000 },
    { complete: false },
  ],
  [
    "regional tax: Ontario HST 13%",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "CA",
      currency: "CAD",
      entry_date: "2026-03-02",
      declared_value: 200,
      destination_region: "CA-ON",
    },
    // MFN 18% × 200 = 36 (Customs Tariff 6109.10.00); HST 13% × (200 + 36) = 30.68.
    { "vat.code": "CA-ON", "vat.rate": 13, "totals.duty": 36, "vat.amount": 30.68, "totals.total": 66.68 },
  ],
  [
    // The province code alone is the same region (ISO 3166-2 CA-ON): 13% × 200 = 26.
    "regional tax: Ontario given as ON",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "CA",
      currency: "CAD",
      entry_date: "2026-03-02",
      declared_value: 200,
      destination_region: "ON",
    },
    { "vat.code": "CA-ON", "vat.rate": 13, "vat.amount": 30.68, complete: true },
  ],
  [
    // Quebec has no HST: 5% GST at the border (QST is not collected by the CBSA), 5% × (200 + 36 duty) = 11.8.
    "regional tax: Quebec (GST only) accepted",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "CA",
      currency: "CAD",
      entry_date: "2026-03-02",
      declared_value: 200,
      destination_region: "QC",
    },
    { "vat.rate": 5, "vat.amount": 11.8 },
  ],
  [
    "regional tax: Canary Islands outside the VAT area",
    {
      hs_code: "6109.10.00",
      origin_country: "CN",
      destination_country: "ES",
      currency: "EUR",
      entry_date: "2026-03-02",
      declared_value: 1000,
      destination_region: "es-cn",
    },
    { "totals.duty": 120, "vat.rate": 0, "vat.amount": 0, "totals.total": 120 },
  ],
  [
    "4-digit code resolves to the highest-duty national line",
    { ...US, hs_code: "6109", origin_country: "VN", declared_value: 1000 },
    { "tariff_line.resolution.method": "highest_of_range", "tariff_line.code": "6109.90.10", "totals.duty": 420 },
  ],
  [
    "quantity × per-unit value",
    { ...US, hs_code: "6109.10.00", origin_country: "VN", declared_value: 25, quantity: 40 },
    { "values.declared_value_per_unit": 25, "values.declared_value_total": 1000, "totals.duty": 265 },
  ],
  // Section 122 (9903.03.01): 10% of the customs value on top of MFN and 301, 2026-02-24 to 2026-07-23.
  [
    "Section 122: over on 2026-07-24, the same T-shirt pays MFN + 301 only",
    { ...US, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1000, entry_date: "2026-07-24" },
    { "estimated_duties.tariffs.length": 2, "totals.duty": 240, "totals.total": 243.94, "notes.0": S122_ENDED },
  ],
  [
    "Section 122: not yet on 2026-02-23, the last IEEPA day (its duties refundable, outside the totals)",
    { ...US, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1000, entry_date: "2026-02-23" },
    // Refundable: fentanyl 10% (from 2025-11-10) = 100 + reciprocal 10% = 100.
    {
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 240,
      "totals.total": 243.94,
      "refundable_duties.total": 200,
      "notes.1":
        "IEEPA duties deposited on an entry of 2026-02-23 are in refundable_duties, not in the totals: the Supreme Court held them unlawful (Learning Resources v. Trump, 2026-02-20) and they left the HTS on 2026-02-24",
    },
  ],
  [
    "Section 122: a product of the note 2(aa)(ii) list (smartphones) is exempt on its code",
    { ...US, hs_code: "8517.13.00", origin_country: "CN", declared_value: 1000 },
    {
      "estimated_duties.tariffs.1.code": "9903.03.01",
      "estimated_duties.tariffs.1.exempted": true,
      "estimated_duties.tariffs.1.exclusion_code": "9903.03.03",
      "exemptions.tariff_exemptions.0.code": "9903.03.03",
      "exemptions.tariff_exemptions.0.claimed": false,
      "totals.duty": 0,
      "totals.total": 3.94,
    },
  ],
  [
    "Section 122: not on Section 232 steel (50% charged, surcharge exempt under 9903.03.06)",
    { ...US, hs_code: "7208.36.00", origin_country: "BR", declared_value: 10000 },
    {
      "estimated_duties.tariffs.1.code": "9903.81.87",
      "estimated_duties.tariffs.1.amount": 5000,
      "estimated_duties.tariffs.2.code": "9903.03.01",
      "estimated_duties.tariffs.2.exempted": true,
      "estimated_duties.tariffs.2.exclusion_code": "9903.03.06",
      "totals.duty": 5000,
      "totals.total": 5047.14,
    },
  ],
  [
    "Section 122: not on Section 232 steel under the April 2026 annexes either",
    { ...US, hs_code: "7208.36.00", origin_country: "BR", declared_value: 10000, entry_date: "2026-05-04" },
    {
      "estimated_duties.tariffs.1.code": "9903.82.02",
      "estimated_duties.tariffs.2.exclusion_code": "9903.03.06",
      "totals.duty": 5000,
      "totals.total": 5047.14,
    },
  ],
  [
    // Section 232 on the metal content only: 9903.03.06 (U.S. note 2(aa)(v) to subchapter III) exempts the
    // article's value subject to 232, and the rest, entered on its own line (CSMS #64348411 split reporting),
    // pays 9903.03.01. MFN free; 232 aluminum 50% × 300 = 150; Section 122 10% × (1,000 − 300) = 70;
    // informal MPF 2.69 + HMF 1.25 → total 223.94.
    "Section 122 on the value outside a 232 aluminum derivative's metal content (232 on 300 = 150; 122 on 700 = 70)",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "VN",
      declared_value: 1000,
      components: [{ material: "aluminum", value: 300 }],
    },
    {
      "estimated_duties.tariffs.1.amount": 150,
      "estimated_duties.tariffs.2.code": "9903.03.01",
      "estimated_duties.tariffs.2.amount": 70,
      "estimated_duties.tariffs.2.basis":
        "10% of 700.00 USD value not subject to Section 232 (1,000.00 USD customs value less 300.00 USD metal content, which 9903.03.06 exempts)",
      "exemptions.available_exemptions.0.code": "9903.85.09",
      // Now that the surcharge is charged, the civil-aircraft claim on it (note 2(aa)(iv)) is offered.
      "exemptions.available_exemptions.1.code": "9903.03.05",
      "exemptions.available_exemptions.length": 2,
      "totals.duty": 220,
      "totals.total": 223.94,
    },
  ],
  [
    "Section 122: a car under the Section 232 autos duty is exempt on the code alone (note 2(aa)(v)(2))",
    { ...US, hs_code: "8703.80.00", origin_country: "CN", declared_value: 40000 },
    {
      "estimated_duties.tariffs.3.code": "9903.03.01",
      "estimated_duties.tariffs.3.exempted": true,
      "estimated_duties.tariffs.3.exclusion_code": "9903.03.06",
      "exemptions.tariff_exemptions.0.claimed": false,
      "totals.duty": 51000,
      "totals.total": 51188.56,
    },
  ],
  [
    "Section 122: Mexican T-shirt entered free under USMCA is exempt (9903.03.08)",
    { ...US, hs_code: "6109.10.00", origin_country: "MX", declared_value: 1000 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.1.exempted": true,
      "estimated_duties.tariffs.1.exclusion_code": "9903.03.08",
      "exemptions.tariff_exemptions.0.claimed": false,
      "exemptions.available_exemptions.length": 0,
      "exemptions.tariff_exemptions.1.code": "S",
      "totals.duty": 0,
      "totals.total": 1.25,
    },
  ],
  [
    "Section 122: Mexican toys on an MFN-free line with no USMCA rate pay it; 9903.03.08 offered",
    { ...US, hs_code: "9503.00.00", origin_country: "MX", declared_value: 1000 },
    {
      "estimated_duties.tier": "normal_tariff",
      "estimated_duties.tariffs.1.amount": 100,
      "exemptions.available_exemptions.0.code": "9903.03.08",
      "exemptions.available_exemptions.1.code": "S",
      "exemptions.available_exemptions.1.applies_to": "MPF",
      "totals.duty": 100,
      "totals.total": 103.94,
    },
  ],
  [
    "Section 122: the same toys with the USMCA claim are exempt",
    { ...US, hs_code: "9503.00.00", origin_country: "MX", declared_value: 1000, manual_claims: ["9903.03.08"] },
    {
      "estimated_duties.tariffs.1.exempted": true,
      "exemptions.tariff_exemptions.0.code": "9903.03.08",
      "exemptions.tariff_exemptions.0.claimed": true,
      "totals.duty": 0,
      "totals.total": 3.94,
    },
  ],
  [
    "MPF exemption claimed for USMCA-originating toys on an MFN-free line (SPI S)",
    { ...US, hs_code: "9503.00.00", origin_country: "MX", declared_value: 1000, manual_claims: ["9903.03.08", "s"] },
    {
      "fees.MPF": undefined,
      "exemptions.tariff_exemptions.1": {
        code: "S",
        name: "MPF exemption: goods originating under the United States-Mexico-Canada Agreement (USMCA) (19 CFR 24.23(c))",
        applies_to: "MPF",
        claimed: true,
      },
      "exemptions.available_exemptions": [],
      "totals.fees": 1.25,
      "totals.total": 1.25,
    },
  ],
  [
    "no MPF exemption for a Jordan FTA origin (not in 19 CFR 24.23(c))",
    { ...US, hs_code: "6109.10.00", origin_country: "JO", declared_value: 1000 },
    { "estimated_duties.tier": "preferential_tariff", "fees.MPF.amount": 2.69, "exemptions.available_exemptions": [] },
  ],
  [
    "a Korean smartphone on an MFN-free line: the MPF exemption is offered as a claim (SPI KR)",
    { ...US, hs_code: "8517.13.00", origin_country: "KR", declared_value: 1000 },
    {
      "estimated_duties.tier": "normal_tariff",
      "fees.MPF.amount": 2.69,
      "exemptions.available_exemptions.0.code": "KR",
    },
  ],
  [
    "Section 122: a CAFTA-DR T-shirt entered free is exempt (9903.03.09)",
    { ...US, hs_code: "6109.10.00", origin_country: "GT", declared_value: 1000 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.1.exclusion_code": "9903.03.09",
      "totals.duty": 0,
      "totals.total": 1.25,
    },
  ],
  // Russian aluminum (9903.85.67/.68, 200% on the full value) instead of the general aluminum headings; Russia pays
  // column 2 from 2022-04-09. 7606.12.30: column 2 13.5%, MFN 3%.
  [
    "Section 232 aluminum for a product of Russia: 9903.85.67 at 200% instead of 9903.85.02",
    { ...US, hs_code: "7606.12.30", origin_country: "RU", declared_value: 10000, entry_date: "2025-09-02" },
    {
      "estimated_duties.tier": "punitive_tariff",
      "estimated_duties.tariffs.0.amount": 1350,
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.1.amount": 20000,
      "estimated_duties.tariffs.1.basis": "200% of 10,000.00 USD customs value",
      "estimated_duties.tariffs.length": 2,
      "fees.MPF.amount": 34.64,
      "fees.HMF.amount": 12.5,
      "totals.total": 21397.14,
    },
  ],
  [
    "Section 232 aluminum: the same plate from Vietnam pays 9903.85.02 at 50%",
    { ...US, hs_code: "7606.12.30", origin_country: "VN", declared_value: 10000, entry_date: "2025-09-02" },
    {
      "estimated_duties.tariffs.1.code": "9903.85.02",
      "estimated_duties.tariffs.1.amount": 5000,
      "totals.total": 5347.14,
    },
  ],
  [
    "Section 232 aluminum for Russia before 2023-03-10: the general 10% (9903.85.01)",
    { ...US, hs_code: "7606.12.30", origin_country: "RU", declared_value: 10000, entry_date: "2023-01-16" },
    {
      "estimated_duties.tariffs.1.code": "9903.85.01",
      "estimated_duties.tariffs.1.amount": 1000,
      "totals.duty": 2350,
      "totals.total": 2397.14,
    },
  ],
  [
    "Russian aluminum derivative: 9903.85.68 on the full value, not the content; no US-smelt claim offered",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "RU",
      declared_value: 1000,
      entry_date: "2025-09-02",
      components: [{ material: "aluminium", value: 300 }],
    },
    {
      "estimated_duties.tariffs.0.amount": 450,
      "estimated_duties.tariffs.1.code": "9903.85.68",
      "estimated_duties.tariffs.1.amount": 2000,
      "estimated_duties.tariffs.1.basis": "200% of 1,000.00 USD customs value",
      "exemptions.available_exemptions": [],
      "totals.total": 2453.87,
    },
  ],
  [
    "Russian aluminum under the April 2026 annexes: still 9903.85.67, not 9903.82.02",
    { ...US, hs_code: "7606.12.30", origin_country: "RU", declared_value: 10000, entry_date: "2026-05-04" },
    {
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.1.amount": 20000,
      "estimated_duties.tariffs.2.exclusion_code": "9903.03.06",
      "estimated_duties.tariffs.length": 3,
      "totals.total": 21397.14,
    },
  ],
  [
    "Section 232 annexes: aluminum plate (7606) charged once, as aluminum (the annex file also lists 7606 as steel)",
    { ...US, hs_code: "7606.12.30", origin_country: "VN", declared_value: 10000, entry_date: "2026-05-04" },
    {
      "estimated_duties.tariffs.1.code": "9903.82.02",
      "estimated_duties.tariffs.1.name": "Section 232 aluminum, U.S. note 16(c)(i)",
      "estimated_duties.tariffs.1.amount": 5000,
      "estimated_duties.tariffs.2.exclusion_code": "9903.03.06",
      "estimated_duties.tariffs.length": 3,
      "totals.duty": 5300,
      "totals.total": 5347.14,
    },
  ],
  [
    "Russian aluminum in the Section 122 window: 232 charged, the surcharge exempt under 9903.03.06",
    { ...US, hs_code: "7606.12.30", origin_country: "RU", declared_value: 10000 },
    {
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.2.exclusion_code": "9903.03.06",
      "totals.duty": 21350,
      "totals.total": 21397.14,
    },
  ],
  // The metal's own origin (calculate's country_of_melt_pour, primary/secondary_country_of_smelt, country_of_cast).
  // Aluminum smelted or cast in Russia pays 9903.85.67/.68 at 200% on the full value whatever the origin, from
  // 2023-04-10; Mexican aluminum smelted or cast in CN/RU/BY/IR (9903.85.71, 10%) and Mexican steel melted and
  // poured outside North America (9903.81.85, 25%) from 2024-07-10 to 2025-03-11, when Mexico was otherwise exempt.
  // 7606.12.30 MFN 3%, free under USMCA; 7208.36.00 free; 9403.20.00 free. Fees: MPF 0.3464% (FY2025 floor 32.71), HMF 0.125%.
  [
    "aluminum smelted in Russia, product of Vietnam: 9903.85.67 at 200% instead of 9903.85.02",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2025-09-02",
      primary_country_of_smelt: "ru",
    },
    {
      "estimated_duties.tariffs.0.amount": 300,
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.1.amount": 20000,
      "estimated_duties.tariffs.1.basis": "200% of 10,000.00 USD customs value (primary_country_of_smelt RU)",
      "estimated_duties.tariffs.length": 2,
      additional_tariff_measures: [],
      "totals.duty": 20300,
      "totals.total": 20347.14,
    },
  ],
  [
    "aluminum cast in Russia from Canadian metal: 9903.85.67",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2025-09-02",
      primary_country_of_smelt: "CA",
      country_of_cast: "RU",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.1.basis": "200% of 10,000.00 USD customs value (country_of_cast RU)",
      "totals.duty": 20300,
    },
  ],
  [
    "aluminum smelted in Canada and cast in Vietnam: the general 9903.85.02, nothing conditional",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2025-09-02",
      primary_country_of_smelt: "CA",
      country_of_cast: "VN",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.02",
      "estimated_duties.tariffs.1.amount": 5000,
      additional_tariff_measures: [],
      "totals.total": 5347.14,
    },
  ],
  [
    "aluminum with no smelt or cast country: 9903.85.02 charged, the Russian heading listed as conditional",
    { ...US, hs_code: "7606.12.30", origin_country: "VN", declared_value: 10000, entry_date: "2025-09-02" },
    {
      "estimated_duties.tariffs.1.code": "9903.85.02",
      "additional_tariff_measures.length": 1,
      "additional_tariff_measures.0.code": "9903.85.67",
      "additional_tariff_measures.0.rate": "200%",
      "additional_tariff_measures.0.note":
        "Applies, in place of the other Section 232 aluminum duties, when any primary aluminum in it was smelted in Russia, or it was cast in Russia: give primary_country_of_smelt, secondary_country_of_smelt, country_of_cast",
      "totals.duty": 5300,
    },
  ],
  [
    "secondary country of smelt Russia counts too",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2025-09-02",
      primary_country_of_smelt: "CA",
      secondary_country_of_smelt: "RU",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.1.basis": "200% of 10,000.00 USD customs value (secondary_country_of_smelt RU)",
    },
  ],
  [
    "smelted in Russia before 2023-04-10: the general 10% (9903.85.01)",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2023-04-07",
      primary_country_of_smelt: "RU",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.01",
      "estimated_duties.tariffs.1.amount": 1000,
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 1300,
      "totals.total": 1347.14,
    },
  ],
  [
    "smelted in Russia from 2023-04-10: 9903.85.67",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2023-04-10",
      primary_country_of_smelt: "RU",
    },
    { "estimated_duties.tariffs.1.code": "9903.85.67", "totals.duty": 20300, "totals.total": 20347.14 },
  ],
  [
    "derivative smelted in Russia: 9903.85.68 on the full value, not the content; no US-smelt claim offered",
    {
      ...US,
      hs_code: "9403.20.00",
      origin_country: "VN",
      declared_value: 1000,
      entry_date: "2025-09-02",
      components: [{ material: "aluminium", value: 300 }],
      primary_country_of_smelt: "RU",
    },
    {
      "estimated_duties.tariffs.0.amount": 0,
      "estimated_duties.tariffs.1.code": "9903.85.68",
      "estimated_duties.tariffs.1.amount": 2000,
      "estimated_duties.tariffs.length": 2,
      "exemptions.available_exemptions": [],
      "totals.total": 2003.87,
    },
  ],
  [
    "Mexican aluminum smelted in China (2024-09-03): 9903.85.71 at 10% on a USMCA-free plate",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2024-09-03",
      primary_country_of_smelt: "CN",
    },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.1.code": "9903.85.71",
      "estimated_duties.tariffs.1.amount": 1000,
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 1000,
      "fees.MPF": undefined,
      "totals.total": 1012.5,
    },
  ],
  [
    "Mexican aluminum smelted in Canada (2024-09-03): Mexico exempt, no 232",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2024-09-03",
      primary_country_of_smelt: "CA",
      country_of_cast: "MX",
    },
    { "estimated_duties.tariffs.length": 1, additional_tariff_measures: [], "totals.duty": 0, "totals.total": 12.5 },
  ],
  [
    "Mexican aluminum smelted in China and cast in Russia: the Russian heading, not 9903.85.71",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2024-09-03",
      primary_country_of_smelt: "CN",
      country_of_cast: "RU",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.67",
      "estimated_duties.tariffs.1.amount": 20000,
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 20000,
    },
  ],
  [
    "Mexican aluminum smelted in China after 2025-03-11: the general 25% (9903.85.02)",
    {
      ...US,
      hs_code: "7606.12.30",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2025-04-01",
      primary_country_of_smelt: "CN",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.85.02",
      "estimated_duties.tariffs.1.amount": 2500,
      "estimated_duties.tariffs.length": 2,
    },
  ],
  [
    "Mexican steel melted and poured in Brazil (2024-09-03): 9903.81.85 at 25%",
    {
      ...US,
      hs_code: "7208.36.00",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2024-09-03",
      country_of_melt_pour: "BR",
    },
    {
      "estimated_duties.tariffs.1.code": "9903.81.85",
      "estimated_duties.tariffs.1.amount": 2500,
      "estimated_duties.tariffs.1.basis": "25% of 10,000.00 USD customs value (country_of_melt_pour BR)",
      "totals.duty": 2500,
      "totals.total": 2547.14,
    },
  ],
  [
    "Mexican steel melted and poured in the US: no 232",
    {
      ...US,
      hs_code: "7208.36.00",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2024-09-03",
      country_of_melt_pour: "US",
    },
    { "estimated_duties.tariffs.length": 1, additional_tariff_measures: [], "totals.duty": 0 },
  ],
  [
    "Mexican steel with no melt-and-pour country: 9903.81.85 conditional",
    { ...US, hs_code: "7208.36.00", origin_country: "MX", declared_value: 10000, entry_date: "2024-09-03" },
    {
      "estimated_duties.tariffs.length": 1,
      "additional_tariff_measures.0.code": "9903.81.85",
      "additional_tariff_measures.0.note":
        "Applies, in place of the other Section 232 steel duties, when its steel was melted and poured outside the United States, Mexico and Canada: give country_of_melt_pour",
      "totals.duty": 0,
    },
  ],
  // The 2020 derivative aluminum list (U.S. note 19(a)(iii), heading 9903.85.03): 10% of the full value from 2020-02-08.
  [
    "2020 aluminum derivative (stranded wire, 7614.10.50): MFN 4.9% + 9903.85.03 10%",
    { ...US, hs_code: "7614.10.50", origin_country: "VN", declared_value: 10000, entry_date: "2021-06-01" },
    {
      "estimated_duties.tariffs.0.amount": 490,
      "estimated_duties.tariffs.1.code": "9903.85.03",
      "estimated_duties.tariffs.1.amount": 1000,
      "estimated_duties.tariffs.1.basis": "10% of 10,000.00 USD customs value",
      "fees.MPF.amount": 34.64,
      "fees.HMF.amount": 12.5,
      "totals.duty": 1490,
      "totals.total": 1537.14,
    },
  ],
  [
    "2020 aluminum derivative of the EU: charged in 2021, exempt (quota) from 2022",
    { ...US, hs_code: "7614.10.50", origin_country: "DE", declared_value: 10000, entry_date: "2021-06-01" },
    { "estimated_duties.tariffs.1.code": "9903.85.03", "totals.duty": 1490 },
  ],
  [
    "2020 aluminum derivative of the EU in 2022-06: MFN only",
    { ...US, hs_code: "7614.10.50", origin_country: "DE", declared_value: 10000, entry_date: "2022-06-01" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 490, "totals.total": 537.14 },
  ],
  [
    "2020 aluminum derivative of Canada: exempt",
    { ...US, hs_code: "7614.10.50", origin_country: "CA", declared_value: 10000, entry_date: "2021-06-01" },
    { "estimated_duties.tariffs.length": 1, additional_tariff_measures: [], "totals.duty": 0 },
  ],
  [
    "2020 aluminum derivative of Russia (bumper stampings, 2023): 9903.85.68 at 200% on column 2",
    { ...US, hs_code: "8708.10.30", origin_country: "RU", declared_value: 10000, entry_date: "2023-06-01" },
    {
      "estimated_duties.tier": "punitive_tariff",
      "estimated_duties.tariffs.0.amount": 2500,
      "estimated_duties.tariffs.1.code": "9903.85.68",
      "estimated_duties.tariffs.1.amount": 20000,
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 22500,
      "totals.total": 22547.14,
    },
  ],
  [
    "Mexican bumper stampings smelted in China (2024-09-03): 9903.85.72 at 10% on the USMCA rate",
    {
      ...US,
      hs_code: "8708.10.30",
      origin_country: "MX",
      declared_value: 10000,
      entry_date: "2024-09-03",
      primary_country_of_smelt: "CN",
    },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.1.code": "9903.85.72",
      "estimated_duties.tariffs.1.amount": 1000,
      "estimated_duties.tariffs.1.basis": "10% of 10,000.00 USD customs value (primary_country_of_smelt CN)",
      "totals.duty": 1000,
    },
  ],
  [
    "Mexican bumper stampings without the smelt facts: 9903.85.72 conditional",
    { ...US, hs_code: "8708.10.30", origin_country: "MX", declared_value: 10000, entry_date: "2024-09-03" },
    {
      "estimated_duties.tariffs.length": 1,
      "additional_tariff_measures.0.code": "9903.85.68",
      "additional_tariff_measures.1.code": "9903.85.72",
      "totals.duty": 0,
    },
  ],
  // Lines of the 2026 annex beyond the 2018 headings were derivatives, not articles: nothing before 2025-03-12.
  [
    "steel bolts (7318.15.20) in 2024: no Section 232 (a derivative, not a 2018 steel article)",
    { ...US, hs_code: "7318.15.20", origin_country: "VN", declared_value: 10000, entry_date: "2024-06-03" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0 },
  ],
  [
    "steel bolts from 2025-03-12: 9903.81.87 at 25%",
    { ...US, hs_code: "7318.15.20", origin_country: "VN", declared_value: 10000, entry_date: "2025-04-01" },
    { "estimated_duties.tariffs.1.code": "9903.81.87", "estimated_duties.tariffs.1.amount": 2500, "totals.duty": 2500 },
  ],
  // 2025-03-12 to 2025-06-03: the March derivative lists at 25%, chapter 76 on the full value, the others on the content.
  [
    "aluminum luggage frames (7616.99.10) 2025-04-01: 9903.85.07 at 25% of the full value, US-smelt claim offered",
    { ...US, hs_code: "7616.99.10", origin_country: "VN", declared_value: 10000, entry_date: "2025-04-01" },
    {
      "estimated_duties.tariffs.length": 2,
      "estimated_duties.tariffs.1.code": "9903.85.07",
      "estimated_duties.tariffs.1.amount": 2500,
      "estimated_duties.tariffs.1.basis": "25% of 10,000.00 USD customs value",
      "exemptions.available_exemptions.0.code": "9903.85.09",
      "totals.duty": 2500,
      "totals.total": 2547.14,
    },
  ],
  [
    "stranded wire (7614.10.50) 2025-04-01: MFN 4.9% + 9903.85.04 at 25% of the full value",
    { ...US, hs_code: "7614.10.50", origin_country: "VN", declared_value: 10000, entry_date: "2025-04-01" },
    {
      "estimated_duties.tariffs.length": 2,
      "estimated_duties.tariffs.1.code": "9903.85.04",
      "estimated_duties.tariffs.1.amount": 2500,
      "totals.duty": 2990,
      "totals.total": 3037.14,
    },
  ],
  [
    "bumper stampings (8708.10.30) 2025-04-01: 9903.85.04 at 25% of the aluminum content, no US-smelt claim",
    {
      ...US,
      hs_code: "8708.10.30",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2025-04-01",
      metal_weight_percentage: 40,
    },
    {
      "estimated_duties.tariffs.0.amount": 250,
      "estimated_duties.tariffs.1.code": "9903.85.04",
      "estimated_duties.tariffs.1.amount": 1000,
      "estimated_duties.tariffs.1.estimated": true,
      "exemptions.available_exemptions": [],
      "totals.duty": 1250,
      "totals.total": 1297.14,
    },
  ],
  // From 2025-06-04 an aluminum derivative on the list pays on its aluminum content only, not also on the full value.
  [
    "aluminum luggage frames (7616.99.10) 2025-09-02: 9903.85.07 on the content only",
    {
      ...US,
      hs_code: "7616.99.10",
      origin_country: "VN",
      declared_value: 10000,
      entry_date: "2025-09-02",
      metal_weight_percentage: 40,
    },
    {
      "estimated_duties.tariffs.length": 2,
      "estimated_duties.tariffs.1.code": "9903.85.07",
      "estimated_duties.tariffs.1.amount": 2000,
      "estimated_duties.tariffs.1.estimated": true,
      "totals.duty": 2000,
    },
  ],
  [
    "unknown code: rate_found false with a message",
    { ...US, hs_code: "9999.99.99", origin_country: "VN", declared_value: 100 },
    { rate_found: false, "totals.duty": 0 },
  ],
];

// Section 232 sectors beyond the metals (U.S. notes 33, 37 and 38 to subchapter III of chapter 99, HTS 2026 Rev 6).
// 2026-09-01 is after the Section 122 window and inside FY2026: a formal entry pays 0.3464% MPF within
// 33.58-651.50 (CBP Dec. 25-10); by air, so no HMF. MFN rates from the USITC tariff database: 8703.23.01 2.5%,
// 8704.31.01 25%, 8704.23.01 25%, 8708.30.50 2.5%, 8507.60.00 3.4%, 9401.61.40 free, 4407.11.00 free.
const US_SEP26 = { ...US, entry_date: "2026-09-01", transport_mode: "air" };
const sectorCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "232 autos: a car of Vietnam pays 25% on top of the MFN rate (9903.94.01, Proclamation 10908)",
    { ...US_SEP26, hs_code: "8703.23.01", origin_country: "VN", declared_value: 40000 },
    // MFN 2.5% × 40,000 = 1,000; 25% × 40,000 = 10,000; MPF 0.3464% × 40,000 = 138.56; total 11,138.56.
    {
      "estimated_duties.tariffs.1.code": "9903.94.01",
      "estimated_duties.tariffs.1.amount": 10000,
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 11000,
      "totals.total": 11138.56,
    },
  ],
  [
    "232 autos, EU deal: 15% all-in, the MFN duty topped up to 15% (9903.94.51, from 2025-08-01)",
    { ...US_SEP26, hs_code: "8703.23.01", origin_country: "DE", declared_value: 40000 },
    // 15% × 40,000 = 6,000 less the 1,000 MFN duty = 5,000; duty 6,000; total 6,138.56.
    {
      "estimated_duties.tariffs.1.code": "9903.94.51",
      "estimated_duties.tariffs.1.amount": 5000,
      "estimated_duties.tariffs.1.basis":
        "15% all-in: 15% of 40,000.00 USD customs value (6,000.00 USD) less 1,000.00 USD duty under the subheading",
      "totals.duty": 6000,
      "totals.total": 6138.56,
    },
  ],
  [
    "232 autos, Japan the day before its deal (2025-09-15): the general 25%",
    { ...US_SEP26, hs_code: "8703.23.01", origin_country: "JP", declared_value: 40000, entry_date: "2025-09-15" },
    // FY2025 MPF 0.3464% × 40,000 = 138.56 (within 32.71-634.62); duty 1,000 + 10,000.
    { "estimated_duties.tariffs.1.code": "9903.94.01", "totals.duty": 11000, "totals.total": 11138.56 },
  ],
  [
    "232 autos, Japan from 2025-09-16: 15% all-in (9903.94.41)",
    { ...US_SEP26, hs_code: "8703.23.01", origin_country: "JP", declared_value: 40000, entry_date: "2025-09-16" },
    { "estimated_duties.tariffs.1.code": "9903.94.41", "totals.duty": 6000 },
  ],
  [
    "232 light truck of Japan with a 25% MFN rate: already above 15%, nothing added (note 33(m))",
    { ...US_SEP26, hs_code: "8704.31.01", origin_country: "JP", declared_value: 30000 },
    // MFN 25% × 30,000 = 7,500 ≥ 15% × 30,000 = 4,500: the all-in heading adds 0.
    { "estimated_duties.tariffs.1.code": "9903.94.41", "estimated_duties.tariffs.1.amount": 0, "totals.duty": 7500 },
  ],
  [
    "232 autos, United Kingdom in quota: 7.5% on top of the 2.5% MFN, 10% in all (9903.94.31)",
    { ...US_SEP26, hs_code: "8703.23.01", origin_country: "GB", declared_value: 40000 },
    { "estimated_duties.tariffs.1.code": "9903.94.31", "estimated_duties.tariffs.1.amount": 3000, "totals.duty": 4000 },
  ],
  [
    "232 auto parts: brakes of Vietnam, 25% (9903.94.05), and no metal duty beside it (note 33(f)(1))",
    { ...US_SEP26, hs_code: "8708.30.50", origin_country: "VN", declared_value: 10000 },
    // MFN 250 + 2,500; MPF 34.64; total 2,784.64.
    {
      "estimated_duties.tariffs.1.code": "9903.94.05",
      "estimated_duties.tariffs.length": 2,
      "totals.duty": 2750,
      "totals.total": 2784.64,
    },
  ],
  [
    "232 auto parts before they began (2025-05-02): none",
    { ...US_SEP26, hs_code: "8708.30.50", origin_country: "VN", declared_value: 10000, entry_date: "2025-05-02" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 250 },
  ],
  [
    "232 auto parts of Mexico entered under USMCA: exempt (9903.94.06)",
    { ...US_SEP26, hs_code: "8708.30.50", origin_country: "MX", declared_value: 10000 },
    {
      "estimated_duties.tier": "preferential_tariff",
      "estimated_duties.tariffs.1.code": "9903.94.05",
      "estimated_duties.tariffs.1.exempted": true,
      "estimated_duties.tariffs.1.exclusion_code": "9903.94.06",
      "totals.duty": 0,
    },
  ],
  [
    "232 auto parts on a dual-use line (lithium-ion batteries): conditional on being a vehicle part",
    { ...US_SEP26, hs_code: "8507.60.00", origin_country: "VN", declared_value: 10000 },
    // MFN 3.4% × 10,000 = 340; the parts duty is shown, outside the totals.
    {
      "estimated_duties.tariffs.length": 1,
      "additional_tariff_measures.0.code": "9903.94.05",
      complete: false,
      "totals.duty": 340,
    },
  ],
  [
    "232 auto parts on a dual-use line entered under the heading (manual_claims): charged",
    { ...US_SEP26, hs_code: "8507.60.00", origin_country: "VN", declared_value: 10000, manual_claims: ["9903.94.05"] },
    { "estimated_duties.tariffs.1.code": "9903.94.05", "totals.duty": 2840 },
  ],
  [
    "232 medium- and heavy-duty truck of Germany: 25% on top of the 25% MFN (9903.74.01, from 2025-11-01)",
    { ...US_SEP26, hs_code: "8704.23.01", origin_country: "DE", declared_value: 100000 },
    // 25,000 + 25,000; MPF 0.3464% × 100,000 = 346.40; total 50,346.40.
    { "estimated_duties.tariffs.1.code": "9903.74.01", "totals.duty": 50000, "totals.total": 50346.4 },
  ],
  [
    "232 wood: an upholstered wooden chair of Vietnam, 25% (9903.76.02, from 2025-10-14)",
    { ...US_SEP26, hs_code: "9401.61.4011", origin_country: "VN", declared_value: 5000 },
    // Free MFN; 25% × 5,000 = 1,250; MPF 0.3464% × 5,000 = 17.32, raised to 33.58; total 1,283.58.
    { "estimated_duties.tariffs.1.code": "9903.76.02", "totals.duty": 1250, "totals.total": 1283.58 },
  ],
  [
    "232 wood: the chair of Italy, 15% all-in (9903.76.22)",
    { ...US_SEP26, hs_code: "9401.61.4011", origin_country: "IT", declared_value: 5000 },
    { "estimated_duties.tariffs.1.code": "9903.76.22", "totals.duty": 750 },
  ],
  [
    "232 wood: the chair of the United Kingdom, 10% (9903.76.20)",
    { ...US_SEP26, hs_code: "9401.61.4011", origin_country: "GB", declared_value: 5000 },
    { "estimated_duties.tariffs.1.code": "9903.76.20", "totals.duty": 500 },
  ],
  [
    "232 wood: the chair of Vietnam from 2027-01-01, 30% (the increase deferred from 2026-01-01)",
    { ...US_SEP26, hs_code: "9401.61.4011", origin_country: "VN", declared_value: 5000, entry_date: "2027-01-15" },
    { "estimated_duties.tariffs.1.code": "9903.76.02", "estimated_duties.tariffs.1.rate": "30%", "totals.duty": 1500 },
  ],
  [
    "232 wood: the chair the day before (2025-10-13): none",
    { ...US_SEP26, hs_code: "9401.61.4011", origin_country: "VN", declared_value: 5000, entry_date: "2025-10-13" },
    { "estimated_duties.tariffs.length": 1, "totals.duty": 0 },
  ],
  [
    "232 wood given at 8 digits: the 10-digit furniture line is conditional",
    { ...US_SEP26, hs_code: "9401.61.40", origin_country: "VN", declared_value: 5000 },
    { "additional_tariff_measures.0.code": "9903.76.02", complete: false, "totals.duty": 0 },
  ],
  [
    "232 softwood lumber of Canada: 10% with no USMCA relief (9903.76.01)",
    { ...US_SEP26, hs_code: "4407.11.00", origin_country: "CA", declared_value: 10000 },
    { "estimated_duties.tariffs.1.code": "9903.76.01", "estimated_duties.tariffs.1.amount": 1000, "totals.duty": 1000 },
  ],
];
cases.push(...sectorCases);

// IEEPA duties on entries of 2025-02-04..2026-02-23: deposited then, refundable since Learning Resources v. Trump
// (2026-02-20), shown in refundable_duties and never in the totals. Rates from the headings' texts (HTS 2026 Rev 6,
// chapter 99) and EO 14326 Annex I; dates from the executive orders. By air: no HMF.
const US_IEEPA = { ...US, transport_mode: "air" };
const ieepaCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "IEEPA: a T-shirt of Vietnam on 2025-09-02 deposited 20% (9903.02.69), refundable, outside the duty owed",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000, entry_date: "2025-09-02" },
    // MFN 16.5% × 1,000 = 165 owed; 20% × 1,000 = 200 refundable; FY2025 informal MPF 2.62; total 167.62.
    {
      "refundable_duties.status": "deposited_refundable",
      "refundable_duties.tariffs.0.code": "9903.02.69",
      "refundable_duties.tariffs.0.amount": 200,
      "refundable_duties.total": 200,
      "totals.duty": 165,
      "totals.total": 167.62,
    },
  ],
  [
    "IEEPA: China on 2025-06-02, fentanyl 20% and reciprocal 10% refundable; Section 301 owed",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1000, entry_date: "2025-06-02" },
    // Owed: MFN 165 + List 4A 7.5% = 75 → 240. Refundable: 9903.01.24 20% = 200, 9903.01.25 10% = 100 → 300.
    {
      "refundable_duties.tariffs.0.code": "9903.01.24",
      "refundable_duties.tariffs.0.amount": 200,
      "refundable_duties.tariffs.1.code": "9903.01.25",
      "refundable_duties.tariffs.1.amount": 100,
      "refundable_duties.total": 300,
      "totals.duty": 240,
    },
  ],
  [
    "IEEPA: China on 2025-04-10, reciprocal 125% (9903.01.63)",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "CN", declared_value: 1000, entry_date: "2025-04-10" },
    // 9903.01.24 20% = 200 + 125% = 1,250 → 1,450.
    { "refundable_duties.tariffs.1.code": "9903.01.63", "refundable_duties.total": 1450 },
  ],
  [
    "IEEPA: the EU's 15% all-in on a free-MFN toy of Germany (9903.02.20)",
    { ...US_IEEPA, hs_code: "9503.00.00", origin_country: "DE", declared_value: 1000, entry_date: "2025-09-02" },
    { "refundable_duties.tariffs.0.code": "9903.02.20", "refundable_duties.total": 150, "totals.duty": 0 },
  ],
  [
    "IEEPA: the EU's 15% all-in adds nothing where the MFN rate is 16.5%",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "DE", declared_value: 1000, entry_date: "2025-09-02" },
    { "refundable_duties.tariffs.0.amount": 0, "refundable_duties.total": 0, "totals.duty": 165 },
  ],
  [
    "IEEPA: a Canadian T-shirt entered free under USMCA paid no fentanyl duty (9903.01.14)",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "CA", declared_value: 1000, entry_date: "2025-09-02" },
    {
      "refundable_duties.tariffs.0.exempted": true,
      "refundable_duties.tariffs.0.exclusion_code": "9903.01.14",
      "refundable_duties.total": 0,
    },
  ],
  [
    "IEEPA: aluminium under Section 232 paid no reciprocal duty (9903.01.33)",
    { ...US_IEEPA, hs_code: "7606.12.30", origin_country: "VN", declared_value: 10000, entry_date: "2025-09-02" },
    {
      "refundable_duties.tariffs.0.code": "9903.02.69",
      "refundable_duties.tariffs.0.exempted": true,
      "refundable_duties.tariffs.0.exclusion_code": "9903.01.33",
      "refundable_duties.total": 0,
    },
  ],
  [
    "IEEPA: within the 800 USD de minimis before 2025-08-29 nothing was deposited",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "VN", declared_value: 100, entry_date: "2025-06-02" },
    { "refundable_duties.tariffs.0.amount": 0, "refundable_duties.total": 0, "totals.duty": 0 },
  ],
  [
    "IEEPA: India on 2025-09-02, 25% plus the 25% Russian-oil duty (9903.02.26, 9903.01.84)",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "IN", declared_value: 1000, entry_date: "2025-09-02" },
    { "refundable_duties.total": 500 },
  ],
  [
    "IEEPA: none after 2026-02-23",
    { ...US_IEEPA, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000, entry_date: "2026-02-24" },
    { refundable_duties: undefined },
  ],
];
cases.push(...ieepaCases);

// The EU's interim flat customs duty on low-value goods: 3 EUR per item category (tariff subheading) from
// 2026-07-01 on goods the 150 EUR relief covered, sold by IOSS-registered sellers (Council, approved February
// 2026). VAT in Germany 19% on the customs value plus duty.
const DE_JUL = {
  destination_country: "DE",
  currency: "EUR",
  entry_date: "2026-07-15",
  hs_code: "6109.10.00",
  origin_country: "CN",
};
cases.push(
  [
    "EU flat duty: a 100 EUR T-shirt pays 3 EUR in place of the relief; VAT 19% of 103 = 19.57 at the point of sale (IOSS)",
    { ...DE_JUL, declared_value: 100 },
    {
      "totals.duty": 3,
      "estimated_duties.tariffs.1.name": "Flat customs duty on low-value goods",
      "estimated_duties.tariffs.1.amount": 3,
      "point_of_sale_tax.amount": 19.57,
      "totals.vat": 0,
      "totals.total": 3,
    },
  ],
  [
    "EU flat duty: not before 2026-07-01 (the 150 EUR relief)",
    { ...DE_JUL, declared_value: 100, entry_date: "2026-06-30" },
    { "totals.duty": 0, "point_of_sale_tax.amount": 19, "totals.total": 0 },
  ],
  [
    "EU flat duty: a seller outside the IOSS keeps the relief",
    { ...DE_JUL, declared_value: 100, ioss: false },
    { "totals.duty": 0, "estimated_duties.tariffs.length": 1 },
  ],
  [
    "EU flat duty: above 150 EUR the tariff rate applies (12% × 200 = 24)",
    { ...DE_JUL, declared_value: 200 },
    { "totals.duty": 24, "estimated_duties.tariffs.length": 1 },
  ],
);

// Section 232 from 2026-04-06, U.S. note 16(c): outside chapters 72, 73, 74 and 76 the 9903.82 headings apply only
// where the listed metal is at least 15% of the article's weight (metal_weight_percentage).
cases.push(
  [
    "232 note 16(c): Vietnamese vises (8205.70.00, list (c)(vii), 9903.82.09 25%) with 10% steel by weight pay MFN only",
    { ...US_SEP26, hs_code: "8205.70.00", origin_country: "VN", declared_value: 1000, metal_weight_percentage: 10 },
    // MFN 5% = 50; 9903.82.09 not applied (the article enters under 9903.82.03); informal MPF 2.69.
    {
      "estimated_duties.tariffs.1.code": "9903.82.09",
      "estimated_duties.tariffs.1.exempted": true,
      "estimated_duties.tariffs.1.exclusion_code": "9903.82.03",
      "exemptions.tariff_exemptions.0.applies_to": "9903.82.09",
      "totals.duty": 50,
      "totals.total": 52.69,
    },
  ],
  [
    "232 note 16(c): the same vises at 40% steel by weight pay 25% of the full value",
    { ...US_SEP26, hs_code: "8205.70.00", origin_country: "VN", declared_value: 1000, metal_weight_percentage: 40 },
    { "estimated_duties.tariffs.1.amount": 250, "totals.duty": 300 },
  ],
  [
    "232 note 16(c): under the threshold inside the Section 122 window, the surcharge is due (no 232 to spare it)",
    {
      ...US_SEP26,
      hs_code: "8205.70.00",
      origin_country: "VN",
      declared_value: 1000,
      metal_weight_percentage: 10,
      entry_date: "2026-05-01",
    },
    // MFN 50 + Section 122 10% = 100: 150.
    { "estimated_duties.tariffs.2.code": "9903.03.01", "totals.duty": 150 },
  ],
);

// The 9903.82 headings as U.S. note 16 of HTS 2026 Rev 6 numbers them: lists (c)(i)-(v) 9903.82.02 (50%, UK
// 9903.82.04 25%), (vi)-(viii) 9903.82.09 (25%, UK 9903.82.05 15%), (ix)-(x) 9903.82.10 (MFN topped up to 15%).
cases.push(
  [
    "232 note 16(f): conveyors of Vietnam (8428.39.00, list (c)(x), MFN free) topped up to 15% under 9903.82.10",
    { ...US_SEP26, hs_code: "8428.39.00", origin_country: "VN", declared_value: 1000, metal_weight_percentage: 60 },
    // MFN free; 9903.82.10: 15% all-in less 0 MFN = 150; informal MPF 2.69.
    {
      "estimated_duties.tariffs.1.code": "9903.82.10",
      "estimated_duties.tariffs.1.amount": 150,
      "totals.total": 152.69,
    },
  ],
  [
    "232 note 16(d): British vises (list (c)(vii)) pay the UK's 15% under 9903.82.05",
    { ...US_SEP26, hs_code: "8205.70.00", origin_country: "GB", declared_value: 1000, metal_weight_percentage: 40 },
    // MFN 5% = 50; 9903.82.05 15% = 150: duty 200.
    { "estimated_duties.tariffs.1.code": "9903.82.05", "totals.duty": 200 },
  ],
  [
    "232 note 16(d): British hot-rolled steel (list (c)(iii)) pays the UK's 25% under 9903.82.04",
    { ...US_SEP26, hs_code: "7208.36.00", origin_country: "GB", declared_value: 1000 },
    // MFN free; 9903.82.04 25% = 250.
    { "estimated_duties.tariffs.1.code": "9903.82.04", "totals.duty": 250 },
  ],
);

// US federal excise, collected by CBP with the duty (26 U.S.C. 5001, 5041, 5051, 5701; TTB rate table): per wine
// gallon (3.785411784 l), proof gallon (a wine gallon at 50% alcohol) or barrel (31 gallons), by alcohol band.
const US_EXCISE = { ...US_SEP26, transport_mode: "sea" };
const exciseCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "excise: 9 l of still wine at 12.5% pay 1.07 USD per wine gallon (9 / 3.785411784 = 2.3775 gal) = 2.54",
    {
      ...US_EXCISE,
      hs_code: "2204.21.50",
      origin_country: "FR",
      declared_value: 120,
      volume: 9,
      alcohol_percentage: 12.5,
    },
    {
      "excise.taxes.0.code": "IRC 5041(b)(1)",
      "excise.taxes.0.amount": 2.54,
      "excise.total": 2.54,
      "excise.taxes.0.quantity": "9 l = 2.3775 wine gallons",
      "totals.excise": 2.54,
      // MFN 0.063 USD/l × 9 = 0.567; informal MPF 2.69; HMF 0.125% × 120 = 0.15; 0.567 + 2.84 + 2.544 = 5.95.
      "totals.total": 5.95,
      complete: true,
    },
  ],
  [
    "excise: still wine at 18% falls in the 16-21% band, 1.57 USD per gallon (2.3775 gal = 3.73)",
    {
      ...US_EXCISE,
      hs_code: "2204.21.50",
      origin_country: "PT",
      declared_value: 120,
      volume: 9,
      alcohol_percentage: 18,
    },
    { "excise.taxes.0.code": "IRC 5041(b)(2)", "excise.total": 3.73 },
  ],
  [
    "excise: 7 l of whisky at 40% are 1.4794 proof gallons at 13.50 USD = 19.97",
    {
      ...US_EXCISE,
      hs_code: "2208.30.30",
      origin_country: "GB",
      declared_value: 200,
      volume: 7,
      alcohol_percentage: 40,
    },
    { "excise.taxes.0.code": "IRC 5001", "excise.total": 19.97, "totals.excise": 19.97 },
  ],
  [
    "excise: 100 l of beer are 0.852168 barrels at 18 USD = 15.34, no alcohol needed",
    { ...US_EXCISE, hs_code: "2203.00.00", origin_country: "MX", declared_value: 150, volume: 1, volume_unit: "hl" },
    { "excise.taxes.0.code": "IRC 5051", "excise.total": 15.34, complete: true },
  ],
  [
    "excise: sparkling wine has one band: without alcohol_percentage it is taken as not over 24% (9 l = 8.08)",
    { ...US_EXCISE, hs_code: "2204.10.00", origin_country: "FR", declared_value: 300, volume: 9000, volume_unit: "ml" },
    { "excise.taxes.0.code": "IRC 5041(b)(4)", "excise.total": 8.08 },
  ],
  [
    "excise: 10,000 cigarettes at 50.33 USD per thousand = 503.30",
    { ...US_EXCISE, hs_code: "2402.20.80", origin_country: "DO", declared_value: 0.2, quantity: 10000, weight: 10 },
    { "excise.taxes.0.code": "IRC 5701(b)(1)", "excise.total": 503.3, "totals.excise": 503.3 },
  ],
  [
    "excise: still wine without alcohol_percentage is not computed and the quote is not complete",
    { ...US_EXCISE, hs_code: "2204.21.50", origin_country: "FR", declared_value: 120, volume: 9 },
    {
      complete: false,
      "incomplete_reasons.0.code": "excise_not_computed",
      "excise.taxes": [],
      "excise.not_computed.0.code": "IRC 5041(b)(1)",
      "excise.total": 0,
      "totals.excise": 0,
    },
  ],
  [
    "excise: spirits without a volume are not computed (proof gallons need litres)",
    { ...US_EXCISE, hs_code: "2208.30.30", origin_country: "GB", declared_value: 200, alcohol_percentage: 40 },
    { complete: false, "excise.not_computed.0.code": "IRC 5001", "excise.total": 0 },
  ],
  [
    "excise: still wine over 24% has no wine rate (taxed as spirits): not computed, named",
    {
      ...US_EXCISE,
      hs_code: "2204.29.61",
      origin_country: "ES",
      declared_value: 100,
      volume: 9,
      alcohol_percentage: 25,
    },
    { complete: false, "excise.not_computed.0.code": "IRC 5041(b)(1)" },
  ],
  [
    "excise: goods without excise keep four totals",
    { ...US_EXCISE, hs_code: "6109.10.00", origin_country: "VN", declared_value: 1000 },
    { excise: undefined, "totals.excise": undefined },
  ],
];
cases.push(...exciseCases);

// Switzerland: the Tares general rates of 2026 (data/tariffs/ch.json); duties are specific, per 100 kg gross with the
// weight rounded up to the next 100 g (Customs Tariff Act art. 2(3)), or per piece; VAT 8.1 % (2.6 % on food,
// livestock, printed matter...) on the value plus transport to the destination plus duty (BAZG), and not levied when
// it is CHF 5 or less. Preferential rates are not in the data, so a dutiable line is not complete.
const swissCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "CH cotton T-shirt 6109.10.00 from China, 100 + 20 shipping: Free (industrial tariff abolished 2024); VAT 8.1% × 120 = 9.72",
    { ...CH, hs_code: "6109.10.00", origin_country: "CN", declared_value: 100, shipping_cost: 20 },
    { "totals.duty": 0, "vat.rate": 8.1, "vat.amount": 9.72, "totals.total": 9.72, complete: true },
  ],
  [
    "CH same T-shirt at 40 + 10 shipping: VAT 8.1% × 50 = 4.05, CHF 5 or less, not levied",
    { ...CH, hs_code: "6109.10.00", origin_country: "CN", declared_value: 40, shipping_cost: 10 },
    { "totals.duty": 0, "vat.amount": 0, "totals.total": 0, complete: true },
  ],
  [
    "CH hard cheese 0406.90.99 from the US, 12.34 kg: 315 CHF/100 kg gross × 12.4 kg = 39.06; VAT 2.6% × (540 + 39.06) = 15.06",
    {
      ...CH,
      hs_code: "0406.90.99",
      origin_country: "US",
      declared_value: 500,
      shipping_cost: 40,
      weight: 12.34,
    },
    {
      "estimated_duties.tariffs.0.amount": 39.06,
      "estimated_duties.tariffs.0.basis": "315.00 CHF/100 kg gross × 12.34 kg gross, rounded up to 12.4 kg = 39.06 CHF",
      "vat.rate": 2.6,
      "vat.amount": 15.06,
      "totals.total": 54.12,
      // Switzerland has no trade agreement with the United States: the general rate is the rate.
      complete: true,
    },
  ],
  [
    "CH the same cheese from Japan: the general rate, but a Swiss FTA may grant less: not complete",
    { ...CH, hs_code: "0406.90.99", origin_country: "JP", declared_value: 500, shipping_cost: 40, weight: 12.34 },
    {
      "estimated_duties.tariffs.0.amount": 39.06,
      complete: false,
      "incomplete_reasons.0.code": "preference_not_modelled",
    },
  ],
  [
    "CH same cheese with no weight: the duty per 100 kg gross is not computed",
    { ...CH, hs_code: "0406.90.99", origin_country: "US", declared_value: 500 },
    { "totals.duty": 0, complete: false, "incomplete_reasons.0.code": "estimated_duty" },
  ],
  [
    "CH breeding horse 0101.21.10 within the quota: 120 CHF per piece; VAT 2.6% (livestock) × 5,120 = 133.12",
    { ...CH, hs_code: "0101.21.10", origin_country: "DE", declared_value: 5000, quantity: 1 },
    { "totals.duty": 120, "vat.rate": 2.6, "vat.amount": 133.12, "totals.total": 253.12 },
  ],
  [
    "CH beer 2203.00.31 from Germany, 10 kg: 13 CHF/100 kg gross = 1.30; VAT 8.1% × 201.30 = 16.31; beer tax named, not computed",
    { ...CH, hs_code: "2203.00.31", origin_country: "DE", declared_value: 200, weight: 10 },
    {
      "totals.duty": 1.3,
      "vat.amount": 16.31,
      complete: false,
      "excise.not_computed.0.code": "CH beer tax",
    },
  ],
  [
    "CH T-shirt declared 100 EUR, entered Tuesday 2026-03-03: converted at the rate of the day before (ECB 0.9117), VAT 8.1% × 91.17 = 7.38",
    {
      ...CH,
      currency: "EUR",
      entry_date: "2026-03-03",
      hs_code: "6109.10.00",
      origin_country: "CN",
      declared_value: 100,
    },
    {
      "currencies.rate_date": "2026-03-02",
      "currencies.exchange_rate": 0.9117,
      "values.customs_value": 91.17,
      "vat.amount": 7.38,
    },
  ],
  [
    "CH same T-shirt entered Monday 2026-03-02: the last trading day before is Friday 2026-02-27 (0.9104)",
    {
      ...CH,
      currency: "EUR",
      entry_date: "2026-03-02",
      hs_code: "6109.10.00",
      origin_country: "CN",
      declared_value: 100,
    },
    { "currencies.rate_date": "2026-02-27", "currencies.exchange_rate": 0.9104, "values.customs_value": 91.04 },
  ],
  [
    "CH entry of 2025-06-01: the data holds the 2026 tariff only, so no line is in force and nothing is priced",
    { ...CH, hs_code: "6109.10.00", origin_country: "CN", declared_value: 100, entry_date: "2025-06-01" },
    { rate_found: false, complete: false, "incomplete_reasons.0.code": "unknown_code" },
  ],
];
cases.push(...swissCases);

// UK Alcohol Duty (Finance (No. 2) Act 2023), charged at import per litre of alcohol in the product by strength band
// (HMRC rate tables: from 2023-08-01, 2025-02-01 and 2026-02-01), and Germany's national excise (Alkoholsteuer
// 13.03 EUR per litre of alcohol, Schaumweinsteuer 1.36 EUR per litre, Kaffeesteuer 2.19 EUR per kg). VAT is charged
// on the value plus duty plus excise. Other EU members' excise is named and the quote is not complete.
const GB_FEB26 = { ...GB, entry_date: "2026-03-02" };
const ukAlcohol = (hs: string, volume: number, abv: number | undefined, extra: Record<string, unknown> = {}) => ({
  ...GB_FEB26,
  hs_code: hs,
  origin_country: "US",
  declared_value: 100,
  volume,
  ...(abv === undefined ? {} : { alcohol_percentage: abv }),
  ...extra,
});
const DE_EXCISE = { destination_country: "DE", currency: "EUR", entry_date: "2026-03-02", origin_country: "US" };
const alcoholCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "UK whisky 7 l at 40% from 2026-02-01: 2.8 l of alcohol × 33.99 GBP (over 22%) = 95.17; VAT 20% × (200 + 95.172) = 59.03",
    ukAlcohol("2208.30.11", 7, 40, { declared_value: 200 }),
    {
      "excise.taxes.0.code": "UK AD spirits",
      "excise.taxes.0.rate": "33.99 GBP per litre of pure alcohol",
      "excise.taxes.0.quantity": "7 l at 40% alcohol = 2.8 l of pure alcohol",
      "excise.total": 95.17,
      "vat.amount": 59.03,
      complete: true,
    },
  ],
  [
    "UK beer 100 l at 5%: 5 l of alcohol × 22.58 GBP (beer, at least 3.5% and less than 8.5%) = 112.90",
    ukAlcohol("2203.00.01", 100, 5),
    { "excise.taxes.0.code": "UK AD beer", "excise.total": 112.9 },
  ],
  [
    "UK beer at 8.5% is in the 8.5-22% band: 10 l × 8.5% = 0.85 l × 30.62 = 26.03",
    ukAlcohol("2203.00.01", 10, 8.5),
    { "excise.total": 26.03 },
  ],
  [
    "UK still cider 50 l at 4.5%: 2.25 l of alcohol × 10.39 GBP = 23.38",
    ukAlcohol("2206.00.51", 50, 4.5),
    { "excise.taxes.0.code": "UK AD still cider", "excise.total": 23.38 },
  ],
  [
    "UK sparkling cider at 5.5% keeps the cider rate: 10 l × 5.5% = 0.55 l × 10.39 = 5.71",
    ukAlcohol("2206.00.31", 10, 5.5),
    { "excise.taxes.0.code": "UK AD sparkling cider", "excise.total": 5.71 },
  ],
  [
    "UK sparkling cider over 5.5% pays the general rate: 10 l × 6% = 0.6 l × 26.61 = 15.97",
    ukAlcohol("2206.00.31", 10, 6),
    { "excise.total": 15.97 },
  ],
  [
    "UK wine 9 l at 13.5% in 2025: 1.215 l of alcohol × 29.54 GBP (8.5-22%) = 35.89; the line over 13% vol, 12 GBP/hl = 1.08",
    ukAlcohol("2204.21.79", 9, 13.5, { entry_date: "2025-06-02" }),
    {
      "excise.taxes.0.code": "UK AD wine",
      "excise.total": 35.89,
      "tariff_line.code": "2204.21.79.90",
      "tariff_line.resolution.lines_considered": 2,
      "totals.duty": 1.08,
    },
  ],
  [
    "UK wine at 12.5% is priced on the line of 13% vol or less: 10 GBP/hl × 0.09 hl = 0.90",
    ukAlcohol("2204.21.79", 9, 12.5),
    { "tariff_line.code": "2204.21.79.10", "totals.duty": 0.9 },
  ],
  [
    "a 10-digit wine line asked for by its code is priced on it",
    ukAlcohol("2204.21.79.10", 9, 12.5),
    { "tariff_line.code": "2204.21.79.10", "tariff_line.resolution.method": "exact", "totals.duty": 0.9 },
  ],
  [
    "UK wine 9 l at 13% in 2024: the wine easement charges it as 12.5%, 28.50 × 12.5% = 3.5625 GBP a litre × 9 = 32.06",
    ukAlcohol("2204.21.79", 9, 13, { entry_date: "2024-06-03" }),
    { "excise.taxes.0.rate": "3.5625 GBP per litre", "excise.total": 32.06 },
  ],
  [
    "UK alcohol-free beer at 0.5% is not an alcoholic product: no duty",
    ukAlcohol("2203.00.01", 30, 0.5),
    { "excise.total": 0, complete: true },
  ],
  [
    "UK wine without alcohol_percentage: the band cannot be chosen, named, not complete; the higher wine line is priced",
    ukAlcohol("2204.21.79", 9, undefined),
    {
      "excise.not_computed.0.code": "UK AD wine",
      "excise.total": 0,
      complete: false,
      "tariff_line.code": "2204.21.79.90",
      "tariff_line.resolution.method": "highest_of_range",
    },
  ],
  [
    "UK wine entered before the 2023 reform: the old duty is not in the data, not complete",
    ukAlcohol("2204.21.79", 9, 12, { entry_date: "2022-06-01" }),
    { "excise.not_computed.0.code": "UK duty wine", complete: false },
  ],
  [
    "UK cigarettes: Tobacco Products Duty named, not computed",
    { ...GB_FEB26, hs_code: "2402.20.90", origin_country: "US", declared_value: 100, quantity: 200 },
    { "excise.not_computed.0.code": "UK TPD", complete: false },
  ],
  [
    "UK whisky of 50 GBP: alcohol is outside the 135 GBP relief, so duty and VAT are due at import, not at the sale",
    ukAlcohol("2208.30.11", 0.7, 40, { declared_value: 50 }),
    // 0.28 l of alcohol × 33.99 = 9.5172; VAT 20% × (50 + 9.5172) = 11.90.
    { "excise.total": 9.52, "vat.amount": 11.9, point_of_sale_tax: undefined, "totals.total": 21.42 },
  ],
  [
    "DE vodka of 100 EUR from a seller in the IOSS: excise goods are outside the IOSS and the 150 EUR relief",
    { ...DE_EXCISE, hs_code: "2208.60.11", declared_value: 100, volume: 1, alcohol_percentage: 40 },
    // 0.4 l of alcohol × 13.03 = 5.212; VAT 19% × (100 + 5.212) = 19.99.
    { "excise.total": 5.21, "vat.amount": 19.99, point_of_sale_tax: undefined },
  ],
  [
    "DE vodka 7 l at 40%: 2.8 l of alcohol × 13.03 EUR = 36.48 Alkoholsteuer",
    { ...DE_EXCISE, hs_code: "2208.60.11", declared_value: 200, volume: 7, alcohol_percentage: 40 },
    { "excise.taxes.0.code": "AlkStG § 2", "excise.total": 36.48 },
  ],
  [
    "DE sparkling wine 9 l at 12%: 136 EUR per hl = 1.36 × 9 = 12.24 Schaumweinsteuer",
    { ...DE_EXCISE, hs_code: "2204.10.98", declared_value: 200, volume: 9, alcohol_percentage: 12 },
    { "excise.taxes.0.code": "SchaumwZwStG § 2", "excise.total": 12.24 },
  ],
  [
    "DE sparkling wine under 6%: 51 EUR per hl = 0.51 × 9 = 4.59",
    { ...DE_EXCISE, hs_code: "2204.10.98", declared_value: 200, volume: 9, alcohol_percentage: 5.5 },
    { "excise.total": 4.59 },
  ],
  [
    "DE port wine at 19%: intermediate product, 153 EUR per hl = 1.53 × 9 = 13.77",
    { ...DE_EXCISE, hs_code: "2204.21.79", declared_value: 200, volume: 9, alcohol_percentage: 19 },
    { "excise.taxes.0.code": "SchaumwZwStG § 30", "excise.total": 13.77 },
  ],
  [
    "DE still wine at 12.5%: no excise on still wine, the quote is complete",
    { ...DE_EXCISE, hs_code: "2204.21.79", declared_value: 200, volume: 9, alcohol_percentage: 12.5 },
    { "excise.total": 0, complete: true },
  ],
  [
    "DE roasted coffee 5 kg: 2.19 EUR per kg = 10.95 Kaffeesteuer",
    { ...DE_EXCISE, hs_code: "0901.21.00", origin_country: "BR", declared_value: 100, weight: 5 },
    { "excise.taxes.0.code": "KaffeeStG § 2", "excise.total": 10.95 },
  ],
  [
    "DE beer: the tax per degree Plato is named, not computed",
    { ...DE_EXCISE, hs_code: "2203.00.01", declared_value: 100, volume: 50, alcohol_percentage: 5 },
    { "excise.not_computed.0.code": "BierStG § 2", complete: false },
  ],
  [
    "FR whisky: the member state's excise is not in the data, named, not complete",
    {
      ...DE_EXCISE,
      destination_country: "FR",
      hs_code: "2208.30.82",
      declared_value: 200,
      volume: 7,
      alcohol_percentage: 40,
    },
    { "excise.not_computed.0.code": "EU excise, alcohol", complete: false },
  ],
];
cases.push(...alcoholCases);

// The UK's and the EU's preferential tariffs are not in the data: a dutiable line from an origin they may grant a
// preference to (an agreement partner, a developing country) is priced at the general rate and not complete; from
// an origin with none (the United States, China, Hong Kong, Taiwan, Russia, Belarus) the quote stands.
cases.push(
  [
    "UK T-shirt from Japan: UKGT 12% × 1,000 = 120, but the UK-Japan CEPA may grant less: not complete",
    { ...GB, hs_code: "6109.10.00", origin_country: "JP", declared_value: 1000 },
    { "totals.duty": 120, complete: false, "incomplete_reasons.0.code": "preference_not_modelled" },
  ],
  [
    "UK T-shirt from the United States: no UK preference, the quote is complete",
    { ...GB, hs_code: "6109.10.00", origin_country: "US", declared_value: 1000 },
    { "totals.duty": 120, complete: true },
  ],
  [
    "DE T-shirt from Viet Nam: CET 12% × 1,000 = 120, but the EU-Viet Nam FTA may grant less: not complete",
    { ...DE_MAR, origin_country: "VN", declared_value: 1000, ioss: false },
    { "totals.duty": 120, complete: false, "incomplete_reasons.0.code": "preference_not_modelled" },
  ],
);

describe("calculate: worked cases", () => {
  it("has at least 40 cases", () => expect(cases.length).toBeGreaterThanOrEqual(40));
  it.each(cases)("%s", async (_name, body, expected) => {
    const res = await api("/calculate", { json: body });
    const json = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(json)).toBe(200);
    for (const [path, value] of Object.entries(expected))
      expect(get(json, path), `${path} in ${JSON.stringify(json, null, 1)}`).toEqual(value);
  });
});

describe("calculate/multiple: the EU flat duty once per item category", () => {
  const run = async (codes: Record<string, unknown>[]) => {
    const res = await api("/calculate/multiple", {
      json: { destination_country: "DE", currency: "EUR", entry_date: "2026-07-15", codes },
    });
    const body = (await res.json()) as { totals: { duty: number } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  it("two T-shirts (one subheading) pay 3 EUR; a T-shirt and a jersey (two) pay 6 EUR", async () => {
    const shirt = { hs_code: "6109.10.00", origin_country: "CN", declared_value: 40 };
    expect((await run([shirt, { ...shirt, declared_value: 30 }])).totals.duty).toBe(3);
    const jersey = { hs_code: "6110.20.91", origin_country: "CN", declared_value: 30 };
    expect((await run([shirt, jersey])).totals.duty).toBe(6);
  });
});

describe("calculate/multiple: Switzerland's CHF 5 VAT minimum is on the declaration's whole VAT", () => {
  const run = async (codes: Record<string, unknown>[]) => {
    const res = await api("/calculate/multiple", {
      json: { destination_country: "CH", currency: "CHF", entry_date: "2026-06-01", codes },
    });
    const body = (await res.json()) as { totals: { vat: number; total: number } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const shirt = { hs_code: "6109.10.00", origin_country: "CN", declared_value: 40 };
  it("two lines of 3.24 each: 6.48 in all is levied, though each line alone would not be", async () => {
    expect((await run([shirt, shirt])).totals.vat).toBe(6.48);
  });
  it("3.24 + 1.62 = 4.86 in all: not levied", async () => {
    const body = await run([shirt, { ...shirt, declared_value: 20 }]);
    expect(body.totals.vat).toBe(0);
    expect(body.totals.total).toBe(0);
  });
});

describe("calculate/multiple: excise in the entry's totals", () => {
  it("a wine line's excise is in totals.excise and the total; a batch without excise has no excise key", async () => {
    const wine = {
      hs_code: "2204.21.50",
      origin_country: "FR",
      declared_value: 120,
      volume: 9,
      alcohol_percentage: 12.5,
    };
    const shirt = { hs_code: "6109.10.00", origin_country: "VN", declared_value: 100 };
    const run = async (codes: Record<string, unknown>[]) => {
      const res = await api("/calculate/multiple", {
        json: { destination_country: "US", currency: "USD", entry_date: "2026-09-01", codes },
      });
      const body = (await res.json()) as { totals: Record<string, number> };
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.totals;
    };
    // Duty 0.567 + 16.5; MPF 2.69 + HMF 0.125% × 220 = 0.275; excise 2.544: 22.576.
    expect(await run([wine, shirt])).toEqual({ duty: 17.07, fees: 2.97, vat: 0, excise: 2.54, total: 22.58 });
    expect(await run([shirt])).not.toHaveProperty("excise");
  });
  it("alcohol_percentage out of range fails that line only", async () => {
    const res = await api("/calculate/multiple", {
      json: {
        destination_country: "US",
        codes: [
          { hs_code: "2204.21.50", origin_country: "FR", declared_value: 120, volume: 9, alcohol_percentage: 140 },
          { hs_code: "6109.10.00", origin_country: "VN", declared_value: 100 },
        ],
      },
    });
    const body = (await res.json()) as { results: { error?: string }[] };
    expect(res.status).toBe(200);
    expect(body.results[0]?.error).toMatch(/alcohol_percentage/);
    expect(body.results[1]?.error).toBeUndefined();
  });
});

describe("calculate/stacking: the Section 122 surcharge in the stack", () => {
  type Stack = { tariffs: Record<string, unknown>[]; potential_exclusion_codes?: Record<string, unknown>[] };
  const stackOf = async (body: Record<string, unknown>) => {
    const res = await api("/calculate/stacking", { json: { entry_date: "2026-03-02", ...body } });
    expect(res.status).toBe(200);
    return (await res.json()) as Stack;
  };
  const S122 = { name: "Section 122 balance-of-payments surcharge", code: "9903.03.01", type: "additional" };

  it("listed after MFN and 301 at 10%, only inside 2026-02-24..2026-07-23", async () => {
    const cn = await stackOf({ hs_code: "6109.10.00", origin_country: "CN" });
    expect(cn.tariffs).toEqual([
      { name: "MFN duty", rate: "16.5%", type: "ad_valorem", code: "6109.10.00" },
      { name: "Section 301 China, List 4A", rate: "7.5%", type: "additional", code: "9903.88.15" },
      { ...S122, rate: "10%" },
    ]);
    expect(
      (await stackOf({ hs_code: "6109.10.00", origin_country: "CN", entry_date: "2026-07-24" })).tariffs.map(
        (t) => t.code,
      ),
    ).toEqual(["6109.10.00", "9903.88.15"]);
    expect(
      (await stackOf({ hs_code: "6109.10.00", origin_country: "CN", entry_date: "2026-02-23" })).tariffs.map(
        (t) => t.code,
      ),
    ).toEqual(["6109.10.00", "9903.88.15"]);
  });

  it("exemptions: on the product list, under Section 232, and for USMCA goods entered free", async () => {
    const zeroed = (code: string) => ({
      ...S122,
      rate: "0%",
      exempted: true,
      exclusion_code: code,
      exclusion_name: expect.any(String),
    });
    expect((await stackOf({ hs_code: "8517.13.00", origin_country: "CN" })).tariffs[1]).toEqual(zeroed("9903.03.03"));
    const steel = await stackOf({ hs_code: "7208.36.00", origin_country: "BR" });
    expect(steel.tariffs.map((t) => [t.code, t.rate])).toEqual([
      ["7208.36.00", "Free"],
      ["9903.81.87", "50%"],
      ["9903.03.01", "0%"],
    ]);
    expect(steel.tariffs[2]).toEqual(zeroed("9903.03.06"));
    const mx = await stackOf({ hs_code: "6109.10.00", origin_country: "MX" });
    expect(mx.tariffs[0]).toMatchObject({
      name: expect.stringMatching(/^Preferential duty, United States-Mexico-Canada Agreement/),
      rate: "Free",
    });
    expect(mx.tariffs[1]).toEqual(zeroed("9903.03.08"));
  });

  it("a claim-only exemption keeps the surcharge in the stack and is offered", async () => {
    const toys = await stackOf({ hs_code: "9503.00.00", origin_country: "MX" });
    expect(toys.tariffs[1]).toEqual({ ...S122, rate: "10%" });
    expect(toys.potential_exclusion_codes).toEqual([
      {
        code: "9903.03.08",
        name: "Product of Mexico entered free of duty under USMCA",
        applied: false,
        reason: expect.stringMatching(/^Claim-only: Originating under USMCA/),
      },
    ]);
    const aircraft = await stackOf({ hs_code: "8411.91.90", origin_country: "FR" });
    expect(aircraft.potential_exclusion_codes?.map((p) => p.code)).toContain("9903.03.05");
  });
});
