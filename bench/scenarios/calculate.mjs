/**
 * Benchmark scenarios for calculate (run by `npm run bench` beside the bare /health baseline): one quote, a
 * 50-line basket and a 500-item stacking batch, all on the full reference data.
 */
export const area = "calculate";

const CODES = [
  ["6109.10.00", "CN"],
  ["6109.10.00", "VN"],
  ["8517.13.00", "CN"],
  ["9403.60.80", "CN"],
  ["7208.36.00", "BR"],
  ["0406.10.08", "FR"],
  ["0402.29.50", "NZ"],
  ["6201.20.11", "VN"],
  ["8703.80.00", "CN"],
  ["3926.90.99", "CN"],
];

export function requests() {
  const lines = Array.from({ length: 50 }, (_, i) => {
    const [hs_code, origin_country] = CODES[i % CODES.length];
    return { hs_code, origin_country, declared_value: 10 + i, quantity: 1 + (i % 5), weight: 1 + (i % 7) };
  });
  const items = Array.from({ length: 500 }, (_, i) => {
    const [hs_code, origin_country] = CODES[i % CODES.length];
    return { ref: `sku-${i}`, hs_code, origin_country, entry_date: "2026-03-02" };
  });
  return [
    {
      label: "POST /calculate (one line, US, 301 stacked)",
      method: "POST",
      path: "/admin/api/v1/calculate",
      body: {
        hs_code: "6109.10.00",
        origin_country: "CN",
        destination_country: "US",
        declared_value: 1000,
        currency: "USD",
        entry_date: "2026-03-02",
      },
      // The calculate goal: a single quote's p50 within 3x the bare route of the same run.
      maxAdjacentRatio: 3,
    },
    {
      label: "POST /calculate/multiple (50 lines, DE, USD→EUR)",
      method: "POST",
      path: "/admin/api/v1/calculate/multiple",
      body: { destination_country: "DE", currency: "USD", entry_date: "2026-03-02", shipping_cost: 50, codes: lines },
    },
    {
      label: "POST /calculate/stacking/bulk (500 items)",
      method: "POST",
      path: "/admin/api/v1/calculate/stacking/bulk",
      body: { items },
    },
  ];
}

/** A correctness spot check against the running server: a few worked cases, as a table for RESULTS.md. */
export async function report({ call }) {
  const cases = [
    [
      "6109.10.00 CN→US 1,000 USD (301 + Section 122)",
      {
        hs_code: "6109.10.00",
        origin_country: "CN",
        destination_country: "US",
        declared_value: 1000,
        currency: "USD",
        entry_date: "2026-03-02",
      },
      // MFN 16.5 % 165 + List 4A 7.5 % 75 + Section 122 10 % 100 + informal MPF 2.69 (an entry under 2,500 USD)
      // + HMF 1.25 (as test/calculate-worked.test.ts derives it).
      343.94,
    ],
    [
      "6109.10.00 CN→DE 1,000 EUR + 120 freight",
      {
        hs_code: "6109.10.00",
        origin_country: "CN",
        destination_country: "DE",
        declared_value: 1000,
        currency: "EUR",
        shipping_cost: 100,
        insurance_cost: 20,
        entry_date: "2026-03-02",
      },
      372.74,
    ],
    [
      "7208.36.00 BR→US 10,000 USD (232 steel)",
      {
        hs_code: "7208.36.00",
        origin_country: "BR",
        destination_country: "US",
        declared_value: 10000,
        currency: "USD",
        entry_date: "2025-09-02",
      },
      5047.14,
    ],
  ];
  const rows = ["### Calculate spot checks", "", "| case | expected total | answered | ok |", "|---|---:|---:|---|"];
  for (const [name, body, expected] of cases) {
    const { status, json } = await call("POST", "/admin/api/v1/calculate", body);
    const got = status === 200 ? json.totals.total : `HTTP ${status}`;
    rows.push(`| ${name} | ${expected} | ${got} | ${got === expected ? "yes" : "NO"} |`);
  }
  return rows.join("\n");
}
