/**
 * Benchmark scenario for the restrict area: POST /restrict with 100 mixed items (HS codes at various
 * depths, free text, origins), destination US with an origin, so import, export, keyword, prefix and origin
 * indexes are all exercised. The goal: p50 within 5x the bare /health route of the same run.
 */
export const area = "restrict";

const SAMPLES = [
  { title: "Cotton crew-neck T-shirt", hs_code: "6109.10", materials: "100% cotton", category: "Apparel" },
  { title: "Lithium-ion power bank 20000mAh", hs_code: "8507.60", category: "Electronics" },
  { title: "Carved ivory figurine", description: "Antique decorative piece", category: "Collectibles" },
  { title: "Vodka 70cl", hs_code: "2208.60", country_of_origin: "RU", category: "Beverages" },
  { title: "Wireless earbuds", hs_code: "8518.30", brand: "Acme", category: "Audio" },
  { title: "Hunting rifle scope", hs_code: "9013.10", category: "Sporting goods" },
  { title: "CBD gummies 300mg", description: "Hemp extract", category: "Wellness" },
  { title: "Stainless steel chef knife", hs_code: "8211.92", materials: "steel", category: "Kitchen" },
  { title: "Vape pen starter kit", category: "E-cigarettes" },
  { title: "Olive tree sapling", hs_code: "0602.20", category: "Garden" },
  { title: "Leather wallet", hs_code: "4202.31", materials: "cowhide leather", brand: "Northwind" },
  { title: "Integrated circuit module", hs_code: "8542.31", category: "Components" },
  { title: "Replica designer handbag", description: "knockoff", category: "Bags" },
  { title: "Frozen shrimp", hs_code: "0306.17", country_of_origin: "VN", category: "Seafood" },
  { title: "Ceramic coffee mug", hs_code: "6912.00", category: "Home" },
  { title: "Quadcopter drone with camera", hs_code: "8806.22", category: "Drones" },
  { title: "Red wine 75cl", hs_code: "2204.21", country_of_origin: "FR" },
  { title: "Children's wooden puzzle", hs_code: "9503.00", category: "Toys" },
  { title: "Souvenir keyring", country_of_origin: "KP" },
  { title: "Yoga mat", hs_code: "3926.90", materials: "TPE", category: "Fitness" },
];

function items() {
  return Array.from({ length: 100 }, (_, i) => ({
    sku: `SKU-${String(i + 1).padStart(4, "0")}`,
    ...SAMPLES[i % SAMPLES.length],
  }));
}

export function requests() {
  return [
    {
      label: "POST /restrict (100 items, US ← CN)",
      method: "POST",
      path: "/admin/api/v1/restrict",
      body: { destination_country: "US", origin_country: "CN", items: items() },
      maxAdjacentRatio: 5,
    },
  ];
}

/**
 * Evaluation set (bench/restrict-eval.json) against the running server, 100 items per request grouped by
 * destination, as test/restrict-eval.test.ts sends it.
 */
export async function report({ call }) {
  const { readFileSync } = await import("node:fs");
  const { evaluate, toMarkdown } = await import("../restrict-eval.mjs");
  const evalSet = JSON.parse(readFileSync(new URL("../restrict-eval.json", import.meta.url), "utf8"));
  const rules = JSON.parse(readFileSync(new URL("../../data/restrictions/rules.json", import.meta.url), "utf8"));
  const answers = new Map();
  const groups = new Map();
  for (const c of evalSet.cases) {
    const key = `${c.destination_country}|${c.origin_country ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i += 100) {
      const chunk = group.slice(i, i + 100);
      const res = await call("POST", "/admin/api/v1/restrict", {
        destination_country: chunk[0].destination_country,
        ...(chunk[0].origin_country ? { origin_country: chunk[0].origin_country } : {}),
        items: chunk.map((c) => c.item),
      });
      if (res.status !== 200) throw new Error(`POST /restrict: ${res.status} ${JSON.stringify(res.json)}`);
      for (const [k, c] of chunk.entries())
        answers.set(
          c,
          (res.json.items[k].restrictions ?? []).filter((m) => m.source === "platform"),
        );
    }
  }
  const rows = await evaluate(evalSet, rules, async (c) => answers.get(c) ?? []);
  return `### Restrict: evaluation set (bench/restrict-eval.json)\n\n${toMarkdown(rows)}`;
}
